package com.tessera.client;

/**
 * A value that {@link Json#write} writes as the plain JSON value (map, list, string, number, boolean or null) its
 * {@link #toJson()} returns. The client's inputs and results implement it.
 */
public interface JsonWritable {
  /** This value as plain JSON values. */
  Object toJson();
}
