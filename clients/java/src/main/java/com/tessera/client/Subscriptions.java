package com.tessera.client;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Change subscriptions ({@code client.subscriptions()}, docs/subscriptions.md): each time a subscribed identity's
 * record changes, the organization's webhook endpoints that take {@code identity.changed} get an event (check each
 * delivery with {@link Webhooks#verify}). Made with a live key of an organization; listed, read and deleted across
 * the organization.
 *
 * <p>Each call uses the client's key, retry policy and timeout. {@link #create} carries an Idempotency-Key (a random
 * one unless {@link NewSubscription#idempotencyKey(String)} gives one), the same on every retry, so a retry after a
 * 429, a 503 or no reply makes no second subscription. A delete is retried on 429 and 503 only.
 */
public final class Subscriptions {
  /** Subscriptions the server lists a page: a shorter page is the last. */
  public static final int PAGE_SIZE = 100;

  private static final String PATH = "/v2/subscriptions";
  private final TesseraClient client;

  /**
   * A deleted subscription.
   *
   * @param id its id
   * @param deletedAt when it was deleted
   */
  public record Deleted(long id, Instant deletedAt) {}

  Subscriptions(TesseraClient client) {
    this.client = client;
  }

  /**
   * Subscribes to one identity ({@code POST /v2/subscriptions}). An identity or input no one holds is a {@link
   * NotFoundException}; past the contract's subscription limit, a {@link ConflictException}; a key of no
   * organization, or a test key, a {@link PermissionException}.
   */
  public Subscription create(NewSubscription target) {
    byte[] body = Json.write(target.body()).getBytes(StandardCharsets.UTF_8);
    String key = client.idempotencyKeyOr(target.idempotencyKey());
    TesseraClient.Reply reply =
        client.call("POST", PATH, Map.of(), RequestBody.of("application/json", body), key, null, false);
    return one(reply);
  }

  /** The newest page of the organization's subscriptions. */
  public SubscriptionPage list() {
    return list(null);
  }

  /**
   * A page of the organization's subscriptions, newest first ({@code GET /v2/subscriptions}), older than {@code
   * before} (the {@link SubscriptionPage#next()} of the page before; null for the newest), with how many the
   * organization holds against its contract's limit.
   */
  public SubscriptionPage list(Long before) {
    Map<String, String> query = before == null ? Map.of() : Map.of("before", Long.toString(before));
    TesseraClient.Reply reply = client.call("GET", PATH, query, null, null, null, false);
    Map<String, Object> json = client.json(reply);
    List<Subscription> items = items(json, reply.info);
    items.sort(Comparator.comparingLong(Subscription::id).reversed());
    Long next = items.size() >= PAGE_SIZE ? items.get(items.size() - 1).id() : null;
    long live = json.get("live") instanceof Long ? (Long) json.get("live") : items.size();
    Long limit = json.get("limit") instanceof Long ? (Long) json.get("limit") : null;
    return new SubscriptionPage(List.copyOf(items), next, live, limit, reply.info);
  }

  /** Every subscription of the organization, newest first, read a page at a time as consumed. */
  public Stream<Subscription> all() {
    Iterator<Subscription> all =
        new Iterator<>() {
          private SubscriptionPage page;
          private int next;

          @Override
          public boolean hasNext() {
            if (page == null) page = list(null);
            while (next >= page.subscriptions().size()) {
              if (page.next() == null) return false;
              page = list(page.next());
              next = 0;
            }
            return true;
          }

          @Override
          public Subscription next() {
            if (!hasNext()) throw new NoSuchElementException();
            return page.subscriptions().get(next++);
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(all, Spliterator.ORDERED | Spliterator.NONNULL), false);
  }

  /** One subscription ({@code GET /v2/subscriptions/{id}}); another organization's, or a deleted one, is a 404. */
  public Subscription get(long id) {
    return one(client.call("GET", path(id), Map.of(), null, null, null, false));
  }

  /** Deletes a subscription ({@code DELETE /v2/subscriptions/{id}}): no event is sent for it after. */
  public Deleted delete(long id) {
    TesseraClient.Reply reply = client.call("DELETE", path(id), Map.of(), null, null, null, false);
    Map<String, Object> keyed =
        JsonFields.object(JsonFields.required(client.json(reply), "subscriptions", "reply"), "reply.subscriptions");
    if (keyed.size() != 1) throw JsonFields.wrong("reply.subscriptions", "one subscription");
    Map<String, Object> gone = JsonFields.object(keyed.values().iterator().next(), "reply.subscriptions");
    try {
      return new Deleted(
          JsonFields.integer(gone, "id", "subscription"),
          Instant.parse(JsonFields.string(gone, "deletedAt", "subscription")));
    } catch (DateTimeParseException e) {
      throw JsonFields.wrong("subscription.deletedAt", "a time (ISO 8601)");
    }
  }

  private static String path(long id) {
    if (id < 1) throw new IllegalArgumentException("A subscription id is a whole number from 1.");
    return PATH + "/" + id;
  }

  private static List<Subscription> items(Map<String, Object> json, ResponseInfo info) {
    Map<String, Object> keyed =
        JsonFields.object(JsonFields.required(json, "subscriptions", "reply"), "reply.subscriptions");
    List<Subscription> out = new ArrayList<>(keyed.size());
    for (Map.Entry<String, Object> e : keyed.entrySet()) {
      out.add(new Subscription(JsonFields.object(e.getValue(), "reply.subscriptions." + e.getKey()), info));
    }
    return out;
  }

  private Subscription one(TesseraClient.Reply reply) {
    List<Subscription> items = items(client.json(reply), reply.info);
    if (items.size() != 1) throw JsonFields.wrong("reply.subscriptions", "one subscription");
    return items.get(0);
  }
}
