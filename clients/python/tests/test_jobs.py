"""Bulk jobs (``client.jobs``): against the really started server (its job runner runs), and a local test double for
the replies it will not give on demand (a 503 during a wait, a 410 of an expired result). The TypedDicts follow the
OpenAPI document; the README's example is examples/bulk_job.py, which the suite runs (test/python.suite.test.ts)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
import typing
import unittest

from support import FAKE_KEY, PACKAGE_ROOT, REQUIRE_LIVE, Double, env, json_reply, live, require_live

import tessera
from tessera import (
    BadRequestError,
    ConflictError,
    GoneError,
    Job,
    JobResultItem,
    JobRows,
    NotFoundError,
    Tessera,
    TesseraTimeoutError,
)


def setUpModule() -> None:
    if REQUIRE_LIVE:
        require_live()


OPTIONS: typing.Dict[str, typing.Any] = {"template": 3, "limit": 1}
JOB_ID = re.compile(r"^job_[0-9a-f]{24}$")


def rows_csv(email: str) -> bytes:
    """A found row, a row no one matches, and a row that is not an e-mail address."""
    return ("ref,email\r\nc-1,%s\r\nc-2,nobody@example.com\r\nc-3,not an address\r\n" % email).encode()


@live
class JobsTest(unittest.TestCase):
    client: Tessera
    email: str
    identity_id: int

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Tessera(env("TESSERA_BASE_URL"), env("TESSERA_API_KEY"))
        cls.email = env("TESSERA_EMAIL")
        cls.identity_id = int(env("TESSERA_IDENTITY_ID"))

    def assert_ended(self, job: Job, status: str) -> None:
        self.assertEqual(job["status"], status)
        self.assertIsNotNone(job["finishedAt"])
        self.assertEqual(job["resultUrl"], "/v2/jobs/%s/result" % job["id"])

    def test_csv_result_is_byte_for_byte_the_uploads_reply(self) -> None:
        body = rows_csv(self.email)
        made = self.client.jobs.submit("by_email", body, **OPTIONS)
        self.assertRegex(made["id"], JOB_ID)
        self.assertEqual((made["endpoint"], made["format"], made["options"]), ("byEmail", "csv", OPTIONS))
        self.assertEqual(made["rows"]["total"], 3)
        self.assertIn(made["status"], ("queued", "running", "completed"))

        seen: typing.List[str] = []
        done = self.client.jobs.wait(
            made["id"], poll_interval=0.2, timeout=120, on_progress=lambda j: seen.append(j["status"])
        )
        self.assert_ended(done, "completed")
        self.assertEqual(done["rows"], {"total": 3, "done": 3, "matched": 1, "failed": 1})
        self.assertEqual((done["identities"], done["error"], seen[-1]), (1, None, "completed"))

        with self.client.jobs.result(made["id"]) as result:
            self.assertEqual((result.format, result.filename), ("csv", made["id"] + ".csv"))
            text = b"".join(result.chunks()).decode()
        with self.client.by_email.upload(body, **OPTIONS) as put:
            self.assertEqual(text, put.text())
        lines = text.split("\r\n")
        self.assertRegex(lines[0], r"^ref,email,score,matchedOn,id,.*,error$")
        cells = [next(csv.reader([line])) for line in lines[1:4]]
        self.assertEqual(
            [c[:2] for c in cells], [["c-1", self.email], ["c-2", "nobody@example.com"], ["c-3", "not an address"]]
        )
        self.assertEqual((cells[0][4], cells[0][-1]), (str(self.identity_id), ""))
        self.assertEqual(set(cells[1][2:]), {""})
        self.assertRegex(cells[2][-1], r"(?i)e-?mail")
        self.assertEqual(lines[4:], [""])

        # Sent under an Idempotency-Key: a repeat under a given one gets the first job back, and makes no other.
        key = "job-" + made["id"]
        keyed = self.client.jobs.submit("byEmail", body, idempotency_key=key, **OPTIONS)
        self.assertEqual(self.client.jobs.submit("byEmail", body, idempotency_key=key, **OPTIONS)["id"], keyed["id"])
        self.client.jobs.wait(keyed["id"], poll_interval=0.2)

        # To a path and to a file object, a piece at a time: the same bytes.
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "result.csv")
            self.assertEqual(self.client.jobs.download(made["id"], path), len(text.encode()))
            with open(path, encoding="utf-8", newline="") as f:
                self.assertEqual(f.read(), text)
        sink = io.BytesIO()
        self.client.jobs.download(made["id"], sink)
        self.assertEqual(sink.getvalue().decode(), text)

    def test_jsonl_result_gives_each_rows_line_input_identities_and_error(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            source = os.path.join(folder, "customers.csv")
            with open(source, "wb") as f:
                f.write(rows_csv(self.email))
            made = self.client.jobs.submit("byEmail", source, format="jsonl", **OPTIONS)
        self.assertEqual(made["format"], "jsonl")
        done = self.client.jobs.wait(made["id"], poll_interval=0.2, timeout=120)
        self.assertEqual(done["rows"], {"total": 3, "done": 3, "matched": 1, "failed": 1})
        with self.client.jobs.result(made["id"]) as result:
            self.assertEqual(result.format, "jsonl")
            items = list(result.items())
        rest = [{k: v for k, v in item.items() if k != "identities"} for item in items]
        self.assertEqual(rest[:2], [
            {"line": 2, "input": {"ref": "c-1", "email": self.email}, "error": None},
            {"line": 3, "input": {"ref": "c-2", "email": "nobody@example.com"}, "error": None},
        ])
        self.assertEqual((rest[2]["line"], rest[2]["input"]), (4, {"ref": "c-3", "email": "not an address"}))
        self.assertRegex(rest[2]["error"], r"(?i)e-?mail")
        self.assertEqual(len(items[0]["identities"]), 1)
        # The CSV result's cells, as text.
        identity = items[0]["identities"][0]
        self.assertEqual((identity["id"], identity["matchedOn"]), (str(self.identity_id), "email"))
        self.assertRegex(identity["score"], r"^\d+$")
        self.assertEqual((items[1]["identities"], items[2]["identities"]), ([], []))
        sink = io.BytesIO()
        self.client.jobs.download(made["id"], sink)
        self.assertEqual([json.loads(line) for line in sink.getvalue().decode().splitlines()], items)

    def test_get_list_a_page_at_a_time_and_no_cancel_once_ended(self) -> None:
        jobs = self.client.jobs
        first = jobs.wait(jobs.submit("byEmail", rows_csv(self.email))["id"], poll_interval=0.2)
        second = jobs.wait(jobs.submit("byEmail", rows_csv(self.email), format="jsonl")["id"], poll_interval=0.2)
        self.assertEqual(jobs.get(second["id"]), second)
        page = jobs.list(limit=1)
        self.assertEqual(([j["id"] for j in page["jobs"]], page["next"]), ([second["id"]], second["id"]))
        after = jobs.list(limit=1, before=page["next"])
        self.assertEqual([j["id"] for j in after["jobs"]], [first["id"]])
        every = [j["id"] for j in jobs.iter(limit=2)]
        self.assertEqual(every[:2], [second["id"], first["id"]])
        self.assertEqual(len(set(every)), len(every))

        with self.assertRaises(ConflictError) as ended:
            jobs.cancel(first["id"])
        self.assertEqual(
            (ended.exception.status, ended.exception.message), (409, "The job has already ended (completed).")
        )
        with self.assertRaises(NotFoundError) as unknown:
            jobs.get("job_000000000000000000000000")
        self.assertEqual(unknown.exception.message, "There is no such job.")

    def test_while_running_a_wait_times_out_naming_it_its_result_conflicts_and_a_cancel_ends_it(self) -> None:
        jobs = self.client.jobs
        # Long enough to be running still a few calls after it is made (the runner takes 2,000 rows at a time).
        body = "ref,email\n" + "".join("r-%d,nobody-%d@example.com\n" % (i, i) for i in range(40000))
        made = jobs.submit("byEmail", body.encode())
        self.assertEqual(made["rows"]["total"], 40000)

        with self.assertRaises(TesseraTimeoutError) as late:
            jobs.wait(made["id"], timeout=0)
        self.assertIn("Job %s has not ended after 0 s" % made["id"], late.exception.message)
        self.assertRegex(late.exception.message, r"it is (queued|running), \d+ of 40000 rows done")

        with self.assertRaises(ConflictError) as early:
            jobs.result(made["id"])
        self.assertEqual(
            early.exception.message,
            "The job has not ended yet: its result can be downloaded once its status is completed, failed or"
            " cancelled.",
        )
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "never.csv")
            with self.assertRaises(ConflictError):
                jobs.download(made["id"], path)
            self.assertFalse(os.path.exists(path))

        cancelled = jobs.cancel(made["id"])
        self.assert_ended(cancelled, "cancelled")
        self.assertLess(cancelled["rows"]["done"], 40000)
        self.assert_ended(jobs.wait(made["id"], poll_interval=0.2), "cancelled")
        # The rows done before the cancel stay downloadable.
        with jobs.result(made["id"]) as result:
            kept = result.text()
        self.assertTrue(kept == "" or kept.startswith("ref,email,score,matchedOn,"), kept[:80])

    def test_a_bad_endpoint_is_refused_naming_it(self) -> None:
        with self.assertRaises(BadRequestError) as refused:
            self.client.jobs.submit("byNothing", rows_csv(self.email))
        self.assertEqual((refused.exception.status, refused.exception.code), (400, "validation_failed"))
        self.assertIn('"byNothing" is not a lookup endpoint', refused.exception.message)
        self.assertEqual(refused.exception.fields[0]["path"], "querystring.endpoint")


JOB = {"id": "job_0123456789abcdef01234567", "status": "running", "rows": {"total": 2, "done": 1}}


class JobsTransportTest(unittest.TestCase):
    """What the real server will not do on demand: a 503 during a wait, a 410 of a deleted result."""

    def test_a_wait_retries_a_read_on_503_after_retry_after_and_goes_on(self) -> None:
        unavailable = {"error": "Away for a moment.", "code": "unavailable"}
        script = [
            json_reply(503, unavailable, {"Retry-After": "0"}),
            json_reply(200, {"job": JOB}),
            json_reply(200, {"job": {**JOB, "status": "completed"}}),
        ]
        sleeps: typing.List[float] = []
        with Double(script) as double:
            client = Tessera(double.url, FAKE_KEY, sleep=sleeps.append)
            done = client.jobs.wait(JOB["id"], poll_interval=0.5, timeout=60)
            methods = [(r.method, r.path) for r in double.requests]
        self.assertEqual(done["status"], "completed")
        self.assertEqual(methods, [("GET", "/v2/jobs/" + JOB["id"])] * 3)
        self.assertEqual(sleeps, [0.0, 0.5])

    def test_a_deleted_result_raises_gone_with_the_servers_message(self) -> None:
        message = "The job's result was deleted: results are kept 7 days after a job ends."
        with Double([json_reply(410, {"error": message, "code": "gone"})]) as double:
            with self.assertRaises(GoneError) as gone:
                Tessera(double.url, FAKE_KEY).jobs.result(JOB["id"])
        self.assertEqual((gone.exception.status, gone.exception.code, gone.exception.message), (410, "gone", message))

    def test_a_submit_is_sent_again_after_a_503_under_the_same_idempotency_key(self) -> None:
        with Double([json_reply(503, {"error": "Away.", "code": "unavailable"}, {"Retry-After": "0"}),
                     json_reply(202, {"job": JOB})]) as double:
            made = Tessera(double.url, FAKE_KEY).jobs.submit("byEmail", b"email\na@b.example\n", format="jsonl")
            requests = double.requests
        self.assertEqual(made["id"], JOB["id"])
        self.assertEqual([r.path for r in requests], ["/v2/jobs?endpoint=byEmail&format=jsonl"] * 2)
        self.assertEqual([r.body for r in requests], [b"email\na@b.example\n"] * 2)
        keys = [r.headers.get("Idempotency-Key") for r in requests]
        self.assertRegex(keys[0] or "", r"^[0-9a-f-]{36}$")
        self.assertEqual(keys[1], keys[0])
        self.assertTrue(requests[0].headers["Content-Type"].startswith("text/csv"))

    def test_a_cancel_sends_no_idempotency_key_and_is_retried_on_503(self) -> None:
        script = [json_reply(503, {"error": "Away.", "code": "unavailable"}, {"Retry-After": "0"}),
                  json_reply(200, {"job": {**JOB, "status": "cancelled"}})]
        with Double(script) as double:
            cancelled = Tessera(double.url, FAKE_KEY).jobs.cancel(JOB["id"])
            requests = double.requests
        self.assertEqual(cancelled["status"], "cancelled")
        self.assertEqual([(r.method, r.path) for r in requests], [("POST", "/v2/jobs/%s/cancel" % JOB["id"])] * 2)
        self.assertNotIn("Idempotency-Key", requests[0].headers)


OPENAPI = os.path.join(PACKAGE_ROOT, "..", "..", "docs", "openapi.json")


@unittest.skipUnless(os.path.exists(OPENAPI), "docs/openapi.json is not beside this package")
class JobTypesTest(unittest.TestCase):
    def test_the_typed_dicts_follow_the_document(self) -> None:
        with open(OPENAPI, encoding="utf-8") as f:
            schemas = json.load(f)["components"]["schemas"]
        job = schemas["Job"]
        keys = lambda cls: set(cls.__required_keys__)  # noqa: E731
        self.assertEqual(keys(Job), set(job["properties"]))
        self.assertEqual(keys(JobRows), set(job["properties"]["rows"]["properties"]))
        self.assertEqual(keys(tessera.JobPage), set(schemas["Jobs"]["properties"]))
        self.assertEqual(keys(JobResultItem), {"line", "input", "identities", "error"})
        status = typing.get_type_hints(Job)["status"]
        self.assertEqual(set(typing.get_args(status)), set(job["properties"]["status"]["enum"]))


class ReadmeJobsTest(unittest.TestCase):
    def test_the_bulk_job_and_subscription_examples_are_the_readmes(self) -> None:
        with open(os.path.join(PACKAGE_ROOT, "README.md"), encoding="utf-8") as f:
            blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
        for name in ("bulk_job.py", "subscriptions.py"):
            with open(os.path.join(PACKAGE_ROOT, "examples", name), encoding="utf-8") as f:
                self.assertIn(f.read(), blocks, name)


if __name__ == "__main__":
    unittest.main()
