import { isbot } from "isbot";

export type Device = "phone" | "tablet" | "desktop";

/** Why a user agent alone is not a person reading a page. */
export type UserAgentReason = "no-user-agent" | "link-preview" | "headless" | "bot-list" | "not-a-browser";

export type UserAgentVerdict = {
  reason?: UserAgentReason;
  /** Browser, major version and system ("Chrome 131 Windows"): the visitor hash's user-agent part. */
  family: string;
  device: Device;
  /**
   * The browser sends Sec-Fetch-* on every request (Chromium 80+, Firefox 90+, Safari 16.4+): a
   * request claiming to be one of them without those headers is a script wearing its name.
   */
  sendsFetchMetadata: boolean;
};

/**
 * Services that fetch a page to draw a preview card when someone pastes a link (chat, social,
 * mail, documents). Many are not on the crawler list, and some (iMessage, Signal) borrow another
 * service's name; none is a reader.
 */
const LINK_PREVIEW =
  /facebookexternalhit|facebot|meta-externalfetcher|twitterbot|slackbot|slack-imgproxy|whatsapp\/|telegrambot|discordbot|linkedinbot|pinterestbot|redditbot|embedly|iframely|skypeuripreview|teamsbot|microsoftpreview|google-pagerenderer|google web preview|googledocs|google-chat|mastodon\/|cardyb|snap url preview|vkshare|yahoo link preview|quora link preview|zoombot|nuzzel|bitlybot|flipboardproxy|kakaotalk-scrap|line-poker|linkpreview|link preview|preview service|bingpreview|xing-contenttabreceiver/i;

/** Browsers driven by a program: test tools, screenshot and speed-test services. */
const HEADLESS = /headlesschrome|headless|phantomjs|puppeteer|playwright|selenium|webdriver|lighthouse|ptst\/|gtmetrix|pagespeed|speedcurve|slimerjs|htmlunit|jsdom/i;

const BROWSER_ENGINE = /AppleWebKit\/|Gecko\/|Trident\/|Presto\//;

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/\bOPR\/(\d+)/, "Opera"],
  [/\bSamsungBrowser\/(\d+)/, "Samsung Internet"],
  [/\bYaBrowser\/(\d+)/, "Yandex"],
  [/\bCriOS\/(\d+)/, "Chrome"],
  [/\bFxiOS\/(\d+)/, "Firefox"],
  [/\bFirefox\/(\d+)/, "Firefox"],
  [/\bChrome\/(\d+)/, "Chrome"],
  [/\bVersion\/(\d+)(?:\.\d+)*.*Safari\//, "Safari"],
];

function systemOf(ua: string) {
  if (/iPhone|iPad|iPod/.test(ua)) return "iOS";
  if (/Android/.test(ua)) return "Android";
  if (/CrOS/.test(ua)) return "ChromeOS";
  if (/Windows/.test(ua)) return "Windows";
  if (/Macintosh|Mac OS X/.test(ua)) return "macOS";
  if (/Linux|X11/.test(ua)) return "Linux";
  return "Other";
}

function deviceOf(ua: string): Device {
  if (/iPad|Tablet|Kindle|Silk\/|PlayBook/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))) return "tablet";
  if (/Mobi|iPhone|iPod|Android|Windows Phone/.test(ua)) return "phone";
  return "desktop";
}

/** Which browser engines send Sec-Fetch-* (fetch metadata), from the version they claim. */
function sendsFetchMetadata(ua: string, system: string) {
  if (system === "iOS") {
    // Every iOS browser is WebKit: Safari 16.4 brought fetch metadata.
    const version = /OS (\d+)_(\d+)/.exec(ua);
    return Boolean(version) && (Number(version![1]) > 16 || (Number(version![1]) === 16 && Number(version![2]) >= 4));
  }
  const firefox = /\bFirefox\/(\d+)/.exec(ua);
  if (firefox) return Number(firefox[1]) >= 90;
  const chrome = /\bChrome\/(\d+)/.exec(ua);
  if (chrome) return Number(chrome[1]) >= 80;
  const safari = /\bVersion\/(\d+)\.(\d+).*Safari\//.exec(ua);
  if (safari) return Number(safari[1]) > 16 || (Number(safari[1]) === 16 && Number(safari[2]) >= 4);
  return false;
}

export function judgeUserAgentUncached(ua: string): UserAgentVerdict {
  const system = systemOf(ua);
  let family = `Other ${system}`;
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) {
      family = `${name} ${match[1]} ${system}`;
      break;
    }
  }
  const verdict: UserAgentVerdict = { family, device: deviceOf(ua), sendsFetchMetadata: sendsFetchMetadata(ua, system) };
  if (!ua.trim()) verdict.reason = "no-user-agent";
  else if (LINK_PREVIEW.test(ua)) verdict.reason = "link-preview";
  else if (HEADLESS.test(ua)) verdict.reason = "headless";
  else if (isbot(ua)) verdict.reason = "bot-list";
  // Every browser names its engine (WebKit, Blink's AppleWebKit token, Gecko; Trident and Presto
  // of old): a user agent naming none is a program, whatever else it says.
  else if (!BROWSER_ENGINE.test(ua)) verdict.reason = "not-a-browser";
  return verdict;
}

// Real traffic repeats a few hundred user agents: the regular expressions above run once each.
const CACHE_LIMIT = 2_000;
const cache = new Map<string, UserAgentVerdict>();

/** The verdict on a User-Agent header, remembered per distinct value (at most CACHE_LIMIT at a time). */
export function judgeUserAgent(ua: string): UserAgentVerdict {
  let verdict = cache.get(ua);
  if (!verdict) {
    verdict = judgeUserAgentUncached(ua);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(ua, verdict);
  }
  return verdict;
}
