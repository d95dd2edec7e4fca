"""Shared test helpers: the package from ../src, the live server's settings, and a local HTTP test double.

The live tests read the server the suite started (clients/python/test/python.suite.test.ts):

    TESSERA_BASE_URL, TESSERA_API_KEY, TESSERA_EMAIL  as the README's first example reads them
    TESSERA_IDENTITY_ID     the id of the person TESSERA_EMAIL belongs to
    TESSERA_LEGACY_KEY      a key made with legacy signing on
    TESSERA_LIMITED_KEY     a key made with rateLimit 1 (one request a minute)
    TESSERA_ORG_KEY         a key of an administrator of an organization with a contract in force (subscriptions)

Without them the live tests are skipped, unless TESSERA_REQUIRE_LIVE=1 (as the suite sets), when they fail.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(PACKAGE_ROOT, "src"))

LIVE_VARIABLES = (
    "TESSERA_BASE_URL",
    "TESSERA_API_KEY",
    "TESSERA_EMAIL",
    "TESSERA_IDENTITY_ID",
    "TESSERA_LEGACY_KEY",
    "TESSERA_LIMITED_KEY",
    "TESSERA_ORG_KEY",
)
MISSING = [name for name in LIVE_VARIABLES if not os.environ.get(name)]
LIVE = not MISSING
REQUIRE_LIVE = os.environ.get("TESSERA_REQUIRE_LIVE") == "1"


def live(test: Any) -> Any:
    """Marks a live test (or class): skipped without a server, unless TESSERA_REQUIRE_LIVE=1 makes that a failure."""
    if LIVE or REQUIRE_LIVE:
        return test
    return unittest.skip("no live server (set %s)" % ", ".join(MISSING))(test)


def require_live() -> None:
    if not LIVE:
        raise AssertionError("TESSERA_REQUIRE_LIVE=1 but these are not set: %s" % ", ".join(MISSING))


def env(name: str) -> str:
    return os.environ[name]


# --- A local test double of the transport: scripted replies on loopback ------------------------------------------


class Recorded:
    def __init__(self, method: str, path: str, headers: Dict[str, str], body: bytes) -> None:
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body


Reply = Dict[str, Any]
Script = Union[Reply, Callable[["Recorded"], Reply]]


def json_reply(status: int, body: Any, headers: Optional[Dict[str, str]] = None, **extra: Any) -> Reply:
    return {"status": status, "body": json.dumps(body).encode(), "headers": {"Content-Type": "application/json", **(headers or {})}, **extra}


class Double:
    """An HTTP server on 127.0.0.1 answering from a script, one entry per request (the last one repeats).

    Each entry: ``status``, ``headers``, ``body`` (bytes), optionally ``delay`` (seconds before answering),
    ``gzip`` (compress the body), ``chunks`` (a list of (bytes, pause) sent one by one, chunked), ``read_body``
    (False: answer without reading the request body). Every request is recorded (method, path, headers, body).
    """

    def __init__(self, script: Sequence[Script]) -> None:
        self.script = list(script)
        self.requests: List[Recorded] = []
        double = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _body(self) -> bytes:
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    out = b""
                    while True:
                        size = int(self.rfile.readline().strip() or b"0", 16)
                        if size == 0:
                            self.rfile.readline()
                            return out
                        out += self.rfile.read(size)
                        self.rfile.readline()
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length) if length else b""

            def _answer(self) -> None:
                index = len(double.requests)
                entry = double.script[min(index, len(double.script) - 1)]
                headers = {k: v for k, v in self.headers.items()}
                record = Recorded(self.command, self.path, headers, b"")
                double.requests.append(record)
                if callable(entry):
                    record.body = self._body()
                    entry = entry(record)
                elif entry.get("read_body", True):
                    record.body = self._body()
                if entry.get("delay"):
                    time.sleep(entry["delay"])
                status = entry.get("status", 200)
                body = entry.get("body", b"")
                out_headers = dict(entry.get("headers", {}))
                if entry.get("gzip"):
                    body = gzip.compress(body)
                    out_headers["Content-Encoding"] = "gzip"
                out_headers.setdefault("X-Request-Id", "double-%d" % (index + 1))
                try:
                    self.send_response(status)
                    for name, value in out_headers.items():
                        self.send_header(name, value)
                    if "chunks" in entry:
                        self.send_header("Transfer-Encoding", "chunked")
                        self.send_header("Connection", "close")
                        self.end_headers()
                        for data, pause in entry["chunks"]:
                            if pause:
                                time.sleep(pause)
                            self.wfile.write(b"%X\r\n%s\r\n" % (len(data), data))
                            self.wfile.flush()
                        self.wfile.write(b"0\r\n\r\n")
                    else:
                        self.send_header("Content-Length", str(len(body)))
                        self.send_header("Connection", "close")
                        self.end_headers()
                        self.wfile.write(body)
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

            do_GET = do_POST = do_PUT = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    def __enter__(self) -> "Double":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


#: A well-formed key for the test double (it checks nothing): 16-character id, 32-character secret.
FAKE_KEY = "DoubleKeyId00001" + "DoubleSecret0000000000000000000A"


def first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""


def timed(fn: Callable[[], Any]) -> Tuple[Any, float]:
    started = time.monotonic()
    result = fn()
    return result, time.monotonic() - started
