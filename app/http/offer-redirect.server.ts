import { attributionOf, formPageTagged } from "~/services/analytics/attribution";
import type { OfferClick } from "~/services/analytics/offer-clicks.server";
import { fillOfferUrl } from "~/services/analytics/offer-url";
import type { VisitLookup } from "~/services/analytics/visit-lookup.server";
import { judgeClick } from "~/services/sending/click-judge";
import { logger } from "./logger.server";

export { OFFER_PATH } from "~/lib/offer-link";

export type OfferRedirectRequest = {
  method: string;
  /** The site's own origin as this request reached it: a Referer from elsewhere says nothing of the visit. */
  origin: string;
  referer: string | undefined;
  /** The client address as the server resolves it (trusted hops only). */
  ip: string;
  userAgent: string | undefined;
  navigation: boolean;
  acceptLanguage: boolean;
};

export type OfferRedirectOptions = {
  /** OFFER_URL: the only place this redirect leads. */
  offerUrl: string;
  /** Where the visit's entry is looked up (undefined with ANALYTICS=off). */
  visits: VisitLookup | undefined;
  /** Today's local day (ANALYTICS_TIME_ZONE). */
  today: () => string;
  /** Counts a click once the answer is on its way (undefined with ANALYTICS=off: none counted). */
  count: ((click: OfferClick) => void) | undefined;
};

export type OfferRedirectAnswer = { status: 302; location: string } | { status: 405 };

/** The page the link was on, when the Referer names a page of this site. */
function sameOriginPage(referer: string | undefined, origin: string) {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin === origin ? referer : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `GET /go/offer`: 302 to OFFER_URL, its placeholders filled from the visit: the linking page's
 * own query (the Referer, same-origin only), else the visitor's entry of the day, else empty.
 * Every click is counted with its source, and a machine's with its reason (decision 151's judge).
 */
export async function answerOfferRedirect(request: OfferRedirectRequest, options: OfferRedirectOptions): Promise<OfferRedirectAnswer> {
  if (request.method !== "GET" && request.method !== "HEAD") return { status: 405 };
  const page = sameOriginPage(request.referer, request.origin);
  const machine = judgeClick(request);
  let entry;
  if (options.visits) {
    try {
      // A tagged page decides alone, so its visit's referrer is looked up in memory only (no I/O);
      // so is a machine's, which has no entry and must not cost a read per request.
      entry = await options.visits.entryOf(request.ip, request.userAgent ?? null, { memoryOnly: machine !== null || formPageTagged(page) });
    } catch (error) {
      logger.warn({ err: error }, "could not look up the visit of an offer click");
    }
  }
  const visit = attributionOf(page, entry);
  const [sub1, sub2, sub3, sub4, sub5] = visit.subs;
  const location = fillOfferUrl(options.offerUrl, { sub1, sub2, sub3, sub4, sub5, utm_source: visit.source, utm_medium: visit.medium, utm_campaign: visit.campaign });
  options.count?.({ day: options.today(), channel: visit.visitChannel, source: visit.source, medium: visit.medium, campaign: visit.campaign, subs: visit.subs, machine });
  return { status: 302, location };
}
