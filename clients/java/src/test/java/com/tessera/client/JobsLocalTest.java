package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tessera.client.RetryPolicy.RetryEvent;
import com.tessera.client.ScriptedServer.Answer;
import com.tessera.client.ScriptedServer.Seen;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bulk jobs against a scripted server, for what the real one will not do on demand: 503 mid-wait, 410, a stuck job. */
class JobsLocalTest {
  static final String ID = "job_0123456789abcdef01234567";
  static final String ERROR_503 = "{\"error\":\"Try again soon.\",\"code\":\"unavailable\",\"requestId\":\"e-503\"}";

  ScriptedServer server;
  final List<Duration> slept = Collections.synchronizedList(new ArrayList<>());
  final List<RetryEvent> events = Collections.synchronizedList(new ArrayList<>());

  @TempDir Path dir;

  @BeforeEach
  void start() throws Exception {
    server = new ScriptedServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  static String job(String status, long done) {
    return "{\"job\":{\"id\":\""
        + ID
        + "\",\"status\":\""
        + status
        + "\",\"endpoint\":\"byEmail\",\"format\":\"csv\",\"options\":{},\"rows\":{\"total\":4,\"done\":"
        + done
        + ",\"matched\":1,\"failed\":0},\"identities\":1,\"cost\":\"0.031000\",\"rowsPerSecond\":1000,"
        + "\"etaSeconds\":null,\"error\":null,\"createdAt\":\"2026-11-28T14:38:03.043Z\",\"startedAt\":null,"
        + "\"finishedAt\":null,\"expiresAt\":null,\"resultUrl\":null}}";
  }

  TesseraClient client() {
    return TesseraClient.builder()
        .baseUrl(server.url())
        .apiKey(ApiKey.plain(LocalServerTest.KEY))
        .retry(RetryPolicy.defaults().baseDelay(Duration.ofMillis(40)).listener(events::add))
        .sleeper(slept::add)
        .build();
  }

  @Test
  void waitsThroughA503ByTheRetryPolicyAndPollsAtItsInterval() {
    server.answer(
        new Answer(503).header("Retry-After", "0").json(ERROR_503),
        new Answer(200).json(job("running", 2)),
        new Answer(200).json(job("completed", 4)));
    List<Job.Status> seen = new ArrayList<>();
    Job done = client().jobs().waitFor(ID, Duration.ofMillis(500), Duration.ofMinutes(1), j -> seen.add(j.status()));
    assertEquals(Job.Status.COMPLETED, done.status());
    assertTrue(done.ended());
    assertEquals(new Job.Rows(4, 4, 1, 0), done.rows());
    assertEquals(List.of(Job.Status.RUNNING, Job.Status.COMPLETED), seen);
    assertEquals(1, events.size());
    assertEquals(503, events.get(0).status());
    assertEquals(List.of(Duration.ZERO, Duration.ofMillis(500)), slept);
    for (Seen s : server.seen()) assertEquals("GET /v2/jobs/" + ID, s.method + " " + s.uri);
  }

  @Test
  void aWaitPastItsTimeNamesTheJobAndHowFarItGot() {
    server.answer(new Answer(200).json(job("running", 2)));
    TesseraTimeoutException late =
        assertThrows(
            TesseraTimeoutException.class, () -> client().jobs().waitFor(ID, Duration.ofSeconds(1), Duration.ZERO));
    assertEquals("Job " + ID + " has not ended after 0 s: it is running, 2 of 4 rows done.", late.getMessage());
    assertEquals(TesseraException.TIMEOUT, late.code());
  }

  @Test
  void anExpiredResultIsGoneWithTheServersMessage() throws Exception {
    String message = "The job's result was deleted: results are kept 7 days after a job ends.";
    server.answer(new Answer(410).json("{\"error\":\"" + message + "\",\"code\":\"gone\"}"));
    Path file = dir.resolve("result.csv");
    GoneException gone = assertThrows(GoneException.class, () -> client().jobs().download(ID, file));
    assertEquals(410, gone.status());
    assertEquals("gone", gone.code());
    assertEquals(message, gone.getMessage());
    assertFalse(Files.exists(file));
  }

  @Test
  void aCancelCarriesNoIdempotencyKeyAndIsRetriedOnA503() {
    server.answer(
        new Answer(503).header("Retry-After", "0").json(ERROR_503), new Answer(200).json(job("cancelled", 2)));
    Job cancelled = client().jobs().cancel(ID);
    assertEquals(Job.Status.CANCELLED, cancelled.status());
    List<Seen> seen = server.seen();
    assertEquals(2, seen.size());
    for (Seen s : seen) {
      assertEquals("POST /v2/jobs/" + ID + "/cancel", s.method + " " + s.uri);
      assertNull(s.header("Idempotency-Key"));
    }
  }

  @Test
  void submitsUnderOneIdempotencyKeyAndSendsTheStreamAgainAfterA503() {
    server.answer(new Answer(503).header("Retry-After", "0").json(ERROR_503), new Answer(202).json(job("queued", 0)));
    byte[] csv = "email\na@b.example\n".getBytes(StandardCharsets.UTF_8);
    Job made =
        client()
            .jobs()
            .submit(
                Endpoint.BY_EMAIL,
                new ByteArrayInputStream(csv),
                JobOptions.defaults().format(JobOptions.Format.JSONL).template(3).minScore(80.5));
    assertEquals(ID, made.id());
    assertEquals(202, made.info().status());
    List<Seen> seen = server.seen();
    assertEquals(2, seen.size());
    String key = seen.get(0).header("Idempotency-Key");
    assertTrue(key.matches("[0-9a-f-]{36}"), key);
    assertEquals(key, made.info().idempotencyKey());
    for (Seen s : seen) {
      assertEquals("POST /v2/jobs?endpoint=byEmail&format=jsonl&template=3&minScore=80.5", s.method + " " + s.uri);
      assertEquals("email\na@b.example\n", s.text());
      assertEquals(key, s.header("Idempotency-Key"));
      assertTrue(s.header("Content-Type").startsWith("text/csv"));
    }
  }
}
