"""Change subscriptions (the server's docs/subscriptions.md): ``client.subscriptions``.

Each time a subscribed identity's record changes, the organization's webhook endpoints that take ``identity.changed``
get an event (check each delivery with :func:`~tessera.webhooks.verify_webhook`). Subscriptions belong to an
organization: make them with a live key of one; they are listed, read and deleted across the organization.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Literal, Optional, TypedDict, cast

from .errors import TesseraError

if TYPE_CHECKING:
    from .client import Tessera

#: Subscriptions the server lists a page: a shorter page is the last.
SUBSCRIPTION_PAGE_SIZE = 100


class SubscriptionInput(TypedDict):
    kind: Literal["email", "phone", "md5", "sha256"]
    #: The input as given, normalized.
    value: str


class Subscription(TypedDict):
    """A subscription to one identity (the API's field names)."""

    id: int
    organizationId: int
    #: Who subscribed (the key's user for a key).
    userId: int
    #: The API key that subscribed; None for a console user.
    keyId: Optional[str]
    #: The identity it follows now (an input may move it to another).
    identityId: int
    #: The input it was made by; None for a subscription by id.
    input: Optional[SubscriptionInput]
    #: The template shaping each event's record.
    templateId: int
    createdAt: str


class DeletedSubscription(TypedDict):
    id: int
    deletedAt: str


class SubscriptionPage(TypedDict):
    """A page of subscriptions, newest first; ``next`` is the ``before`` of the next page (None on the last)."""

    subscriptions: List[Subscription]
    next: Optional[int]
    #: The organization's live subscriptions, every page.
    live: int
    #: The contract's subscription limit; None when it sets none.
    limit: Optional[int]


def _id(value: int) -> str:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TypeError("A subscription id is a whole number from 1, not %r" % (value,))
    return str(value)


def _items(reply: Any, what: str) -> List[Dict[str, Any]]:
    if not isinstance(reply, dict) or not isinstance(reply.get("subscriptions"), dict):
        raise TesseraError("The reply to %s had no subscriptions." % what, body=reply)
    return [item for item in reply["subscriptions"].values() if isinstance(item, dict)]


def _one(reply: Any, what: str) -> Dict[str, Any]:
    items = _items(reply, what)
    if not items:
        raise TesseraError("The reply to %s had no subscription." % what, body=reply)
    return items[0]


class Subscriptions:
    """The subscriptions of the key's organization (``client.subscriptions``)."""

    def __init__(self, client: "Tessera") -> None:
        self._client = client

    def __repr__(self) -> str:
        return "<Subscriptions of %r>" % self._client

    def create(
        self,
        *,
        identity_id: Optional[int] = None,
        email: Optional[str] = None,
        phone: Optional[str] = None,
        md5: Optional[str] = None,
        sha256: Optional[str] = None,
        template: Optional[int] = None,
        idempotency_key: Optional[str] = None,
    ) -> Subscription:
        """Subscribes to one identity (POST /v2/subscriptions): by ``identity_id``, or by exactly one of ``email``,
        ``phone``, ``md5``, ``sha256``, resolved now to the identity holding it (and again whenever that identity
        changes). ``template`` shapes each event's record (Full by default).

        An identity or input no one holds raises :class:`~tessera.errors.NotFoundError`; past the contract's
        subscription limit, :class:`~tessera.errors.ConflictError`; a key of no organization, or a test key,
        :class:`~tessera.errors.PermissionDeniedError`. An Idempotency-Key is sent (``idempotency_key``, else a
        random one), the same on every retry, so a retry (after 429, 503 or no reply) makes no second subscription."""
        body: Dict[str, Any] = {}
        for name, value in (
            ("identityId", identity_id),
            ("email", email),
            ("phone", phone),
            ("md5", md5),
            ("sha256", sha256),
            ("template", template),
        ):
            if value is not None:
                body[name] = value
        reply = self._client.request_json(
            "POST", "/v2/subscriptions", json_body=body, idempotency_key=idempotency_key
        )
        return cast(Subscription, _one(reply, "POST /v2/subscriptions"))

    def list(self, *, before: Optional[int] = None) -> SubscriptionPage:
        """A page of the organization's subscriptions, newest first, 100 at most (GET /v2/subscriptions), with how
        many the organization holds (``live``) against its contract's ``limit``; ``before``: the ``next`` of the page
        before."""
        query = [] if before is None else [("before", _id(before))]
        reply = self._client.request_json("GET", "/v2/subscriptions", query)
        items = _items(reply, "GET /v2/subscriptions")
        items.sort(key=lambda item: item.get("id", 0), reverse=True)
        last = items[-1]["id"] if len(items) >= SUBSCRIPTION_PAGE_SIZE else None
        live = reply.get("live") if isinstance(reply.get("live"), int) else len(items)
        limit = reply.get("limit") if isinstance(reply.get("limit"), int) else None
        return cast(SubscriptionPage, {"subscriptions": items, "next": last, "live": live, "limit": limit})

    def iter(self) -> Iterator[Subscription]:
        """Every subscription of the organization, newest first, a page at a time."""
        before: Optional[int] = None
        while True:
            page = self.list(before=before)
            yield from page["subscriptions"]
            if page["next"] is None:
                return
            before = page["next"]

    def get(self, subscription_id: int) -> Subscription:
        """One subscription (GET /v2/subscriptions/{id}); another organization's, or a deleted one, raises
        :class:`~tessera.errors.NotFoundError`."""
        reply = self._client.request_json("GET", "/v2/subscriptions/" + _id(subscription_id))
        return cast(Subscription, _one(reply, "GET /v2/subscriptions/{id}"))

    def delete(self, subscription_id: int) -> DeletedSubscription:
        """Deletes a subscription (DELETE /v2/subscriptions/{id}): no event is sent for it after. Returns
        ``{"id", "deletedAt"}``."""
        reply = self._client.request_json("DELETE", "/v2/subscriptions/" + _id(subscription_id), unkeyed=True)
        return cast(DeletedSubscription, _one(reply, "DELETE /v2/subscriptions/{id}"))
