"""HTTP transport on the standard library's ``http.client``: one connection per request, gzip (and deflate)
replies decoded as they stream, and request bodies either sent whole (GET, POST) or streamed in chunks from a
second thread while the reply is read (PUT CSV), since the server answers a CSV upload row by row as the body
arrives and stops reading once the client stops reading (docs/lookups.md, "CSV").
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import zlib
from typing import Dict, Iterable, Iterator, Mapping, Optional
from urllib.parse import urlsplit

from .errors import TesseraConnectionError, TesseraError, TesseraTimeoutError

READ_SIZE = 64 * 1024


class BaseUrl:
    """A parsed base URL: ``http(s)://host[:port][/prefix]``."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("base_url must be an http:// or https:// URL, such as https://api.example.com")
        if parts.query or parts.fragment:
            raise ValueError("base_url must not carry a query string or a fragment")
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port
        self.prefix = parts.path.rstrip("/")
        self.url = "%s://%s%s" % (parts.scheme, parts.netloc, self.prefix)

    def connection(self, timeout: Optional[float], context: Optional[ssl.SSLContext]) -> http.client.HTTPConnection:
        if self.scheme == "https":
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout, context=context)
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)


def _is_timeout(error: BaseException) -> bool:
    return isinstance(error, socket.timeout) or (isinstance(error, OSError) and "timed out" in str(error))


def transport_error(error: BaseException, what: str) -> TesseraError:
    """A :class:`TesseraTimeoutError` or :class:`TesseraConnectionError` for a socket-level failure."""
    if _is_timeout(error):
        return TesseraTimeoutError("%s: timed out (%s)" % (what, error or "no reply"))
    return TesseraConnectionError("%s: %s: %s" % (what, type(error).__name__, error))


class _Decoder:
    """Decodes a reply's Content-Encoding incrementally: identity, gzip (several members too) or deflate."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding.strip().lower()
        if self.encoding in ("", "identity"):
            self._z = None
        elif self.encoding in ("gzip", "x-gzip"):
            self._z = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif self.encoding == "deflate":
            self._z = None  # zlib-wrapped or raw: told by the first bytes
        else:
            raise TesseraError(
                "The server replied with Content-Encoding %r, which this client cannot decode." % encoding
            )

    def feed(self, data: bytes) -> bytes:
        if self.encoding in ("", "identity"):
            return data
        if self.encoding == "deflate" and self._z is None:
            wrapped = len(data) >= 2 and (data[0] & 0x0F) == 8 and ((data[0] << 8) | data[1]) % 31 == 0
            self._z = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        assert self._z is not None
        out = [self._z.decompress(data)]
        # A gzip stream may hold several members one after another.
        while self.encoding != "deflate" and self._z.eof and self._z.unused_data:
            rest = self._z.unused_data
            self._z = zlib.decompressobj(16 + zlib.MAX_WBITS)
            out.append(self._z.decompress(rest))
        return b"".join(out)

    def flush(self) -> bytes:
        if self._z is None:
            return b""
        tail = self._z.flush()
        if not self._z.eof:
            raise zlib.error("the compressed stream ended early")
        return tail


class BodyWriter:
    """Sends a request body in HTTP/1.1 chunks from its own thread, so the reply can be read at the same time.

    The socket is the connection's own; the thread only writes, the caller's thread only reads. A send that waits
    longer than the socket's timeout is tried again (the reader owns the deadline: a slow consumer of the reply
    makes the server stop reading, which is the flow control the server relies on). ``stop()`` ends the thread by
    shutting the socket down. When reading the body itself fails (``source_error``), the socket is shut down too,
    so the reader stops waiting and the error is raised to the caller.
    """

    def __init__(self, sock: socket.socket, chunks: Iterable[bytes]) -> None:
        self._sock = sock
        self._chunks = chunks
        self._stop = threading.Event()
        #: Sending failed (the connection broke or was stopped).
        self.error: Optional[BaseException] = None
        #: Reading the body (the caller's file or iterable) failed.
        self.source_error: Optional[BaseException] = None
        self.sent = 0
        self._thread = threading.Thread(target=self._run, name="tessera-upload", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            if self._stop.is_set():
                raise TesseraConnectionError("The upload was stopped.")
            try:
                n = self._sock.send(view)
            except socket.timeout:
                continue
            view = view[n:]

    def _next(self, source: Iterator[bytes]) -> Optional[bytes]:
        try:
            chunk = next(source)
        except StopIteration:
            return None
        except BaseException as error:
            self.source_error = error
            raise
        if isinstance(chunk, str):
            chunk = chunk.encode("utf-8")
        elif not isinstance(chunk, (bytes, bytearray, memoryview)):
            self.source_error = TypeError("An upload body yields bytes, not %s." % type(chunk).__name__)
            raise self.source_error
        return bytes(chunk)

    def _run(self) -> None:
        source = iter(self._chunks)
        try:
            while not self._stop.is_set():
                chunk = self._next(source)
                if chunk is None:
                    self._send(b"0\r\n\r\n")
                    return
                if chunk:
                    self._send(b"%X\r\n" % len(chunk) + chunk + b"\r\n")
                    self.sent += len(chunk)
        except BaseException as error:
            if self.source_error is None:
                self.error = error
            else:
                try:
                    self._sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        finally:
            close = getattr(source, "close", None)
            if callable(close):
                try:
                    close()
                except Exception:
                    pass

    def stop(self, wait: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            try:
                self._sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._thread.join(wait)

    def join(self, wait: Optional[float]) -> None:
        self._thread.join(wait)


class Reply:
    """A reply whose status and headers have arrived; its body is read with :meth:`chunks` or :meth:`read_all`."""

    def __init__(
        self,
        connection: http.client.HTTPConnection,
        response: http.client.HTTPResponse,
        writer: Optional[BodyWriter],
        what: str,
    ) -> None:
        self._connection = connection
        self._response = response
        self._writer = writer
        self._what = what
        self.status: int = response.status
        self.headers: Dict[str, str] = {k.lower(): v for k, v in response.getheaders()}
        self._decoder = _Decoder(self.headers.get("content-encoding", ""))
        self._closed = False

    def _raw_chunks(self) -> Iterator[bytes]:
        read = getattr(self._response, "read1", None)
        while True:
            try:
                data = read(READ_SIZE) if read is not None else self._response.read(READ_SIZE)
            except http.client.IncompleteRead as error:
                raise self._cut_short(error)
            except (OSError, http.client.HTTPException) as error:
                raise self._cut_short(error)
            if not data:
                return
            yield data

    def _cut_short(self, error: BaseException) -> BaseException:
        if self._writer is not None and self._writer.source_error is not None:
            return self._writer.source_error
        return transport_error(error, self._what + " (reply cut short)")

    def chunks(self) -> Iterator[bytes]:
        """The decoded body, chunk by chunk as it arrives. Closes the reply at its end."""
        try:
            for data in self._raw_chunks():
                try:
                    out = self._decoder.feed(data)
                except zlib.error as error:
                    what = "%s: the %s reply did not decode: %s" % (self._what, self._decoder.encoding, error)
                    raise TesseraConnectionError(what)
                if out:
                    yield out
            try:
                tail = self._decoder.flush()
            except zlib.error as error:
                raise TesseraConnectionError("%s: the reply did not decode: %s" % (self._what, error))
            if tail:
                yield tail
            if self._writer is not None:
                # The reply is complete, so the server has read the whole body: the writer is done or about to be.
                self._writer.join(5.0)
                if self._writer.source_error is not None:
                    raise self._writer.source_error
        finally:
            self.close()

    def read_all(self) -> bytes:
        return b"".join(self.chunks())

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._writer is not None:
            self._writer.stop()
        try:
            self._response.close()
        finally:
            self._connection.close()


def open_request(
    base: BaseUrl,
    method: str,
    target: str,
    headers: Mapping[str, str],
    *,
    body: Optional[bytes] = None,
    chunks: Optional[Iterable[bytes]] = None,
    timeout: Optional[float],
    context: Optional[ssl.SSLContext],
) -> Reply:
    """Sends a request and waits for the reply's status and headers.

    ``body`` is sent whole with a Content-Length; ``chunks`` is streamed with ``Transfer-Encoding: chunked`` from a
    second thread while the reply is read.
    """
    what = "%s %s" % (method, target.split("?", 1)[0])
    connection = base.connection(timeout, context)
    writer: Optional[BodyWriter] = None
    try:
        if chunks is None:
            connection.request(method, target, body=body, headers=dict(headers))
        else:
            connection.putrequest(method, target, skip_accept_encoding=True)
            for name, value in headers.items():
                connection.putheader(name, value)
            connection.putheader("Transfer-Encoding", "chunked")
            connection.endheaders()
            sock = connection.sock
            assert sock is not None
            writer = BodyWriter(sock, chunks)
            writer.start()
        response = connection.getresponse()
    except BaseException as error:
        if writer is not None:
            writer.stop()
        connection.close()
        if writer is not None and writer.source_error is not None:
            raise writer.source_error from None
        if isinstance(error, (OSError, http.client.HTTPException)):
            raise transport_error(error, what) from error
        raise
    return Reply(connection, response, writer, what)

