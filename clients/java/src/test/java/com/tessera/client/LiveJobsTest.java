package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bulk jobs against the really started server, whose job runner runs: a CSV result is byte for byte the upload's
 * reply to the same body and a jsonl one exact row for row; jobs are read, listed a page at a time and cancelled; a
 * running job's result is a 409, a wait past its time a timeout naming it; a bad endpoint a 400 naming it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LiveJobsTest {
  static TesseraClient client;
  static String email;
  static long identityId;
  static final JobOptions OPTIONS = JobOptions.defaults().template(3).limit(1);
  static final Duration POLL = Duration.ofMillis(200);
  static final Duration LONG = Duration.ofMinutes(2);

  @TempDir Path dir;

  @BeforeAll
  static void setUp() {
    client = Live.client();
    email = Live.env("TESSERA_EMAIL");
    identityId = Long.parseLong(Live.env("TESSERA_IDENTITY_ID"));
  }

  /** A found row, a row no one matches, and a row that is not an e-mail address. */
  static String csv() {
    return "ref,email\r\nc-1," + email + "\r\nc-2,nobody@example.com\r\nc-3,not an address\r\n";
  }

  static void assertEnded(Job job, Job.Status status) {
    assertEquals(status, job.status());
    assertNotNull(job.finishedAt());
    assertEquals("/v2/jobs/" + job.id() + "/result", job.resultUrl());
  }

  @Test
  @Order(1)
  void aCsvResultIsByteForByteTheUploadsReply() throws Exception {
    Path source = dir.resolve("customers.csv");
    Files.writeString(source, csv());
    Job made = client.jobs().submit(Endpoint.BY_EMAIL, source, OPTIONS);
    assertEquals(202, made.info().status());
    assertTrue(made.id().matches("job_[0-9a-f]{24}"), made.id());
    assertEquals("byEmail", made.endpoint());
    assertEquals("csv", made.format());
    assertEquals(Map.of("template", 3L, "limit", 1L), made.options());
    assertEquals(3, made.rows().total());

    List<Job.Status> seen = new ArrayList<>();
    Job done = client.jobs().waitFor(made.id(), POLL, LONG, j -> seen.add(j.status()));
    assertEnded(done, Job.Status.COMPLETED);
    assertEquals(new Job.Rows(3, 3, 1, 1), done.rows());
    assertEquals(1, done.identities());
    assertNull(done.error());
    assertNotNull(done.expiresAt());
    assertEquals(Job.Status.COMPLETED, seen.get(seen.size() - 1));

    String text;
    try (JobResult result = client.jobs().result(made.id())) {
      assertEquals("csv", result.format());
      assertEquals(made.id() + ".csv", result.fileName());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      result.transferTo(out);
      text = out.toString(StandardCharsets.UTF_8);
    }
    try (CsvReply put = client.upload(Endpoint.BY_EMAIL, source, LookupOptions.defaults().template(3).limit(1))) {
      assertEquals(put.text(), text);
    }
    String[] lines = text.split("\r\n", -1);
    assertTrue(lines[0].startsWith("ref,email,score,matchedOn,id,") && lines[0].endsWith(",error"), lines[0]);
    List<List<String>> rows = new ArrayList<>();
    try (CsvReader reader = new CsvReader(new java.io.StringReader(text))) {
      reader.forEachRemaining(rows::add);
    }
    assertEquals(4, rows.size());
    assertEquals(List.of("c-1", email), rows.get(1).subList(0, 2));
    assertEquals(Long.toString(identityId), rows.get(1).get(4));
    assertEquals("", rows.get(1).get(rows.get(1).size() - 1));
    assertEquals(List.of("c-2", "nobody@example.com"), rows.get(2).subList(0, 2));
    assertTrue(rows.get(2).subList(2, rows.get(2).size()).stream().allMatch(String::isEmpty));
    assertEquals(List.of("c-3", "not an address"), rows.get(3).subList(0, 2));
    assertTrue(rows.get(3).get(rows.get(3).size() - 1).toLowerCase().matches(".*e-?mail.*"), rows.get(3).toString());

    // Sent under an Idempotency-Key: a repeat under a given one gets the first job back, and makes no other.
    assertTrue(made.info().idempotencyKey().matches("[0-9a-f-]{36}"), made.info().idempotencyKey());
    JobOptions keyed = OPTIONS.idempotencyKey("job-" + made.id());
    Job first = client.jobs().submit(Endpoint.BY_EMAIL, csv(), keyed);
    Job again = client.jobs().submit(Endpoint.BY_EMAIL, csv(), keyed);
    assertEquals(first.id(), again.id());
    assertFalse(first.info().replayed());
    assertTrue(again.info().replayed());
    client.jobs().waitFor(first.id(), POLL, LONG);

    Path file = dir.resolve("result.csv");
    assertEquals(text.getBytes(StandardCharsets.UTF_8).length, client.jobs().download(made.id(), file));
    assertEquals(text, Files.readString(file));
  }

  @Test
  @Order(2)
  void aJsonlResultGivesEachRowsLineInputIdentitiesAndError() throws Exception {
    JobOptions jsonl = OPTIONS.format(JobOptions.Format.JSONL);
    Job made = client.jobs().submit(Endpoint.BY_EMAIL, csv(), jsonl);
    assertEquals("jsonl", made.format());
    Job done = client.jobs().waitFor(made.id(), POLL, LONG);
    assertEquals(new Job.Rows(3, 3, 1, 1), done.rows());
    List<Map<String, Object>> items;
    try (JobResult result = client.jobs().result(made.id())) {
      assertEquals("jsonl", result.format());
      items =
          result
              .lines()
              .map(line -> JsonFields.object(Json.parse(line), "line"))
              .collect(Collectors.toList());
    }
    assertEquals(3, items.size());
    assertEquals(2L, items.get(0).get("line"));
    assertEquals(Map.of("ref", "c-1", "email", email), items.get(0).get("input"));
    assertNull(items.get(0).get("error"));
    List<Object> found = JsonFields.array(items.get(0).get("identities"), "identities");
    assertEquals(1, found.size());
    // The CSV result's cells, as text.
    Map<String, Object> identity = JsonFields.object(found.get(0), "identity");
    assertEquals(Long.toString(identityId), identity.get("id"));
    assertEquals("email", identity.get("matchedOn"));
    assertEquals(Map.of("ref", "c-2", "email", "nobody@example.com"), items.get(1).get("input"));
    assertEquals(List.of(), items.get(1).get("identities"));
    assertEquals(4L, items.get(2).get("line"));
    assertEquals(List.of(), items.get(2).get("identities"));
    assertTrue(((String) items.get(2).get("error")).toLowerCase().matches(".*e-?mail.*"));
  }

  @Test
  @Order(3)
  void isReadListedAPageAtATimeAndNotCancelledOnceEnded() {
    Jobs jobs = client.jobs();
    Job first = jobs.waitFor(jobs.submit(Endpoint.BY_EMAIL, csv(), JobOptions.defaults()).id(), POLL, LONG);
    Job second =
        jobs.waitFor(
            jobs.submit(Endpoint.BY_EMAIL, csv(), JobOptions.defaults().format(JobOptions.Format.JSONL)).id(),
            POLL,
            LONG);
    assertEquals(second, jobs.get(second.id()));
    JobPage page = jobs.list(1, null);
    assertEquals(List.of(second.id()), page.jobs().stream().map(Job::id).collect(Collectors.toList()));
    assertEquals(second.id(), page.next());
    JobPage after = jobs.list(1, page.next());
    assertEquals(List.of(first.id()), after.jobs().stream().map(Job::id).collect(Collectors.toList()));
    List<String> all = jobs.all(2).map(Job::id).collect(Collectors.toList());
    assertEquals(List.of(second.id(), first.id()), all.subList(0, 2));
    assertEquals(all.size(), all.stream().distinct().count());

    ConflictException ended = assertThrows(ConflictException.class, () -> jobs.cancel(first.id()));
    assertEquals(409, ended.status());
    assertEquals("The job has already ended (completed).", ended.getMessage());
    NotFoundException unknown = assertThrows(NotFoundException.class, () -> jobs.get("job_000000000000000000000000"));
    assertEquals("There is no such job.", unknown.getMessage());
  }

  @Test
  @Order(4)
  void whileItRunsAWaitTimesOutNamingItItsResultConflictsAndACancelEndsIt() throws Exception {
    Jobs jobs = client.jobs();
    // Long enough to be running still a few calls after it is made (the runner takes 2,000 rows at a time).
    StringBuilder body = new StringBuilder("ref,email\n");
    for (int i = 0; i < 40_000; i++) body.append("r-").append(i).append(",nobody-").append(i).append("@example.com\n");
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    Job made = jobs.submit(Endpoint.BY_EMAIL, new ByteArrayInputStream(bytes), JobOptions.defaults());
    assertEquals(40_000, made.rows().total());

    TesseraTimeoutException late =
        assertThrows(TesseraTimeoutException.class, () -> jobs.waitFor(made.id(), POLL, Duration.ZERO));
    String said = late.getMessage();
    assertTrue(said.startsWith("Job " + made.id() + " has not ended after 0 s: it is "), said);
    assertTrue(said.matches(".*it is (queued|running), \\d+ of 40000 rows done\\."), said);

    ConflictException early = assertThrows(ConflictException.class, () -> jobs.result(made.id()));
    assertEquals(
        "The job has not ended yet: its result can be downloaded once its status is completed, failed or cancelled.",
        early.getMessage());
    Path never = dir.resolve("never.csv");
    assertThrows(ConflictException.class, () -> jobs.download(made.id(), never));
    assertFalse(Files.exists(never));

    Job cancelled = jobs.cancel(made.id());
    assertEnded(cancelled, Job.Status.CANCELLED);
    assertTrue(cancelled.rows().done() < 40_000);
    assertEnded(jobs.waitFor(made.id(), POLL, LONG), Job.Status.CANCELLED);
    // The rows done before the cancel stay downloadable.
    Path kept = dir.resolve("kept.csv");
    jobs.download(made.id(), kept);
    String text = Files.readString(kept);
    String head = text.substring(0, Math.min(80, text.length()));
    assertTrue(text.isEmpty() || text.startsWith("ref,email,score,matchedOn,"), head);
  }

  @Test
  @Order(5)
  void aBadEndpointIsRefusedNamingIt() {
    InvalidRequestException refused =
        assertThrows(
            InvalidRequestException.class, () -> client.jobs().submit("byNothing", csv(), JobOptions.defaults()));
    assertEquals(400, refused.status());
    assertEquals("validation_failed", refused.code());
    assertTrue(refused.getMessage().contains("\"byNothing\" is not a lookup endpoint"), refused.getMessage());
    assertEquals("querystring.endpoint", refused.fields().get(0).path());
  }
}
