import { describe, expect, it } from "vitest";
import { consentSigner } from "~/services/consent/signing.server";
import { bakedSiteUrl } from "../../scripts/build-info.mjs";
import { EnvError, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("works with nothing set", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, SITE_URL: "http://localhost:3000", MAIN_DOMAINS: ["localhost"] });
  });

  it("without SITE_URL, the site's address follows PORT, and HOST where it is not every interface", () => {
    expect(parseEnv({ PORT: "3990" }).SITE_URL).toBe("http://localhost:3990");
    expect(parseEnv({ PORT: "3990", HOST: "0.0.0.0" }).SITE_URL).toBe("http://localhost:3990");
    expect(parseEnv({ PORT: "3990", HOST: "::" }).SITE_URL).toBe("http://localhost:3990");
    expect(parseEnv({ PORT: "4100", HOST: "127.0.0.1" }).SITE_URL).toBe("http://127.0.0.1:4100");
    expect(parseEnv({ HOST: "::1" }).SITE_URL).toBe("http://[::1]:3000");
    expect(parseEnv({ PORT: "3990", SITE_URL: "https://news.example.com/" }).SITE_URL).toBe("https://news.example.com");
  });

  it("the build bakes in the same address the server derives (scripts/build-info.mjs)", () => {
    const cases: Record<string, string>[] = [{}, { PORT: "3990" }, { PORT: "4100", HOST: "127.0.0.1" }, { HOST: "::" }, { HOST: "::1", PORT: "8080" }, { SITE_URL: "https://example.com/" }, { SITE_URL: "", PORT: "" }];
    for (const source of cases) expect(bakedSiteUrl(source), JSON.stringify(source)).toBe(parseEnv(source).SITE_URL);
  });

  it("treats empty values as unset and trims the site URL", () => {
    expect(parseEnv({ PORT: "", SITE_URL: "https://example.com/" })).toMatchObject({
      PORT: 3000,
      SITE_URL: "https://example.com",
    });
  });

  it("takes the postback for an ad platform's unless told it is first-party (decision 153)", () => {
    expect(parseEnv({}).CONVERSION_POSTBACK_AD_PLATFORM).toBe(true);
    expect(parseEnv({ CONVERSION_POSTBACK_AD_PLATFORM: "yes" }).CONVERSION_POSTBACK_AD_PLATFORM).toBe(true);
    expect(parseEnv({ CONVERSION_POSTBACK_AD_PLATFORM: "no" }).CONVERSION_POSTBACK_AD_PLATFORM).toBe(false);
    expect(() => parseEnv({ CONVERSION_POSTBACK_AD_PLATFORM: "false" })).toThrow(/CONVERSION_POSTBACK_AD_PLATFORM/);
  });

  it("splits the main domains", () => {
    expect(parseEnv({ MAIN_DOMAINS: "a.example, B.example" }).MAIN_DOMAINS).toEqual(["a.example", "b.example"]);
  });

  it("lists every bad value in one readable error", () => {
    expect(() => parseEnv({ PORT: "http", SITE_URL: "not a url", SITE_EMAIL: "nope" })).toThrow(EnvError);
    try {
      parseEnv({ PORT: "http", SITE_URL: "not a url", SITE_EMAIL: "nope" });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/PORT/);
      expect(message).toMatch(/SITE_URL/);
      expect(message).toMatch(/SITE_EMAIL/);
    }
  });

  it("keeps double opt-in off and postbacks unset by default, and checks the postback template", () => {
    const defaults = parseEnv({});
    expect(defaults.SMS_DOUBLE_OPT_IN).toBe(false);
    expect(defaults.CONVERSION_POSTBACK_URL).toBeUndefined();
    const template = "https://track.example.com/p?cid={clickId}&e={event}&ts={timestamp}";
    expect(parseEnv({ SMS_DOUBLE_OPT_IN: "true", CONVERSION_POSTBACK_URL: template })).toMatchObject({
      SMS_DOUBLE_OPT_IN: true,
      CONVERSION_POSTBACK_URL: template,
    });
    expect(() => parseEnv({ CONVERSION_POSTBACK_URL: "https://track.example.com/p?e={event}" })).toThrow(/CONVERSION_POSTBACK_URL: must contain \{clickId\}/);
    expect(() => parseEnv({ CONVERSION_POSTBACK_URL: "ftp://x/{clickId}" })).toThrow(/CONVERSION_POSTBACK_URL/);
  });

  it("takes an offer URL template with placeholders after the host, and refuses one that would choose the host", () => {
    const template = "https://sponsor.example/guide?s1={sub1}&src={utm_source}";
    expect(parseEnv({ OFFER_URL: template }).OFFER_URL).toBe(template);
    expect(() => parseEnv({ OFFER_URL: "https://{sub1}.sponsor.example/" })).toThrow(/OFFER_URL: may hold .* only after the host/);
  });

  it("reads the retired consent keys' public keys, and names a malformed entry without printing it", () => {
    const old = consentSigner("an-old-signing-secret-0123456789-abcdefghij").publicKey;
    const older = consentSigner("an-older-signing-secret-0123456789-abcdefgh").publicKey;
    expect(parseEnv({}).CONSENT_RETIRED_PUBLIC_KEYS).toEqual([]);
    expect(parseEnv({ CONSENT_RETIRED_PUBLIC_KEYS: ` ${old}, ${older},` }).CONSENT_RETIRED_PUBLIC_KEYS).toEqual([old, older]);

    // The old secret pasted instead of its public key: refused, and kept out of the message (and the log).
    const secret = "an-old-signing-secret-0123456789-abcdefghij";
    const problem = /CONSENT_RETIRED_PUBLIC_KEYS: entry 2 of 2 is not an Ed25519 public key: each is 32 bytes in base64/;
    expect(() => parseEnv({ CONSENT_RETIRED_PUBLIC_KEYS: `${old},${secret}` })).toThrow(problem);
    expect(() => parseEnv({ CONSENT_RETIRED_PUBLIC_KEYS: `${old},${secret}` })).not.toThrow(secret);
    // 33 bytes; the base64url spelling; one character off the end.
    for (const bad of [Buffer.alloc(33, 7).toString("base64"), Buffer.from(old, "base64").toString("base64url"), `${old.slice(0, -2)}=`]) {
      expect(() => parseEnv({ CONSENT_RETIRED_PUBLIC_KEYS: `${old},${bad}` }), bad).toThrow(problem);
    }
  });
});
