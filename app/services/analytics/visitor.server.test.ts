import { describe, expect, it } from "vitest";
import { networkOf } from "./network";
import { newSalt, visitorHash, VISITOR_HASH_BYTES } from "./visitor.server";

describe("the network of an address", () => {
  it("is the IPv4 /24 and the IPv6 /48, never the address", () => {
    expect(networkOf("203.0.113.9")).toBe("203.0.113");
    expect(networkOf("::ffff:203.0.113.9")).toBe("203.0.113");
    expect(networkOf("2001:db8:1:2::1")).toBe("2001:db8:1");
    expect(networkOf("2001:0db8:0001:ffff:0:0:0:1")).toBe("2001:db8:1");
    expect(networkOf("2001:db8::1")).toBe("2001:db8:0");
    expect(networkOf("::1")).toBe("0:0:0");
    expect(networkOf("fe80::1%eth0")).toBe("fe80:0:0");
    expect(networkOf("unknown")).toBeUndefined();
    expect(networkOf("")).toBeUndefined();
  });
});

describe("the visitor hash", () => {
  const site = "https://www.patriotinvestor.example";
  it("is the same for one network, browser and site under one salt, and differs when any of them does", () => {
    const salt = newSalt();
    const one = visitorHash(salt, site, "203.0.113", "Chrome 131 Windows");
    expect(one).toHaveLength(VISITOR_HASH_BYTES);
    expect(visitorHash(salt, site, "203.0.113", "Chrome 131 Windows").equals(one)).toBe(true);
    expect(visitorHash(salt, site, "203.0.114", "Chrome 131 Windows").equals(one)).toBe(false);
    expect(visitorHash(salt, site, "203.0.113", "Chrome 132 Windows").equals(one)).toBe(false);
    expect(visitorHash(salt, "https://other.example", "203.0.113", "Chrome 131 Windows").equals(one)).toBe(false);
  });

  it("changes with the day's salt, so two days' visitors cannot be joined", () => {
    const monday = newSalt();
    const tuesday = newSalt();
    expect(monday.equals(tuesday)).toBe(false);
    expect(visitorHash(monday, site, "203.0.113", "Safari 18 iOS").equals(visitorHash(tuesday, site, "203.0.113", "Safari 18 iOS"))).toBe(false);
  });
});
