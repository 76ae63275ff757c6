import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("works with nothing set", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, SITE_URL: "http://localhost:3000", MAIN_DOMAINS: ["localhost"] });
  });

  it("treats empty values as unset and trims the site URL", () => {
    expect(parseEnv({ PORT: "", SITE_URL: "https://example.com/" })).toMatchObject({
      PORT: 3000,
      SITE_URL: "https://example.com",
    });
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
});
