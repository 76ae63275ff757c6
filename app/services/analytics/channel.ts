import type { ClickIdParam, Landing } from "./landing";

/**
 * The channel a page view came through. `internal` is a view reached from another page of the
 * site (no campaign parameters): not an entry, so the channel reports can leave it out.
 */
export const CHANNELS = ["search", "social", "email", "sms", "paid", "direct", "other", "internal"] as const;
export type Channel = (typeof CHANNELS)[number];

/** Click ids that only ads carry. `fbclid` is not one: Facebook adds it to every outbound link, paid or not. */
const PAID_CLICK_IDS: ReadonlySet<ClickIdParam> = new Set(["gclid", "gbraid", "wbraid", "msclkid", "ttclid"]);

const PAID_MEDIUM = /^(cpc|ppc|cpm|cpv|cpa|cpl|paid|paid[-_ ]?(search|social|media)|paidsearch|paidsocial|display|banner|affiliates?|native|retargeting|ads?|sponsored)$/;
const EMAIL_MEDIUM = /^(e-?mail|newsletter|e-?mail[-_ ]?newsletter)$/;
const SMS_MEDIUM = /^(sms|mms|text|texts|text[-_ ]?message)$/;
const SOCIAL_MEDIUM = /^(social|social[-_ ]?(media|network|post)|sm|organic[-_ ]?social)$/;
const SEARCH_MEDIUM = /^(organic|seo|organic[-_ ]?search)$/;

/** Sources that name their channel when the link gave no medium (`?utm_source=newsletter`). */
const SOURCE_CHANNELS: Record<string, Channel> = {
  newsletter: "email",
  email: "email",
  "e-mail": "email",
  mailchimp: "email",
  sms: "sms",
  text: "sms",
  twilio: "sms",
  facebook: "social",
  fb: "social",
  instagram: "social",
  ig: "social",
  twitter: "social",
  x: "social",
  linkedin: "social",
  reddit: "social",
  youtube: "social",
  tiktok: "social",
  truthsocial: "social",
  "truth-social": "social",
  rumble: "social",
  gab: "social",
  telegram: "social",
  whatsapp: "social",
  pinterest: "social",
  threads: "social",
  bluesky: "social",
};

const SEARCH_ENGINES = /^(google|bing|yahoo|duckduckgo|yandex|baidu|ecosia|startpage|qwant|naver|ask|seznam|sogou|mojeek|kagi|so|360|daum|aol)\.(com|net|org|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/;
const SEARCH_HOSTS = new Set(["search.yahoo.com", "search.brave.com", "search.aol.com", "news.google.com", "cn.bing.com", "html.duckduckgo.com", "lite.duckduckgo.com", "duck.com", "search.naver.com", "search.seznam.cz", "presearch.com", "you.com"]);

const SOCIAL_DOMAINS = new Set([
  "facebook.com", "fb.com", "fb.me", "messenger.com", "instagram.com", "threads.net", "threads.com",
  "twitter.com", "x.com", "t.co", "linkedin.com", "lnkd.in", "reddit.com", "redd.it",
  "youtube.com", "youtu.be", "tiktok.com", "pinterest.com", "pin.it", "bsky.app", "quora.com",
  "tumblr.com", "snapchat.com", "whatsapp.com", "wa.me", "t.me", "telegram.org", "telegram.me",
  "discord.com", "discordapp.com", "truthsocial.com", "gab.com", "gettr.com", "rumble.com",
  "parler.com", "news.ycombinator.com", "mastodon.social", "vk.com", "ok.ru", "weibo.com",
  "line.me", "flipboard.com", "nextdoor.com", "stocktwits.com", "mewe.com", "minds.com",
]);

const EMAIL_DOMAINS = new Set([
  "outlook.live.com", "outlook.office.com", "outlook.office365.com", "outlook.com", "gmail.com",
  "proton.me", "protonmail.com", "fastmail.com", "icloud.com", "zoho.com", "gmx.com", "gmx.net",
  "web.de", "yandex.com", "aol.com", "comcast.net", "att.net", "verizon.net",
  "list-manage.com", "mailchi.mp", "mailchimp.com", "sendgrid.net", "mandrillapp.com",
  "klclick.com", "klclick1.com", "convertkit-mail.com", "convertkit-mail2.com", "beehiiv.com",
  "substack.com", "mailgun.org", "rs6.net", "constantcontact.com", "aweber.com", "exct.net",
]);

/** Android apps that send their package name as the referrer (android-app://…). */
const APP_CHANNELS: Record<string, Channel> = {
  "com.google.android.gm": "email",
  "com.microsoft.office.outlook": "email",
  "com.yahoo.mobile.client.android.mail": "email",
  "com.google.android.googlequicksearchbox": "search",
  "com.google.android.apps.searchlite": "search",
  "com.facebook.katana": "social",
  "com.facebook.orca": "social",
  "com.instagram.android": "social",
  "com.twitter.android": "social",
  "com.linkedin.android": "social",
  "com.reddit.frontpage": "social",
  "org.telegram.messenger": "social",
  "com.whatsapp": "social",
  "com.google.android.apps.messaging": "sms",
  "com.samsung.android.messaging": "sms",
};

/** Whether the host or one of its parent domains (a.b.example.com, b.example.com, example.com) is in the set. */
function inSet(set: ReadonlySet<string>, host: string) {
  let rest = host;
  for (;;) {
    if (set.has(rest)) return true;
    const dot = rest.indexOf(".");
    if (dot < 0 || rest.indexOf(".", dot + 1) < 0) return false;
    rest = rest.slice(dot + 1);
  }
}

// Referrers repeat (a few search engines and social sites bring most visits): each host is judged once.
const REFERRER_CACHE_LIMIT = 2_000;
const referrerChannels = new Map<string, Channel>();

/** The channel of a referring host alone (lower-case, without `www.`); "" is no referrer. */
export function channelOfReferrer(host: string): Channel {
  let channel = referrerChannels.get(host);
  if (!channel) {
    channel = judgeReferrer(host);
    if (referrerChannels.size >= REFERRER_CACHE_LIMIT) referrerChannels.clear();
    referrerChannels.set(host, channel);
  }
  return channel;
}

function judgeReferrer(host: string): Channel {
  if (!host) return "direct";
  const app = APP_CHANNELS[host];
  if (app) return app;
  if (/^(web)?mail\d*\.|^email\./.test(host) || inSet(EMAIL_DOMAINS, host)) return "email";
  const bare = host.replace(/^(m|mobile|amp)\./, "");
  if (SEARCH_HOSTS.has(bare) || SEARCH_ENGINES.test(bare) || bare.endsWith(".search.yahoo.com")) return "search";
  if (inSet(SOCIAL_DOMAINS, bare) || /^pinterest\.[a-z.]+$/.test(bare)) return "social";
  return "other";
}

export type ChannelInput = {
  /** The referrer's host, lower-case without `www.`; "" for none. */
  referrerHost: string;
  /** The referrer is a page of this site. */
  internal: boolean;
  landing: Landing;
};

/**
 * The channel of a page view. The address the operator or a platform wrote wins over the
 * referrer (an e-mail opened in a web mailer says `utm_medium=email` and comes from
 * mail.google.com alike; an ad's click id says paid whatever the referrer):
 * 1. `utm_medium` when it names a channel;
 * 2. an ads-only click id (gclid, gbraid, wbraid, msclkid, ttclid), or an affiliate sub-id
 *    (`sub1`…`sub5`: bought traffic to the landing page): paid;
 * 3. `utm_source` when it names a channel and no medium was given;
 * 4. the referrer: none is direct (other when the link carried a source), the site's own pages
 *    internal, then search engines, social sites, web mailers, and any other site other.
 */
export function channelOf({ referrerHost, internal, landing }: ChannelInput): Channel {
  const { medium, source } = landing;
  if (medium) {
    if (PAID_MEDIUM.test(medium)) return "paid";
    if (EMAIL_MEDIUM.test(medium)) return "email";
    if (SMS_MEDIUM.test(medium)) return "sms";
    if (SOCIAL_MEDIUM.test(medium)) return "social";
    if (SEARCH_MEDIUM.test(medium)) return "search";
  }
  if (landing.clickIds.some((name) => PAID_CLICK_IDS.has(name))) return "paid";
  if (landing.subs.some(Boolean)) return "paid";
  if (source && !medium && SOURCE_CHANNELS[source]) return SOURCE_CHANNELS[source];
  if (internal && !source && !medium && !landing.campaign) return "internal";
  const byReferrer = internal ? "direct" : channelOfReferrer(referrerHost);
  // A link that named its source but no channel, opened without a referrer: not "direct".
  return byReferrer === "direct" && (source || medium || landing.campaign) ? "other" : byReferrer;
}

/**
 * The host of a Referer header, lower-case, without port and without the prefixes that name a
 * site's mobile, link-redirect or AMP front (www., m., l., lm., mobile., amp.: l.facebook.com and
 * m.facebook.com are facebook.com in the reports); "" when there is none or it is not an http(s)
 * address (android-app://… referrers are apps: kept as their package name).
 */
export function referrerHostOf(referer: string | undefined): string {
  if (!referer) return "";
  const match = /^(?:https?|android-app):\/\/([^/:?#]+)/i.exec(referer);
  if (!match) return "";
  return match[1]!.toLowerCase().replace(/^(www|m|l|lm|mobile|amp)\./, "").slice(0, 100);
}
