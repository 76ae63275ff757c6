import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip";

function request(remoteAddress: string, forwardedFor?: string) {
  return { socket: { remoteAddress }, headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} } as unknown as IncomingMessage;
}

describe("clientIp", () => {
  it("uses the socket when no proxy is trusted, whatever the header says", () => {
    expect(clientIp(request("203.0.113.9", "1.2.3.4"), 0)).toBe("203.0.113.9");
  });

  it("takes the address the trusted proxy saw", () => {
    expect(clientIp(request("10.0.0.1", "198.51.100.7"), 1)).toBe("198.51.100.7");
  });

  it("ignores addresses a client forged to the left of the trusted hops", () => {
    expect(clientIp(request("10.0.0.1", "6.6.6.6, 198.51.100.7"), 1)).toBe("198.51.100.7");
    expect(clientIp(request("10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.1"), 2)).toBe("198.51.100.7");
  });

  it("falls back to the socket when the chain is shorter than the trusted hops", () => {
    expect(clientIp(request("10.0.0.1"), 2)).toBe("10.0.0.1");
  });
});

describe("clientIp from Forwarded (RFC 7239)", () => {
  function forwardedRequest(remoteAddress: string, forwarded: string) {
    return { socket: { remoteAddress }, headers: { forwarded, "x-forwarded-for": "6.6.6.6" } } as unknown as IncomingMessage;
  }

  it("takes the trusted hop's for= node, with or without a port or brackets", () => {
    expect(clientIp(forwardedRequest("10.0.0.1", "for=198.51.100.7:4711;proto=https"), 1)).toBe("198.51.100.7");
    expect(clientIp(forwardedRequest("10.0.0.1", 'for="[2001:db8::7]:4711"'), 1)).toBe("2001:db8::7");
    expect(clientIp(forwardedRequest("10.0.0.1", "for=6.6.6.6, for=198.51.100.7"), 1)).toBe("198.51.100.7");
  });

  it("falls back to the socket for an obfuscated or malformed node, and when nothing is trusted", () => {
    expect(clientIp(forwardedRequest("10.0.0.1", "for=_hidden"), 1)).toBe("10.0.0.1");
    expect(clientIp(forwardedRequest("10.0.0.1", "for=198.51.100.7"), 0)).toBe("10.0.0.1");
  });
});
