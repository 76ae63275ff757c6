import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { applyPublicOrigin, parseForwarded, publicOrigin } from "./public-url";

const SITE = "https://news.example.test";

function request(headers: Record<string, string | string[]>, encrypted = false) {
  return { socket: encrypted ? { encrypted: true } : {}, headers } as unknown as IncomingMessage;
}

const origin = (req: IncomingMessage, trustedHops: number, siteUrl = SITE) => publicOrigin(req, { siteUrl, trustedHops });

describe("publicOrigin", () => {
  it("behind a trusted proxy that keeps Host: the scheme from X-Forwarded-Proto", () => {
    expect(origin(request({ host: "news.example.test", "x-forwarded-proto": "https" }), 1)).toEqual({ protocol: "https:", host: "news.example.test" });
  });

  it("behind a trusted proxy that calls us by an internal name: X-Forwarded-Host and -Proto", () => {
    const req = request({ host: "app.internal:3000", "x-forwarded-host": "news.example.test:8443", "x-forwarded-proto": "https" });
    expect(origin(req, 1)).toEqual({ protocol: "https:", host: "news.example.test:8443" });
  });

  it("reads the standard Forwarded header, quoted values and all, before the X- headers", () => {
    const req = request({
      host: "app.internal:3000",
      forwarded: 'for="[2001:db8::7]:4711";proto=https;host="news.example.test:8443"',
      "x-forwarded-host": "ignored.example",
    });
    expect(origin(req, 1)).toEqual({ protocol: "https:", host: "news.example.test:8443" });
  });

  it("takes the outermost trusted hop's entry, never what the client wrote to its left", () => {
    const forged = request({ host: "app.internal", "x-forwarded-host": "evil.example, news.example.test", "x-forwarded-proto": "http, https" });
    expect(origin(forged, 1)).toEqual({ protocol: "https:", host: "news.example.test" });
    const forgedForwarded = request({ host: "app.internal", forwarded: "host=evil.example;proto=http, host=news.example.test;proto=https" });
    expect(origin(forgedForwarded, 1)).toEqual({ protocol: "https:", host: "news.example.test" });
    expect(origin(forgedForwarded, 2)).toEqual({ protocol: "http:", host: "evil.example" });
  });

  it("changes nothing for forwarded headers when no proxy is trusted", () => {
    const req = request({ host: "203.0.113.5:3000", "x-forwarded-host": "news.example.test", "x-forwarded-proto": "https", forwarded: "proto=https;host=news.example.test" });
    expect(origin(req, 0)).toEqual({ protocol: "http:", host: "203.0.113.5:3000" });
  });

  it("ignores hosts and schemes that are not one (paths, credentials, spaces, other schemes)", () => {
    for (const host of ["evil.example/path", "user@evil.example", "a b", "", "news.example.test:99999x"]) {
      expect(origin(request({ host: "news.example.test", "x-forwarded-host": host, "x-forwarded-proto": "ftp" }), 1), host).toEqual({ protocol: "https:", host: "news.example.test" });
    }
  });

  it("without proxy headers: SITE_URL's scheme for SITE_URL's host, the socket's for any other", () => {
    expect(origin(request({ host: "news.example.test" }), 0)).toEqual({ protocol: "https:", host: "news.example.test" });
    expect(origin(request({ host: "127.0.0.1:3000" }), 1)).toEqual({ protocol: "http:", host: "127.0.0.1:3000" });
    expect(origin(request({ host: "127.0.0.1:3000" }, true), 0)).toEqual({ protocol: "https:", host: "127.0.0.1:3000" });
    expect(origin(request({}), 0)).toEqual({ protocol: "https:", host: "news.example.test" });
  });
});

describe("parseForwarded", () => {
  it("splits hops and pairs, keeping commas and semicolons inside quotes", () => {
    expect(parseForwarded('for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711";host="a,b;c"')).toEqual([
      { for: "192.0.2.60", proto: "http", by: "203.0.113.43" },
      { for: "[2001:db8:cafe::17]:4711", host: "a,b;c" },
    ]);
    expect(parseForwarded(undefined)).toEqual([]);
  });
});

describe("applyPublicOrigin", () => {
  it("leaves one answer in the headers for everything downstream", () => {
    const req = request({ host: "app.internal:3000", forwarded: "proto=https;host=news.example.test" });
    applyPublicOrigin(req, origin(req, 1));
    expect(req.headers).toMatchObject({ host: "news.example.test", "x-forwarded-host": "news.example.test", "x-forwarded-proto": "https" });
  });
});

describe("publicOrigin with a trusted hop that states no scheme or host", () => {
  it("takes them from the next trusted proxy that does (a CDN that only adds the client)", () => {
    const req = request({ host: "app.internal:3000", forwarded: 'for="198.18.1.2", for=127.0.0.1;proto=https;host="news.example.test:4178"' });
    expect(origin(req, 2)).toEqual({ protocol: "https:", host: "news.example.test:4178" });
  });
});
