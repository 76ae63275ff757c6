import { describe, expect, it } from "vitest";
import { fillPlaceholders, isMainDomain, type PublicSiteConfig } from "./site";

describe("isMainDomain", () => {
  const main = ["patriotinvestor.com", "patriot-investor.com"];
  it.each([
    ["patriotinvestor.com", true],
    ["www.patriotinvestor.com", true],
    ["WWW.Patriot-Investor.com:443", true],
    ["patriot-investor.com.", true],
    ["offers.patriotinvestor.com", false],
    ["patriotinvestor.com.evil.example", false],
    ["localhost:3000", false],
    ["", false],
    [null, false],
  ])("%s -> %s", (host, expected) => {
    expect(isMainDomain(host, main)).toBe(expected);
  });
});

describe("fillPlaceholders", () => {
  const site: PublicSiteConfig = {
    name: "Patriot Investor",
    url: "https://example.com",
    email: "info@example.com",
    phone: "1-800-555-0199",
    offerUrl: "https://offer.example.com",
    year: 2026,
  };
  it("fills the known placeholders and leaves unknown ones", () => {
    expect(fillPlaceholders("{{siteName}} at {{siteEmail}}, {{sitePhone}}; {{other}}", site)).toBe(
      "Patriot Investor at info@example.com, 1-800-555-0199; {{other}}",
    );
  });
});
