"""Offline tests: key forms, parsing, type definitions against the OpenAPI document, argument checks."""

from __future__ import annotations

import json
import os
import re
import typing
import unittest

import support  # noqa: F401  (puts ../src on sys.path)

import tessera
from tessera import (
    ApiError,
    AuthenticationError,
    BadRequestError,
    RateLimitError,
    Tessera,
    UnavailableError,
    authorization,
    parse_retry_after,
    split_key,
    unguard,
)
from tessera import types as t
from tessera.auth import legacy_signature, signature
from tessera.errors import error_from_reply

KEY_ID = "AbCdEfGh12345678"
SECRET = "S3cr3tS3cr3tS3cr3tS3cr3tS3cr3tAB"
NOW = 1767225600.0  # seconds: 1767225600000 ms


class KeyFormsTest(unittest.TestCase):
    def test_split_key_at_sixteen(self) -> None:
        self.assertEqual(split_key(KEY_ID + SECRET), (KEY_ID, SECRET))
        # A test key's prefix stays with its id: every form presents it there.
        self.assertEqual(split_key("tk_test_" + KEY_ID + SECRET), ("tk_test_" + KEY_ID, SECRET))
        with self.assertRaises(ValueError):
            split_key("tk_live_" + KEY_ID + SECRET)
        self.assertEqual(split_key("  " + KEY_ID + SECRET + "\n"), (KEY_ID, SECRET))

    def test_malformed_key_is_refused_without_echoing_it(self) -> None:
        for bad in ["", KEY_ID, KEY_ID + SECRET + "x", KEY_ID + SECRET[:-1] + "-"]:
            with self.assertRaises(ValueError) as caught:
                split_key(bad)
            if bad:
                self.assertNotIn(bad, str(caught.exception))
        with self.assertRaises(ValueError):
            Tessera("http://localhost:3000", "not-a-key")

    def test_plain(self) -> None:
        self.assertEqual(authorization(KEY_ID + SECRET, "plain"), "Bearer " + KEY_ID + SECRET)

    def test_signed_matches_the_servers_hmac(self) -> None:
        # Expected values computed by the server's own functions (server/src/features/keys/credentials.ts).
        self.assertEqual(
            signature(SECRET, "1767225600000"), "79e4b3aa39cf23b919e9a4fa5302eb8037713fe187ca325fcd8e7ffb5c0fadc8"
        )
        header = authorization(KEY_ID + SECRET, "signed", lambda: NOW)
        self.assertEqual(
            header, "Bearer " + KEY_ID + "1767225600000" + "79e4b3aa39cf23b919e9a4fa5302eb8037713fe187ca325fcd8e7ffb5c0fadc8"
        )
        self.assertNotIn(SECRET, header)

    def test_legacy_matches_the_servers_md5(self) -> None:
        self.assertEqual(legacy_signature(SECRET, "1767225600000"), "9861201d53ffe0d564f0206fd9902c12")
        header = authorization(KEY_ID + SECRET, "legacy", lambda: NOW)
        self.assertEqual(header, "Bearer " + KEY_ID + "1767225600000" + "9861201d53ffe0d564f0206fd9902c12")

    def test_token_shapes_match_the_servers_patterns(self) -> None:
        # The server tells the form by shape alone (credentials.ts): id 16, then secret 32 / time + 64 hex / time + 32 hex.
        plain = authorization(KEY_ID + SECRET, "plain")[7:]
        signed = authorization(KEY_ID + SECRET, "signed")[7:]
        legacy = authorization(KEY_ID + SECRET, "legacy")[7:]
        self.assertRegex(plain, r"^[A-Za-z0-9]{16}[A-Za-z0-9]{32}$")
        self.assertRegex(signed, r"^[A-Za-z0-9]{16}\d{1,15}[0-9a-f]{64}$")
        self.assertRegex(legacy, r"^[A-Za-z0-9]{16}[0-9A-Za-z]{1,16}[0-9a-f]{32}$")

    def test_unknown_form(self) -> None:
        with self.assertRaises(ValueError):
            authorization(KEY_ID + SECRET, "bogus")
        with self.assertRaises(ValueError):
            Tessera("http://localhost:3000", KEY_ID + SECRET, auth="bogus")  # type: ignore[arg-type]


class ParsingTest(unittest.TestCase):
    def test_retry_after_seconds_and_dates(self) -> None:
        self.assertEqual(parse_retry_after("81"), 81.0)
        self.assertEqual(parse_retry_after(" 0 "), 0.0)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("soon"))
        self.assertEqual(parse_retry_after("Thu, 01 Jan 1970 00:01:40 GMT", lambda: 40.0), 60.0)
        self.assertEqual(parse_retry_after("Thu, 01 Jan 1970 00:00:10 GMT", lambda: 40.0), 0.0)

    def test_error_body_mapping(self) -> None:
        body = {
            "error": "Invalid input querystring.email: Please provide a valid email address.",
            "code": "validation_failed",
            "requestId": "r-1",
            "fields": [{"path": "querystring.email", "message": "Please provide a valid email address."}],
        }
        error = error_from_reply(400, {"x-request-id": "r-1"}, json.dumps(body).encode())
        self.assertIsInstance(error, BadRequestError)
        self.assertIsInstance(error, ApiError)
        self.assertEqual((error.status, error.code, error.request_id), (400, "validation_failed", "r-1"))
        self.assertEqual(error.message, body["error"])
        self.assertEqual(error.fields[0]["path"], "querystring.email")
        self.assertIn("r-1", str(error))

    def test_error_without_a_json_body(self) -> None:
        error = error_from_reply(401, {"x-request-id": "h-1"}, b"")
        self.assertIsInstance(error, AuthenticationError)
        self.assertEqual((error.message, error.code, error.request_id), ("Unauthorized", None, "h-1"))
        error = error_from_reply(502, {}, b"<html>Bad gateway</html>")
        self.assertEqual((type(error), error.message), (ApiError, "<html>Bad gateway</html>"))
        self.assertEqual(error_from_reply(599, {}, b"").message, "599")
        self.assertIsInstance(error_from_reply(429, {}, b"{}", 3.0), RateLimitError)
        self.assertEqual(error_from_reply(503, {}, b"{}", 3.0).retry_after, 3.0)
        self.assertIsInstance(error_from_reply(503, {}, b"{}"), UnavailableError)

    def test_unguard(self) -> None:
        self.assertEqual(unguard("'=HYPERLINK(1)"), "=HYPERLINK(1)")
        self.assertEqual(unguard("'@x"), "@x")
        self.assertEqual(unguard("'\tx"), "\tx")
        self.assertEqual(unguard("'abc"), "'abc")
        self.assertEqual(unguard("+14155550123"), "+14155550123")
        self.assertEqual(unguard("'"), "'")


class ArgumentsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = Tessera("http://127.0.0.1:9", KEY_ID + SECRET)

    def test_endpoints(self) -> None:
        names = [e for _, e, _ in tessera.ENDPOINTS]
        self.assertEqual(len(names), 10)
        for attribute, name, _ in tessera.ENDPOINTS:
            self.assertIs(self.client.endpoint(name), getattr(self.client, attribute))
            self.assertEqual(getattr(self.client, attribute).path, "/v2/identities/" + name)
        with self.assertRaises(ValueError):
            self.client.endpoint("byName")

    def test_checks_before_sending(self) -> None:
        with self.assertRaises(TypeError):
            self.client.by_pii.get("Robert Smith")  # named inputs only
        with self.assertRaises(TypeError):
            self.client.by_any.batch(["a@b.example"])
        with self.assertRaises(ValueError):
            self.client.by_email.get({"email": "a@b.example", "metadata": {"x": 1}})  # type: ignore[typeddict-item]
        with self.assertRaises(ValueError):
            self.client.by_email.get("a@b.example", format="xml")  # type: ignore[call-overload]
        with self.assertRaises(TypeError):
            self.client.by_email.get("a@b.example", template="2")  # type: ignore[call-overload]
        with self.assertRaises(TypeError):
            self.client.by_email.batch("a@b.example")
        with self.assertRaises(ValueError):
            self.client.by_email.batch(["a@b.example"], idempotency_key="has space")
        with self.assertRaises(FileNotFoundError):
            self.client.by_email.upload("/nonexistent/file.csv")
        with self.assertRaises(ValueError):
            Tessera("ftp://example.com", KEY_ID + SECRET)

    def test_base_url_prefix_and_repr(self) -> None:
        client = Tessera("https://api.example.com/tessera/", KEY_ID + SECRET)
        self.assertEqual(client.base_url, "https://api.example.com/tessera")
        self.assertNotIn(SECRET, repr(client))
        self.assertEqual(client.key_id, KEY_ID)

    def test_version_in_one_place(self) -> None:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        with open(os.path.join(here, "pyproject.toml")) as f:
            project = f.read()
        self.assertNotRegex(project, r'(?m)^version\s*=')
        self.assertIn('dynamic = ["version"]', project)
        with open(os.path.join(here, "CHANGELOG.md")) as f:
            self.assertIn("## %s" % tessera.__version__, f.read())


OPENAPI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "openapi.json")


@unittest.skipUnless(os.path.exists(OPENAPI), "docs/openapi.json is not beside this package")
class OpenApiTest(unittest.TestCase):
    """The TypedDicts and the endpoint list follow the published OpenAPI document."""

    @classmethod
    def setUpClass(cls) -> None:
        with open(OPENAPI, encoding="utf-8") as f:
            cls.doc = json.load(f)
        cls.schemas = cls.doc["components"]["schemas"]

    def _keys(self, cls: type) -> typing.Tuple[typing.Set[str], typing.Set[str]]:
        return set(cls.__required_keys__), set(cls.__optional_keys__)  # type: ignore[attr-defined]

    def _check_object(self, cls: type, schema: dict) -> None:
        required, optional = self._keys(cls)
        self.assertEqual(required | optional, set(schema["properties"]), cls.__name__)
        self.assertEqual(required, set(schema.get("required", [])), cls.__name__)

    def test_lookup_record(self) -> None:
        record = self.schemas["LookupRecord"]
        self._check_object(t.LookupRecord, record)
        nested = {
            "emails": t.Email,
            "phones": t.Phone,
            "ips": t.IpAddress,
            "devices": t.Device,
            "vehicles": t.Vehicle,
            "properties": t.Property,
            "companies": t.Company,
            "behaviors": t.Behavior,
        }
        for name, cls in nested.items():
            self._check_object(cls, record["properties"][name]["items"])
        finances = [s for s in record["properties"]["finances"]["anyOf"] if s.get("type") == "object"][0]
        self._check_object(t.Finances, finances)

    def test_full_identity_and_replies(self) -> None:
        full = self.schemas["FullIdentity"]
        required, optional = self._keys(t.FullIdentity)
        record = self.schemas["LookupRecord"]
        self.assertEqual(required, set(full["required"]) | set(record["required"]))
        self.assertEqual(optional, set(full["properties"]) - set(full["required"]))
        self._check_object(t.LookupResult, self.schemas["LookupResult"])
        self._check_object(t.BatchResult, self.schemas["BatchResult"])
        self._check_object(t.BatchItem, self.schemas["BatchResult"]["properties"]["results"]["items"])
        self._check_object(t.ErrorBody, self.schemas["Error"])
        self._check_object(t.FieldError, self.schemas["Error"]["properties"]["fields"]["items"])

    def test_endpoints_and_inputs(self) -> None:
        paths = sorted(p for p in self.doc["paths"] if p.startswith("/v2/identities/"))
        self.assertEqual(paths, sorted("/v2/identities/" + e for _, e, _ in tessera.ENDPOINTS))
        options = {"template", "minScore", "explain", "limit", "format"}
        # A lookup's permissible purpose (issue 34): a query parameter of the API that this library does not send
        # yet, so neither an option here nor an input.
        not_offered = {"purpose"}
        inputs = {
            "byEmail": t.EmailInput,
            "byPhone": t.PhoneInput,
            "byIp": t.IpInput,
            "byDevice": t.DeviceInput,
            "byMd5": t.Md5Input,
            "bySha256": t.Sha256Input,
            "byPii": t.PiiInput,
            "byVehicle": t.VehicleInput,
            "byId": t.IdInput,
            "byAny": t.AnyInput,
        }
        for attribute, name, key in tessera.ENDPOINTS:
            operation = self.doc["paths"]["/v2/identities/" + name]
            query = {p["name"]: p for p in operation["get"]["parameters"] if p["in"] == "query"}
            self.assertTrue(options <= set(query), name)
            required, optional = self._keys(inputs[name])
            self.assertEqual((required | optional) - {"metadata"}, set(query) - options - not_offered, name)
            self.assertEqual(required, {n for n, p in query.items() if p.get("required")}, name)
            if key is not None:
                self.assertEqual(required, {key}, name)
            items = operation["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]["inputs"]["items"]
            objects = [s for s in items.get("anyOf", [items]) if s.get("type") == "object"]
            self.assertEqual(set(objects[0]["properties"]), required | optional, name)
            body = operation["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]
            self.assertEqual(set(body) - {"inputs"}, options, name)
            put_query = {p["name"] for p in operation["put"]["parameters"] if p["in"] == "query"}
            self.assertEqual(put_query - not_offered, options - {"format"}, name)

    def test_key_lengths_match_the_documented_forms(self) -> None:
        text = self.doc["components"]["securitySchemes"]["apiKey"]["description"]
        self.assertRegex(text, r"16-character key id followed by its 32-character secret")
        self.assertEqual((tessera.KEY_ID_LENGTH, tessera.KEY_SECRET_LENGTH), (16, 32))


class ReadmeTest(unittest.TestCase):
    def test_first_example_is_examples_first_call(self) -> None:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        with open(os.path.join(here, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
        self.assertTrue(blocks, "README.md has no python example")
        with open(os.path.join(here, "examples", "first_call.py"), encoding="utf-8") as f:
            self.assertEqual(blocks[0], f.read())


if __name__ == "__main__":
    unittest.main()
