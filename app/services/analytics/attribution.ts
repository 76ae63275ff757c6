import { channelOf } from "./channel";
import { readLanding, type Landing } from "./landing";
import type { VisitEntry } from "./recorder";

/** How a subscription's origin was known (decision 149). */
export type AttributionBasis = "form" | "visit" | "none";

/** A subscription's origin, as subscription_attributions stores it. */
export type Attribution = {
  basis: AttributionBasis;
  /** The path of the page that held the form ("" when the request named none). */
  formPath: string;
  /** The path the visit came in by ("" when unknown). */
  entryPath: string;
  entryAt: Date | null;
  /** search, social, email, sms, paid, direct, other; `unknown` when no visit was found. */
  visitChannel: string;
  referrer: string;
  source: string;
  medium: string;
  campaign: string;
  clickIds: string[];
  /** sub1…sub5, "" where absent. */
  subs: string[];
};

/** Longest form path kept (a page's path; its query is read, not stored). */
const PATH_MAX = 300;

/**
 * The path and query of the address of the page that held the form; empty when there is none, it
 * is not an address, or it is the JSON endpoint itself (the evidence falls back to the request's
 * own address when a caller of the API sent no Referer).
 */
export function formPageOf(pageUrl: string | null | undefined): { path: string; query: string } {
  if (!pageUrl) return { path: "", query: "" };
  try {
    const url = new URL(pageUrl);
    if (url.pathname.startsWith("/api/")) return { path: "", query: "" };
    return { path: url.pathname.slice(0, PATH_MAX), query: url.search.slice(1) };
  } catch {
    return { path: "", query: "" };
  }
}

const isTagged = (landing: Landing) => Boolean(landing.source || landing.medium || landing.campaign || landing.clickIds.length > 0 || landing.subs.some(Boolean));

/** Whether the form's page address carries landing parameters, which then decide the attribution. */
export const formPageTagged = (pageUrl: string | null | undefined) => isTagged(readLanding(formPageOf(pageUrl).query));

/**
 * Where a subscription came from, from the address of the form's page and the visitor's entry of
 * the day (when one was found). The form's page wins when its address carries landing parameters
 * (`utm_*`, a click id, `sub1`…`sub5`): that is the ad or link the person followed, even if the
 * day's first entry was another. Otherwise the visit's entry; otherwise `unknown`.
 */
export function attributionOf(pageUrl: string | null | undefined, entry: VisitEntry | undefined): Attribution {
  const form = formPageOf(pageUrl);
  const landing = readLanding(form.query);
  if (isTagged(landing)) {
    // The visit's referrer still tells where the tagged page was opened from, when the entry was that page.
    const sameVisit = entry !== undefined && entry.path === form.path;
    const referrer = sameVisit ? entry.referrer : "";
    return {
      basis: "form",
      formPath: form.path,
      entryPath: form.path,
      entryAt: sameVisit ? new Date(entry.at) : null,
      visitChannel: channelOf({ referrerHost: referrer, internal: false, landing }),
      referrer,
      source: landing.source,
      medium: landing.medium,
      campaign: landing.campaign,
      clickIds: [...landing.clickIds],
      subs: [...landing.subs],
    };
  }
  if (entry) {
    const { path, channel, referrer, source, medium, campaign, clickIds, subs } = entry;
    return { basis: "visit", formPath: form.path, entryPath: path, entryAt: new Date(entry.at), visitChannel: channel, referrer, source, medium, campaign, clickIds: [...clickIds], subs: [...subs] };
  }
  return { basis: "none", formPath: form.path, entryPath: "", entryAt: null, visitChannel: "unknown", referrer: "", source: "", medium: "", campaign: "", clickIds: [], subs: ["", "", "", "", ""] };
}
