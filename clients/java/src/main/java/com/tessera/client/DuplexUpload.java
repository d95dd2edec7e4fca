package com.tessera.client;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One HTTP/1.1 PUT that sends its body and reads its reply at the same time, on a socket of its own.
 *
 * <p>A CSV upload's reply is made as the body arrives, and the server reads more rows only as the client takes the
 * reply (docs/lookups.md). java.net.http's HttpClient reads an HTTP/1.1 reply only once the whole request body has
 * been sent, so past a few megabytes both directions' buffers fill and the upload stalls. Here a thread sends the
 * body in chunks (Transfer-Encoding: chunked) while the caller reads the reply.
 *
 * <p>Through a proxy it goes as the client's other calls do: to an https server through a CONNECT tunnel, to an http
 * one by asking the proxy for the absolute URI; a SOCKS proxy is Java's own socket.
 */
final class DuplexUpload {
  private static final int CHUNK = 64 * 1024;
  private static final int MAX_HEAD = 64 * 1024;

  private DuplexUpload() {}

  /** A reply whose head has been read; {@link #body} streams the rest. */
  static final class Exchange {
    final int status;
    final Map<String, List<String>> headers;
    final InputStream body;
    private final Socket socket;
    private final Thread writer;

    Exchange(int status, Map<String, List<String>> headers, InputStream body, Socket socket, Thread writer) {
      this.status = status;
      this.headers = headers;
      this.body = body;
      this.socket = socket;
      this.writer = writer;
    }

    /** Closes the connection and waits for the sending thread to stop (it stops at once unless its source blocks). */
    void abort() {
      try {
        socket.close();
      } catch (IOException e) {
        // closed
      }
      try {
        writer.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Sends the head, starts sending {@code source} and reads the reply's status and headers.
   *
   * @param readTimeoutMs the longest wait for the reply's head, and then for each read of its body (0: none)
   * @param proxy the proxy to go through, or {@link Proxy#NO_PROXY}
   */
  static Exchange put(
      URI uri,
      Map<String, String> requestHeaders,
      InputStream source,
      int connectTimeoutMs,
      int readTimeoutMs,
      SSLContext ssl,
      Proxy proxy)
      throws IOException {
    boolean https = "https".equalsIgnoreCase(uri.getScheme());
    String host = uri.getHost();
    int port = uri.getPort() != -1 ? uri.getPort() : https ? 443 : 80;
    String authority = (host.contains(":") ? "[" + host + "]" : host) + (uri.getPort() != -1 ? ":" + port : "");
    boolean viaHttpProxy = proxy != null && proxy.type() == Proxy.Type.HTTP;
    Socket socket = proxy != null && proxy.type() == Proxy.Type.SOCKS ? new Socket(proxy) : new Socket();
    try {
      socket.setTcpNoDelay(true);
      if (viaHttpProxy) {
        socket.connect(proxy.address(), connectTimeoutMs);
        socket.setSoTimeout(readTimeoutMs);
        if (https) tunnel(socket, host + ":" + port);
      } else {
        socket.connect(new InetSocketAddress(host, port), connectTimeoutMs);
      }
      if (https) socket = tls(socket, host, port, ssl);
      socket.setSoTimeout(readTimeoutMs);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }

    OutputStream out = new BufferedOutputStream(socket.getOutputStream(), CHUNK + 16);
    StringBuilder head = new StringBuilder();
    String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    // An http server behind a proxy is asked for by its absolute URI (RFC 9112 3.2.2).
    if (viaHttpProxy && !https) target = "http://" + authority + target;
    head.append("PUT ").append(target).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(authority).append("\r\n");
    for (Map.Entry<String, String> h : requestHeaders.entrySet()) {
      head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
    }
    head.append("Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
    out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    out.flush();

    IOException[] sourceError = new IOException[1];
    Socket s = socket;
    Thread writer =
        new Thread(
            () -> {
              byte[] buf = new byte[CHUNK];
              while (true) {
                int n;
                try {
                  n = source.read(buf);
                } catch (IOException e) {
                  synchronized (sourceError) {
                    sourceError[0] = e;
                  }
                  try {
                    s.close(); // the server must not take a partial body as whole
                  } catch (IOException ignored) {
                    // closed
                  }
                  return;
                }
                try {
                  if (n < 0) {
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    return;
                  }
                  if (n == 0) continue;
                  out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                  out.write(buf, 0, n);
                  out.write('\r');
                  out.write('\n');
                  out.flush();
                } catch (IOException e) {
                  return; // the server closed the connection, having answered (the reply says why)
                }
              }
            },
            "tessera-upload");
    writer.setDaemon(true);
    writer.start();

    try {
      InputStream in = new BufferedInputStream(socket.getInputStream(), CHUNK);
      int status;
      Map<String, List<String>> headers;
      while (true) {
        String statusLine = line(in);
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
          throw new IOException("Not an HTTP reply: " + statusLine);
        }
        status = Integer.parseInt(parts[1]);
        headers = headers(in);
        if (status >= 200 || status == 101) break; // 1xx interim replies are skipped
      }
      InputStream body = framed(in, headers);
      Socket owned = socket;
      InputStream closing =
          new FilterInputStream(body) {
            @Override
            public void close() throws IOException {
              owned.close();
            }
          };
      return new Exchange(status, headers, closing, socket, writer);
    } catch (IOException | RuntimeException e) {
      socket.close();
      // The sender stops at once on the closed socket; until it has, it may still read the source, which a retry
      // is about to send again from its start.
      try {
        writer.join();
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      synchronized (sourceError) {
        if (sourceError[0] != null) {
          throw new IOException("Reading the upload failed: " + sourceError[0].getMessage(), sourceError[0]);
        }
      }
      throw e;
    }
  }

  /** Asks the proxy on {@code socket} for a tunnel to {@code hostPort}; throws unless it answers 2xx. */
  private static void tunnel(Socket socket, String hostPort) throws IOException {
    OutputStream out = socket.getOutputStream();
    String connect = "CONNECT " + hostPort + " HTTP/1.1\r\nHost: " + hostPort + "\r\n\r\n";
    out.write(connect.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    // Read byte by byte: whatever follows the proxy's head is the server's TLS, not ours to buffer.
    InputStream in = socket.getInputStream();
    String status = line(in);
    headers(in);
    String[] parts = status.split(" ", 3);
    if (parts.length < 2 || !parts[1].startsWith("2")) {
      throw new java.net.ConnectException("The proxy refused a tunnel to " + hostPort + ": " + status);
    }
  }

  private static Socket tls(Socket plain, String host, int port, SSLContext ssl) throws IOException {
    SSLContext ctx;
    try {
      ctx = ssl != null ? ssl : SSLContext.getDefault();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IOException("No TLS available", e);
    }
    SSLSocket tls = (SSLSocket) ctx.getSocketFactory().createSocket(plain, host, port, true);
    SSLParameters params = tls.getSSLParameters();
    params.setEndpointIdentificationAlgorithm("HTTPS");
    if (!host.contains(":") && !host.matches("[0-9.]+")) params.setServerNames(List.of(new SNIHostName(host)));
    tls.setSSLParameters(params);
    tls.startHandshake();
    return tls;
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(128);
    while (true) {
      int c = in.read();
      if (c == -1) {
        if (buf.size() == 0) throw new EOFException("The server closed the connection without a reply.");
        break;
      }
      if (c == '\n') break;
      buf.write(c);
      if (buf.size() > MAX_HEAD) throw new IOException("A reply header line is too long.");
    }
    byte[] b = buf.toByteArray();
    int n = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
    return new String(b, 0, n, StandardCharsets.ISO_8859_1);
  }

  private static Map<String, List<String>> headers(InputStream in) throws IOException {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    int total = 0;
    while (true) {
      String l = line(in);
      total += l.length();
      if (total > MAX_HEAD) throw new IOException("The reply's headers are too long.");
      if (l.isEmpty()) return headers;
      int colon = l.indexOf(':');
      if (colon <= 0) continue;
      String name = l.substring(0, colon).trim();
      String value = l.substring(colon + 1).trim();
      headers.computeIfAbsent(name.toLowerCase(), k -> new ArrayList<>()).add(value);
    }
  }

  private static String first(Map<String, List<String>> headers, String name) {
    List<String> v = headers.get(name);
    return v == null || v.isEmpty() ? null : v.get(0);
  }

  /** The body as its framing says: chunked, a length, or up to the connection's end. */
  private static InputStream framed(InputStream in, Map<String, List<String>> headers) throws IOException {
    String te = first(headers, "transfer-encoding");
    if (te != null && te.toLowerCase().contains("chunked")) return new ChunkedInputStream(in);
    String length = first(headers, "content-length");
    if (length != null) {
      long n;
      try {
        n = Long.parseLong(length.trim());
      } catch (NumberFormatException e) {
        throw new IOException("Bad Content-Length: " + length);
      }
      return new LimitedInputStream(in, n);
    }
    return in;
  }

  /** The data of a chunked body. */
  static final class ChunkedInputStream extends InputStream {
    private final InputStream in;
    private long left;
    private boolean done;

    ChunkedInputStream(InputStream in) {
      this.in = in;
    }

    private boolean nextChunk() throws IOException {
      if (done) return false;
      if (left == 0) {
        String size = line(in);
        int semi = size.indexOf(';');
        if (semi >= 0) size = size.substring(0, semi);
        try {
          left = Long.parseLong(size.trim(), 16);
        } catch (NumberFormatException e) {
          throw new IOException("Bad chunk size: " + size);
        }
        if (left == 0) {
          while (!line(in).isEmpty()) {
            // trailers
          }
          done = true;
          return false;
        }
      }
      return true;
    }

    @Override
    public int read() throws IOException {
      byte[] b = new byte[1];
      int n = read(b, 0, 1);
      return n < 0 ? -1 : b[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) return 0;
      if (!nextChunk()) return -1;
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n < 0) throw new EOFException("The reply ended inside a chunk: it was cut short.");
      left -= n;
      if (left == 0) {
        int cr = in.read();
        int lf = cr == '\r' ? in.read() : cr;
        if (lf != '\n') throw new IOException("A chunk is not followed by CRLF.");
      }
      return n;
    }

    @Override
    public int available() throws IOException {
      return done ? 0 : (int) Math.min(left, in.available());
    }
  }

  /** The first {@code n} bytes of a stream. */
  static final class LimitedInputStream extends InputStream {
    private final InputStream in;
    private long left;

    LimitedInputStream(InputStream in, long n) {
      this.in = in;
      this.left = n;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) return -1;
      int c = in.read();
      if (c < 0) throw new EOFException("The reply was cut short.");
      left--;
      return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) return -1;
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n < 0) throw new EOFException("The reply was cut short.");
      left -= n;
      return n;
    }
  }
}
