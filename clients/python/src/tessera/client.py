"""The client: :class:`Tessera`, with one :class:`Endpoint` per lookup (``client.by_email``, ``client.by_pii``, ...).

Each endpoint answers at ``/v2/identities/{name}`` three ways (docs/lookups.md):

* :meth:`Endpoint.get`: one input, GET with the input in the query string -> :class:`~tessera.types.LookupResult`;
* :meth:`Endpoint.batch`: 1 to 1,000 inputs, POST ``{"inputs": [...]}`` -> :class:`~tessera.types.BatchResult`;
* :meth:`Endpoint.upload`: a CSV of any size, PUT, the reply streamed back -> :class:`~tessera.csvstream.CsvStream`.
"""

from __future__ import annotations

import json
import os
import platform
import random
import ssl
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import (
    IO,
    Any,
    Callable,
    Dict,
    Generic,
    Iterable,
    Iterator,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
    cast,
    overload,
)
from urllib.parse import quote, urlencode

from ._http import READ_SIZE, BaseUrl, Pool, ProxySetting, Reply, open_request, proxy_for
from ._version import __version__
from .auth import KEY_FORMS, KeyForm, authorization, split_key
from .csvstream import CsvStream
from .errors import TesseraConnectionError, TesseraError, TesseraTimeoutError, error_from_reply
from .jobs import Jobs
from .subscriptions import Subscriptions
from .types import (
    AnyInput,
    BatchResult,
    DeviceInput,
    EmailInput,
    IdInput,
    IpInput,
    LookupResult,
    Md5Input,
    PhoneInput,
    PiiInput,
    Sha256Input,
    UsageCalls,
    UsageSeries,
    UsageTotals,
    VehicleInput,
)

Format = Literal["json", "csv"]

#: Statuses retried with backoff: 429 (rate limited) and 503 (unavailable). Neither ran nor charged the call.
RETRY_STATUSES = frozenset({429, 503})

#: The ten lookups: attribute, endpoint, the input a plain string stands for (None: named inputs only).
ENDPOINTS: Tuple[Tuple[str, str, Optional[str]], ...] = (
    ("by_email", "byEmail", "email"),
    ("by_phone", "byPhone", "phone"),
    ("by_ip", "byIp", "ip"),
    ("by_device", "byDevice", "device"),
    ("by_md5", "byMd5", "md5"),
    ("by_sha256", "bySha256", "sha256"),
    ("by_pii", "byPii", None),
    ("by_vehicle", "byVehicle", "vin"),
    ("by_id", "byId", "id"),
    ("by_any", "byAny", None),
)

#: What can be uploaded as a CSV body: a file path, a binary (or text) file object, bytes, or an iterable of bytes.
UploadSource = Union[str, "os.PathLike[str]", IO[bytes], IO[str], bytes, bytearray, Iterable[bytes]]

In = TypeVar("In", bound=Mapping[str, Any])


@dataclass
class ResponseInfo:
    """What ``on_response`` is told about every reply the client receives, retried ones included."""

    method: str
    url: str
    status: int
    #: The reply's headers, names in lower case.
    headers: Dict[str, str]
    #: The headers sent, the Authorization value shortened to its key id.
    request_headers: Dict[str, str]
    #: 1 for the first try, 2 for the first retry, ...
    attempt: int
    #: Seconds the client will wait before trying again, or None when it will not retry.
    retry_in: Optional[float] = None
    #: Seconds from sending the request to its reply's headers.
    elapsed: float = 0.0

    @property
    def request_id(self) -> Optional[str]:
        return self.headers.get("x-request-id")

    @property
    def call_cost(self) -> Optional[float]:
        """X-Call-Cost: what a lookup answered whole cost, in USD (0.0 with a test key); None where not sent (a
        streamed CSV reply, a replay, an error, a usage call)."""
        return _dollars(self.headers.get("x-call-cost"))

    @property
    def monthly_allowance_remaining(self) -> Optional[float]:
        """X-Monthly-Allowance-Remaining: what is left of the organization's monthly limit after the call, in USD, as
        the answering server process last knew its spend (so slightly high under load); None without a monthly limit
        and with a test key."""
        return _dollars(self.headers.get("x-monthly-allowance-remaining"))


def _dollars(value: Optional[str]) -> Optional[float]:
    try:
        return float(value) if value is not None and value.strip() else None
    except ValueError:
        return None


#: A usage range's end: ISO 8601 text with an offset, or a datetime (a naive one is taken as UTC).
When = Union[str, datetime]


def _when(value: When) -> str:
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=timezone.utc)).isoformat()
    return value


def parse_retry_after(value: Optional[str], now: Callable[[], float] = time.time) -> Optional[float]:
    """Seconds from a Retry-After header: a number of seconds, or an HTTP date. None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        seconds = when.timestamp() - now()
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)


class _Upload:
    """A CSV body that can be sent again for a retry when it is a path, bytes or a seekable file object."""

    def __init__(self, source: UploadSource) -> None:
        self._source = source
        self._position: Optional[int] = None
        if isinstance(source, (str, os.PathLike)):
            with open(source, "rb"):  # fails now (FileNotFoundError, ...) rather than in the upload thread
                pass
            self.replayable = True
        elif isinstance(source, (bytes, bytearray, memoryview)):
            self.replayable = True
        elif hasattr(source, "read"):
            file = cast(IO[bytes], source)
            try:
                self._position = file.tell() if file.seekable() else None
            except (OSError, ValueError, AttributeError):
                self._position = None
            self.replayable = self._position is not None
        elif isinstance(source, Iterable):
            self.replayable = False
            self._iterator: Optional[Iterator[bytes]] = iter(cast(Iterable[bytes], source))
        else:
            raise TypeError("upload() takes a file path, a file object, bytes or an iterable of bytes")
        self._used = False

    def chunks(self) -> Iterator[bytes]:
        source = self._source
        if isinstance(source, (str, os.PathLike)):
            return self._file_chunks(source)
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            return iter([data[i : i + READ_SIZE] for i in range(0, len(data), READ_SIZE)])
        if hasattr(source, "read"):
            file = cast(IO[bytes], source)
            if self._used:
                if self._position is None:
                    raise TesseraError("This upload's file object cannot be read again (not seekable).")
                file.seek(self._position)
            self._used = True
            return self._reader_chunks(file)
        if self._used:
            raise TesseraError("This upload's iterable was used already.")
        self._used = True
        assert self._iterator is not None
        return self._iterator

    @staticmethod
    def _file_chunks(path: Union[str, "os.PathLike[str]"]) -> Iterator[bytes]:
        with open(path, "rb") as file:
            while True:
                data = file.read(READ_SIZE)
                if not data:
                    return
                yield data

    @staticmethod
    def _reader_chunks(file: IO[Any]) -> Iterator[bytes]:
        while True:
            data = file.read(READ_SIZE)
            if not data:
                return
            yield data.encode("utf-8") if isinstance(data, str) else data


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


#: ``request(timeout=...)`` not given: the client's timeout.
_CLIENT_TIMEOUT: Any = object()


class Tessera:
    """A client of the Tessera lookup API.

    Args:
        base_url: the server's address, e.g. ``https://api.tessera.example`` (a path prefix is kept).
        api_key: the whole key as the console shows it once: the 16-character key id and its 32-character secret.
        auth: how the key is presented: ``"plain"`` (the default: ``Bearer {keyId}{secret}``), ``"signed"`` (an
            HMAC-SHA256 of the time, so the secret never travels) or ``"legacy"`` (the original API's MD5 form,
            for keys made with ``legacy`` on). See :mod:`tessera.auth`.
        timeout: seconds to wait for the connection and for each piece of a reply (not for the whole call, so a
            long CSV stream runs as long as rows keep coming); None waits for ever.
        max_retries: how many times a 429 or 503 reply is retried (0: never).
        max_retry_wait: the longest Retry-After the client waits for; a longer one is raised at once (as
            :class:`~tessera.errors.RateLimitError` or :class:`~tessera.errors.UnavailableError`, with
            ``retry_after``).
        backoff_base, backoff_max: without a Retry-After, the n-th retry waits ``backoff_base * 2 ** (n - 1)``
            seconds (at most ``backoff_max``), less up to half of it at random.
        idempotency_keys: POST and PUT send an ``Idempotency-Key`` (a random UUID unless you give one), the same on
            every retry, so a retry never runs or charges a call twice. With False they send one only when given,
            and a POST or PUT without one is never retried.
        retry_network_errors: a call that got no reply (connection refused or reset, a timeout before the reply) is
            tried again like a 503 without Retry-After, where that is safe: a GET, or a POST or PUT with an
            Idempotency-Key (the server answers a repeat with the first reply). False raises at once.
        proxy: an HTTP proxy URL (``http://[user:password@]host:port``) for every call; False for none; None (the
            default) to take it from the environment: ``HTTPS_PROXY`` or ``HTTP_PROXY`` by the server's scheme
            (lower-case names too), except for hosts that ``NO_PROXY`` names.
        compression: ask for gzip replies (``Accept-Encoding: gzip``, decoded as they arrive); the server compresses
            replies of 1 KB or more, about ten times smaller. The server's compressor holds output until it has a
            block's worth, so a streamed CSV with small rows arrives in bursts; False gets each row as it is made.
        on_response: called with a :class:`ResponseInfo` for every reply, retried ones included (logging, metrics).
        ssl_context: for https, instead of the default verified context.
        user_agent: instead of ``tessera-python/{version}``.
        max_connections: kept-alive connections kept idle for reuse (a client shared by threads uses one per
            thread at a time); ``close()``, or ``with Tessera(...) as client``, closes them.
        sleep, clock: ``time.sleep`` and ``time.time``, replaceable in tests.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        auth: KeyForm = "plain",
        timeout: Optional[float] = 30.0,
        max_retries: int = 3,
        max_retry_wait: float = 120.0,
        backoff_base: float = 0.5,
        backoff_max: float = 30.0,
        idempotency_keys: bool = True,
        retry_network_errors: bool = True,
        proxy: ProxySetting = None,
        max_connections: int = 8,
        compression: bool = True,
        on_response: Optional[Callable[[ResponseInfo], None]] = None,
        ssl_context: Optional[ssl.SSLContext] = None,
        user_agent: Optional[str] = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if auth not in KEY_FORMS:
            raise ValueError("auth must be one of plain, signed or legacy, not %r" % (auth,))
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        self._base = BaseUrl(base_url)
        self._key_id, _ = split_key(api_key)
        self._api_key = api_key.strip()
        self.auth: KeyForm = auth
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.idempotency_keys = idempotency_keys
        self.retry_network_errors = retry_network_errors
        #: The proxy calls go through (None: direct).
        self.proxy = proxy_for(self._base, proxy)
        self._pool = Pool(self._base, self.proxy, ssl_context, max_connections)
        self.compression = compression
        self.on_response = on_response
        self._ssl_context = ssl_context
        self._sleep = sleep
        self._clock = clock
        self.user_agent = user_agent or "tessera-python/%s Python/%s" % (__version__, platform.python_version())

        self.by_email: Endpoint[EmailInput] = Endpoint(self, "byEmail", "email")
        self.by_phone: Endpoint[PhoneInput] = Endpoint(self, "byPhone", "phone")
        self.by_ip: Endpoint[IpInput] = Endpoint(self, "byIp", "ip")
        self.by_device: Endpoint[DeviceInput] = Endpoint(self, "byDevice", "device")
        self.by_md5: Endpoint[Md5Input] = Endpoint(self, "byMd5", "md5")
        self.by_sha256: Endpoint[Sha256Input] = Endpoint(self, "bySha256", "sha256")
        self.by_pii: Endpoint[PiiInput] = Endpoint(self, "byPii", None)
        self.by_vehicle: Endpoint[VehicleInput] = Endpoint(self, "byVehicle", "vin")
        self.by_id: Endpoint[IdInput] = Endpoint(self, "byId", "id")
        self.by_any: Endpoint[AnyInput] = Endpoint(self, "byAny", None)
        #: Bulk jobs: a CSV of any length looked up in the background (:class:`~tessera.jobs.Jobs`).
        self.jobs = Jobs(self)
        #: Change subscriptions, for ``identity.changed`` webhook events (:class:`~tessera.subscriptions.Subscriptions`).
        self.subscriptions = Subscriptions(self)

    @property
    def base_url(self) -> str:
        return self._base.url

    @property
    def key_id(self) -> str:
        """The key's id (its first 16 characters): safe to log, unlike the secret."""
        return self._key_id

    def endpoint(self, name: str) -> "Endpoint[Any]":
        """The endpoint named as the API names it (``byEmail``) or as this client does (``by_email``)."""
        for attribute, endpoint, _ in ENDPOINTS:
            if name in (attribute, endpoint):
                return cast("Endpoint[Any]", getattr(self, attribute))
        raise ValueError("No lookup is called %r; they are %s." % (name, ", ".join(e for _, e, _ in ENDPOINTS)))

    def __repr__(self) -> str:
        return "Tessera(base_url=%r, key_id=%r, auth=%r)" % (self.base_url, self._key_id, self.auth)

    def close(self) -> None:
        """Closes the idle kept-alive connections (a later call opens new ones)."""
        self._pool.close()

    def __enter__(self) -> "Tessera":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- requests ---------------------------------------------------------------------------------------------

    def _backoff(self, retry: int) -> float:
        delay = min(self.backoff_max, self.backoff_base * (2 ** (retry - 1)))
        return delay - random.uniform(0, delay / 2)

    def _headers(self, accept_csv: bool) -> Dict[str, str]:
        return {
            "Authorization": authorization(self._api_key, self.auth, self._clock),
            "Accept": "text/csv" if accept_csv else "application/json",
            "Accept-Encoding": "gzip" if self.compression else "identity",
            "User-Agent": self.user_agent,
        }

    def _shown(self, headers: Mapping[str, str]) -> Dict[str, str]:
        shown = dict(headers)
        if "Authorization" in shown:
            shown["Authorization"] = "Bearer %s… (%s)" % (self._key_id, self.auth)
        return shown

    def request(
        self,
        method: str,
        path: str,
        query: Optional[Sequence[Tuple[str, str]]] = None,
        *,
        json_body: Any = None,
        upload: Optional[UploadSource] = None,
        accept_csv: bool = False,
        idempotency_key: Optional[str] = None,
        unkeyed: bool = False,
        timeout: Any = _CLIENT_TIMEOUT,
    ) -> Reply:
        """Sends a request to ``path`` (below the base URL) with retries, and returns a 2xx reply whose body is yet
        to be read; any other reply is raised as an :class:`~tessera.errors.ApiError`. The endpoints use this.

        ``unkeyed``: a call the server takes no Idempotency-Key for (a job's cancel, a subscription's delete) sends
        none; it is retried on 429 and 503, which ran nothing, but not after getting no reply, since it may have run.
        ``timeout``: this call's, instead of the client's."""
        method = method.upper()
        target = self._base.prefix + quote(path, safe="/:@")
        if query:
            target += "?" + urlencode(list(query), quote_via=quote)
        body: Optional[bytes] = None
        content_type: Optional[str] = None
        if json_body is not None:
            body = json.dumps(json_body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
            content_type = "application/json"
        source = _Upload(upload) if upload is not None else None
        if source is not None:
            content_type = "text/csv; charset=utf-8"
        key = None if unkeyed else idempotency_key
        if key is None and method in ("POST", "PUT") and self.idempotency_keys and not unkeyed:
            key = str(uuid.uuid4())
        if key is not None and not (1 <= len(key) <= 255 and all(33 <= ord(c) <= 126 for c in key)):
            raise ValueError("An Idempotency-Key is 1 to 255 visible ASCII characters.")
        # Sent again after no reply only where a repeat is safe; after a 429 or 503 (nothing ran) also when unkeyed.
        replay_safe = method in ("GET", "HEAD") or key is not None
        retryable = replay_safe or unkeyed
        if source is not None and not source.replayable:
            retryable = replay_safe = False
        wait_for = self.timeout if timeout is _CLIENT_TIMEOUT else timeout
        attempt = 0
        while True:
            attempt += 1
            headers = self._headers(accept_csv)
            if content_type:
                headers["Content-Type"] = content_type
            if key is not None:
                headers["Idempotency-Key"] = key
            started = time.monotonic()
            try:
                reply = open_request(
                    self._pool,
                    method,
                    target,
                    headers,
                    body=body,
                    chunks=source.chunks() if source is not None else None,
                    timeout=wait_for,
                    reuse=replay_safe,
                )
            except (TesseraConnectionError, TesseraTimeoutError):
                # No reply: the request may or may not have run. Sent again only where a repeat is safe.
                if not (replay_safe and self.retry_network_errors and attempt <= self.max_retries):
                    raise
                self._sleep(self._backoff(attempt))
                continue
            info = ResponseInfo(
                method=method,
                url=self._base.url + target[len(self._base.prefix) :],
                status=reply.status,
                headers=reply.headers,
                request_headers=self._shown(headers),
                attempt=attempt,
                elapsed=time.monotonic() - started,
            )
            if 200 <= reply.status < 300:
                if self.on_response is not None:
                    self.on_response(info)
                return reply
            try:
                raw = reply.read_all()
            except TesseraError:
                raw = b""
            retry_after = parse_retry_after(reply.headers.get("retry-after"), self._clock)
            error = error_from_reply(reply.status, reply.headers, raw, retry_after)
            wait: Optional[float] = None
            if reply.status in RETRY_STATUSES and retryable and attempt <= self.max_retries:
                if retry_after is None:
                    wait = self._backoff(attempt)
                elif retry_after <= self.max_retry_wait:
                    wait = retry_after
            info.retry_in = wait
            if self.on_response is not None:
                self.on_response(info)
            if wait is None:
                raise error
            self._sleep(wait)

    def _usage(self, path: str, area: str, params: Mapping[str, Any]) -> Any:
        names = {"from_": "from", "user_id": "userId", "organization_id": "organizationId", "key_id": "keyId",
                 "page_size": "pageSize"}
        query: List[Tuple[str, str]] = []
        for name, value in params.items():
            if value is None:
                continue
            query.append((names.get(name, name), _when(value) if name in ("from_", "to") else _text(value)))
        reply = self.request_json("GET", path, query)
        if not isinstance(reply, dict) or not isinstance(reply.get(area), dict):
            raise TesseraError("The reply to GET %s had no %s." % (path, area), body=reply)
        return reply[area]

    def usage_series(
        self,
        *,
        from_: Optional[When] = None,
        to: Optional[When] = None,
        tz: Optional[str] = None,
        interval: Optional[str] = None,
        metric: Optional[str] = None,
        user_id: Optional[int] = None,
        organization_id: Optional[int] = None,
        key_id: Optional[str] = None,
        method: Optional[str] = None,
        path: Optional[str] = None,
    ) -> UsageSeries:
        """A metric (``requests`` by default, or ``cost``, ``identities``, ...) over a range, bucket by bucket
        (``interval``: hour, day, week, month, starting in ``tz``); GET /v2/usage/series. The key's own calls, or
        with an organization administrator's key the organization's. Default range: the month up to now."""
        return cast(UsageSeries, self._usage("/v2/usage/series", "usageSeries", dict(
            from_=from_, to=to, tz=tz, interval=interval, metric=metric, user_id=user_id,
            organization_id=organization_id, key_id=key_id, method=method, path=path)))

    def usage_totals(
        self,
        *,
        from_: Optional[When] = None,
        to: Optional[When] = None,
        tz: Optional[str] = None,
        user_id: Optional[int] = None,
        organization_id: Optional[int] = None,
        key_id: Optional[str] = None,
        method: Optional[str] = None,
        path: Optional[str] = None,
    ) -> UsageTotals:
        """Every metric, requests and cost included, summed over a range (GET /v2/usage/totals)."""
        return cast(UsageTotals, self._usage("/v2/usage/totals", "usageTotals", dict(
            from_=from_, to=to, tz=tz, user_id=user_id, organization_id=organization_id, key_id=key_id,
            method=method, path=path)))

    def usage_calls(
        self,
        *,
        from_: Optional[When] = None,
        to: Optional[When] = None,
        tz: Optional[str] = None,
        user_id: Optional[int] = None,
        organization_id: Optional[int] = None,
        key_id: Optional[str] = None,
        method: Optional[str] = None,
        path: Optional[str] = None,
        page_size: Optional[int] = None,
        after: Optional[str] = None,
        sort: Optional[str] = None,
    ) -> UsageCalls:
        """A page of calls, newest first by default (``sort``: ``at``, ``cost`` or a count, ``-`` for descending;
        ``page_size`` 10, 25, 100, 250 or 1000); pass the reply's ``next`` as ``after`` for the next page.
        GET /v2/usage/calls."""
        return cast(UsageCalls, self._usage("/v2/usage/calls", "usageCalls", dict(
            from_=from_, to=to, tz=tz, user_id=user_id, organization_id=organization_id, key_id=key_id,
            method=method, path=path, page_size=page_size, after=after, sort=sort)))

    def request_json(self, method: str, path: str, query: Optional[Sequence[Tuple[str, str]]] = None, **kw: Any) -> Any:
        """:meth:`request`, the reply read and parsed as JSON."""
        reply = self.request(method, path, query, **kw)
        raw = reply.read_all()
        try:
            return json.loads(raw.decode("utf-8"))
        except ValueError as error:
            raise TesseraError(
                "The reply to %s %s was not JSON: %s" % (method, path, error),
                status=reply.status,
                request_id=reply.headers.get("x-request-id"),
                headers=reply.headers,
                body=raw[:1000].decode("utf-8", "replace"),
            )


def _options(
    template: Optional[int],
    min_score: Optional[float],
    explain: Optional[bool],
    limit: Optional[int],
    format: Optional[str] = None,
) -> List[Tuple[str, Any]]:
    out: List[Tuple[str, Any]] = []
    if template is not None:
        if isinstance(template, bool) or not isinstance(template, int):
            raise TypeError("template is a template id (an int)")
        out.append(("template", template))
    if min_score is not None:
        if isinstance(min_score, bool) or not isinstance(min_score, (int, float)):
            raise TypeError("min_score is a number from 0 to 100")
        out.append(("minScore", min_score))
    if explain is not None:
        out.append(("explain", bool(explain)))
    if limit is not None:
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise TypeError("limit is an int from 1 to 100")
        out.append(("limit", limit))
    if format is not None:
        if format not in ("json", "csv"):
            raise ValueError("format is json or csv, not %r" % (format,))
        out.append(("format", format))
    return out


class Endpoint(Generic[In]):
    """One lookup, ``/v2/identities/{name}``; ``In`` is the type of its named inputs (``EmailInput``, ...).

    Options, on every method: ``template`` (a template id; default 1, Full), ``min_score`` (0-100: only identities
    scoring at least this), ``explain`` (True adds each identity's ``explain``), ``limit`` (identities per input,
    1-100, default 10) and, on :meth:`get` and :meth:`batch`, ``format`` (``"json"``, the default, or ``"csv"``,
    which returns a :class:`~tessera.csvstream.CsvStream` instead).
    """

    def __init__(self, client: Tessera, name: str, key: Optional[str]) -> None:
        self._client = client
        #: The API's name of the lookup, e.g. ``byEmail``.
        self.name = name
        #: The input a plain string stands for (``email`` for byEmail); None for byPii and byAny.
        self.key = key
        self.path = "/v2/identities/" + name

    def __repr__(self) -> str:
        return "<Endpoint %s>" % self.path

    def _named(self, value: Union[str, int, In], *, allow_metadata: bool) -> Union[str, Dict[str, Any]]:
        if isinstance(value, Mapping):
            named: Dict[str, Any] = {}
            for name, item in value.items():
                if item is None:
                    continue
                if name == "metadata":
                    if not allow_metadata:
                        raise ValueError("metadata goes with batch() inputs; a GET's query string is its inputs.")
                    named[name] = item
                elif isinstance(item, bool) or not isinstance(item, (str, int)):
                    raise TypeError("The input %s of %s is text, not %s." % (name, self.name, type(item).__name__))
                else:
                    named[name] = str(item)
            return named
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise TypeError(
                "An input of %s is text or a dict of named inputs, not %s." % (self.name, type(value).__name__)
            )
        if self.key is None:
            raise TypeError(
                "%s takes named inputs, as a dict (e.g. {'firstName': ..., 'lastName': ..., 'zip': ...})." % self.name
            )
        return str(value)

    @overload
    def get(
        self,
        input: Union[str, int, In],
        *,
        template: Optional[int] = ...,
        min_score: Optional[float] = ...,
        explain: Optional[bool] = ...,
        limit: Optional[int] = ...,
        format: Literal["json"] = ...,
    ) -> LookupResult: ...

    @overload
    def get(
        self,
        input: Union[str, int, In],
        *,
        template: Optional[int] = ...,
        min_score: Optional[float] = ...,
        explain: Optional[bool] = ...,
        limit: Optional[int] = ...,
        format: Literal["csv"],
    ) -> CsvStream: ...

    def get(
        self,
        input: Union[str, int, In],
        *,
        template: Optional[int] = None,
        min_score: Optional[float] = None,
        explain: Optional[bool] = None,
        limit: Optional[int] = None,
        format: Format = "json",
    ) -> Union[LookupResult, CsvStream]:
        """Looks up one input (GET): the endpoint's key as a string (``"a@b.example"`` for byEmail) or a dict of
        named inputs (``{"firstName": ..., "lastName": ..., "zip": ...}`` for byPii). Returns
        ``{"requestId", "identities"}``, identities best score first (empty when nobody matches); with
        ``format="csv"`` a :class:`~tessera.csvstream.CsvStream`."""
        named = self._named(input, allow_metadata=False)
        query: List[Tuple[str, str]] = (
            [(k, v) for k, v in named.items()] if isinstance(named, dict) else [(cast(str, self.key), named)]
        )
        options = _options(template, min_score, explain, limit, "csv" if format == "csv" else None)
        if format not in ("json", "csv"):
            raise ValueError("format is json or csv, not %r" % (format,))
        query += [(k, _text(v)) for k, v in options]
        if format == "csv":
            return CsvStream(self._client.request("GET", self.path, query, accept_csv=True))
        return cast(LookupResult, self._client.request_json("GET", self.path, query))

    @overload
    def batch(
        self,
        inputs: Sequence[Union[str, int, In]],
        *,
        template: Optional[int] = ...,
        min_score: Optional[float] = ...,
        explain: Optional[bool] = ...,
        limit: Optional[int] = ...,
        format: Literal["json"] = ...,
        idempotency_key: Optional[str] = ...,
    ) -> BatchResult: ...

    @overload
    def batch(
        self,
        inputs: Sequence[Union[str, int, In]],
        *,
        template: Optional[int] = ...,
        min_score: Optional[float] = ...,
        explain: Optional[bool] = ...,
        limit: Optional[int] = ...,
        format: Literal["csv"],
        idempotency_key: Optional[str] = ...,
    ) -> CsvStream: ...

    def batch(
        self,
        inputs: Sequence[Union[str, int, In]],
        *,
        template: Optional[int] = None,
        min_score: Optional[float] = None,
        explain: Optional[bool] = None,
        limit: Optional[int] = None,
        format: Format = "json",
        idempotency_key: Optional[str] = None,
    ) -> Union[BatchResult, CsvStream]:
        """Looks up 1 to 1,000 inputs (POST). Each is the endpoint's key as a string or a dict of named inputs,
        which may carry ``metadata``: your own flat object, echoed unchanged as that result's ``metadata``.
        Returns ``{"requestId", "results": [{"input", "identities", "metadata"?}]}`` in the order given; with
        ``format="csv"`` a :class:`~tessera.csvstream.CsvStream` (``metadata.<key>`` columns).

        An Idempotency-Key is sent (``idempotency_key``, else a random one), the same on every retry: a retry of a
        call that ran gets the kept reply, neither run nor charged again.
        """
        if isinstance(inputs, (str, bytes)) or isinstance(inputs, Mapping):
            raise TypeError("batch() takes a list of inputs; use get() for one")
        if format not in ("json", "csv"):
            raise ValueError("format is json or csv, not %r" % (format,))
        body: Dict[str, Any] = {"inputs": [self._named(item, allow_metadata=True) for item in inputs]}
        body.update(_options(template, min_score, explain, limit, "csv" if format == "csv" else None))
        if format == "csv":
            reply = self._client.request(
                "POST", self.path, json_body=body, accept_csv=True, idempotency_key=idempotency_key
            )
            return CsvStream(reply)
        return cast(
            BatchResult,
            self._client.request_json("POST", self.path, json_body=body, idempotency_key=idempotency_key),
        )

    def upload(
        self,
        source: UploadSource,
        *,
        template: Optional[int] = None,
        min_score: Optional[float] = None,
        explain: Optional[bool] = None,
        limit: Optional[int] = None,
        idempotency_key: Optional[str] = None,
    ) -> CsvStream:
        """Looks up a CSV of any size (PUT), sending it while the reply streams back.

        ``source``: a file path, a binary file object (a text one is sent as UTF-8), bytes, or an iterable of bytes.
        The CSV (RFC 4180, comma-separated) has a header row naming input columns of the endpoint; other columns
        (your own ids) come back unchanged in their place. Returns a :class:`~tessera.csvstream.CsvStream` once
        the reply's headers have arrived: iterate its :meth:`~tessera.csvstream.CsvStream.rows` or
        :meth:`~tessera.csvstream.CsvStream.lines` as they come, in constant memory.

        Retried on 429 and 503 (with the same Idempotency-Key) only when the body can be sent again: a path, bytes
        or a seekable file object (sent again from where it stood); an iterable or a pipe is never retried.
        """
        options = [(k, _text(v)) for k, v in _options(template, min_score, explain, limit)]
        reply = self._client.request(
            "PUT", self.path, options, upload=source, accept_csv=True, idempotency_key=idempotency_key
        )
        return CsvStream(reply)
