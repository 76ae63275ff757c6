import { isbot } from "isbot";
import { getDb } from "~/db/database.server";
import { recordClick, resolveShortLink } from "~/services/sending/links.server";
import { logger } from "./logger.server";

/**
 * Link-preview fetchers (iMessage, WhatsApp, Facebook, Slack, Twitter/X, Telegram, Discord…) open
 * a link when it is pasted or received, before any person taps it: they get the redirect but are
 * not counted. A request without a user agent is not a person's browser either.
 */
export function isPreviewFetcher(userAgent: string | undefined) {
  return !userAgent || isbot(userAgent);
}

export type ShortLinkAnswer = { status: 302; location: string } | { status: 404 } | { status: 405 };

/** `GET /l/<code>`: 302 to the stored URL (and nowhere else); a person's click is counted once per request. */
export async function answerShortLink(request: { method: string; code: string; ip: string; userAgent: string | undefined }): Promise<ShortLinkAnswer> {
  if (request.method !== "GET" && request.method !== "HEAD") return { status: 405 };
  const db = await getDb();
  const link = await resolveShortLink(db, request.code);
  if (!link) return { status: 404 };
  if (request.method === "GET" && !isPreviewFetcher(request.userAgent)) {
    // Counted after the answer: a slow insert must not hold up the person's redirect.
    setImmediate(() => {
      recordClick(db, { code: request.code, campaignId: link.campaignId, ip: request.ip, userAgent: request.userAgent ?? "" }).catch((error: unknown) =>
        logger.warn({ err: error, code: request.code }, "could not count a short-link click"),
      );
    });
  }
  return { status: 302, location: link.url };
}

export const SHORT_LINK_NOT_FOUND_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Link not found</title></head>
<body><main><h1>Link not found</h1><p>This link does not exist or has expired.</p><p><a href="/">Go to the home page</a></p></main></body></html>
`;
