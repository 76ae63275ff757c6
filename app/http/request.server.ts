import type { RequestEvidence } from "~/services/subscription/evidence";
import { formServedCookiesFromEnv } from "./form-served.server";

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
