import { describe, expect, it } from "vitest";
import { findUrls, replaceUrls, withShortLinkPlaceholders } from "~/lib/short-links";

describe("short links", () => {
  it("finds URLs without trailing punctuation and counts them at their short length", () => {
    const text = "Gold: https://news.example.com/gold?x=1. Also (https://b.example.com/a), https://news.example.com/gold?x=1";
    expect(findUrls(text)).toEqual(["https://news.example.com/gold?x=1", "https://b.example.com/a"]);
    expect(replaceUrls(text, (url) => `<${url.length}>`)).toBe("Gold: <33>. Also (<23>), <33>");
    expect(withShortLinkPlaceholders("See https://example.org/a-very-long-path-that-costs-characters today", "https://pi.example")).toBe("See https://pi.example/l/xxxxxxx today");
  });

  it("replaces each URL once, where it stands, when one URL begins another (the bare site address in a footer)", () => {
    const short = new Map([
      ["https://pi.example/articles/gold-guide", "https://pi.example/l/AAAAAAA"],
      ["https://pi.example", "https://pi.example/l/BBBBBBB"],
    ]);
    const text = "Gold: https://pi.example/articles/gold-guide. Everything at https://pi.example.";
    expect(replaceUrls(text, (url) => short.get(url) ?? url)).toBe("Gold: https://pi.example/l/AAAAAAA. Everything at https://pi.example/l/BBBBBBB.");
    expect(withShortLinkPlaceholders("https://pi.example/a-long-path and https://pi.example", "https://pi.example")).toBe("https://pi.example/l/xxxxxxx and https://pi.example/l/xxxxxxx");
  });
});
