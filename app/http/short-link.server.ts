import { getDb } from "~/db/database.server";
import { TRAILING_PUNCTUATION } from "~/lib/short-links";
import { judgeClick } from "~/services/sending/click-judge";
import { recordClick, resolveShortLink, secondsSinceCopySent } from "~/services/sending/links.server";
import { logger } from "./logger.server";

export type ShortLinkAnswer = { status: 302; location: string } | { status: 404 } | { status: 405 };

/**
 * The code in the path after `/l/`. A link at the end of a sentence in a text or an e-mail arrives
 * with the sentence's punctuation when the app takes it into the link (`/l/AbC2345.`, `/l/AbC2345)`),
 * as it is or percent-encoded: that is stripped, since no code has such characters.
 */
export function shortCodeFromPath(rest: string) {
  let code = rest;
  try {
    code = decodeURIComponent(rest);
  } catch {
    // Not valid percent-encoding: not a code either; the lookup says so.
  }
  return code.replace(TRAILING_PUNCTUATION, "");
}

/**
 * `GET /l/<code>`: 302 to the stored URL (and nowhere else). Every request is recorded once, after
 * the answer: a person's as a click, a machine's (HEAD, scanners, previews, a fetch right after the
 * e-mail copy was sent) as a fetch with its reason, shown apart (decision 151).
 */
export async function answerShortLink(request: {
  method: string;
  code: string;
  ip: string;
  userAgent: string | undefined;
  /** `Sec-Fetch-Mode: navigate` was sent. */
  navigation: boolean;
  /** Accept-Language was sent. */
  acceptLanguage: boolean;
  /** The e-mail copy the link names (`?c=`), if any. */
  copyId: number | null;
}): Promise<ShortLinkAnswer> {
  if (request.method !== "GET" && request.method !== "HEAD") return { status: 405 };
  const code = shortCodeFromPath(request.code);
  const db = await getDb();
  const link = await resolveShortLink(db, code);
  if (!link) return { status: 404 };
  // Recorded after the answer: a slow insert must not hold up the person's redirect.
  setImmediate(() => {
    void (async () => {
      const secondsSinceSent = request.copyId !== null && link.campaignId ? await secondsSinceCopySent(db, link.campaignId, request.copyId) : null;
      const machine = judgeClick({ ...request, secondsSinceSent });
      await recordClick(db, { code, campaignId: link.campaignId, ip: request.ip, userAgent: request.userAgent ?? "", machine });
    })().catch((error: unknown) => logger.warn({ err: error, code }, "could not count a short-link click"));
  });
  return { status: 302, location: link.url };
}

export const SHORT_LINK_NOT_FOUND_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Link not found</title></head>
<body><main><h1>Link not found</h1><p>This link does not exist or has expired.</p><p><a href="/">Go to the home page</a></p></main></body></html>
`;
