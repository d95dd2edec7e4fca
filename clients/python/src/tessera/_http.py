"""HTTP transport on the standard library's ``http.client``: kept-alive connections reused (a pool per client),
through an HTTP proxy when one is set or the environment names one, gzip (and deflate) replies decoded as they
stream, and request bodies either sent whole (GET, POST) or streamed in chunks from a second thread while the reply
is read (PUT CSV), since the server answers a CSV upload row by row as the body arrives and stops reading once the
client stops reading (docs/lookups.md, "CSV"). An upload has a connection of its own, closed at its end.
"""

from __future__ import annotations

import base64
import http.client
import socket
import ssl
import threading
import urllib.request
import zlib
from typing import Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union
from urllib.parse import unquote, urlsplit

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

    @property
    def netloc(self) -> str:
        host = "[%s]" % self.host if ":" in self.host else self.host
        return host if self.port is None else "%s:%d" % (host, self.port)


class Proxy:
    """An HTTP proxy, ``http://[user:password@]host[:port]``: an https server is reached through a CONNECT tunnel,
    an http one by asking the proxy for the absolute URL."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url.strip() if "://" in url else "http://" + url.strip())
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError("A proxy is an http:// URL, such as http://proxy.example:3128, not %r" % (url,))
        self.host = parts.hostname
        self.port = parts.port or 80
        self.url = "http://%s:%d" % (self.host, self.port)
        self.authorization: Optional[str] = None
        if parts.username is not None:
            pair = "%s:%s" % (unquote(parts.username), unquote(parts.password or ""))
            self.authorization = "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")

    def __repr__(self) -> str:
        return "Proxy(%r)" % self.url


ProxySetting = Union[str, bool, None]


def proxy_for(base: BaseUrl, setting: ProxySetting) -> Optional[Proxy]:
    """The proxy to reach ``base`` through: ``setting`` when it is a URL; none when it is False; from the
    environment (``HTTPS_PROXY``/``https_proxy`` for https, ``HTTP_PROXY``/``http_proxy`` for http, minus the hosts
    ``NO_PROXY`` names) when it is None, as curl and pip read them."""
    if setting is False or setting == "":
        return None
    if isinstance(setting, str):
        return Proxy(setting)
    if setting is not None and setting is not True:
        raise ValueError("proxy is a URL, False (none) or None (from the environment)")
    proxies = urllib.request.getproxies_environment()
    url = proxies.get(base.scheme)
    if not url or urllib.request.proxy_bypass_environment(base.netloc, proxies):
        return None
    return Proxy(url)


class Pool:
    """Idle kept-alive connections to one server, handed to one request at a time (thread-safe)."""

    def __init__(self, base: BaseUrl, proxy: Optional[Proxy], context: Optional[ssl.SSLContext], size: int = 8) -> None:
        self.base = base
        self.proxy = proxy
        self.context = context
        self.size = size
        self._idle: List[http.client.HTTPConnection] = []
        self._lock = threading.Lock()
        #: Connections opened so far (for tests and metrics).
        self.opened = 0

    def target(self, path: str) -> str:
        """The request target: the path, or through a proxy to an http server, the absolute URL."""
        if self.proxy is not None and self.base.scheme == "http":
            return "http://%s%s" % (self.base.netloc, path)
        return path

    def extra_headers(self) -> Dict[str, str]:
        if self.proxy is not None and self.base.scheme == "http" and self.proxy.authorization:
            return {"Proxy-Authorization": self.proxy.authorization}
        return {}

    def connect(self, timeout: Optional[float]) -> http.client.HTTPConnection:
        """A new connection (not yet opened: it connects on its first request)."""
        base, proxy = self.base, self.proxy
        with self._lock:
            self.opened += 1
        if proxy is None:
            if base.scheme == "https":
                return http.client.HTTPSConnection(base.host, base.port, timeout=timeout, context=self.context)
            return http.client.HTTPConnection(base.host, base.port, timeout=timeout)
        if base.scheme == "http":
            return http.client.HTTPConnection(proxy.host, proxy.port, timeout=timeout)
        connection = http.client.HTTPSConnection(proxy.host, proxy.port, timeout=timeout, context=self.context)
        tunnel_headers = {"Proxy-Authorization": proxy.authorization} if proxy.authorization else None
        connection.set_tunnel(base.host, base.port or 443, headers=tunnel_headers)
        return connection

    def take(self, timeout: Optional[float]) -> Tuple[http.client.HTTPConnection, bool]:
        """An idle connection (and True), or a new one (and False)."""
        with self._lock:
            while self._idle:
                connection = self._idle.pop()
                if connection.sock is not None:
                    connection.sock.settimeout(timeout)
                    return connection, True
        return self.connect(timeout), False

    def give_back(self, connection: http.client.HTTPConnection) -> None:
        with self._lock:
            if connection.sock is not None and len(self._idle) < self.size:
                self._idle.append(connection)
                return
        connection.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()


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
        pool: Optional[Pool] = None,
    ) -> None:
        self._connection = connection
        self._response = response
        self._writer = writer
        self._what = what
        #: Where the connection goes back once the whole reply is read (None: closed instead).
        self._pool = pool
        self._complete = False
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
                self._complete = True
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
        # Read to its end, the reply leaves the connection ready for the next request, unless either side closes it.
        reusable = self._pool is not None and self._complete and not self._response.will_close
        try:
            self._response.close()
        finally:
            if reusable and self._pool is not None:
                self._pool.give_back(self._connection)
            else:
                self._connection.close()


#: What a kept-alive connection that the server has since closed fails with, before any of a reply arrives.
_STALE = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


def open_request(
    pool: Pool,
    method: str,
    path: str,
    headers: Mapping[str, str],
    *,
    body: Optional[bytes] = None,
    chunks: Optional[Iterable[bytes]] = None,
    timeout: Optional[float],
    reuse: bool = True,
) -> Reply:
    """Sends a request and waits for the reply's status and headers.

    ``body`` is sent whole with a Content-Length; ``chunks`` is streamed with ``Transfer-Encoding: chunked`` from a
    second thread while the reply is read, on a connection of its own. With ``reuse`` (a request that is safe to
    send twice) an idle kept-alive connection is taken when there is one, and if the server had closed it meanwhile
    the request goes again at once on a new connection; without, a new connection is opened.
    """
    if chunks is None and reuse:
        connection, reused = pool.take(timeout)
        try:
            return _exchange(pool, connection, method, path, headers, body, None, keep=True)
        except TesseraConnectionError as error:
            if not (reused and isinstance(error.__cause__, _STALE)):
                raise
    return _exchange(pool, pool.connect(timeout), method, path, headers, body, chunks, keep=chunks is None)


def _exchange(
    pool: Pool,
    connection: http.client.HTTPConnection,
    method: str,
    path: str,
    headers: Mapping[str, str],
    body: Optional[bytes],
    chunks: Optional[Iterable[bytes]],
    keep: bool,
) -> Reply:
    what = "%s %s" % (method, path.split("?", 1)[0])
    target = pool.target(path)
    headers = {**pool.extra_headers(), **headers}
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
    return Reply(connection, response, writer, what, pool if keep else None)

