import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "./request-guard";

const site = { siteUrl: "https://patriotinvestor.example", trustProxy: false };

function request(method: string, headers: Record<string, string>) {
  return { method, headers: { host: "patriotinvestor.example", ...headers } } as unknown as IncomingMessage;
}

describe("isCrossSiteWrite", () => {
  it("lets reads through whatever they carry", () => {
    expect(isCrossSiteWrite(request("GET", { origin: "https://evil.example", cookie: "s=1" }), site)).toBe(false);
  });

  it("accepts posts from our own pages", () => {
    expect(isCrossSiteWrite(request("POST", { origin: "https://patriotinvestor.example", cookie: "s=1" }), site)).toBe(false);
    expect(isCrossSiteWrite(request("POST", { referer: "https://patriotinvestor.example/opt-in" }), site)).toBe(false);
  });

  it("accepts a second host this server answers for (the opt-in domains)", () => {
    expect(isCrossSiteWrite(request("POST", { host: "getalerts.example", origin: "https://getalerts.example" }), site)).toBe(false);
  });

  it("refuses foreign, null and malformed origins", () => {
    for (const origin of ["https://evil.example", "null", "https://patriotinvestor.example.evil.example", "not a url"]) {
      expect(isCrossSiteWrite(request("POST", { origin }), site), origin).toBe(true);
    }
    expect(isCrossSiteWrite(request("DELETE", { origin: "https://evil.example" }), site)).toBe(true);
  });

  it("refuses browser cross-site posts without Origin, and cookie-bearing posts with no origin at all", () => {
    expect(isCrossSiteWrite(request("POST", { "sec-fetch-site": "cross-site" }), site)).toBe(true);
    expect(isCrossSiteWrite(request("POST", { referer: "https://evil.example/page" }), site)).toBe(true);
    expect(isCrossSiteWrite(request("POST", { cookie: "session=abc" }), site)).toBe(true);
  });

  it("lets server-to-server posts without cookies through (webhooks)", () => {
    expect(isCrossSiteWrite(request("POST", {}), site)).toBe(false);
  });

  it("trusts X-Forwarded-Host only behind a trusted proxy", () => {
    const behindProxy = request("POST", { host: "10.0.0.5:3000", "x-forwarded-host": "www.patriotinvestor.example", origin: "https://www.patriotinvestor.example" });
    expect(isCrossSiteWrite(behindProxy, { ...site, trustProxy: true })).toBe(false);
    expect(isCrossSiteWrite(behindProxy, site)).toBe(true);
  });
});
