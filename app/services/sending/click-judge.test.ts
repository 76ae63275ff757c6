import { describe, expect, it } from "vitest";
import { judgeClick, SOON_AFTER_DELIVERY_SECONDS } from "./click-judge";

const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const person = (userAgent: string, more: Partial<Parameters<typeof judgeClick>[0]> = {}) => judgeClick({ method: "GET", userAgent, navigation: true, acceptLanguage: true, ...more });

describe("a short link's request: a person's click or a machine's fetch", () => {
  it("takes a current browser's navigation for a person, also long after the copy was sent", () => {
    expect(person(SAFARI_IPHONE)).toBeNull();
    expect(person(CHROME_WINDOWS, { secondsSinceSent: 3_600 })).toBeNull();
    expect(person(CHROME_WINDOWS, { secondsSinceSent: SOON_AFTER_DELIVERY_SECONDS })).toBeNull();
    // An old Safari sends no fetch metadata: its absence says nothing there.
    expect(person("Mozilla/5.0 (iPhone; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1", { navigation: false })).toBeNull();
  });

  it("names each kind of machine", () => {
    expect(person(SAFARI_IPHONE, { method: "HEAD" })).toBe("head");
    expect(person("")).toBe("no-user-agent");
    expect(judgeClick({ method: "GET", userAgent: undefined, navigation: false, acceptLanguage: false })).toBe("no-user-agent");
    expect(person("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0")).toBe("link-preview");
    expect(person("WhatsApp/2.23.20.0 A")).toBe("link-preview");
    expect(person("Barracuda Sentinel (EE)")).toBe("mail-scanner");
    expect(person("Mozilla/4.0 (compatible; ms-office; MSOffice 16)")).toBe("mail-scanner");
    expect(person("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36")).toBe("headless");
    expect(person("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).toBe("bot-list");
    expect(person("Go-http-client/1.1")).toBe("bot-list");
    expect(person("Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/UQ1A)")).toBe("not-a-browser");
    // A gateway borrowing a current browser's name, without the headers that browser always sends.
    expect(person(CHROME_WINDOWS, { navigation: false })).toBe("missing-headers");
    expect(person(CHROME_WINDOWS, { acceptLanguage: false })).toBe("missing-headers");
    // Or with them, seconds after the copy was handed to the mail server.
    expect(person(CHROME_WINDOWS, { secondsSinceSent: 4 })).toBe("soon-after-delivery");
  });
});
