"""Every feature against a really started server (see tests/support.py for the settings it reads)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, List, Mapping, Sequence

from support import PACKAGE_ROOT, REQUIRE_LIVE, env, live, require_live

from tessera import (
    KEY_ID_LENGTH,
    ApiError,
    PiiInput,
    AuthenticationError,
    BadRequestError,
    RateLimitError,
    ResponseInfo,
    Tessera,
    UnprocessableError,
)


def setUpModule() -> None:
    if REQUIRE_LIVE:
        require_live()


KINDS = ("emails", "phones", "ips", "devices", "vehicles")
_rich: Dict[str, Any] = {}


def rich_person() -> Dict[str, Any]:
    """A seeded person with at least one of every kind of key (e-mail, phone, IP, device, vehicle), Full template:
    TESSERA_IDENTITY_ID's when it has them all, else the first such among ids 1 to 40."""
    if not _rich:
        client = Tessera(env("TESSERA_BASE_URL"), env("TESSERA_API_KEY"))
        wanted = int(env("TESSERA_IDENTITY_ID"))
        ids = [wanted] + [i for i in range(1, 41) if i != wanted]
        found = client.by_id.batch(ids)["results"]
        for item in found:
            for identity in item["identities"]:
                if all(identity.get(kind) for kind in KINDS):
                    _rich.update(identity)
                    return _rich
        raise AssertionError("no seeded person among ids 1-40 has every kind of key")
    return _rich


class LiveCase(unittest.TestCase):
    person: Dict[str, Any]
    email: str
    identity_id: int

    @classmethod
    def setUpClass(cls) -> None:
        cls.person = rich_person()
        cls.identity_id = cls.person["id"]
        cls.email = cls.person["emails"][0]["address"]

    @staticmethod
    def new_client(key: str = "", **options: Any) -> Tessera:
        return Tessera(env("TESSERA_BASE_URL"), key or env("TESSERA_API_KEY"), **options)

    def setUp(self) -> None:
        self.seen: List[ResponseInfo] = []
        self.client = self.new_client(on_response=self.seen.append)

    def ids(self, identities: Sequence[Mapping[str, Any]]) -> List[int]:
        return [identity["id"] for identity in identities]


@live
class LookupsTest(LiveCase):
    """The ten lookups, each by GET at least once, finding the seeded person."""

    def test_by_email(self) -> None:
        result = self.client.by_email.get(self.email)
        self.assertIn(self.identity_id, self.ids(result["identities"]))
        self.assertEqual(result["requestId"], self.seen[-1].request_id)
        identity = result["identities"][0]
        self.assertIn("email", identity["matchedOn"])
        self.assertEqual(identity["emails"][0]["address"], identity["emails"][0]["address"].lower())
        # A Full reply is over 1 KB, so it came gzip-compressed and was decoded.
        self.assertEqual(self.seen[-1].headers.get("content-encoding"), "gzip")
        self.assertEqual(self.seen[-1].request_headers["Accept-Encoding"], "gzip")

    def test_by_email_spaces_and_case(self) -> None:
        result = self.client.by_email.get("  " + self.email.upper() + " ")
        self.assertIn(self.identity_id, self.ids(result["identities"]))

    def test_by_phone(self) -> None:
        result = self.client.by_phone.get(self.person["phones"][0]["number"])
        self.assertIn(self.identity_id, self.ids(result["identities"]))

    def test_by_ip(self) -> None:
        result = self.client.by_ip.get(self.person["ips"][0]["ip"])
        self.assertIn(self.identity_id, self.ids(result["identities"]))

    def test_by_device(self) -> None:
        result = self.client.by_device.get(self.person["devices"][0]["deviceId"])
        self.assertIn(self.identity_id, self.ids(result["identities"]))

    def test_by_md5(self) -> None:
        result = self.client.by_md5.get(self.person["emails"][0]["md5"])
        self.assertIn(self.identity_id, self.ids(result["identities"]))

    def test_by_sha256(self) -> None:
        result = self.client.by_sha256.get({"sha256": self.person["emails"][0]["sha256"].upper()})
        self.assertIn(self.identity_id, self.ids(result["identities"]))

    def test_by_pii(self) -> None:
        p = self.person
        result = self.client.by_pii.get(
            {"firstName": p["firstName"], "lastName": p["lastName"], "address": p["address"], "zip": p["zip"]}
        )
        self.assertIn(self.identity_id, self.ids(result["identities"]))
        best = [i for i in result["identities"] if i["id"] == self.identity_id][0]
        self.assertGreaterEqual(best["score"], 50)

    def test_by_vehicle(self) -> None:
        result = self.client.by_vehicle.get(self.person["vehicles"][0]["vin"])
        self.assertIn(self.identity_id, self.ids(result["identities"]))

    def test_by_id(self) -> None:
        result = self.client.by_id.get(self.identity_id)
        self.assertEqual(self.ids(result["identities"]), [self.identity_id])
        self.assertEqual(result["identities"][0]["score"], 100)

    def test_by_any(self) -> None:
        result = self.client.by_any.get({"email": self.email, "phone": self.person["phones"][0]["number"]})
        self.assertIn(self.identity_id, self.ids(result["identities"]))
        self.assertTrue({"email", "phone"} <= set(result["identities"][0]["matchedOn"]))

    def test_nobody_matches(self) -> None:
        result = self.client.by_email.get("nobody-%s@nowhere.example" % uuid.uuid4().hex[:8])
        self.assertEqual(result["identities"], [])

    def test_full_identity_shape(self) -> None:
        identity = self.client.by_id.get(self.identity_id)["identities"][0]
        from tessera.types import FullIdentity

        required = FullIdentity.__required_keys__  # type: ignore[attr-defined]
        self.assertTrue(set(required) <= set(identity), set(required) - set(identity))
        self.assertNotIn("explain", identity)


@live
class OptionsTest(LiveCase):
    def test_template_gives_free_form_identities(self) -> None:
        result = self.client.by_email.get(self.email, template=3)
        identity = result["identities"][0]
        self.assertEqual(set(identity), {"score", "matchedOn", "id", "emails"})
        self.assertIn(self.email, identity["emails"])

    def test_explain(self) -> None:
        identity = self.client.by_email.get(self.email, explain=True)["identities"][0]
        self.assertIsInstance(identity.get("explain"), dict)
        self.assertTrue(identity.get("explain"))

    def test_min_score_and_limit(self) -> None:
        p = self.person
        loose: PiiInput = {"firstName": p["firstName"], "lastName": p["lastName"], "state": p["state"]}
        some = self.client.by_pii.get(loose, min_score=0, limit=5)["identities"]
        self.assertTrue(1 <= len(some) <= 5)
        one = self.client.by_pii.get(loose, min_score=0, limit=1)["identities"]
        self.assertEqual(len(one), 1)
        top = self.client.by_id.get(self.identity_id, min_score=100)["identities"]
        self.assertEqual(self.ids(top), [self.identity_id])

    def test_format_csv_get(self) -> None:
        with self.client.by_email.get(self.email, template=3, format="csv") as stream:
            rows = list(stream.rows())
            self.assertTrue(stream.filename and stream.filename.startswith("byEmail-"))
            self.assertEqual(stream.request_id, stream.headers["x-request-id"])
        self.assertEqual(rows[0], ["input.email", "score", "matchedOn", "id", "emails"])
        self.assertEqual(rows[1][0], self.email)
        self.assertEqual(rows[1][3], str(self.identity_id))

    def test_bad_option_is_the_servers_400(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            self.client.by_email.get(self.email, limit=500)
        self.assertEqual(caught.exception.code, "validation_failed")
        self.assertIn("limit", caught.exception.message)

    def test_unknown_template(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            self.client.by_email.get(self.email, template=999999)
        self.assertEqual(caught.exception.fields[0]["path"], "template")


@live
class BatchTest(LiveCase):
    def test_batch_with_metadata(self) -> None:
        other = self.person["emails"][-1]["address"]
        metadata = {"customerId": "c-123", "row": 2, "vip": True, "note": None, "weight": 1.5}
        result = self.client.by_email.batch(
            [self.email, {"email": other, "metadata": metadata}, "nobody@nowhere.example"], template=2
        )
        self.assertEqual(result["requestId"], self.seen[-1].request_id)
        first, second, third = result["results"]
        self.assertEqual(first["input"], self.email)
        self.assertNotIn("metadata", first)
        self.assertEqual(second["input"], {"email": other})
        self.assertEqual(second.get("metadata"), metadata)
        self.assertIn(self.identity_id, self.ids(first["identities"]))
        self.assertIn(self.identity_id, self.ids(second["identities"]))
        self.assertEqual(third["identities"], [])
        self.assertTrue(self.seen[-1].request_headers.get("Idempotency-Key"))

    def test_batch_of_every_key_endpoint(self) -> None:
        p = self.person
        cases = {
            "by_phone": p["phones"][0]["number"],
            "by_ip": p["ips"][0]["ip"],
            "by_device": p["devices"][0]["deviceId"],
            "by_md5": p["emails"][0]["md5"],
            "by_sha256": p["emails"][0]["sha256"],
            "by_vehicle": p["vehicles"][0]["vin"],
            "by_id": self.identity_id,
        }
        for attribute, value in cases.items():
            result = getattr(self.client, attribute).batch([value], template=3)
            self.assertIn(self.identity_id, self.ids(result["results"][0]["identities"]), attribute)
        pii = self.client.by_pii.batch(
            [{"firstName": p["firstName"], "lastName": p["lastName"], "zip": p["zip"], "metadata": {"k": "v"}}]
        )
        self.assertIn(self.identity_id, self.ids(pii["results"][0]["identities"]))
        self.assertEqual(pii["results"][0].get("metadata"), {"k": "v"})
        anything = self.client.by_any.batch([{"vin": p["vehicles"][0]["vin"]}], explain=True)
        self.assertIn("explain", anything["results"][0]["identities"][0])

    def test_batch_as_csv_has_metadata_columns(self) -> None:
        stream = self.client.by_email.batch(
            [{"email": self.email, "metadata": {"customerId": "c-9", "vip": None}}], template=3, format="csv"
        )
        rows = list(stream)
        self.assertEqual(rows[0], ["input.email", "metadata.customerId", "metadata.vip", "score", "matchedOn", "id", "emails"])
        self.assertEqual(rows[1][:3], [self.email, "c-9", ""])

    def test_nested_metadata_is_the_servers_400(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            self.client.by_email.batch([{"email": self.email, "metadata": {"tags": ["a"]}}])  # type: ignore[dict-item]
        self.assertEqual(caught.exception.fields[0]["path"], "body.inputs.0.metadata.tags")

    def test_bad_input_names_its_place(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            self.client.by_email.batch([self.email, "not-an-address"])
        self.assertEqual(caught.exception.fields[0]["path"], "body.inputs.1.email")
        self.assertIn("Please provide a valid email address.", caught.exception.message)


@live
class IdempotencyTest(LiveCase):
    def test_replay_with_the_same_key(self) -> None:
        key = "py-suite-" + uuid.uuid4().hex
        first = self.client.by_email.batch([self.email], template=3, idempotency_key=key)
        again = self.client.by_email.batch([self.email], template=3, idempotency_key=key)
        self.assertEqual(first, again)
        self.assertIsNone(self.seen[0].headers.get("idempotent-replayed"))
        self.assertEqual(self.seen[1].headers.get("idempotent-replayed"), "true")
        with self.assertRaises(UnprocessableError) as caught:
            self.client.by_email.batch([self.email], template=2, idempotency_key=key)
        self.assertEqual((caught.exception.status, caught.exception.code), (422, "unprocessable"))

    def test_upload_replay(self) -> None:
        key = "py-suite-" + uuid.uuid4().hex
        body = ("email\n%s\n" % self.email).encode()
        first = self.client.by_email.upload(body, template=3, idempotency_key=key)
        self.assertFalse(first.replayed)
        first_rows = list(first.rows())
        again = self.client.by_email.upload(body, template=3, idempotency_key=key)
        self.assertTrue(again.replayed)
        self.assertEqual(list(again.rows()), first_rows)


@live
class UploadTest(LiveCase):
    def _csv(self) -> bytes:
        return (
            "ref,email,note\n"
            "1,%s,first\n"
            "2,nobody@nowhere.example,\"with, comma\"\n"
            "3,not-an-address,bad\n"
            "4,%s,\"=1+1\"\n" % (self.email, self.person["emails"][-1]["address"])
        ).encode()

    def _check(self, rows: List[List[str]]) -> None:
        header = rows[0]
        self.assertEqual(header[:3], ["ref", "email", "note"])
        self.assertEqual(header[-1], "error")
        by_ref = {row[0]: dict(zip(header, row)) for row in rows[1:]}
        self.assertEqual(by_ref["1"]["id"], str(self.identity_id))
        self.assertEqual(by_ref["1"]["note"], "first")
        self.assertEqual(by_ref["2"]["note"], "with, comma")
        self.assertEqual(by_ref["2"]["id"], "")
        self.assertEqual(by_ref["3"]["error"], "line 4: email: Please provide a valid email address.")
        self.assertEqual(by_ref["4"]["note"], "=1+1")  # the formula guard's apostrophe dropped

    def test_upload_from_a_path(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "people.csv")
            with open(path, "wb") as f:
                f.write(self._csv())
            with self.client.by_email.upload(path, template=3) as stream:
                rows = list(stream.rows())
        self._check(rows)
        self.assertEqual(self.seen[-1].method, "PUT")
        self.assertTrue(self.seen[-1].request_headers.get("Idempotency-Key"))

    def test_upload_from_a_binary_file_object(self) -> None:
        stream = self.client.by_email.upload(io.BytesIO(self._csv()), template=3)
        self._check(list(stream.rows()))
        raw = self.client.by_email.upload(io.BytesIO(self._csv()), template=3)
        lines = list(raw.lines())
        self.assertTrue(lines[0].startswith("ref,email,note,score,matchedOn"))
        self.assertIn("'=1+1", lines[-1])

    def test_reply_streams_while_the_body_is_still_being_sent(self) -> None:
        """Full duplex: the body's second half is held back until the reply's first row has arrived, so a client
        that sends the whole body before reading would wait here for ever (the test would fail after 30 s)."""
        first_row = threading.Event()
        held: List[float] = []
        first = 600  # the server checks the header and the first 500 rows before its reply begins

        # Different people row after row (the seeded 200): identical rows would compress to almost nothing, and the
        # server's gzip stream sends nothing until it has a block's worth.
        def body():
            yield b"id,ref\n" + b"".join(b"%d,a%d\n" % (i % 200 + 1, i) for i in range(first))
            started = time.monotonic()
            if not first_row.wait(30):
                raise AssertionError("no reply row arrived while the upload was held back")
            held.append(time.monotonic() - started)
            for part in range(4):
                yield b"".join(b"%d,b%d-%d\n" % (i % 200 + 1, part, i) for i in range(250))

        rows = 0
        with self.client.by_id.upload(body()) as stream:
            encoding = stream.headers.get("content-encoding")
            for row in stream.rows():
                rows += 1
                if rows == 2:
                    first_row.set()
                    self.assertEqual(row[:2], ["1", "a0"])
        self.assertEqual(rows, 1 + first + 1000)
        self.assertEqual(len(held), 1)
        self.assertEqual(encoding, "gzip")


    def test_without_compression_small_rows_stream_at_once(self) -> None:
        """With a compact template the gzip stream holds rows back until it has a block's worth (hundreds of rows);
        compression=False gets them as they are made, so the same held-back upload goes through."""
        client = self.new_client(compression=False)
        first_row = threading.Event()

        def body():
            yield b"id\n" + b"".join(b"%d\n" % (i % 200 + 1) for i in range(600))
            if not first_row.wait(30):
                raise AssertionError("no reply row arrived while the upload was held back")
            yield b"".join(b"%d\n" % (i % 200 + 1) for i in range(100))

        rows = 0
        with client.by_id.upload(body(), template=3) as stream:
            self.assertIsNone(stream.headers.get("content-encoding"))
            for _ in stream.rows():
                rows += 1
                if rows == 2:
                    first_row.set()
        self.assertEqual(rows, 701)


@live
class KeysTest(LiveCase):
    def test_signed_key(self) -> None:
        seen: List[ResponseInfo] = []
        client = self.new_client(auth="signed", on_response=seen.append)
        self.assertIn(self.identity_id, self.ids(client.by_email.get(self.email)["identities"]))
        batch = client.by_email.batch([self.email], template=3)
        self.assertIn(self.identity_id, self.ids(batch["results"][0]["identities"]))
        rows = list(client.by_email.upload(("email\n%s\n" % self.email).encode(), template=3).rows())
        self.assertEqual(rows[1][3], str(self.identity_id))
        self.assertEqual(seen[0].request_headers["Authorization"], "Bearer %s… (signed)" % client.key_id)

    def test_stale_signed_time_is_refused(self) -> None:
        client = self.new_client(auth="signed", clock=lambda: time.time() - 600)
        with self.assertRaises(AuthenticationError) as caught:
            client.by_email.get(self.email)
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "unauthorized"))

    def test_legacy_key(self) -> None:
        client = self.new_client(env("TESSERA_LEGACY_KEY"), auth="legacy")
        self.assertIn(self.identity_id, self.ids(client.by_email.get(self.email)["identities"]))
        rows = list(client.by_email.upload(("email\n%s\n" % self.email).encode(), template=3).rows())
        self.assertEqual(rows[1][3], str(self.identity_id))
        # The same key works plain and signed too.
        plain = self.new_client(env("TESSERA_LEGACY_KEY"))
        self.assertIn(self.identity_id, self.ids(plain.by_email.get(self.email)["identities"]))

    def test_legacy_form_needs_a_legacy_key(self) -> None:
        with self.assertRaises(AuthenticationError) as caught:
            self.new_client(auth="legacy").by_email.get(self.email)
        self.assertIn("legacy", caught.exception.message)

    def test_unknown_key_is_401(self) -> None:
        key = env("TESSERA_API_KEY")
        wrong = key[:16] + ("A" if key[16] != "A" else "B") + key[17:]
        seen: List[ResponseInfo] = []
        with self.assertRaises(AuthenticationError) as caught:
            self.new_client(wrong, on_response=seen.append).by_email.get(self.email)
        error = caught.exception
        self.assertEqual((error.status, error.code), (401, "unauthorized"))
        self.assertTrue(error.message)
        self.assertEqual(error.request_id, seen[-1].request_id)
        self.assertEqual(error.headers.get("www-authenticate"), 'Bearer realm="tessera"')
        self.assertIsInstance(error, ApiError)

    def test_bad_input_is_400_with_the_servers_message(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            self.client.by_email.get("not-an-address")
        error = caught.exception
        self.assertEqual(error.status, 400)
        self.assertEqual(error.code, "validation_failed")
        self.assertEqual(error.message, "Invalid input querystring.email: Please provide a valid email address.")
        self.assertEqual(error.fields, [{"path": "querystring.email", "message": "Please provide a valid email address."}])
        self.assertEqual(error.request_id, self.seen[-1].request_id)
        self.assertEqual(error.body["requestId"], error.request_id)


@live
class RateLimitTest(LiveCase):
    """A key limited to one request a minute: the second quick call is a 429 whose Retry-After (60 to 120 s in a
    one-minute sliding window) the client waits for. The waits are recorded instead of slept, so the test shows the
    client honouring the server's own Retry-After without taking two minutes; the local double (test_transport)
    shows a real wait followed by success."""

    def test_429_retry_honours_retry_after(self) -> None:
        sleeps: List[float] = []
        seen: List[ResponseInfo] = []
        client = self.new_client(env("TESSERA_LIMITED_KEY"), max_retries=2, sleep=sleeps.append, on_response=seen.append)
        self.assertIn(self.identity_id, self.ids(client.by_id.get(self.identity_id)["identities"]))
        self.assertEqual(seen[0].headers.get("ratelimit-policy"), '"key";q=1;w=60')
        with self.assertRaises(RateLimitError) as caught:
            client.by_id.get(self.identity_id)
        error = caught.exception
        refused = seen[1:]
        self.assertEqual([i.status for i in refused], [429, 429, 429])
        announced = [float(i.headers["retry-after"]) for i in refused]
        self.assertTrue(all(1 <= a <= 120 for a in announced), announced)
        self.assertEqual(sleeps, announced[:2])
        self.assertEqual([i.retry_in for i in refused], announced[:2] + [None])
        self.assertEqual((error.status, error.code, error.retry_after), (429, "rate_limited", announced[2]))
        self.assertIn("limited to 1 requests a minute", error.message)
        self.assertEqual(error.request_id, refused[-1].request_id)

        # A Retry-After longer than max_retry_wait is raised at once, without waiting.
        sleeps.clear()
        impatient = self.new_client(env("TESSERA_LIMITED_KEY"), max_retry_wait=5, sleep=sleeps.append)
        with self.assertRaises(RateLimitError) as caught:
            impatient.by_id.get(self.identity_id)
        self.assertEqual(sleeps, [])
        self.assertGreater(caught.exception.retry_after or 0, 5)


@live
class ExampleTest(LiveCase):
    def test_first_example_runs_as_written(self) -> None:
        child_env = dict(os.environ)
        child_env["PYTHONPATH"] = os.path.join(PACKAGE_ROOT, "src") + os.pathsep + child_env.get("PYTHONPATH", "")
        child_env["PYTHONDONTWRITEBYTECODE"] = "1"
        done = subprocess.run(
            [sys.executable, os.path.join(PACKAGE_ROOT, "examples", "first_call.py")],
            env=child_env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        identities = json.loads(done.stdout)
        self.assertIn(int(env("TESSERA_IDENTITY_ID")), self.ids(identities))


if __name__ == "__main__":
    unittest.main()


@live
class UsageTest(LiveCase):
    """Usage by key (issue 31): a key reads its own calls; a lookup's reply tells what it cost."""

    def test_a_key_reads_its_own_usage_and_each_lookup_its_cost(self) -> None:
        key = env("TESSERA_USAGE_KEY")
        key_id = key[:KEY_ID_LENGTH]
        seen: List[ResponseInfo] = []
        client = self.new_client(key, on_response=seen.append)
        start = datetime.now(timezone.utc) - timedelta(hours=1)
        end = datetime.now(timezone.utc) + timedelta(hours=1)
        client.by_id.get(self.identity_id, template=3)
        client.by_id.batch([self.identity_id], template=3)
        # Root's calls are metered at no contract: the cost is there, as dollars.
        self.assertEqual(seen[0].call_cost, 0.0)
        self.assertIsInstance(seen[1].call_cost, float)
        calls = client.usage_calls(from_=start, to=end, key_id=key_id, page_size=10)
        self.assertEqual(
            [(c["keyId"], c["method"], c["path"]) for c in calls["calls"]],
            [(key_id, "POST", "/byId"), (key_id, "GET", "/byId")],
        )
        self.assertIsNone(calls["next"])
        self.assertIsNone(seen[-1].call_cost)
        totals = client.usage_totals(from_=start.isoformat(), to=end, key_id=key_id)
        self.assertEqual(totals["totals"]["requests"], 2)
        series = client.usage_series(from_=start, to=end, key_id=key_id, interval="hour", metric="inputs")
        self.assertEqual(sum(p["value"] for p in series["points"]), 2)

    def test_usage_errors(self) -> None:
        with self.assertRaises(BadRequestError) as refused:
            self.client.usage_totals(tz="Mars/Olympus")
        self.assertEqual(refused.exception.code, "validation_failed")
        with self.assertRaises(AuthenticationError):
            self.new_client("A1" * 24).usage_calls()
