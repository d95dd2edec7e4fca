"""The 429 retry end to end, really waiting: a key limited to one request a minute (TESSERA_WAIT_KEY), two quick
calls; the second is refused with a Retry-After of 60 to 120 s (a one-minute sliding window), which the client
sleeps through before its retry is served.

Not part of ``unittest discover`` (its name does not start with "test"), since it takes one to two minutes:
the suite (test/python.suite.test.ts) runs it beside the others. By hand: ``python3 tests/wait_rate_limit.py -v``.
"""

from __future__ import annotations

import os
import time
import unittest
from typing import List

from support import REQUIRE_LIVE

from tessera import ResponseInfo, Tessera


@unittest.skipUnless(os.environ.get("TESSERA_WAIT_KEY") or REQUIRE_LIVE, "set TESSERA_BASE_URL and TESSERA_WAIT_KEY")
class WaitForRetryAfterTest(unittest.TestCase):
    def test_429_is_retried_after_retry_after_and_served(self) -> None:
        seen: List[ResponseInfo] = []
        client = Tessera(os.environ["TESSERA_BASE_URL"], os.environ["TESSERA_WAIT_KEY"], max_retries=1, on_response=seen.append)
        identity_id = int(os.environ.get("TESSERA_IDENTITY_ID", "7"))
        client.by_id.get(identity_id, template=3)
        started = time.monotonic()
        result = client.by_id.get(identity_id, template=3)
        waited = time.monotonic() - started
        self.assertEqual(result["identities"][0]["id"], identity_id)
        self.assertEqual([i.status for i in seen], [200, 429, 200])
        announced = float(seen[1].headers["retry-after"])
        self.assertEqual(seen[1].retry_in, announced)
        self.assertTrue(1 <= announced <= 120, announced)
        self.assertGreaterEqual(waited, announced)
        self.assertEqual(seen[2].attempt, 2)
        print("\n429 Retry-After %.0f s; served after %.1f s" % (announced, waited))


if __name__ == "__main__":
    unittest.main()
