"""Errors: every failure of a call is a :class:`TesseraError`.

* :class:`ApiError` (and a subclass per common status) when the server answered with a status of 400 or more.
  The body of every error reply is ``{error, code, requestId, fields?}`` (docs/openapi.json, schema ``Error``).
* :class:`TesseraTimeoutError` when the server did not answer (or send more of a reply) within the timeout.
* :class:`TesseraConnectionError` when the connection could not be made or broke.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any, Dict, List, Mapping, Optional, Type, cast


class TesseraError(Exception):
    """Base class of the client's errors.

    Attributes:
        status: the HTTP status, or None when there was no reply (timeout, connection).
        code: the body's ``code`` (``validation_failed``, ``unauthorized``, ``rate_limited``, ...), or None.
        message: the body's ``error`` text (safe to show to a person), else the status's standard name, else the
            status code; for a transport error, what went wrong.
        request_id: the body's ``requestId``, else the ``X-Request-Id`` header: quote it when asking about a call.
        fields: with ``validation_failed``, each field that is wrong: ``[{"path": ..., "message": ...}]``.
        retry_after: seconds the server asked to wait (``Retry-After``, on 429 and 503), or None.
        headers: the reply's headers (lowercase names), empty without a reply.
        body: the reply's parsed JSON body, or its text when it was not JSON, or None.
    """

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        code: Optional[str] = None,
        request_id: Optional[str] = None,
        fields: Optional[List[Dict[str, Any]]] = None,
        retry_after: Optional[float] = None,
        headers: Optional[Mapping[str, str]] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.request_id = request_id
        self.fields: List[Dict[str, Any]] = list(fields or [])
        self.retry_after = retry_after
        self.headers: Dict[str, str] = dict(headers or {})
        self.body = body

    def __str__(self) -> str:
        parts: List[str] = []
        if self.status is not None:
            parts.append(str(self.status))
        if self.code:
            parts.append(self.code)
        head = " ".join(parts)
        tail = " (request %s)" % self.request_id if self.request_id else ""
        return "%s: %s%s" % (head, self.message, tail) if head else self.message + tail

    def __repr__(self) -> str:
        return "%s(status=%r, code=%r, message=%r, request_id=%r)" % (
            type(self).__name__,
            self.status,
            self.code,
            self.message,
            self.request_id,
        )


class ApiError(TesseraError):
    """The server answered with a status of 400 or more. ``status`` is always set."""

    status: int


class BadRequestError(ApiError):
    """400: a malformed input, option, header or body (``fields`` names each), or a key outside the header."""


class AuthenticationError(ApiError):
    """401: no key, or a key that is unknown, expired, wrongly signed or signed too long ago."""


class PaymentRequiredError(ApiError):
    """402: the organization has no contract in force, or its monthly limit is reached."""


class PermissionDeniedError(ApiError):
    """403: the key may not be used from this address, or its user is no longer active."""


class NotFoundError(ApiError):
    """404: e.g. the template named was deleted; no such job or subscription, or an identity no one holds."""


class ConflictError(ApiError):
    """409: a request with this Idempotency-Key is still running (or its reply was too large to keep); a job that has
    not ended yet (its result) or has ended already (a cancel)."""


class GoneError(ApiError):
    """410: a job's result that was deleted, its keeping time past."""


class UnprocessableError(ApiError):
    """422: the template failed, or an Idempotency-Key was reused for a different request."""


class RateLimitError(ApiError):
    """429: past the key's or the organization's requests a minute; ``retry_after`` says when a retry is served."""


class UnavailableError(ApiError):
    """503: the service is away for a moment; nothing was answered or charged. ``retry_after`` says when to retry."""


class TesseraTimeoutError(TesseraError):
    """No reply (or no more of a streamed reply) within the client's timeout; or a job not ended within the time
    :meth:`~tessera.jobs.Jobs.wait` was given."""


class TesseraConnectionError(TesseraError):
    """The connection could not be made, or broke before the reply was complete."""


_BY_STATUS: Dict[int, Type[ApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    422: UnprocessableError,
    429: RateLimitError,
    503: UnavailableError,
}


def _standard_name(status: int) -> Optional[str]:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return None


def error_from_reply(
    status: int, headers: Mapping[str, str], raw: bytes, retry_after: Optional[float] = None
) -> ApiError:
    """The :class:`ApiError` for an error reply: its text is the body's ``error``, else the standard name of the
    status, else the status code (an unparseable body is read as plain text)."""
    body: Any = None
    message: Optional[str] = None
    code: Optional[str] = None
    request_id: Optional[str] = headers.get("x-request-id")
    fields: Optional[List[Dict[str, Any]]] = None
    text = raw.decode("utf-8", "replace") if raw else ""
    try:
        body = json.loads(text) if text else None
    except ValueError:
        body = text
    if isinstance(body, dict):
        parsed = cast(Dict[str, Any], body)
        if isinstance(parsed.get("error"), str) and parsed["error"]:
            message = str(parsed["error"])
        if isinstance(parsed.get("code"), str):
            code = str(parsed["code"])
        if isinstance(parsed.get("requestId"), str):
            request_id = str(parsed["requestId"])
        listed = parsed.get("fields")
        if isinstance(listed, list):
            fields = [cast(Dict[str, Any], f) for f in cast(List[Any], listed) if isinstance(f, dict)]
    elif isinstance(body, str) and body.strip():
        message = body.strip()[:1000]
    if not message:
        message = _standard_name(status) or str(status)
    cls = _BY_STATUS.get(status, ApiError)
    return cls(
        message,
        status=status,
        code=code,
        request_id=request_id,
        fields=fields,
        retry_after=retry_after,
        headers=headers,
        body=body,
    )
