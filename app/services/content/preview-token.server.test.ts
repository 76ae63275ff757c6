import { describe, expect, it } from "vitest";
import { signPreviewToken, verifyPreviewToken } from "./preview-token.server";

const SECRET = "preview-test-secret-0123456789";
const ID = "0b6f6a57-8c0e-4c55-9a8f-3c9a1f5e2b10";

describe("preview links", () => {
  it("accept their own token for 7 days, for that article only", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    const { token, expiresAt } = signPreviewToken(SECRET, ID, now);
    expect(expiresAt.toISOString()).toBe("2026-11-30T12:00:00.000Z");
    expect(verifyPreviewToken(SECRET, ID, token, now)).toBe(true);
    expect(verifyPreviewToken(SECRET, ID, token, new Date("2026-11-30T11:59:59Z"))).toBe(true);
    expect(verifyPreviewToken(SECRET, ID, token, new Date("2026-11-30T12:00:00Z"))).toBe(false);
    expect(verifyPreviewToken(SECRET, "1b6f6a57-8c0e-4c55-9a8f-3c9a1f5e2b10", token, now)).toBe(false);
    expect(verifyPreviewToken("another-secret", ID, token, now)).toBe(false);
  });

  it("refuse a missing, malformed or altered token, and a later expiry with the old signature", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    const { token } = signPreviewToken(SECRET, ID, now);
    const [expires, signature] = token.split(".");
    for (const bad of [null, "", "abc", `${expires}.`, `${Number(expires) + 86_400}.${signature}`, `${expires}.${signature!.slice(0, -1)}A`, `${token}x`]) {
      expect(verifyPreviewToken(SECRET, ID, bad, now), String(bad)).toBe(false);
    }
  });
});
