"""Webhook signature verification (issue 33 item 4), against the Standard Webhooks test vector and tampering."""

from __future__ import annotations

import base64
import hashlib
import hmac
import unittest

import support  # noqa: F401  (puts ../src on sys.path)

from tessera.webhooks import WebhookVerificationError, verify_webhook, webhook_signature

# The example of the Standard Webhooks specification.
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
BODY = '{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def headers(signature: str = SIGNATURE, timestamp: "int | str" = TIMESTAMP) -> dict:
    return {"webhook-id": MSG_ID, "webhook-timestamp": str(timestamp), "webhook-signature": signature}


class VerifyWebhookTest(unittest.TestCase):
    def test_signs_as_the_specification_does(self) -> None:
        self.assertEqual(webhook_signature(SECRET, MSG_ID, TIMESTAMP, BODY), SIGNATURE)

    def test_accepts_a_signed_delivery_and_returns_its_event(self) -> None:
        event = verify_webhook(SECRET, headers(), BODY.encode(), now=TIMESTAMP + 10)
        self.assertEqual(event, {"test": 2432232314})

    def test_accepts_any_of_two_signatures_and_any_of_two_secrets(self) -> None:
        other = "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODk="
        both = webhook_signature(other, MSG_ID, TIMESTAMP, BODY) + " " + SIGNATURE
        self.assertEqual(verify_webhook(SECRET, headers(both), BODY, now=TIMESTAMP)["test"], 2432232314)
        self.assertEqual(verify_webhook([other, SECRET], headers(), BODY, now=TIMESTAMP)["test"], 2432232314)

    def test_reads_headers_in_any_case(self) -> None:
        mixed = {"Webhook-Id": MSG_ID, "Webhook-Timestamp": str(TIMESTAMP), "WEBHOOK-SIGNATURE": SIGNATURE}
        self.assertEqual(verify_webhook(SECRET, mixed, BODY, now=TIMESTAMP)["test"], 2432232314)

    def test_refuses_what_tessera_did_not_sign_just_now(self) -> None:
        cases = {
            "a changed body": (SECRET, headers(), BODY.replace("2432232314", "2432232315"), TIMESTAMP),
            "another secret": ("whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODk=", headers(), BODY, TIMESTAMP),
            "a stale timestamp": (SECRET, headers(), BODY, TIMESTAMP + 301),
            "a future timestamp": (SECRET, headers(), BODY, TIMESTAMP - 301),
            "another version": (SECRET, headers("v2," + SIGNATURE[3:]), BODY, TIMESTAMP),
            "no signature": (SECRET, {"webhook-id": MSG_ID, "webhook-timestamp": str(TIMESTAMP)}, BODY, TIMESTAMP),
            "a timestamp not in seconds": (SECRET, headers(timestamp=-5), BODY, TIMESTAMP),
        }
        for name, (secret, given, body, now) in cases.items():
            with self.subTest(name), self.assertRaises(WebhookVerificationError):
                verify_webhook(secret, given, body, now=now)

    def test_refuses_a_secret_that_is_not_base64_as_a_set_up_error(self) -> None:
        with self.assertRaisesRegex(ValueError, "not base64") as caught:
            verify_webhook("whsec_***", headers(), BODY, now=TIMESTAMP)
        self.assertNotIsInstance(caught.exception, WebhookVerificationError)

    def test_refuses_a_signed_body_that_is_not_a_json_object(self) -> None:
        for body in ("not json", "[1, 2]"):
            signed = headers(webhook_signature(SECRET, MSG_ID, TIMESTAMP, body))
            with self.subTest(body), self.assertRaisesRegex(WebhookVerificationError, "not a JSON object"):
                verify_webhook(SECRET, signed, body, now=TIMESTAMP)

    def test_checks_the_timestamp_digits_as_sent(self) -> None:
        padded = "0" + str(TIMESTAMP)
        key = base64.b64decode(SECRET[len("whsec_") :])
        digest = hmac.new(key, f"{MSG_ID}.{padded}.{BODY}".encode(), hashlib.sha256).digest()
        signature = "v1," + base64.b64encode(digest).decode()
        self.assertEqual(verify_webhook(SECRET, headers(signature, padded), BODY, now=TIMESTAMP)["test"], 2432232314)


if __name__ == "__main__":
    unittest.main()
