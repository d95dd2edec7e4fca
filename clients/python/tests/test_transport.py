"""Retries, idempotency keys, timeouts, decoding and error mapping, against a local test double on loopback
(tests/support.py: a tiny http.server answering from a script), for what a real server will not do on demand:
answer 503, or stall."""

from __future__ import annotations

import gzip
import io
import json
import os
import socket
import tempfile
import time
import unittest
import zlib

from support import FAKE_KEY, Double, json_reply

from tessera import (
    ApiError,
    RateLimitError,
    Tessera,
    TesseraConnectionError,
    TesseraError,
    TesseraTimeoutError,
    UnavailableError,
)

OK = {"requestId": "r-ok", "identities": [{"score": 97, "matchedOn": ["email"], "id": 7}]}
UNAVAILABLE = {
    "error": "Usage could not be recorded, so the call was not answered or charged. Please retry.",
    "code": "unavailable",
    "requestId": "r-503",
}
LIMITED = {"error": "This API key is limited to 1 requests a minute; please retry in 1 s.", "code": "rate_limited", "requestId": "r-429"}
CSV_REPLY = b"email,ref,score,matchedOn,id,error\r\na@b.example,1,97,email,7,\r\n"


class Sleeps(list):
    """A stand-in for time.sleep that records the waits asked for."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def client(double: Double, **options: object) -> Tessera:
    return Tessera(double.url, FAKE_KEY, **options)  # type: ignore[arg-type]


class RetryTest(unittest.TestCase):
    def test_503_then_200_waits_retry_after(self) -> None:
        script = [json_reply(503, UNAVAILABLE, {"Retry-After": "1"}), json_reply(200, OK)]
        with Double(script) as double:
            seen = []
            started = time.monotonic()
            result = client(double, on_response=seen.append).by_email.get("a@b.example")
            elapsed = time.monotonic() - started
        self.assertEqual(result["identities"][0]["id"], 7)
        self.assertGreaterEqual(elapsed, 1.0)
        self.assertEqual([(i.status, i.retry_in, i.attempt) for i in seen], [(503, 1.0, 1), (200, None, 2)])
        self.assertEqual(len(double.requests), 2)
        self.assertEqual(double.requests[0].path, "/v2/identities/byEmail?email=a%40b.example")

    def test_429_then_200_honours_retry_after(self) -> None:
        script = [json_reply(429, LIMITED, {"Retry-After": "1"}), json_reply(200, OK)]
        with Double(script) as double:
            result, started = None, time.monotonic()
            result = client(double).by_email.get("a@b.example")
            elapsed = time.monotonic() - started
        self.assertEqual(result["requestId"], "r-ok")
        self.assertGreaterEqual(elapsed, 1.0)

    def test_backoff_without_retry_after(self) -> None:
        sleeps = Sleeps()
        with Double([json_reply(503, UNAVAILABLE)]) as double:
            with self.assertRaises(UnavailableError) as caught:
                client(double, sleep=sleeps, max_retries=4, backoff_base=0.5, backoff_max=3).by_email.get("a@b.example")
        self.assertEqual(len(double.requests), 5)
        self.assertEqual(len(sleeps), 4)
        for n, (wait, cap) in enumerate(zip(sleeps, [0.5, 1.0, 2.0, 3.0])):
            self.assertTrue(cap / 2 <= wait <= cap, "retry %d waited %s" % (n + 1, wait))
        error = caught.exception
        self.assertEqual((error.status, error.code, error.request_id), (503, "unavailable", "r-503"))
        self.assertEqual(error.message, UNAVAILABLE["error"])

    def test_gives_up_after_max_retries(self) -> None:
        sleeps = Sleeps()
        with Double([json_reply(429, LIMITED, {"Retry-After": "2"})]) as double:
            with self.assertRaises(RateLimitError) as caught:
                client(double, sleep=sleeps, max_retries=2).by_email.get("a@b.example")
        self.assertEqual(sleeps, [2.0, 2.0])
        self.assertEqual(len(double.requests), 3)
        self.assertEqual(caught.exception.retry_after, 2.0)

    def test_retry_after_longer_than_max_retry_wait_is_raised_at_once(self) -> None:
        sleeps = Sleeps()
        with Double([json_reply(429, LIMITED, {"Retry-After": "81"})]) as double:
            with self.assertRaises(RateLimitError) as caught:
                client(double, sleep=sleeps, max_retry_wait=10).by_email.get("a@b.example")
        self.assertEqual((sleeps, len(double.requests), caught.exception.retry_after), ([], 1, 81.0))

    def test_max_retries_zero(self) -> None:
        with Double([json_reply(503, UNAVAILABLE, {"Retry-After": "0"})]) as double:
            with self.assertRaises(UnavailableError):
                client(double, max_retries=0).by_email.get("a@b.example")
        self.assertEqual(len(double.requests), 1)

    def test_other_errors_are_not_retried(self) -> None:
        for status in (400, 401, 409, 422, 500, 502):
            with Double([json_reply(status, {"error": "no", "code": "x", "requestId": "r"}), json_reply(200, OK)]) as double:
                with self.assertRaises(ApiError) as caught:
                    client(double, sleep=Sleeps()).by_email.get("a@b.example")
            self.assertEqual((caught.exception.status, len(double.requests)), (status, 1))


class IdempotencyTest(unittest.TestCase):
    def test_post_sends_one_key_on_every_retry(self) -> None:
        batch = {"requestId": "r", "results": [{"input": "a@b.example", "identities": []}]}
        script = [json_reply(503, UNAVAILABLE), json_reply(429, LIMITED, {"Retry-After": "0"}), json_reply(200, batch)]
        with Double(script) as double:
            result = client(double, sleep=Sleeps()).by_email.batch(
                ["a@b.example", {"email": "c@d.example", "metadata": {"row": 2}}], template=2
            )
        self.assertEqual(result, batch)
        keys = [r.headers.get("Idempotency-Key") for r in double.requests]
        self.assertEqual(len(keys), 3)
        self.assertTrue(keys[0] and len(set(keys)) == 1, keys)
        bodies = {r.body for r in double.requests}
        self.assertEqual(len(bodies), 1)
        self.assertEqual(
            json.loads(bodies.pop()),
            {"inputs": ["a@b.example", {"email": "c@d.example", "metadata": {"row": 2}}], "template": 2},
        )

    def test_each_call_gets_its_own_key_and_a_given_key_is_used(self) -> None:
        batch = {"requestId": "r", "results": []}
        with Double([json_reply(200, batch)]) as double:
            tessera = client(double)
            tessera.by_email.batch(["a@b.example"])
            tessera.by_email.batch(["a@b.example"])
            tessera.by_email.batch(["a@b.example"], idempotency_key="order-2041")
            tessera.by_email.get("a@b.example")
        keys = [r.headers.get("Idempotency-Key") for r in double.requests]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual(keys[2], "order-2041")
        self.assertIsNone(keys[3])  # GET needs none

    def test_without_idempotency_keys_post_is_not_retried(self) -> None:
        with Double([json_reply(503, UNAVAILABLE, {"Retry-After": "0"}), json_reply(200, {})]) as double:
            with self.assertRaises(UnavailableError):
                client(double, idempotency_keys=False).by_email.batch(["a@b.example"])
        self.assertEqual(len(double.requests), 1)
        self.assertIsNone(double.requests[0].headers.get("Idempotency-Key"))
        # ... unless a key is given for the call.
        with Double([json_reply(503, UNAVAILABLE, {"Retry-After": "0"}), json_reply(200, {"results": []})]) as double:
            client(double, idempotency_keys=False).by_email.batch(["a@b.example"], idempotency_key="k-1")
        self.assertEqual([r.headers.get("Idempotency-Key") for r in double.requests], ["k-1", "k-1"])


class UploadRetryTest(unittest.TestCase):
    BODY = b"email,ref\na@b.example,1\n"

    def _script(self) -> list:
        return [
            json_reply(503, UNAVAILABLE, {"Retry-After": "0"}),
            {"status": 200, "headers": {"Content-Type": "text/csv"}, "body": CSV_REPLY},
        ]

    def _check(self, double: Double) -> None:
        self.assertEqual([r.method for r in double.requests], ["PUT", "PUT"])
        self.assertEqual([r.body for r in double.requests], [self.BODY, self.BODY])
        keys = {r.headers.get("Idempotency-Key") for r in double.requests}
        self.assertEqual(len(keys), 1)
        self.assertIsNotNone(keys.pop())
        self.assertEqual(double.requests[0].headers.get("Transfer-Encoding"), "chunked")
        self.assertTrue(double.requests[0].headers.get("Content-Type", "").startswith("text/csv"))

    def test_path_is_read_again(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "in.csv")
            with open(path, "wb") as f:
                f.write(self.BODY)
            with Double(self._script()) as double:
                rows = list(client(double).by_email.upload(path, template=2, min_score=50).rows())
        self.assertEqual(rows[1], ["a@b.example", "1", "97", "email", "7", ""])
        self._check(double)
        self.assertEqual(double.requests[0].path, "/v2/identities/byEmail?template=2&minScore=50")

    def test_seekable_file_is_sent_again_from_where_it_stood(self) -> None:
        file = io.BytesIO(b"ignored-prefix" + self.BODY)
        file.seek(len(b"ignored-prefix"))
        with Double(self._script()) as double:
            text = client(double).by_email.upload(file).text()
        self.assertEqual(text, CSV_REPLY.decode())
        self._check(double)

    def test_iterable_is_not_retried(self) -> None:
        with Double(self._script()) as double:
            with self.assertRaises(UnavailableError):
                client(double).by_email.upload(iter([self.BODY]))
        self.assertEqual(len(double.requests), 1)

    def test_an_error_in_the_body_source_is_raised(self) -> None:
        def broken():
            yield b"email\n"
            raise RuntimeError("disk gone")

        with Double([{"status": 200, "headers": {"Content-Type": "text/csv"}, "body": CSV_REPLY}]) as double:
            with self.assertRaises(RuntimeError) as caught:
                client(double, timeout=10).by_email.upload(broken())
        self.assertIn("disk gone", str(caught.exception))


class TimeoutTest(unittest.TestCase):
    def test_no_reply_in_time(self) -> None:
        with Double([dict(json_reply(200, OK), delay=2)]) as double:
            started = time.monotonic()
            with self.assertRaises(TesseraTimeoutError) as caught:
                client(double, timeout=0.3, retry_network_errors=False).by_email.get("a@b.example")
            elapsed = time.monotonic() - started
        self.assertLess(elapsed, 1.5)
        self.assertIsNone(caught.exception.status)
        self.assertIsInstance(caught.exception, TesseraError)
        self.assertEqual(len(double.requests), 1)  # retry_network_errors=False: not sent again

    def test_a_get_that_timed_out_is_sent_again_with_backoff(self) -> None:
        with Double([dict(json_reply(200, OK), delay=2), json_reply(200, OK)]) as double:
            sleeps = Sleeps()
            result = client(double, timeout=0.3, sleep=sleeps, backoff_base=0.5).by_email.get("a@b.example")
        self.assertEqual(result, OK)
        self.assertEqual(len(double.requests), 2)
        self.assertEqual(len(sleeps), 1)
        self.assertTrue(0.25 <= sleeps[0] <= 0.5, sleeps)

    def test_stream_that_stalls(self) -> None:
        chunks = [(b"email,score\r\n", 0), (b"a@b.example,97\r\n", 0), (b"c@d.example,90\r\n", 2)]
        with Double([{"status": 200, "headers": {"Content-Type": "text/csv"}, "chunks": chunks}]) as double:
            stream = client(double, timeout=0.5).by_email.upload(b"email\na@b.example\nc@d.example\n")
            rows = []
            with self.assertRaises(TesseraTimeoutError):
                for row in stream.rows():
                    rows.append(row)
        self.assertEqual(rows, [["email", "score"], ["a@b.example", "97"]])

    def test_slow_but_steady_stream_is_not_a_timeout(self) -> None:
        chunks = [(b"email,score\r\n", 0)] + [(b"a@b.example,97\r\n", 0.3)] * 4
        with Double([{"status": 200, "headers": {"Content-Type": "text/csv"}, "chunks": chunks}]) as double:
            rows = list(client(double, timeout=1).by_email.get("a@b.example", format="csv").rows())
        self.assertEqual(len(rows), 5)


class TransportTest(unittest.TestCase):
    def test_connection_refused(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        with self.assertRaises(TesseraConnectionError) as caught:
            Tessera("http://127.0.0.1:%d" % port, FAKE_KEY).by_email.get("a@b.example")
        self.assertIsNone(caught.exception.status)

    def test_gzip_and_deflate_replies_are_decoded(self) -> None:
        raw = json.dumps(OK).encode()
        deflated = zlib.compress(raw)
        raw_deflate = zlib.compressobj(wbits=-15)
        raw_deflated = raw_deflate.compress(raw) + raw_deflate.flush()
        two_members = gzip.compress(raw[:10]) + gzip.compress(raw[10:])
        script = [
            dict(json_reply(200, OK), gzip=True),
            {"status": 200, "headers": {"Content-Type": "application/json", "Content-Encoding": "deflate"}, "body": deflated},
            {"status": 200, "headers": {"Content-Type": "application/json", "Content-Encoding": "deflate"}, "body": raw_deflated},
            {"status": 200, "headers": {"Content-Type": "application/json", "Content-Encoding": "gzip"}, "body": two_members},
            dict(json_reply(400, {"error": "Bad thing", "code": "bad_request", "requestId": "r-400"}), gzip=True),
        ]
        with Double(script) as double:
            tessera = client(double)
            for _ in range(4):
                self.assertEqual(tessera.by_email.get("a@b.example"), OK)
            with self.assertRaises(ApiError) as caught:
                tessera.by_email.get("a@b.example")
        self.assertEqual(caught.exception.message, "Bad thing")
        self.assertEqual(double.requests[0].headers.get("Accept-Encoding"), "gzip")

    def test_truncated_gzip_is_an_error(self) -> None:
        packed = gzip.compress(json.dumps(OK).encode())[:-12]
        script = [{"status": 200, "headers": {"Content-Type": "application/json", "Content-Encoding": "gzip"}, "body": packed}]
        with Double(script) as double:
            with self.assertRaises(TesseraConnectionError) as caught:
                client(double).by_email.get("a@b.example")
        self.assertIn("did not decode", str(caught.exception))

    def test_gzip_csv_stream_split_anywhere(self) -> None:
        rows = b"".join(b"p%d@b.example,%d,\"multi\r\nline\",'=1+1\r\n" % (i, i) for i in range(2000))
        packed = gzip.compress(b"email,score,note,formula\r\n" + rows)
        chunks = [(packed[i : i + 777], 0) for i in range(0, len(packed), 777)]
        headers = {"Content-Type": "text/csv", "Content-Encoding": "gzip", "Idempotent-Replayed": "true"}
        with Double([{"status": 200, "headers": headers, "chunks": chunks}]) as double:
            stream = client(double).by_email.upload(b"email\n")
            self.assertTrue(stream.replayed)
            got = list(stream.rows())
        self.assertEqual(len(got), 2001)
        self.assertEqual(got[0], ["email", "score", "note", "formula"])
        self.assertEqual(got[2000], ["p1999@b.example", "1999", "multi\r\nline", "=1+1"])
        with Double([{"status": 200, "headers": headers, "chunks": chunks}]) as double:
            raw = list(client(double).by_email.upload(b"email\n").rows(unguard_cells=False))
        self.assertEqual(raw[1][3], "'=1+1")
        with Double([{"status": 200, "headers": headers, "chunks": chunks}]) as double:
            lines = list(client(double).by_email.upload(b"email\n").lines())
        self.assertEqual(lines[0], "email,score,note,formula")
        self.assertEqual(len(lines), 1 + 2 * 2000)

    def test_stream_is_read_once_and_can_be_closed_early(self) -> None:
        chunks = [(b"email\r\n", 0)] + [(b"a@b.example\r\n", 0.05)] * 20
        with Double([{"status": 200, "headers": {"Content-Type": "text/csv"}, "chunks": chunks}]) as double:
            with client(double).by_email.get("a@b.example", format="csv") as stream:
                self.assertEqual(next(iter(stream)), ["email"])
                with self.assertRaises(RuntimeError):
                    stream.text()
            with client(double).by_email.get("a@b.example", format="csv") as stream:
                with tempfile.TemporaryDirectory() as folder:
                    path = os.path.join(folder, "out.csv")
                    self.assertEqual(stream.save(path), 7 + 20 * 13)

    def test_unknown_content_encoding(self) -> None:
        script = [{"status": 200, "headers": {"Content-Type": "application/json", "Content-Encoding": "br"}, "body": b"x"}]
        with Double(script) as double:
            with self.assertRaises(TesseraError) as caught:
                client(double).by_email.get("a@b.example")
        self.assertIn("br", str(caught.exception))

    def test_non_json_error_body_and_request_id_header(self) -> None:
        script = [{"status": 502, "headers": {"Content-Type": "text/html", "X-Request-Id": "h-9"}, "body": b"Bad gateway"}]
        with Double(script) as double:
            with self.assertRaises(ApiError) as caught:
                client(double).by_email.get("a@b.example")
        error = caught.exception
        self.assertEqual((error.status, error.code, error.message, error.request_id), (502, None, "Bad gateway", "h-9"))

    def test_request_shape(self) -> None:
        with Double([json_reply(200, OK)]) as double:
            client(double).by_pii.get(
                {"firstName": "Robert", "lastName": "O'Neil Smith", "zip": "62701"}, template=5, explain=True, limit=3
            )
            client(double).by_id.get(7, min_score=99.5)
        first, second = double.requests
        self.assertEqual(
            first.path,
            "/v2/identities/byPii?firstName=Robert&lastName=O%27Neil%20Smith&zip=62701&template=5&explain=true&limit=3",
        )
        self.assertTrue(first.headers["Authorization"].startswith("Bearer " + FAKE_KEY[:16]))
        self.assertEqual(first.headers["Accept"], "application/json")
        self.assertRegex(first.headers["User-Agent"], r"^tessera-python/\d+\.\d+\.\d+ ")
        self.assertEqual(second.path, "/v2/identities/byId?id=7&minScore=99.5")

    def test_compression_off(self) -> None:
        with Double([json_reply(200, OK)]) as double:
            Tessera(double.url, FAKE_KEY, compression=False).by_email.get("a@b.example")
        self.assertEqual(double.requests[0].headers.get("Accept-Encoding"), "identity")

    def test_base_url_with_a_path_prefix(self) -> None:
        with Double([json_reply(200, OK)]) as double:
            Tessera(double.url + "/gateway/", FAKE_KEY).by_md5.get("ab" * 16)
        self.assertEqual(double.requests[0].path, "/gateway/v2/identities/byMd5?md5=" + "ab" * 16)

    def test_signed_tokens_are_fresh_on_each_attempt(self) -> None:
        clock = iter([1000.0, 2000.0, 3000.0])
        with Double([json_reply(503, UNAVAILABLE, {"Retry-After": "0"}), json_reply(200, OK)]) as double:
            Tessera(double.url, FAKE_KEY, auth="signed", clock=lambda: next(clock)).by_email.get("a@b.example")
        stamps = [r.headers["Authorization"][7 + 16 : -64] for r in double.requests]
        self.assertEqual(len(set(stamps)), 2, stamps)


if __name__ == "__main__":
    unittest.main()
