package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The typed results against the published OpenAPI document (docs/openapi.json, read by the client's own JSON
 * reader): every field of the Full record is a component of {@link FullIdentity} and its nested records, the
 * endpoints and their inputs are the document's, and the document's examples read as typed results.
 */
class OpenApiTest {
  static Map<String, Object> doc;

  @BeforeAll
  static void read() throws Exception {
    String configured = System.getenv("TESSERA_OPENAPI");
    Path path = configured != null ? Path.of(configured) : Path.of("../../docs/openapi.json");
    assumeTrue(Files.exists(path), "no OpenAPI document at " + path.toAbsolutePath());
    doc = Json.parseObject(Files.readString(path));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> at(Object root, String... keys) {
    Object v = root;
    for (String k : keys) v = ((Map<String, Object>) v).get(k);
    return (Map<String, Object>) v;
  }

  static Set<String> components(Class<?> record) {
    return Arrays.stream(record.getRecordComponents())
        .map(c -> c.getName())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @SuppressWarnings("unchecked")
  static Set<String> properties(Map<String, Object> schema) {
    return new TreeSet<>(((Map<String, Object>) schema.get("properties")).keySet());
  }

  @Test
  @SuppressWarnings("unchecked")
  void fullIdentityHasEveryFieldOfTheDocument() {
    Map<String, Object> schemas = at(doc, "components", "schemas");
    Map<String, Object> record = at(schemas, "LookupRecord");
    Map<String, Object> full = at(schemas, "FullIdentity");
    Set<String> expected = new TreeSet<>(properties(record));
    expected.addAll(properties(full));
    assertEquals(expected, components(FullIdentity.class));
    assertEquals(new TreeSet<>((List<String>) record.get("required")), withoutScore(components(FullIdentity.class)));

    Map<String, Class<?>> nested = new LinkedHashMap<>();
    nested.put("emails", FullIdentity.Email.class);
    nested.put("phones", FullIdentity.Phone.class);
    nested.put("ips", FullIdentity.Ip.class);
    nested.put("devices", FullIdentity.Device.class);
    nested.put("vehicles", FullIdentity.Vehicle.class);
    nested.put("properties", FullIdentity.Property.class);
    nested.put("companies", FullIdentity.Company.class);
    nested.put("behaviors", FullIdentity.Behavior.class);
    Map<String, Object> props = at(record, "properties");
    for (Map.Entry<String, Class<?>> e : nested.entrySet()) {
      Map<String, Object> items = at(props, e.getKey(), "items");
      assertEquals(properties(items), components(e.getValue()), e.getKey());
    }
    Map<String, Object> finances = (Map<String, Object>) ((List<Object>) at(props, "finances").get("anyOf")).get(0);
    assertEquals(properties(finances), components(FullIdentity.Finances.class));
  }

  private static Set<String> withoutScore(Set<String> names) {
    Set<String> out = new TreeSet<>(names);
    out.removeAll(Set.of("score", "matchedOn", "explain"));
    return out;
  }

  @Test
  void endpointsAreTheDocumentsLookups() {
    Map<String, Object> paths = at(doc, "paths");
    List<String> lookups = new ArrayList<>();
    for (String p : paths.keySet()) if (p.startsWith("/v2/identities/")) lookups.add(p);
    List<String> ours = new ArrayList<>();
    for (Endpoint e : Endpoint.values()) ours.add(e.path());
    assertEquals(new TreeSet<>(lookups), new TreeSet<>(ours));
    for (Endpoint e : Endpoint.values()) {
      Map<String, Object> path = at(paths, e.path());
      assertTrue(path.containsKey("get") && path.containsKey("post") && path.containsKey("put"), e.path());
      // The GET's query parameters are the endpoint's inputs and the options.
      List<String> names = new ArrayList<>();
      for (Object p : (List<?>) at(path, "get").get("parameters")) {
        @SuppressWarnings("unchecked")
        Map<String, Object> param = (Map<String, Object>) p;
        if ("query".equals(param.get("in"))) names.add((String) param.get("name"));
      }
      List<String> expected = new ArrayList<>(e.inputs());
      // The options, a lookup's permissible purpose (issue 34) among them.
      expected.addAll(List.of("template", "minScore", "explain", "limit", "format", "purpose"));
      assertEquals(new TreeSet<>(expected), new TreeSet<>(names), e.path());
      // A batch (POST) has its options in its body but the purpose in its query; an upload (PUT) has them all there.
      assertEquals(Set.of("purpose"), queryParameters(at(path, "post")), e.path() + " post");
      assertEquals(
          Set.of("template", "minScore", "explain", "limit", "purpose"), queryParameters(at(path, "put")), e.path());
    }
  }

  @Test
  void jobOptionsAreTheDocumentsJobQuery() {
    Set<String> documented = queryParameters(at(doc, "paths", "/v2/jobs", "post"));
    JobOptions all =
        JobOptions.defaults()
            .format(JobOptions.Format.JSONL)
            .template(2)
            .minScore(50)
            .limit(3)
            .explain(true)
            .purpose("fcra-employment");
    Set<String> ours = new TreeSet<>(all.query("byEmail").keySet());
    // Besides: upload, a stored upload (POST /v2/uploads) to take the rows from instead of a body, not offered here.
    assertEquals(documented, union(ours, Set.of("upload")));
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.addAll(b);
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Set<String> queryParameters(Map<String, Object> operation) {
    Set<String> names = new TreeSet<>();
    for (Object p : (List<?>) operation.get("parameters")) {
      Map<String, Object> param = (Map<String, Object>) p;
      if ("query".equals(param.get("in"))) names.add((String) param.get("name"));
    }
    return names;
  }

  @Test
  @SuppressWarnings("unchecked")
  void readsTheDocumentsExamplesAsTypedResults() {
    Map<String, Object> get = at(doc, "paths", "/v2/identities/byEmail", "get");
    Map<String, Object> example = at(get, "responses", "200", "content", "application/json");
    LookupResult result = new LookupResult((Map<String, Object>) example.get("example"), null);
    assertFalse(result.identities().isEmpty(), "the example finds someone");
    for (Identity generic : result.identities()) {
      Map<String, Object> json = generic.json();
      FullIdentity person = generic.full();
      assertEquals(json.get("id"), person.id());
      assertEquals(json.get("lastName"), person.lastName());
      assertEquals(((Number) json.get("score")).doubleValue(), person.score());
      assertEquals(json.get("matchedOn"), person.matchedOn());
      assertEquals(json.get("firstSeen"), person.firstSeen().toString());
      List<Map<String, Object>> emails = (List<Map<String, Object>>) json.get("emails");
      assertEquals(emails.size(), person.emails().size());
      for (int k = 0; k < emails.size(); k++) {
        assertEquals(emails.get(k).get("md5"), person.emails().get(k).md5());
        assertEquals(emails.get(k).get("lastSeen"), person.emails().get(k).lastSeen().toString());
      }
      assertEquals(((List<?>) json.get("vehicles")).size(), person.vehicles().size());
      assertEquals(json.get("data"), person.data());
      // Written back, the typed record is the identity exactly as sent: every field, nested ones included.
      assertEquals(json, Json.parse(Json.write(person)));
      assertEquals(json.get("id"), generic.id());
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void readsTheBatchExampleAndRefusesOtherTemplatesAsFull() {
    Map<String, Object> post = at(doc, "paths", "/v2/identities/byEmail", "post");
    Map<String, Object> example = at(post, "responses", "200", "content", "application/json");
    BatchResult batch = new BatchResult((Map<String, Object>) example.get("example"), null);
    assertTrue(batch.results().size() >= 1);
    boolean sawMetadata = false;
    for (BatchResult.Item item : batch.results()) {
      if (item.metadata() != null) sawMetadata = true;
      item.fullIdentities();
    }
    assertTrue(sawMetadata, "the batch example shows metadata");

    Map<String, Object> compact = new LinkedHashMap<>();
    compact.put("score", 97);
    compact.put("matchedOn", List.of("email"));
    compact.put("id", 7);
    compact.put("firstName", "Ann");
    Identity identity = Identity.of(compact);
    assertEquals(97.0, identity.score());
    assertEquals("Ann", identity.get("firstName"));
    assertThrows(JsonException.class, identity::full);
    assertThrows(UnsupportedOperationException.class, () -> identity.json().put("x", 1));
  }
}
