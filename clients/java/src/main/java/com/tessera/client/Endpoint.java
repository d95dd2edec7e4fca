package com.tessera.client;

import java.util.List;

/**
 * The ten lookups of the identity API, each at {@code /v2/identities/{name}}, with the inputs it takes
 * (docs/lookups.md; {@code common/src/lookups.ts} on the server).
 */
public enum Endpoint {
  BY_EMAIL("byEmail", "email"),
  BY_PHONE("byPhone", "phone"),
  BY_IP("byIp", "ip"),
  BY_DEVICE("byDevice", "device"),
  BY_MD5("byMd5", "md5"),
  BY_SHA256("bySha256", "sha256"),
  BY_PII("byPii", "firstName", "lastName", "address", "city", "state", "zip"),
  BY_VEHICLE("byVehicle", "vin"),
  BY_ID("byId", "id"),
  BY_ANY(
      "byAny",
      "email",
      "md5",
      "sha256",
      "phone",
      "ip",
      "device",
      "vin",
      "id",
      "firstName",
      "lastName",
      "address",
      "city",
      "state",
      "zip");

  private final String pathName;
  private final List<String> inputs;

  Endpoint(String pathName, String... inputs) {
    this.pathName = pathName;
    this.inputs = List.of(inputs);
  }

  /** The endpoint's name in its path, e.g. {@code byEmail}. */
  public String pathName() {
    return pathName;
  }

  /** The path, e.g. {@code /v2/identities/byEmail}. */
  public String path() {
    return "/v2/identities/" + pathName;
  }

  /** The names of the inputs it takes. */
  public List<String> inputs() {
    return inputs;
  }

  /** The one input of a single-key endpoint (which takes a plain string), or null for byPii and byAny. */
  public String plainKey() {
    return inputs.size() == 1 ? inputs.get(0) : null;
  }

  /** The endpoint of a path name such as {@code byEmail}. */
  public static Endpoint of(String pathName) {
    for (Endpoint e : values()) if (e.pathName.equals(pathName)) return e;
    throw new IllegalArgumentException("Unknown lookup endpoint: " + pathName);
  }

  @Override
  public String toString() {
    return pathName;
  }
}
