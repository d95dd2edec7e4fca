"""Verifying Tessera's webhook deliveries (Standard Webhooks, https://www.standardwebhooks.com).

Every delivery carries ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature``; the signature is
``v1,`` + base64(HMAC-SHA256(key, f"{id}.{timestamp}.{body}")), the key being the base64-decoded signing secret
after its ``whsec_`` prefix. During a secret rotation's overlap the header holds two signatures, space separated.

    >>> from tessera.webhooks import verify_webhook
    >>> event = verify_webhook(secret, request.headers, request.body)   # raises WebhookVerificationError
    >>> event["type"], event["data"]

Verify the exact bytes received, before any JSON parsing; answer 2xx quickly and deduplicate on ``webhook-id``
(a retry or a replay carries the same one).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from typing import Any, Mapping, Optional, Sequence, Union

__all__ = ["WebhookVerificationError", "verify_webhook", "webhook_signature", "DEFAULT_TOLERANCE_SECONDS"]

#: How far a delivery's timestamp may be from the receiver's clock, either way (5 minutes).
DEFAULT_TOLERANCE_SECONDS = 5 * 60
SECRET_PREFIX = "whsec_"


class WebhookVerificationError(Exception):
    """The delivery is not one Tessera signed with this secret just now: refuse it (answer 400)."""


def _key(secret: str) -> bytes:
    encoded = secret[len(SECRET_PREFIX) :] if secret.startswith(SECRET_PREFIX) else secret
    try:
        key = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        key = b""
    if not key:
        # The receiver's own set-up, not a forged delivery: a programming error, not a 400.
        raise ValueError("The signing secret is empty or not base64: copy it whole from the console (whsec_...).")
    return key


def _as_bytes(body: Union[str, bytes, bytearray]) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else bytes(body)


def _digest(key: bytes, msg_id: str, timestamp: str, body: bytes) -> bytes:
    return hmac.new(key, f"{msg_id}.{timestamp}.".encode("utf-8") + body, hashlib.sha256).digest()


def webhook_signature(secret: str, msg_id: str, timestamp: int, body: Union[str, bytes]) -> str:
    """One ``v1,...`` signature, as Tessera computes it (for tests of a receiver)."""
    return "v1," + base64.b64encode(_digest(_key(secret), msg_id, str(timestamp), _as_bytes(body))).decode("ascii")


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    getter = getattr(headers, "get", None)
    value = getter(name) if getter else None
    if value is None:
        for key in headers:
            if str(key).lower() == name:
                value = headers[key]
                break
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    return None if value is None else str(value)


def verify_webhook(
    secret: Union[str, Sequence[str]],
    headers: Mapping[str, Any],
    body: Union[str, bytes, bytearray],
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Any:
    """Checks a delivery and returns its event (``{"type", "timestamp", "data"}``).

    ``secret`` may be a list (the current and the previous secret, during your own rotation). Raises
    WebhookVerificationError when a header is missing, the timestamp is more than ``tolerance_seconds`` away
    from ``now`` (unix seconds; the clock by default), no ``v1`` signature matches the body, or the body is not a
    JSON object; ValueError when the secret itself is malformed (your set-up, not the delivery).
    """
    msg_id = _header(headers, "webhook-id")
    stamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not stamp or not signatures:
        raise WebhookVerificationError("A webhook header is missing.")
    if not re.fullmatch(r"[0-9]{1,12}", stamp):
        raise WebhookVerificationError("The webhook timestamp is not unix seconds.")
    timestamp = int(stamp)
    skew = int(time.time() if now is None else now) - timestamp
    if skew > tolerance_seconds:
        raise WebhookVerificationError("The webhook timestamp is too old.")
    if skew < -tolerance_seconds:
        raise WebhookVerificationError("The webhook timestamp is in the future.")
    raw = _as_bytes(body)
    secrets = [secret] if isinstance(secret, str) else list(secret)
    # The header's digits as sent: they are what was signed.
    expected = [_digest(_key(s), msg_id, stamp, raw) for s in secrets]
    for signature in signatures.split(" "):
        version, _, encoded = signature.partition(",")
        if version != "v1" or not encoded:
            continue
        try:
            given = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            continue
        if any(hmac.compare_digest(e, given) for e in expected):
            try:
                event = json.loads(raw.decode("utf-8"))
            except ValueError as err:
                raise WebhookVerificationError("The webhook body is not a JSON object.") from err
            if not isinstance(event, dict):
                raise WebhookVerificationError("The webhook body is not a JSON object.")
            return event
    raise WebhookVerificationError("No webhook signature matches the body.")
