"""Change subscriptions (``client.subscriptions``) against the really started server, with a key of the seeded
"Demo" organization (TESSERA_ORG_KEY); the TypedDicts follow the OpenAPI document."""

from __future__ import annotations

import json
import os
import typing
import unittest

from support import PACKAGE_ROOT, REQUIRE_LIVE, env, live, require_live

from tessera import BadRequestError, NotFoundError, PermissionDeniedError, Subscription, SubscriptionPage, Tessera


def setUpModule() -> None:
    if REQUIRE_LIVE:
        require_live()


@live
class SubscriptionsTest(unittest.TestCase):
    client: Tessera
    email: str
    identity_id: int

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Tessera(env("TESSERA_BASE_URL"), env("TESSERA_ORG_KEY"))
        cls.email = env("TESSERA_EMAIL")
        cls.identity_id = int(env("TESSERA_IDENTITY_ID"))

    def test_made_by_id_and_by_input_read_listed_and_deleted(self) -> None:
        subscriptions = self.client.subscriptions
        by_id = subscriptions.create(identity_id=self.identity_id)
        self.assertEqual(
            {k: v for k, v in by_id.items() if k not in ("id", "organizationId", "userId", "createdAt")},
            {"keyId": env("TESSERA_ORG_KEY")[:16], "identityId": self.identity_id, "input": None, "templateId": 1},
        )
        key = "subscribe-%d" % by_id["id"]
        by_email = subscriptions.create(email=" %s " % self.email.upper(), template=3, idempotency_key=key)
        # The same key again: the first subscription back, no second one.
        again = subscriptions.create(email=" %s " % self.email.upper(), template=3, idempotency_key=key)
        self.assertEqual(again, by_email)
        self.assertEqual(by_email["identityId"], self.identity_id)
        self.assertEqual(by_email["input"], {"kind": "email", "value": self.email})
        self.assertEqual(by_email["templateId"], 3)

        self.assertEqual(subscriptions.get(by_id["id"]), by_id)
        page = subscriptions.list()
        self.assertEqual([s["id"] for s in page["subscriptions"]], [by_email["id"], by_id["id"]])
        self.assertIsNone(page["next"])
        # The organization's count against its contract's limit (Demo's sets none).
        self.assertEqual((page["live"], page["limit"]), (2, None))
        self.assertEqual([s["id"] for s in subscriptions.list(before=by_email["id"])["subscriptions"]], [by_id["id"]])

        gone = subscriptions.delete(by_id["id"])
        self.assertEqual(gone["id"], by_id["id"])
        self.assertIsInstance(gone["deletedAt"], str)
        with self.assertRaises(NotFoundError) as missing:
            subscriptions.get(by_id["id"])
        self.assertEqual(missing.exception.message, "No such subscription.")
        with self.assertRaises(NotFoundError):
            subscriptions.delete(by_id["id"])
        self.assertEqual([s["id"] for s in subscriptions.iter()], [by_email["id"]])
        subscriptions.delete(by_email["id"])

    def test_an_identity_or_input_no_one_holds_is_not_found(self) -> None:
        with self.assertRaises(NotFoundError) as unknown:
            self.client.subscriptions.create(identity_id=987654321)
        self.assertEqual(unknown.exception.status, 404)
        self.assertEqual(unknown.exception.message, "No identity 987654321 was found.")
        with self.assertRaises(NotFoundError) as nobody:
            self.client.subscriptions.create(email="nobody@example.com")
        self.assertEqual(nobody.exception.message, "No identity holds this e-mail address.")
        with self.assertRaises(BadRequestError):
            self.client.subscriptions.create(identity_id=1, email=self.email)

    def test_a_key_of_no_organization_is_refused(self) -> None:
        with self.assertRaises(PermissionDeniedError) as refused:
            Tessera(env("TESSERA_BASE_URL"), env("TESSERA_API_KEY")).subscriptions.list()
        self.assertEqual(refused.exception.status, 403)
        self.assertIn("organization", refused.exception.message)


OPENAPI = os.path.join(PACKAGE_ROOT, "..", "..", "docs", "openapi.json")


@unittest.skipUnless(os.path.exists(OPENAPI), "docs/openapi.json is not beside this package")
class SubscriptionTypesTest(unittest.TestCase):
    def test_the_typed_dict_follows_the_document(self) -> None:
        with open(OPENAPI, encoding="utf-8") as f:
            schemas = json.load(f)["components"]["schemas"]
        schema = schemas["Subscription"]
        # A page is the list's reply, its subscriptions in a list, with the client's `next`.
        page = set(SubscriptionPage.__required_keys__)  # type: ignore[attr-defined]
        self.assertEqual(page - {"next"}, set(schemas["SubscriptionList"]["properties"]))
        self.assertEqual(set(Subscription.__required_keys__), set(schema["properties"]))  # type: ignore[attr-defined]
        self.assertEqual(set(schema["required"]), set(schema["properties"]))
        kinds = typing.get_type_hints(typing.get_type_hints(Subscription)["input"].__args__[0])["kind"]
        self.assertEqual(set(typing.get_args(kinds)), set(schema["properties"]["input"]["properties"]["kind"]["enum"]))


if __name__ == "__main__":
    unittest.main()
