"""Connections, proxies and retries of calls that got no reply, against the really started server (issue 31).

test/python.suite.test.ts runs, beside the server, an HTTP proxy that lists what it carried (``TESSERA_PROXY_URL``,
``GET /__seen``) and a TCP relay to the server that, once armed, resets its next new connection as soon as the
request arrives (``TESSERA_RELAY_URL``; ``TESSERA_RELAY_CONTROL``: ``POST /arm``, ``GET /count``).
"""

from __future__ import annotations

import json
import os
import unittest
import urllib.request
import uuid
from typing import Any, Dict, List

from support import env, live, require_live

from tessera import ResponseInfo, Tessera, TesseraConnectionError


def _direct(url: str, method: str = "GET") -> Any:
    """The control endpoints, asked without any proxy."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)) as reply:
        return json.loads(reply.read())


def count() -> Dict[str, int]:
    return _direct(env("TESSERA_RELAY_CONTROL") + "/count")


def arm() -> None:
    _direct(env("TESSERA_RELAY_CONTROL") + "/arm", "POST")


def seen() -> List[Dict[str, Any]]:
    return _direct(env("TESSERA_PROXY_URL") + "/__seen")


class NoProxyEnvironment:
    """Sets proxy variables for the block, restoring the process's afterwards."""

    NAMES = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy")

    def __init__(self, **values: str) -> None:
        self.values = values

    def __enter__(self) -> None:
        self.saved = {name: os.environ.pop(name, None) for name in self.NAMES}
        os.environ.update(self.values)

    def __exit__(self, *exc: object) -> None:
        for name in self.NAMES:
            os.environ.pop(name, None)
            if self.saved[name] is not None:
                os.environ[name] = self.saved[name]  # type: ignore[assignment]


@live
class NoReplyRetryTest(unittest.TestCase):
    def setUp(self) -> None:
        require_live()
        self.waits: List[float] = []
        self.replies: List[ResponseInfo] = []

    def relayed(self, **options: Any) -> Tessera:
        """A new client (new connections) to the server through the relay, recording waits instead of sleeping."""
        return Tessera(
            env("TESSERA_RELAY_URL"), env("TESSERA_API_KEY"), sleep=self.waits.append,
            on_response=self.replies.append, proxy=False, **options
        )

    def test_a_get_whose_connection_was_reset_is_sent_again(self) -> None:
        before = count()["broken"]
        arm()
        result = self.relayed().by_email.get(env("TESSERA_EMAIL"))
        self.assertEqual(count()["broken"], before + 1)
        self.assertIn(int(env("TESSERA_IDENTITY_ID")), [i["id"] for i in result["identities"]])
        self.assertEqual(len(self.waits), 1)
        self.assertEqual([r.attempt for r in self.replies], [2])

    def test_a_post_is_sent_again_under_its_default_idempotency_key_and_not_without_one(self) -> None:
        before = count()["broken"]
        arm()
        reply = self.relayed().by_email.batch([env("TESSERA_EMAIL")])
        self.assertEqual(count()["broken"], before + 1)
        self.assertEqual(len(reply["results"]), 1)
        self.assertEqual(self.replies[-1].attempt, 2)
        key = self.replies[-1].request_headers.get("Idempotency-Key")
        self.assertTrue(key, "a POST carries an Idempotency-Key by default")
        arm()
        with self.assertRaises(TesseraConnectionError):
            self.relayed(idempotency_keys=False).by_email.batch([env("TESSERA_EMAIL")])
        self.assertEqual(count()["broken"], before + 2)

    def test_an_upload_of_bytes_is_sent_again(self) -> None:
        arm()
        csv = ("email\n%s\n" % env("TESSERA_EMAIL")).encode()
        with self.relayed().by_email.upload(csv) as rows:
            ids = [row[0] for row in rows]
        self.assertEqual(self.replies[-1].attempt, 2)
        self.assertGreaterEqual(len(ids), 2)


@live
class ConnectionReuseTest(unittest.TestCase):
    def test_calls_share_one_kept_alive_connection(self) -> None:
        require_live()
        client = Tessera(env("TESSERA_RELAY_URL"), env("TESSERA_API_KEY"), proxy=False)
        before = count()["connections"]
        with client:
            for _ in range(3):
                client.by_email.get(env("TESSERA_EMAIL"))
            client.by_email.batch([env("TESSERA_EMAIL")])
            client.by_id.get(int(env("TESSERA_IDENTITY_ID")))
        self.assertEqual(count()["connections"], before + 1)


@live
class ProxyTest(unittest.TestCase):
    def setUp(self) -> None:
        require_live()
        self.marker = "py-proxy-%s@example.com" % uuid.uuid4()

    def calls(self, client: Tessera) -> None:
        client.by_email.get(self.marker)
        client.by_email.batch([self.marker])
        with client.by_email.upload(("email\n%s\n" % self.marker).encode()) as rows:
            list(rows)

    def through_proxy(self, client: Tessera) -> List[str]:
        """The calls made, and what the proxy carried of them: GET by the marker, POST and PUT by their key."""
        keys: List[str] = []
        client.on_response = lambda info: keys.append(info.request_headers.get("Idempotency-Key", ""))
        self.calls(client)
        path = env("TESSERA_BASE_URL") + "/v2/identities/byEmail"
        asked = self.marker.replace("@", "%40")
        return [
            s["method"]
            for s in seen()
            if s["url"].startswith(path) and (asked in s["url"] or s.get("idempotencyKey") in keys[1:])
        ]

    def test_an_explicit_proxy_carries_every_call_uploads_included(self) -> None:
        with NoProxyEnvironment():
            client = Tessera(env("TESSERA_BASE_URL"), env("TESSERA_API_KEY"), proxy=env("TESSERA_PROXY_URL"))
        self.assertEqual(sorted(self.through_proxy(client)), ["GET", "POST", "PUT"])

    def test_the_proxy_from_the_environment_and_no_proxy(self) -> None:
        with NoProxyEnvironment(HTTP_PROXY=env("TESSERA_PROXY_URL")):
            client = Tessera(env("TESSERA_BASE_URL"), env("TESSERA_API_KEY"))
        self.assertIsNotNone(client.proxy)
        self.assertEqual(sorted(self.through_proxy(client)), ["GET", "POST", "PUT"])
        self.marker = "py-noproxy-%s@example.com" % uuid.uuid4()
        with NoProxyEnvironment(http_proxy=env("TESSERA_PROXY_URL"), NO_PROXY="localhost,127.0.0.1"):
            bypassing = Tessera(env("TESSERA_BASE_URL"), env("TESSERA_API_KEY"))
        self.assertIsNone(bypassing.proxy)
        self.assertEqual(self.through_proxy(bypassing), [])


if __name__ == "__main__":
    unittest.main()
