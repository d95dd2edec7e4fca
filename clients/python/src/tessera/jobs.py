"""Bulk jobs (the server's docs/jobs.md): ``client.jobs``, a CSV of any length looked up in the background.

Every row is answered as :meth:`~tessera.client.Endpoint.upload` answers it, but no connection is held open
meanwhile: :meth:`Jobs.submit` the CSV, :meth:`Jobs.wait` for the job to end, then :meth:`Jobs.download` its result
to a file or read it from :meth:`Jobs.result` as it arrives, in constant memory either way.
"""

from __future__ import annotations

import json
import os
import time
from typing import IO, TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Literal, Optional, TypedDict, Union, cast
from urllib.parse import quote

from .csvstream import CsvStream
from .errors import TesseraError, TesseraTimeoutError

if TYPE_CHECKING:
    from .client import Tessera, UploadSource

JobStatus = Literal["uploading", "queued", "running", "completed", "failed", "cancelled"]
JobFormat = Literal["csv", "jsonl"]

#: A job in one of these has ended: its result can be downloaded.
ENDED_JOB_STATUSES = frozenset({"completed", "failed", "cancelled"})


class JobRows(TypedDict):
    #: Rows of the CSV, its header not counted.
    total: int
    #: Rows answered so far (a chunk at a time).
    done: int
    #: Rows that found at least one identity.
    matched: int
    #: Rows answered with an error (not valid CSV, not a valid input).
    failed: int


class Job(TypedDict):
    """A job and its progress, as GET /v2/jobs/{id} answers it (the API's field names)."""

    id: str
    status: JobStatus
    endpoint: str
    format: JobFormat
    #: The lookup options it was made with (template, minScore, explain, limit).
    options: Dict[str, Any]
    rows: JobRows
    #: Identities returned so far.
    identities: int
    #: What the rows done cost, in dollars (text, six decimals).
    cost: str
    #: Rows a second while it ran; None before its first chunk.
    rowsPerSecond: Optional[float]
    #: Seconds left at that rate while it runs; None otherwise.
    etaSeconds: Optional[int]
    #: Why it failed; None otherwise.
    error: Optional[str]
    createdAt: str
    startedAt: Optional[str]
    finishedAt: Optional[str]
    #: When its result is deleted (its download then raises :class:`~tessera.errors.GoneError`).
    expiresAt: Optional[str]
    #: Where its result is downloaded once it has ended.
    resultUrl: Optional[str]


class JobPage(TypedDict):
    """A page of jobs, newest first; ``next`` is the ``before`` of the next page (None on the last)."""

    jobs: List[Job]
    next: Optional[str]


class JobResultItem(TypedDict):
    """One row of a ``jsonl`` result."""

    #: The row's line in the CSV sent (the header is line 1).
    line: int
    #: The row's cells by column; None for a row that was not valid CSV.
    input: Optional[Dict[str, str]]
    #: The identities found, each with the CSV result's columns and cells (fields flattened with dots, as text).
    identities: List[Dict[str, str]]
    #: Why the row failed, or None.
    error: Optional[str]


class JobResult(CsvStream):
    """A job's result, streamed as it is downloaded: :meth:`chunks` (bytes), :meth:`lines`, :meth:`save`; for a CSV
    result :meth:`rows` too (it is byte for byte what an upload would have answered), for a ``jsonl`` one
    :meth:`items`. Read once; a context manager, so leaving the ``with`` early stops the download."""

    @property
    def format(self) -> JobFormat:
        """``csv`` or ``jsonl``, from the reply's content type."""
        kind = self.headers.get("content-type", "")
        return "jsonl" if "ndjson" in kind or "jsonl" in kind else "csv"

    def items(self) -> Iterator[JobResultItem]:
        """A ``jsonl`` result's rows, parsed, as they arrive."""
        if self.format != "jsonl":
            raise TypeError("items() reads a jsonl result; this one is csv: read rows() or lines().")
        for line in self.lines():
            if line:
                yield cast(JobResultItem, json.loads(line))

    def __repr__(self) -> str:
        return "<JobResult format=%s request_id=%s>" % (self.format, self.request_id)


def _path(job_id: str, tail: str = "") -> str:
    if not isinstance(job_id, str) or not job_id:
        raise TypeError("A job id is text, such as job_5f0c2d3e9a8b7c6d5e4f3a2b.")
    return "/v2/jobs/" + quote(job_id, safe="") + tail


def _job(reply: Any, what: str) -> Job:
    if not isinstance(reply, dict) or not isinstance(reply.get("job"), dict):
        raise TesseraError("The reply to %s had no job." % what, body=reply)
    return cast(Job, reply["job"])


class Jobs:
    """The bulk jobs of the client's key (``client.jobs``); each call uses the client's key, retries and timeout."""

    def __init__(self, client: "Tessera") -> None:
        self._client = client

    def __repr__(self) -> str:
        return "<Jobs of %r>" % self._client

    def submit(
        self,
        endpoint: str,
        source: "UploadSource",
        *,
        template: Optional[int] = None,
        min_score: Optional[float] = None,
        limit: Optional[int] = None,
        explain: Optional[bool] = None,
        format: JobFormat = "csv",
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Job:
        """Starts a job (POST /v2/jobs) and returns it, queued.

        ``endpoint``: the lookup every row is looked up with, as the API names it (``byEmail``) or as this client
        does (``by_email``). ``source``: the CSV an upload takes (a header row naming the endpoint's input columns,
        your own columns passed through), as a file path, a file object, bytes or an iterable of bytes. ``format``:
        the result's, ``csv`` (what an upload answers) or ``jsonl`` (one JSON object a row).

        An Idempotency-Key is sent (``idempotency_key``, else a random one), the same on every retry: the server
        answers a repeat with the first job and makes no second one. So it is retried on 429 and 503, and after no
        reply, when the body can be sent again (a path, bytes, a seekable file), as an upload is.

        The server answers once it has stored the whole CSV: ``timeout`` (the client's by default) bounds that wait,
        so raise it for a large file. A bad header, endpoint, template or option raises
        :class:`~tessera.errors.BadRequestError` before any job exists.
        """
        from .client import ENDPOINTS, _options, _text

        name = next((api for attribute, api, _ in ENDPOINTS if endpoint == attribute), endpoint)
        if format not in ("csv", "jsonl"):
            raise ValueError("format is csv or jsonl, not %r" % (format,))
        query = [("endpoint", name), ("format", format)]
        query += [(k, _text(v)) for k, v in _options(template, min_score, explain, limit)]
        waits = {} if timeout is None else {"timeout": timeout}
        reply = self._client.request_json(
            "POST", "/v2/jobs", query, upload=source, idempotency_key=idempotency_key, **waits
        )
        return _job(reply, "POST /v2/jobs")

    def get(self, job_id: str) -> Job:
        """The job and its progress (GET /v2/jobs/{id})."""
        return _job(self._client.request_json("GET", _path(job_id)), "GET /v2/jobs/{id}")

    def list(self, *, limit: Optional[int] = None, before: Optional[str] = None) -> JobPage:
        """A page of the jobs this key may see, newest first (GET /v2/jobs): its maker's, or with an administrator's
        key the organization's. ``limit``: 1 to 100 (20 by default); ``before``: the ``next`` of the page before."""
        query = [(k, str(v)) for k, v in (("limit", limit), ("before", before)) if v is not None]
        reply = self._client.request_json("GET", "/v2/jobs", query)
        if not isinstance(reply, dict) or not isinstance(reply.get("jobs"), list):
            raise TesseraError("The reply to GET /v2/jobs had no jobs.", body=reply)
        return cast(JobPage, {"jobs": reply["jobs"], "next": reply.get("next")})

    def iter(self, *, limit: Optional[int] = None) -> Iterator[Job]:
        """Every job this key may see, newest first, a page (``limit`` jobs) at a time."""
        before: Optional[str] = None
        while True:
            page = self.list(limit=limit, before=before)
            yield from page["jobs"]
            if page["next"] is None:
                return
            before = page["next"]

    def cancel(self, job_id: str) -> Job:
        """Ends a job that has not ended (POST /v2/jobs/{id}/cancel): the rows done stay done, billed and
        downloadable. A job that has ended already raises :class:`~tessera.errors.ConflictError`."""
        return _job(
            self._client.request_json("POST", _path(job_id, "/cancel"), unkeyed=True), "POST /v2/jobs/{id}/cancel"
        )

    def wait(
        self,
        job_id: str,
        *,
        poll_interval: float = 2.0,
        timeout: Optional[float] = 3600.0,
        on_progress: Optional[Callable[[Job], None]] = None,
    ) -> Job:
        """Reads the job every ``poll_interval`` seconds until it has ended (completed, failed or cancelled) and
        returns it as it ended; each read is retried on 429 and 503 as any call is. Past ``timeout`` seconds (an hour
        by default; None waits for ever) raises :class:`~tessera.errors.TesseraTimeoutError` naming the job and how
        far it got: the job goes on, so wait again or cancel it. ``on_progress`` is called with each read."""
        if poll_interval < 0 or (timeout is not None and timeout < 0):
            raise ValueError("poll_interval and timeout are 0 or more seconds")
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            job = self.get(job_id)
            if on_progress is not None:
                on_progress(job)
            if job["status"] in ENDED_JOB_STATUSES:
                return job
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                rows = job["rows"]
                raise TesseraTimeoutError(
                    "Job %s has not ended after %g s: it is %s, %d of %d rows done."
                    % (job["id"], timeout, job["status"], rows["done"], rows["total"]),
                    body=job,
                )
            self._client._sleep(poll_interval if left is None else min(poll_interval, left))

    def result(self, job_id: str) -> JobResult:
        """The job's result (GET /v2/jobs/{id}/result), streamed: a :class:`JobResult` once its headers have arrived.
        A job that has not ended raises :class:`~tessera.errors.ConflictError`, one whose result was deleted
        :class:`~tessera.errors.GoneError`, each with the server's message."""
        return JobResult(self._client.request("GET", _path(job_id, "/result"), accept_csv=True))

    def download(self, job_id: str, target: Union[str, "os.PathLike[str]", IO[bytes]]) -> int:
        """Writes the job's result to a file path (replacing it) or a binary file object as it arrives, never the
        whole of it in memory; returns the bytes written. The errors of :meth:`result` are raised before the file is
        touched; a download cut short removes the part written to a path, and raises."""
        with self.result(job_id) as result:
            if not isinstance(target, (str, os.PathLike)):
                return result.save(target)
            try:
                return result.save(target)
            except BaseException:
                try:
                    os.remove(target)
                except OSError:
                    pass
                raise
