package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The three forms of docs/api-keys.md; the expected signatures were computed with Node's crypto. */
class ApiKeyTest {
  static final String ID = "AbCdEfGh12345678";
  static final String SECRET = "SSSSSSSSSSSSSSSS0123456789abcdef";
  static final long TIME = 1_700_000_000_000L;

  @Test
  void keepsATestKeysPrefixWithItsId() {
    ApiKey key = ApiKey.plain("tk_test_" + ID + SECRET);
    assertEquals("tk_test_" + ID, key.keyId());
    assertThrows(IllegalArgumentException.class, () -> ApiKey.plain("tk_live_" + ID + SECRET));
  }

  @Test
  void splitsTheWholeKeyIntoIdAndSecret() {
    ApiKey key = ApiKey.plain(ID + SECRET);
    assertEquals(ID, key.keyId());
    assertEquals(ApiKey.Form.PLAIN, key.form());
    assertEquals("Bearer " + ID + SECRET, key.authorization(TIME));
    // Spaces around a key pasted into an environment variable are dropped.
    assertEquals(ID, ApiKey.plain("  " + ID + SECRET + "\n").keyId());
  }

  @Test
  void signsTheTimeWithHmacSha256() {
    ApiKey key = ApiKey.signed(ID + SECRET);
    assertEquals(
        "Bearer " + ID + "1700000000000" + "c4524ed963e090417c49818216211149e77722b4ebfdc5e33886f4334327eb73",
        key.authorization(TIME));
    assertTrue(key.authorization(TIME).substring(7).matches("[A-Za-z0-9]{16}\\d{13}[0-9a-f]{64}"));
  }

  @Test
  void signsLegacyTokensWithMd5OfTimeAndSecret() {
    assertEquals(
        "Bearer " + ID + "1700000000000" + "8fa0a31fb56a000fa3d606ebe316c0d8",
        ApiKey.legacy(ID + SECRET).authorization(TIME));
    assertEquals(
        "Bearer " + ID + "loyw3v28" + "b869c1114de501f847b5f15ed7644df9",
        ApiKey.legacy(ID + SECRET, 36).authorization(TIME));
    assertEquals(
        "Bearer " + ID + Long.toString(TIME, 32) + ApiKey.md5Hex(Long.toString(TIME, 32) + SECRET),
        ApiKey.legacy(ID + SECRET, 32).authorization(TIME));
    assertThrows(IllegalArgumentException.class, () -> ApiKey.legacy(ID + SECRET, 16));
  }

  @Test
  void changesForm() {
    ApiKey signed = ApiKey.plain(ID + SECRET).as(ApiKey.Form.SIGNED);
    assertEquals(ApiKey.signed(ID + SECRET).authorization(TIME), signed.authorization(TIME));
  }

  @Test
  void refusesWhatIsNotAKeyWithoutShowingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ApiKey.plain(ID + "short"));
    assertFalse(e.getMessage().contains(ID), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ApiKey.plain(ID + SECRET.substring(1) + "-"));
    assertThrows(IllegalArgumentException.class, () -> ApiKey.plain(ID + SECRET + "x"));
    assertThrows(NullPointerException.class, () -> ApiKey.plain(null));
  }

  @Test
  void neverShowsTheSecret() {
    String whole = ID + SECRET;
    for (ApiKey key : new ApiKey[] {ApiKey.plain(whole), ApiKey.signed(whole), ApiKey.legacy(whole)}) {
      assertFalse(key.toString().contains(SECRET), key.toString());
      assertTrue(key.toString().contains(ID));
    }
  }
}
