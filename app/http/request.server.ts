import type { RequestEvidence } from "~/services/evidence";

const MAX_HEADER_TEXT = 1000;

const clip = (value: string | null) => (value ? value.slice(0, MAX_HEADER_TEXT) : null);

/**
 * The client's IP. Our server (server/app.ts) overwrites X-Forwarded-For with the address it
 * trusts before the app runs, so here the header is a single trusted value.
 */
export function clientIp(request: Request) {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}

export function requestEvidence(request: Request, pageUrl?: string | null): RequestEvidence {
  return {
    ip: clientIp(request),
    userAgent: clip(request.headers.get("user-agent")),
    acceptLanguage: clip(request.headers.get("accept-language")),
    pageUrl: clip(pageUrl ?? request.headers.get("referer") ?? request.url),
    referrer: clip(request.headers.get("referer")),
  };
}
