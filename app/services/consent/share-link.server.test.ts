import { describe, expect, it } from "vitest";
import { checkShareToken, createShareToken } from "./share-link.server";
import { consentSigner } from "./signing.server";

const signer = consentSigner("share-link-test-secret-0123456789-abcdefghij");
const ID = "0f8e2c1a-3b4d-4e5f-8a6b-7c8d9e0f1a2b";

describe("certificate share links", () => {
  it("open the certificate they name until they expire", () => {
    const now = new Date("2026-11-25T12:00:00Z");
    const token = createShareToken(signer, ID, new Date("2026-12-02T12:00:00Z"));
    expect(checkShareToken(signer, token, now)).toMatchObject({ ok: true, subscriberId: ID });
    expect(checkShareToken(signer, token, new Date("2026-12-02T12:00:01Z"))).toEqual({ ok: false, reason: "expired" });
  });

  it("refuse a link whose subscriber or expiry was changed, or signed with another key", () => {
    const now = new Date("2026-11-25T12:00:00Z");
    const token = createShareToken(signer, ID, new Date("2026-12-02T12:00:00Z"));
    const [, seconds, signature] = token.split(".");
    expect(checkShareToken(signer, `${ID.replace("0f8e", "1f8e")}.${seconds}.${signature}`, now)).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(checkShareToken(signer, `${ID}.${Number(seconds) + 86_400}.${signature}`, now)).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    const foreign = createShareToken(
      consentSigner("another-secret-0123456789-abcdefghijklmnopq"),
      ID,
      new Date("2026-12-02T12:00:00Z"),
    );
    expect(checkShareToken(signer, foreign, now)).toEqual({ ok: false, reason: "bad_signature" });
    expect(checkShareToken(signer, "not-a-token", now)).toEqual({ ok: false, reason: "malformed" });
  });
});
