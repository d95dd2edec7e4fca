package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tessera.client.ScriptedServer.Answer;
import com.tessera.client.ScriptedServer.Seen;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A lookup's permissible purpose (issue 34): {@code LookupOptions.purpose} and {@code JobOptions.purpose}, sent as the
 * {@code purpose} query parameter of every lookup method and of {@code POST /v2/jobs}. What is sent is read on a
 * scripted server; the live tests check the server answers a lookup naming one as it would any other.
 */
class PurposeTest {
  static final String PURPOSE = "fcra-employment";
  static final String EMPTY_LOOKUP = "{\"requestId\":\"r\",\"identities\":[]}";

  ScriptedServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ScriptedServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  TesseraClient client() {
    return TesseraClient.builder().baseUrl(server.url()).apiKey(ApiKey.plain(LocalServerTest.KEY)).build();
  }

  @Test
  void isAnImmutableOptionKeptThroughTheOthers() {
    LookupOptions none = LookupOptions.defaults();
    LookupOptions set = none.template(2).purpose(PURPOSE).limit(3).idempotencyKey("k-1");
    assertNull(none.purpose());
    assertEquals(PURPOSE, set.purpose());
    assertEquals(PURPOSE, set.explain(true).minScore(80).purpose());
    assertEquals("{template=2, limit=3, purpose=fcra-employment}", set.query(null).toString());
    assertEquals("{template=2, limit=3, format=csv, purpose=fcra-employment}", set.query("csv").toString());
    // A batch's options are in its body, its purpose in its query.
    assertEquals("{\"template\":2,\"limit\":3}", Json.write(set.body(null)));
    assertEquals("{purpose=fcra-employment}", set.purposeQuery().toString());
    assertEquals("{}", none.purposeQuery().toString());
    assertEquals("LookupOptions{template=2, limit=3, purpose=fcra-employment} idempotencyKey=k-1", set.toString());

    JobOptions job = JobOptions.defaults().purpose(PURPOSE).template(3).explain(false);
    assertNull(JobOptions.defaults().purpose());
    assertEquals(PURPOSE, job.format(JobOptions.Format.JSONL).limit(1).minScore(5).purpose());
    assertEquals(
        "{endpoint=byEmail, template=3, explain=false, purpose=fcra-employment}", job.query("byEmail").toString());
  }

  @Test
  void refusesABlankPurpose() {
    for (String bad : Arrays.asList(null, "", " ", "\t\n")) {
      assertThrows(IllegalArgumentException.class, () -> LookupOptions.defaults().purpose(bad), "lookup " + bad);
      assertThrows(IllegalArgumentException.class, () -> JobOptions.defaults().purpose(bad), "job " + bad);
    }
  }

  @Test
  void aLookupCarriesThePurposeInItsQuery() {
    server.answer(new Answer(200).json(EMPTY_LOOKUP), new Answer(200).json(EMPTY_LOOKUP));
    TesseraClient client = client();
    client.byEmail("a@b.example", LookupOptions.defaults().purpose(PURPOSE));
    client.byEmail("a@b.example", LookupOptions.defaults().limit(2).purpose("glba-fraud-prevention"));
    List<String> uris = new ArrayList<>();
    for (Seen s : server.seen()) uris.add(s.method + " " + s.uri);
    assertEquals(
        List.of(
            "GET /v2/identities/byEmail?email=a%40b.example&purpose=fcra-employment",
            "GET /v2/identities/byEmail?email=a%40b.example&limit=2&purpose=glba-fraud-prevention"),
        uris);
  }

  @Test
  void aLookupWithoutAPurposeSendsNone() {
    server.answer(new Answer(200).json(EMPTY_LOOKUP));
    client().byEmail("a@b.example");
    Seen seen = server.seen().get(0);
    assertEquals("/v2/identities/byEmail?email=a%40b.example", seen.uri);
    assertNull(seen.header("X-Permissible-Purpose"));
  }

  @Test
  void aBatchCarriesThePurposeInItsQueryAndTheOtherOptionsInItsBody() {
    server.answer(new Answer(200).json(LocalServerTest.BATCH_REPLY));
    client()
        .batch(Endpoint.BY_EMAIL, LocalServerTest.twoInputs(), LookupOptions.defaults().minScore(70).purpose(PURPOSE));
    Seen seen = server.seen().get(0);
    assertEquals("POST /v2/identities/byEmail?purpose=fcra-employment", seen.method + " " + seen.uri);
    Object body = Json.parse(seen.text());
    assertEquals(70.0, ((Number) OpenApiTest.at(body).get("minScore")).doubleValue());
    assertFalse(OpenApiTest.at(body).containsKey("purpose"), seen.text());
  }

  @Test
  void anUploadCarriesThePurposeInItsQuery() throws Exception {
    server.answer(new Answer(200).csv("email,score\r\na@b.example,\r\n"));
    byte[] csv = "email\na@b.example\n".getBytes(StandardCharsets.UTF_8);
    try (CsvReply reply =
        client()
            .upload(Endpoint.BY_EMAIL, new ByteArrayInputStream(csv), LookupOptions.defaults().purpose(PURPOSE))) {
      reply.rows().forEach(row -> {});
    }
    Seen seen = server.seen().get(0);
    assertEquals("PUT /v2/identities/byEmail?purpose=fcra-employment", seen.method + " " + seen.uri);
  }

  @Test
  void aJobCarriesThePurposeInItsQuery() {
    server.answer(new Answer(202).json(JobsLocalTest.job("queued", 0)));
    Job made =
        client()
            .jobs()
            .submit(Endpoint.BY_EMAIL, "email\na@b.example\n", JobOptions.defaults().limit(1).purpose(PURPOSE));
    assertEquals(JobsLocalTest.ID, made.id());
    Seen seen = server.seen().get(0);
    assertEquals("POST /v2/jobs?endpoint=byEmail&limit=1&purpose=fcra-employment", seen.method + " " + seen.uri);
  }

  // ------------------------------------------------------------------------------------------ the real server

  @Test
  void aLiveLookupNamingAPurposeAnswersAsAnyOther() {
    TesseraClient live = Live.client();
    String email = Live.env("TESSERA_EMAIL");
    long id = Long.parseLong(Live.env("TESSERA_IDENTITY_ID"));
    LookupOptions options = LookupOptions.defaults().purpose(PURPOSE);

    LookupResult found = live.byEmail(email, options);
    assertEquals(200, found.info().status());
    assertTrue(found.identities().stream().anyMatch(i -> Long.valueOf(id).equals(i.id())), "not found: " + id);

    BatchResult batch = live.batch(Endpoint.BY_EMAIL, List.of(LookupInput.plain(email)), options);
    assertEquals(200, batch.info().status());
    List<Identity> batched = batch.results().get(0).identities();
    assertTrue(batched.stream().anyMatch(i -> Long.valueOf(id).equals(i.id())), "not found by the batch: " + id);
  }

  @Test
  void aLiveLookupNamingAnUnknownPurposeIsRefused() {
    TesseraClient live = Live.client();
    InvalidRequestException refused =
        assertThrows(
            InvalidRequestException.class,
            () -> live.byEmail(Live.env("TESSERA_EMAIL"), LookupOptions.defaults().purpose("no-such-purpose")));
    assertEquals(400, refused.status());
  }
}
