import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "./request-guard";
import { publicOrigin, siteOrigin } from "./public-url";

const SITE_URL = "https://patriotinvestor.example";

function request(method: string, headers: Record<string, string>) {
  return { method, socket: {}, headers: { host: "patriotinvestor.example", ...headers } } as unknown as IncomingMessage;
}

function crossSite(req: IncomingMessage, trustedHops = 0) {
  return isCrossSiteWrite(req, { site: siteOrigin(SITE_URL), request: publicOrigin(req, { siteUrl: SITE_URL, trustedHops }) });
}

describe("isCrossSiteWrite", () => {
  it("lets reads through whatever they carry", () => {
    expect(crossSite(request("GET", { origin: "https://evil.example", cookie: "s=1" }))).toBe(false);
  });

  it("accepts posts from our own pages", () => {
    expect(crossSite(request("POST", { origin: "https://patriotinvestor.example", cookie: "s=1" }))).toBe(false);
    expect(crossSite(request("POST", { referer: "https://patriotinvestor.example/opt-in" }))).toBe(false);
  });

  it("accepts a second host this server answers for (the opt-in domains) behind the TLS proxy", () => {
    const optInDomain = request("POST", { host: "getalerts.example", "x-forwarded-proto": "https", origin: "https://getalerts.example" });
    expect(crossSite(optInDomain, 1)).toBe(false);
  });

  it("compares whole origins: an http page may not post to the https site", () => {
    expect(crossSite(request("POST", { origin: "http://patriotinvestor.example" }))).toBe(true);
    expect(crossSite(request("POST", { origin: "https://patriotinvestor.example:8443" }))).toBe(true);
  });

  it("refuses foreign, null and malformed origins", () => {
    for (const origin of ["https://evil.example", "null", "https://patriotinvestor.example.evil.example", "not a url"]) {
      expect(crossSite(request("POST", { origin })), origin).toBe(true);
    }
    expect(crossSite(request("DELETE", { origin: "https://evil.example" }))).toBe(true);
  });

  it("refuses browser cross-site posts without Origin, and posts with a session cookie but no origin at all", () => {
    expect(crossSite(request("POST", { "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(crossSite(request("POST", { referer: "https://evil.example/page" }))).toBe(true);
    expect(crossSite(request("POST", { cookie: "__Secure-better-auth.session_token=abc.def" }))).toBe(true);
    expect(crossSite(request("POST", { cookie: "theme=dark; better-auth.session_token=abc.def" }))).toBe(true);
    // A cookie that grants nothing (the consent form's served time) is no session to ride on.
    expect(crossSite(request("POST", { cookie: "form_served=1795675036527..5wsgKnHXEToCBV6qhQ7GKt" }))).toBe(false);
  });

  it("lets server-to-server posts without cookies through (webhooks)", () => {
    expect(crossSite(request("POST", {}))).toBe(false);
  });

  it("trusts X-Forwarded-Host only behind a trusted proxy", () => {
    const behindProxy = () =>
      request("POST", { host: "10.0.0.5:3000", "x-forwarded-host": "www.patriotinvestor.example", "x-forwarded-proto": "https", origin: "https://www.patriotinvestor.example" });
    expect(crossSite(behindProxy(), 1)).toBe(false);
    expect(crossSite(behindProxy(), 0)).toBe(true);
  });
});
