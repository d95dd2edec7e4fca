package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Change subscriptions against the really started server, with a key of the seeded "Demo" organization
 * (TESSERA_ORG_KEY): made by id and by input, read, listed, deleted; an identity or input no one holds is a 404, a key
 * of no organization a 403.
 */
class LiveSubscriptionsTest {
  static TesseraClient client;
  static String email;
  static long identityId;

  @BeforeAll
  static void setUp() {
    client = Live.builder(ApiKey.plain(Live.env("TESSERA_ORG_KEY"))).build();
    email = Live.env("TESSERA_EMAIL");
    identityId = Long.parseLong(Live.env("TESSERA_IDENTITY_ID"));
  }

  static List<Long> ids(List<Subscription> list) {
    return list.stream().map(Subscription::id).collect(Collectors.toList());
  }

  @Test
  void areMadeByIdAndByInputReadListedAndDeleted() {
    Subscriptions subscriptions = client.subscriptions();
    Subscription byId = subscriptions.create(NewSubscription.identity(identityId));
    assertEquals(201, byId.info().status());
    assertEquals(identityId, byId.identityId());
    assertNull(byId.input());
    assertEquals(1, byId.templateId());
    assertEquals(Live.env("TESSERA_ORG_KEY").substring(0, ApiKey.ID_LENGTH), byId.keyId());
    NewSubscription input =
        NewSubscription.email(" " + email.toUpperCase() + " ").template(3).idempotencyKey("subscribe-" + byId.id());
    Subscription byEmail = subscriptions.create(input);
    // The same key again: the first subscription back, no second one.
    Subscription again = subscriptions.create(input);
    assertEquals(byEmail, again);
    assertTrue(again.info().replayed());
    assertEquals(identityId, byEmail.identityId());
    assertEquals(new Subscription.Input("email", email), byEmail.input());
    assertEquals(3, byEmail.templateId());

    assertEquals(byId, subscriptions.get(byId.id()));
    SubscriptionPage page = subscriptions.list();
    assertEquals(List.of(byEmail.id(), byId.id()), ids(page.subscriptions()));
    assertNull(page.next());
    // The organization's count against its contract's limit (Demo's sets none).
    assertEquals(2, page.live());
    assertNull(page.limit());
    assertEquals(List.of(byId.id()), ids(subscriptions.list(byEmail.id()).subscriptions()));

    Subscriptions.Deleted gone = subscriptions.delete(byId.id());
    assertEquals(byId.id(), gone.id());
    NotFoundException missing = assertThrows(NotFoundException.class, () -> subscriptions.get(byId.id()));
    assertEquals("No such subscription.", missing.getMessage());
    assertThrows(NotFoundException.class, () -> subscriptions.delete(byId.id()));
    assertEquals(List.of(byEmail.id()), subscriptions.all().map(Subscription::id).collect(Collectors.toList()));
    subscriptions.delete(byEmail.id());
  }

  @Test
  void anIdentityOrInputNoOneHoldsIsNotFound() {
    NotFoundException unknown =
        assertThrows(
            NotFoundException.class, () -> client.subscriptions().create(NewSubscription.identity(987_654_321)));
    assertEquals(404, unknown.status());
    assertEquals("No identity 987654321 was found.", unknown.getMessage());
    NotFoundException nobody =
        assertThrows(
            NotFoundException.class,
            () -> client.subscriptions().create(NewSubscription.email("nobody@example.com")));
    assertEquals("No identity holds this e-mail address.", nobody.getMessage());
  }

  @Test
  void aKeyOfNoOrganizationIsRefused() {
    PermissionException refused = assertThrows(PermissionException.class, () -> Live.client().subscriptions().list());
    assertEquals(403, refused.status());
    assertTrue(refused.getMessage().contains("organization"), refused.getMessage());
  }
}
