"""The three ways an API key is presented (docs/api-keys.md, "Presenting a key").

A key is given to the client whole, as the console shows it once: the 16-character key id followed by the
32-character secret (48 letters and digits).

==========  ==========================================  ====================================================
form        ``Authorization`` header                    rule
==========  ==========================================  ====================================================
``plain``   ``Bearer {keyId}{secret}``                  the key as made; the secret travels with each call
``signed``  ``Bearer {keyId}{time}{signature}``         ``time`` epoch milliseconds in decimal, within 5
                                                        minutes of the server's clock; ``signature`` the
                                                        lowercase hex HMAC-SHA256 of ``time`` keyed with
                                                        the secret: the secret never travels
``legacy``  ``Bearer {keyId}{time}{md5}``               the original API's form, only for keys made with
                                                        ``legacy`` on: ``md5`` the hex MD5 of ``time``
                                                        followed by the secret
==========  ==========================================  ====================================================

A fresh token is made for every request (retries included), so a signed time is never stale.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from typing import Callable, Literal, Tuple

KeyForm = Literal["plain", "signed", "legacy"]

#: Length of a key id (``KEY_ID_LENGTH`` in the server's common/src/keys.ts).
KEY_ID_LENGTH = 16
#: Length of a key's secret (``KEY_SECRET_LENGTH``).
KEY_SECRET_LENGTH = 32

KEY_FORMS: Tuple[str, ...] = ("plain", "signed", "legacy")

#: What a test key (the sandbox's, free) starts with, in every form (``TEST_KEY_PREFIX``).
TEST_KEY_PREFIX = "tk_test_"

_KEY = re.compile(r"^(?:%s)?[A-Za-z0-9]{%d}$" % (TEST_KEY_PREFIX, KEY_ID_LENGTH + KEY_SECRET_LENGTH))


def split_key(api_key: str) -> Tuple[str, str]:
    """Splits a whole key (``keyId + secret``) into its id and secret.

    A test key's ``tk_test_`` prefix stays with its id, since every form presents it there.
    Raises ``ValueError`` (without echoing the key) when it is not 48 letters and digits, prefix aside.
    """
    key = api_key.strip()
    if not _KEY.match(key):
        raise ValueError(
            "An API key is the 16-character key id followed by its 32-character secret: "
            "48 letters and digits (after tk_test_ for a test key), as the console shows it when the key is made."
        )
    cut = KEY_ID_LENGTH + (len(TEST_KEY_PREFIX) if key.startswith(TEST_KEY_PREFIX) else 0)
    return key[:cut], key[cut:]


def signature(secret: str, stamp: str) -> str:
    """The signed form's signature: lowercase hex HMAC-SHA256 of ``stamp`` keyed with ``secret``."""
    return hmac.new(secret.encode("ascii"), stamp.encode("ascii"), hashlib.sha256).hexdigest()


def legacy_signature(secret: str, stamp: str) -> str:
    """The legacy form's signature: lowercase hex MD5 of ``stamp + secret``."""
    return hashlib.md5((stamp + secret).encode("ascii")).hexdigest()  # noqa: S324 - the original API's form


def authorization(api_key: str, form: str = "plain", now: Callable[[], float] = time.time) -> str:
    """The ``Authorization`` header value for ``api_key`` in ``form`` (``plain``, ``signed`` or ``legacy``).

    ``now`` gives the time in seconds since the epoch (``time.time``); the signed and legacy forms send it in
    milliseconds, in decimal.
    """
    key_id, secret = split_key(api_key)
    if form == "plain":
        return "Bearer " + key_id + secret
    stamp = str(int(now() * 1000))
    if form == "signed":
        return "Bearer " + key_id + stamp + signature(secret, stamp)
    if form == "legacy":
        return "Bearer " + key_id + stamp + legacy_signature(secret, stamp)
    raise ValueError("auth must be one of plain, signed or legacy, not %r" % (form,))
