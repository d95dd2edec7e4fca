package com.tessera.client;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The server the live tests call, from the environment build.sh documents (set by test/java.suite.test.ts). Without
 * it, those tests are skipped (aborted), so the unit tests still run anywhere.
 */
final class Live {
  private Live() {}

  static String env(String name) {
    String v = System.getenv(name);
    assumeTrue(v != null && !v.isBlank(), name + " is not set: no server to test against");
    return v.strip();
  }

  static TesseraClient.Builder builder(ApiKey key) {
    return TesseraClient.builder().baseUrl(env("TESSERA_BASE_URL")).apiKey(key);
  }

  /** A client with the run's key, sent plain. */
  static TesseraClient client() {
    return builder(ApiKey.plain(env("TESSERA_API_KEY"))).build();
  }
}
