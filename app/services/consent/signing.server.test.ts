import { describe, expect, it } from "vitest";
import { parseEnv } from "~/http/env.server";
import { consentPublicKey, consentSigner, retiredKeysFromEnv } from "./signing.server";

const SECRET = "signing-test-secret-0123456789-abcdefghijklmn";
const OLD_SECRET = "signing-test-old-secret-0123456789-abcdefghij";

describe("consent signing keys", () => {
  it("a public key as printed checks the signer's signatures and names the same key", () => {
    const signer = consentSigner(SECRET);
    const publicKey = consentPublicKey(signer.publicKey);
    expect(publicKey).toMatchObject({ keyId: signer.keyId, publicKey: signer.publicKey });
    const signature = signer.sign("consent-chain-head-v1\n1\nabc\n2026-11-26T00:00:00.000Z");
    expect(publicKey.verify("consent-chain-head-v1\n1\nabc\n2026-11-26T00:00:00.000Z", signature)).toBe(true);
    expect(publicKey.verify("consent-chain-head-v1\n2\nabc\n2026-11-26T00:00:00.000Z", signature)).toBe(false);
    expect(publicKey.verify("anything", "not a signature")).toBe(false);
  });

  it("the retired keys come from the setting, without the key still signing or a key listed twice", () => {
    const current = consentSigner(SECRET).publicKey;
    const old = consentSigner(OLD_SECRET);
    const env = parseEnv({
      CONSENT_SIGNING_KEY: SECRET,
      CONSENT_RETIRED_PUBLIC_KEYS: `${old.publicKey},${current},${old.publicKey}`,
    });
    expect(retiredKeysFromEnv(env).map((key) => key.keyId)).toEqual([old.keyId]);
    expect(retiredKeysFromEnv(parseEnv({ CONSENT_SIGNING_KEY: SECRET }))).toEqual([]);
  });
});
