import type { RequestEvidence } from "~/services/subscription/evidence";
import type { Db } from "~/db/client.server";
import { keepServedPage } from "~/services/consent/served-page.server";
import { MAX_PAGE_URL, PAGE_ADDRESS_FIELD } from "~/lib/interaction";
import { formPageOf, formServedCookiesFromEnv } from "./form-served.server";

const MAX_HEADER_TEXT = 1000;

const clip = (value: string | null | undefined, max = MAX_HEADER_TEXT) => (value ? value.slice(0, max) : null);

type HeaderReader = (name: string) => string | null | undefined;

/**
 * The client's IP. Our server (server/app.ts) overwrites X-Forwarded-For with the address it
 * trusts before the app runs, so here the header is a single trusted value.
 */
export function clientIp(request: Request) {
  return ipFrom((name) => request.headers.get(name));
}

function ipFrom(header: HeaderReader) {
  return header("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}

/** What a request tells us about the person giving consent, from any source of headers. */
export function evidenceFromHeaders(header: HeaderReader, url: string, pageUrl?: string | null): RequestEvidence {
  return {
    ip: ipFrom(header),
    userAgent: clip(header("user-agent")),
    acceptLanguage: clip(header("accept-language")),
    pageUrl: clip(pageUrl ?? header("referer") ?? url, MAX_PAGE_URL),
    referrer: clip(header("referer"), MAX_PAGE_URL),
    formServedAt: formServedCookiesFromEnv().servedAt(header("cookie")),
  };
}

/**
 * Whether the browser sent Global Privacy Control (`Sec-GPC: 1`, the only value the specification
 * defines): an opt-out of the sale or sharing of the person's data (decision 153). Kept apart
 * from the evidence, whose fields the consent chain covers.
 */
export function globalPrivacyControl(header: HeaderReader) {
  return header("sec-gpc")?.trim() === "1";
}

export function requestGpc(request: Request) {
  return globalPrivacyControl((name) => request.headers.get(name));
}

export function requestEvidence(request: Request, pageUrl?: string | null): RequestEvidence {
  return evidenceFromHeaders((name) => request.headers.get(name), request.url, pageUrl);
}

/**
 * The address of the page a form on this site was sent from: the Referer, unless the browser sent
 * only the origin (as it does for an address past 4,096 characters) or none; then the address the
 * page's script wrote into the form (`written`, PAGE_ADDRESS_FIELD), when it is this site's
 * (decision 127). Undefined: the request's own evidence decides (the Referer, else its URL).
 */
export function formPageAddress(request: Request, written: unknown): string | undefined {
  if (typeof written !== "string" || written === "") return undefined;
  const origin = new URL(request.url).origin;
  let address: URL;
  try {
    address = new URL(written);
  } catch {
    return undefined;
  }
  if (address.origin !== origin) return undefined;
  const referer = request.headers.get("referer");
  return !referer || referer === `${origin}/` || referer === origin ? written : undefined;
}

/**
 * What a consent form's submission tells: the request's evidence, and the page the form was on,
 * kept by SHA-256 when it can be (decisions 079, 080, 127; null otherwise). `fields`: the form as
 * sent, for the address its page wrote in.
 */
export async function formSubmissionEvidence(db: Db, request: Request, fields: Record<string, unknown>) {
  const evidence = requestEvidence(request, formPageAddress(request, fields[PAGE_ADDRESS_FIELD]));
  return { evidence, servedPageSha256: await keepServedPage(db, evidence.pageUrl, formPageOf(request)) };
}
