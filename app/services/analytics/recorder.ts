import { channelOf, referrerHostOf } from "./channel";
import { readLanding } from "./landing";
import { networkOf } from "./network";
import { isPrefetch, type Headers, type ViewTarget } from "./page-view";
import { createSiteClock } from "./site-clock";
import { judgeUserAgent } from "./user-agent";

/** Why a view was not counted as a person's (shown beside the human counts). */
export const EXCLUSION_REASONS = ["prefetch", "no-user-agent", "link-preview", "headless", "bot-list", "not-a-browser", "missing-headers", "rate-limit"] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/** Separates the fields of a key; the values never hold it (control characters are removed). */
export const SEP = "\u0001";

/**
 * The counts of one interval, in memory until a flush writes them:
 * - `views`: by the view's whole signature (day, hour, path, channel, referrer, utm, click ids,
 *   sub-ids, device: VIEW_FIELDS), so a view costs one map update; the flush spreads each
 *   signature over the dimensions;
 * - `visitors`: per day, network and browser family, the paths seen (hashed at the flush, with
 *   the day's salt; the network never leaves memory);
 * - `excluded`: per day, hour and reason;
 * - `minutes` and `minuteVisitors`: the human views by minute and path, and the visitors by
 *   minute, for the last 30 minutes (decision 156).
 */
export type Counts = {
  views: Map<string, number>;
  visitors: Map<string, Set<string>>;
  excluded: Map<string, number>;
  /** Per visitor (day, network, family), the visit's entry noted in this interval (decision 149). */
  entries: Map<string, VisitEntry>;
  /** Views by `${minute start (ms)}${SEP}${path}`. */
  minutes: Map<string, number>;
  /** `${minute start (ms)}${SEP}${visitorKey}`: each visitor once per minute, hashed at the flush. */
  minuteVisitors: Set<string>;
};

/**
 * Where a visitor's visit of the day came in: the first view that was not internal (a direct one
 * gives way to the first that came from somewhere), with its landing parameters. A subscription
 * made later is attributed to it (decision 149).
 */
export type VisitEntry = {
  /** When the entry view was answered (ms). */
  at: number;
  path: string;
  channel: string;
  referrer: string;
  source: string;
  medium: string;
  campaign: string;
  clickIds: string[];
  /** sub1…sub5, "" where absent. */
  subs: string[];
};

/**
 * Whether `next` is the visit's entry rather than `current`: the earliest entry that came from
 * somewhere, else the earliest direct one (the same rule as the table's upsert, rollup-writer).
 */
export function replacesEntry(current: VisitEntry | undefined, next: VisitEntry) {
  if (!current) return true;
  const nextDirect = next.channel === "direct";
  if ((current.channel === "direct") !== nextDirect) return !nextDirect;
  return next.at < current.at;
}

export const VIEW_FIELDS = ["day", "hour", "path", "channel", "referrer", "source", "medium", "campaign", "clickIds", "sub1", "sub2", "sub3", "sub4", "sub5", "device"] as const;

export type RecorderOptions = {
  timeZone: string;
  /** Views per minute one client (address and user agent) may make in this process before the rest are excluded. */
  viewsPerMinute: number;
  /** The site's own hosts (MAIN_DOMAINS): a referrer among them, or the request's host, is internal. */
  ownHosts: readonly string[];
  now?: () => number;
};

/** Clients tracked by the rate limit at once; past that, new ones go unlimited until the next minute. */
const RATE_KEYS_MAX = 100_000;

/**
 * Visit entries kept in memory for the subscriptions this process takes (the most recent ones;
 * older entries are found in analytics_visit_entries once flushed). About 300 bytes each.
 */
export const ENTRIES_KEPT = 20_000;

const emptyCounts = (): Counts => ({ views: new Map(), visitors: new Map(), excluded: new Map(), entries: new Map(), minutes: new Map(), minuteVisitors: new Set() });

const add = (map: Map<string, number>, key: string, count: number) => map.set(key, (map.get(key) ?? 0) + count);

const bareHost = (host: string) => host.toLowerCase().replace(/:\d+$/, "").replace(/^www\./, "");

export type Recorder = ReturnType<typeof createRecorder>;

/**
 * The in-memory side of the counting: `count` runs on the request path and does no I/O; `take`
 * hands the interval's counts to the flush and starts a new interval; `putBack` merges counts a
 * flush could not write into the current ones; `subtract` removes counts found written after all.
 */
export function createRecorder(options: RecorderOptions) {
  const now = options.now ?? Date.now;
  const clock = createSiteClock(options.timeZone);
  const ownHosts = new Set(options.ownHosts.map(bareHost));
  let counts = emptyCounts();
  let rateWindow = -1;
  let rate = new Map<string, number>();
  // The latest entries by visitor key, oldest first (a Map keeps insertion order).
  const recent = new Map<string, VisitEntry>();

  function noteEntry(visitor: string, entry: VisitEntry) {
    if (!replacesEntry(recent.get(visitor), entry)) return;
    recent.delete(visitor);
    recent.set(visitor, entry);
    if (recent.size > ENTRIES_KEPT) recent.delete(recent.keys().next().value!);
    counts.entries.set(visitor, entry);
  }

  const exclude = (day: string, hour: string, reason: ExclusionReason) => add(counts.excluded, `${day}${SEP}${hour}${SEP}${reason}`, 1);

  /** Counts one answer that viewTarget() found to be a page view: a person's, or an exclusion by its reason. */
  function count(target: ViewTarget, headers: Headers, ip: string) {
    const at = now();
    const { day, hour } = clock(at);
    if (isPrefetch(headers)) return exclude(day, hour, "prefetch");
    const userAgent = typeof headers["user-agent"] === "string" ? headers["user-agent"] : "";
    const verdict = judgeUserAgent(userAgent);
    if (verdict.reason) return exclude(day, hour, verdict.reason);
    if (!headers["accept-language"] || (verdict.sendsFetchMetadata && !headers["sec-fetch-mode"])) return exclude(day, hour, "missing-headers");
    const window = Math.floor(at / 60_000);
    if (window !== rateWindow) {
      rateWindow = window;
      rate = new Map();
    }
    const client = `${ip}${SEP}${userAgent}`;
    const seen = rate.get(client);
    if (seen !== undefined) {
      rate.set(client, seen + 1);
      if (seen >= options.viewsPerMinute) return exclude(day, hour, "rate-limit");
    } else if (rate.size < RATE_KEYS_MAX) rate.set(client, 1);

    const landing = readLanding(target.query);
    const referer = typeof headers.referer === "string" ? headers.referer : undefined;
    const referrerHost = referrerHostOf(referer);
    const internal = referrerHost !== "" && (ownHosts.has(referrerHost) || referrerHost === bareHost(String(headers.host ?? "")));
    const channel = channelOf({ referrerHost, internal, landing });
    const device = headers["sec-ch-ua-mobile"] === "?1" ? "phone" : verdict.device;
    const key = [day, hour, target.path, channel, internal ? "" : referrerHost, landing.source, landing.medium, landing.campaign, landing.clickIds.join(","), ...landing.subs, device].join(SEP);
    add(counts.views, key, 1);
    const minute = at - (at % 60_000);
    add(counts.minutes, `${minute}${SEP}${target.path}`, 1);
    const network = networkOf(ip);
    if (network) {
      const visitor = visitorKey(day, network, verdict.family);
      counts.minuteVisitors.add(`${minute}${SEP}${visitor}`);
      let paths = counts.visitors.get(visitor);
      if (!paths) counts.visitors.set(visitor, (paths = new Set()));
      paths.add(target.path);
      if (channel !== "internal") {
        const { source, medium, campaign, clickIds, subs } = landing;
        noteEntry(visitor, { at, path: target.path, channel, referrer: internal ? "" : referrerHost, source, medium, campaign, clickIds, subs });
      }
    }
  }

  function putBack(taken: Counts) {
    for (const [key, value] of taken.views) add(counts.views, key, value);
    for (const [key, value] of taken.excluded) add(counts.excluded, key, value);
    for (const [key, value] of taken.minutes) add(counts.minutes, key, value);
    for (const key of taken.minuteVisitors) counts.minuteVisitors.add(key);
    for (const [key, paths] of taken.visitors) {
      const current = counts.visitors.get(key);
      if (!current) counts.visitors.set(key, new Set(paths));
      else for (const path of paths) current.add(path);
    }
    for (const [key, entry] of taken.entries) if (replacesEntry(counts.entries.get(key), entry)) counts.entries.set(key, entry);
  }

  // Visitors, entries and minute visitors are not subtracted: writing one twice is a no-op (the day's hash is unique).
  function subtract(written: Counts) {
    const less = (map: Map<string, number>, key: string, value: number) => {
      const left = (map.get(key) ?? 0) - value;
      if (left > 0) map.set(key, left);
      else map.delete(key);
    };
    for (const [key, value] of written.views) less(counts.views, key, value);
    for (const [key, value] of written.excluded) less(counts.excluded, key, value);
    for (const [key, value] of written.minutes) less(counts.minutes, key, value);
  }

  return {
    count,
    take(): Counts {
      const taken = counts;
      counts = emptyCounts();
      return taken;
    },
    putBack,
    subtract,
    /** Views and exclusions held now (not yet written). */
    held() {
      let views = 0;
      let excluded = 0;
      for (const value of counts.views.values()) views += value;
      for (const value of counts.excluded.values()) excluded += value;
      return { views, excluded, visitors: counts.visitors.size };
    },
    siteHour: (at?: number) => clock(at ?? now()),
    /** The entry this process saw for the visitor key (visitorKey()), among the most recent ENTRIES_KEPT. */
    recentEntry: (visitor: string) => recent.get(visitor),
  };
}

/** A visitor as the recorder keeps it until the flush hashes it: day, network and browser family. */
export const visitorKey = (day: string, network: string, family: string) => `${day}${SEP}${network}${SEP}${family}`;

export function isEmpty(counts: Counts) {
  return counts.views.size === 0 && counts.excluded.size === 0 && counts.visitors.size === 0 && counts.entries.size === 0 && counts.minutes.size === 0 && counts.minuteVisitors.size === 0;
}
