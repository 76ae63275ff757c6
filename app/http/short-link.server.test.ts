import { describe, expect, it } from "vitest";
import { findUrls, replaceUrls, withShortLinkPlaceholders } from "~/lib/short-links";
import { isPreviewFetcher } from "./short-link.server";

describe("short links", () => {
  it("does not count link-preview fetchers as clicks", () => {
    const previews = [
      // iMessage's preview fetcher announces itself as these three at once.
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
      "WhatsApp/2.23.20.0 A",
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "Twitterbot/1.0",
      "TelegramBot (like TwitterBot)",
      "Discordbot/2.0",
      "",
      undefined,
    ];
    for (const userAgent of previews) expect(isPreviewFetcher(userAgent), String(userAgent)).toBe(true);
    const people = [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
    ];
    for (const userAgent of people) expect(isPreviewFetcher(userAgent), userAgent).toBe(false);
  });

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
