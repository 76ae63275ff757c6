import { describe, expect, it } from "vitest";
import { channelOf, channelOfReferrer, referrerHostOf } from "./channel";
import { NO_LANDING, readLanding } from "./landing";

const channel = (referer: string | undefined, query = "", internal = false) =>
  channelOf({ referrerHost: referrerHostOf(referer), internal, landing: readLanding(query) });

describe("channel grouping", () => {
  it("groups referring hosts: search engines, social sites, web mailers, others; none is direct", () => {
    expect(channel("https://www.google.com/")).toBe("search");
    expect(channel("https://www.google.co.uk/search?q=gold")).toBe("search");
    expect(channel("https://news.google.com/")).toBe("search");
    expect(channel("https://www.bing.com/")).toBe("search");
    expect(channel("https://duckduckgo.com/")).toBe("search");
    expect(channel("https://search.yahoo.com/search?p=x")).toBe("search");
    expect(channel("https://uk.search.yahoo.com/")).toBe("search");
    expect(channel("https://search.brave.com/search?q=x")).toBe("search");
    expect(channel("https://yandex.ru/")).toBe("search");
    expect(channel("https://m.facebook.com/")).toBe("social");
    expect(channel("https://l.facebook.com/l.php?u=x")).toBe("social");
    expect(channel("https://lm.facebook.com/")).toBe("social");
    expect(channel("https://t.co/abc")).toBe("social");
    expect(channel("https://x.com/someone")).toBe("social");
    expect(channel("https://old.reddit.com/r/investing")).toBe("social");
    expect(channel("https://truthsocial.com/@someone")).toBe("social");
    expect(channel("https://www.pinterest.co.uk/")).toBe("social");
    expect(channel("https://mail.google.com/")).toBe("email");
    expect(channel("https://outlook.live.com/mail/0/")).toBe("email");
    expect(channel("https://mail.yahoo.com/")).toBe("email");
    expect(channel("https://webmail.comcast.net/")).toBe("email");
    expect(channel("https://us13.list-manage.com/track/click")).toBe("email");
    expect(channel("https://finance.yahoo.com/quote/GLD")).toBe("other");
    expect(channel("https://www.kitco.com/news")).toBe("other");
    expect(channel(undefined)).toBe("direct");
    expect(channel("not a url")).toBe("direct");
  });

  it("names Android apps that send their package as the referrer, SMS apps among them", () => {
    expect(channel("android-app://com.google.android.gm/")).toBe("email");
    expect(channel("android-app://com.google.android.googlequicksearchbox/")).toBe("search");
    expect(channel("android-app://com.google.android.apps.messaging/")).toBe("sms");
    expect(channel("android-app://com.facebook.katana/")).toBe("social");
    expect(channelOfReferrer("com.example.unknown")).toBe("other");
  });

  it("lets the address win over the referrer: utm_medium first, then ads-only click ids and sub-ids", () => {
    expect(channel("https://mail.google.com/", "utm_medium=cpc")).toBe("paid");
    expect(channel("https://www.facebook.com/", "utm_source=facebook&utm_medium=paid_social")).toBe("paid");
    expect(channel(undefined, "utm_medium=affiliate")).toBe("paid");
    expect(channel("https://www.facebook.com/", "utm_medium=email")).toBe("email");
    expect(channel(undefined, "utm_medium=E-mail")).toBe("email");
    expect(channel(undefined, "utm_medium=sms&utm_source=twilio")).toBe("sms");
    expect(channel(undefined, "utm_medium=social")).toBe("social");
    expect(channel(undefined, "utm_medium=organic")).toBe("search");
    expect(channel("https://www.google.com/", "gclid=Cj0KCQ")).toBe("paid");
    expect(channel(undefined, "gbraid=0AAAA")).toBe("paid");
    expect(channel(undefined, "wbraid=CkAA")).toBe("paid");
    expect(channel("https://www.bing.com/", "msclkid=abc")).toBe("paid");
    expect(channel(undefined, "ttclid=E.C.P")).toBe("paid");
    expect(channel(undefined, "f_name=Betsy&sub2=cl1ck-4d")).toBe("paid");
    // A medium that names no channel leaves the decision to the rest.
    expect(channel("https://www.google.com/", "utm_medium=referral")).toBe("search");
  });

  it("does not call fbclid paid: Facebook adds it to every outbound link", () => {
    expect(channel("https://l.facebook.com/", "fbclid=IwAR0x")).toBe("social");
    expect(channel(undefined, "fbclid=IwAR0x")).toBe("direct");
  });

  it("reads a source without a medium when it names a channel, and never calls a tagged link direct", () => {
    expect(channel(undefined, "utm_source=newsletter")).toBe("email");
    expect(channel(undefined, "utm_source=Facebook")).toBe("social");
    expect(channel(undefined, "utm_source=sms")).toBe("sms");
    expect(channel(undefined, "utm_source=partner-site")).toBe("other");
    expect(channel(undefined, "utm_campaign=spring")).toBe("other");
  });

  it("calls a view from the site's own pages internal, unless its address is tagged", () => {
    expect(channelOf({ referrerHost: "patriotinvestor.example", internal: true, landing: NO_LANDING })).toBe("internal");
    expect(channel("https://patriotinvestor.example/blog", "utm_medium=email", true)).toBe("email");
    expect(channel("https://patriotinvestor.example/blog", "utm_source=partner", true)).toBe("other");
  });

  it("takes the referrer's host lower-case, without www. and port", () => {
    expect(referrerHostOf("https://WWW.Google.com:443/search")).toBe("google.com");
    expect(referrerHostOf("http://example.org")).toBe("example.org");
    expect(referrerHostOf("ftp://example.org/")).toBe("");
    expect(referrerHostOf("")).toBe("");
  });
});
