package com.tessera.client;

import java.net.http.HttpRequest;

/** A request body of the transport: its type, and what each attempt sends (null when it cannot be sent again). */
interface RequestBody {
  String contentType();

  HttpRequest.BodyPublisher publisher();

  static RequestBody of(String contentType, byte[] bytes) {
    return new RequestBody() {
      @Override
      public String contentType() {
        return contentType;
      }

      @Override
      public HttpRequest.BodyPublisher publisher() {
        return HttpRequest.BodyPublishers.ofByteArray(bytes);
      }
    };
  }
}
