"""A CSV reply read as it arrives: a PUT upload's rows (or a GET or POST asked for ``format="csv"``)."""

from __future__ import annotations

import codecs
import csv
import os
import re
from typing import IO, Iterator, List, Optional, Union

from ._http import Reply

#: Characters after which the server's formula guard put a leading apostrophe (docs/lookups.md, "Formula guard").
_GUARDED = ("=", "+", "-", "@", "\t", "\r")
_FILENAME = re.compile(r'filename="([^"]*)"')


def unguard(cell: str) -> str:
    """Drops the leading apostrophe the server adds to a cell that begins with ``= + - @``, a tab or CR (so that
    spreadsheets show it as text). A value that really began with ``'`` and one of those reads the same way: the
    server's guard cannot tell them apart."""
    if len(cell) >= 2 and cell[0] == "'" and cell[1] in _GUARDED:
        return cell[1:]
    return cell


class CsvStream:
    """A streamed CSV reply. Read it once, by one of :meth:`rows`, :meth:`lines`, :meth:`chunks`, :meth:`text` or
    :meth:`save`; nothing but the current piece is held in memory. Use it as a context manager (or call
    :meth:`close`) to let the connection go when you stop early; reading to the end closes it too.

    A PUT reply keeps your header as sent, with ``score``, ``matchedOn``, the template's columns and ``error``
    after it; a bad row later in a large file comes back with its reason in ``error`` while the stream goes on.
    """

    def __init__(self, reply: Reply) -> None:
        self._reply = reply
        self._started = False
        #: The HTTP status (200).
        self.status: int = reply.status
        #: The reply's headers, names in lower case.
        self.headers = reply.headers

    @property
    def request_id(self) -> Optional[str]:
        """The ``X-Request-Id`` of the call."""
        return self.headers.get("x-request-id")

    @property
    def replayed(self) -> bool:
        """True when this is the kept reply of an earlier request with the same Idempotency-Key (not charged)."""
        return self.headers.get("idempotent-replayed", "").lower() == "true"

    @property
    def filename(self) -> Optional[str]:
        """The file name the server suggests (``byEmail-{requestId}.csv``)."""
        found = _FILENAME.search(self.headers.get("content-disposition", ""))
        return found.group(1) if found else None

    def _start(self) -> None:
        if self._started:
            raise RuntimeError("A CsvStream can be read only once.")
        self._started = True

    def chunks(self) -> Iterator[bytes]:
        """The reply's bytes (decompressed) as they arrive."""
        self._start()
        return self._reply.chunks()

    def _text_lines(self) -> Iterator[str]:
        decoder = codecs.getincrementaldecoder("utf-8")("strict")
        pending = ""
        for data in self.chunks():
            pending += decoder.decode(data)
            start = 0
            while True:
                end = pending.find("\n", start)
                if end < 0:
                    break
                yield pending[start : end + 1]
                start = end + 1
            pending = pending[start:]
        pending += decoder.decode(b"", final=True)
        if pending:
            yield pending

    def lines(self, keepends: bool = False) -> Iterator[str]:
        """The reply's physical lines, as they arrive (without their CRLF unless ``keepends``). A quoted cell may
        hold a line break, so a record can span lines: use :meth:`rows` to read records."""
        for line in self._text_lines():
            if not keepends:
                line = line[:-2] if line.endswith("\r\n") else line[:-1] if line.endswith("\n") else line
            yield line

    def rows(self, unguard_cells: bool = True) -> Iterator[List[str]]:
        """The reply's records as lists of cells, the header row first, read as they arrive (RFC 4180 quoting).

        With ``unguard_cells`` (the default) the formula guard's leading apostrophe is dropped from each cell, as
        docs/lookups.md advises a program reading the CSV to do; pass False to get the cells exactly as sent.
        """
        for row in csv.reader(self._text_lines(), strict=True):
            yield [unguard(cell) for cell in row] if unguard_cells else row

    def __iter__(self) -> Iterator[List[str]]:
        return self.rows()

    def text(self) -> str:
        """The whole reply as text (holds it all in memory: for small replies)."""
        return b"".join(self.chunks()).decode("utf-8")

    def save(self, target: Union[str, "os.PathLike[str]", IO[bytes]]) -> int:
        """Writes the reply to a file path or a binary file object as it arrives; returns the bytes written."""
        written = 0
        if isinstance(target, (str, os.PathLike)):
            with open(target, "wb") as out:
                for data in self.chunks():
                    out.write(data)
                    written += len(data)
        else:
            for data in self.chunks():
                target.write(data)
                written += len(data)
        return written

    def close(self) -> None:
        """Lets the connection go (and stops an upload still being sent)."""
        self._started = True
        self._reply.close()

    def __enter__(self) -> "CsvStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<CsvStream status=%s request_id=%s>" % (self.status, self.request_id)
