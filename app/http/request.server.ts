import type { RequestEvidence } from "~/services/subscription/evidence";
import type { Db } from "~/db/client.server";
import { keepServedPage } from "~/services/consent/served-page.server";
import { formPageOf, formServedCookiesFromEnv } from "./form-served.server";

const MAX_HEADER_TEXT = 1000;

const clip = (value: string | null | undefined) => (value ? value.slice(0, MAX_HEADER_TEXT) : null);

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
    pageUrl: clip(pageUrl ?? header("referer") ?? url),
    referrer: clip(header("referer")),
    formServedAt: formServedCookiesFromEnv().servedAt(header("cookie")),
  };
}

export function requestEvidence(request: Request, pageUrl?: string | null): RequestEvidence {
  return evidenceFromHeaders((name) => request.headers.get(name), request.url, pageUrl);
}

/**
 * What a consent form's submission tells: the request's evidence, and the page the form was on,
 * kept by SHA-256 when it can be (decisions 079, 080; null otherwise).
 */
export async function formSubmissionEvidence(db: Db, request: Request) {
  const evidence = requestEvidence(request);
  return { evidence, servedPageSha256: await keepServedPage(db, evidence.pageUrl, formPageOf(request)) };
}
