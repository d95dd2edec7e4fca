package com.tessera.client;

import java.util.List;

/**
 * A page of the organization's subscriptions, newest first ({@code GET /v2/subscriptions}, 100 at most): pass {@link
 * #next()} as {@code before} for the next.
 *
 * @param subscriptions this page's subscriptions, newest first
 * @param next the {@code before} of the next page, or null on the last
 * @param live the organization's live subscriptions, every page
 * @param limit the contract's subscription limit, or null when it sets none
 * @param info status, headers and attempts of the reply
 */
public record SubscriptionPage(
    List<Subscription> subscriptions, Long next, long live, Long limit, ResponseInfo info) {}
