package com.tessera.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;

/** A tiny HTTP server on loopback that answers as scripted and records what it was sent. */
final class ScriptedServer implements AutoCloseable {
  /** One scripted answer. */
  static final class Answer {
    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    byte[] body = new byte[0];
    long delayMs;
    String encoding;

    Answer(int status) {
      this.status = status;
    }

    Answer header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    Answer json(String json) {
      headers.put("Content-Type", "application/json; charset=utf-8");
      body = json.getBytes(StandardCharsets.UTF_8);
      return this;
    }

    Answer csv(String csv) {
      headers.put("Content-Type", "text/csv; charset=utf-8");
      body = csv.getBytes(StandardCharsets.UTF_8);
      return this;
    }

    Answer text(String text) {
      headers.put("Content-Type", "text/plain");
      body = text.getBytes(StandardCharsets.UTF_8);
      return this;
    }

    Answer delay(long ms) {
      delayMs = ms;
      return this;
    }

    /** Sends the body compressed: gzip or deflate. */
    Answer encoded(String encoding) {
      this.encoding = encoding;
      return this;
    }
  }

  /** One request as received. */
  static final class Seen {
    final String method;
    final String uri;
    final Headers headers;
    final byte[] body;

    Seen(String method, String uri, Headers headers, byte[] body) {
      this.method = method;
      this.uri = uri;
      this.headers = headers;
      this.body = body;
    }

    String header(String name) {
      return headers.first(name);
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final HttpServer server;
  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final Deque<Answer> answers = new ArrayDeque<>();
  private final List<Seen> seen = new ArrayList<>();

  ScriptedServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(pool);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  synchronized ScriptedServer answer(Answer... more) {
    for (Answer a : more) answers.add(a);
    return this;
  }

  synchronized List<Seen> seen() {
    return new ArrayList<>(seen);
  }

  private void handle(HttpExchange ex) throws IOException {
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readAllBytes();
    }
    Answer a;
    synchronized (this) {
      seen.add(
          new Seen(
              ex.getRequestMethod(),
              ex.getRequestURI().toString(),
              new Headers(ex.getRequestHeaders()),
              body));
      a = answers.isEmpty() ? new Answer(500).text("no answer scripted") : answers.poll();
    }
    try {
      if (a.delayMs > 0) Thread.sleep(a.delayMs);
      byte[] out = a.body;
      if (a.encoding != null) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (OutputStream z =
            a.encoding.equals("gzip") ? new GZIPOutputStream(buf) : new DeflaterOutputStream(buf)) {
          z.write(out);
        }
        out = buf.toByteArray();
        ex.getResponseHeaders().set("Content-Encoding", a.encoding);
      }
      a.headers.forEach((k, v) -> ex.getResponseHeaders().set(k, v));
      if (!a.headers.containsKey("X-Request-Id")) ex.getResponseHeaders().set("X-Request-Id", "req-" + seen().size());
      ex.sendResponseHeaders(a.status, out.length == 0 ? -1 : out.length);
      if (out.length > 0) {
        try (OutputStream os = ex.getResponseBody()) {
          os.write(out);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away (a timeout test)
    } finally {
      ex.close();
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
