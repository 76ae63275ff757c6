import { describe, expect, it } from "vitest";
import { copyIdFromQuery, withCopyMarker } from "./short-links";

describe("an e-mail copy's short links name the copy", () => {
  const site = "https://news.example.test";

  it("marks every short link of the site, in HTML and in text, and nothing else", () => {
    const html = `<a href="${site}/l/AbC2345">Gold</a> <a href="${site}/newsletter/unsubscribe?t=x">Leave</a> <a href="https://other.example/l/AbC2345">x</a>`;
    expect(withCopyMarker(html, site, 42)).toBe(
      `<a href="${site}/l/AbC2345?c=42">Gold</a> <a href="${site}/newsletter/unsubscribe?t=x">Leave</a> <a href="https://other.example/l/AbC2345">x</a>`,
    );
    expect(withCopyMarker(`[1] ${site}/l/AbC2345.\n[2] ${site}/l/ZyX9876`, site, 7)).toBe(`[1] ${site}/l/AbC2345?c=7.\n[2] ${site}/l/ZyX9876?c=7`);
    // A site address with characters special in a pattern is matched literally.
    expect(withCopyMarker("https://a.b/l/AbC2345 https://aXb/l/AbC2345", "https://a.b", 1)).toBe("https://a.b/l/AbC2345?c=1 https://aXb/l/AbC2345");
  });

  it("reads the copy back, with a sentence's punctuation after it, and nothing from anything else", () => {
    expect(copyIdFromQuery("c=42")).toBe(42);
    expect(copyIdFromQuery("c=42.")).toBe(42);
    expect(copyIdFromQuery("utm_source=x&c=9")).toBe(9);
    expect(copyIdFromQuery("")).toBeNull();
    expect(copyIdFromQuery("c=abc")).toBeNull();
    expect(copyIdFromQuery("c=")).toBeNull();
  });
});
