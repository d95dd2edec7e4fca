package com.tessera.client;

/**
 * One wrong field of a refused request ({@code fields} of a {@code validation_failed} error).
 *
 * @param path where, e.g. {@code body.inputs.3.email} or {@code querystring.email}
 * @param message what is wrong with it
 * @param line in a template expression: the line (1-based); otherwise null
 * @param column in a template expression: the column (1-based); otherwise null
 */
public record FieldError(String path, String message, Integer line, Integer column) {}
