import { createHmac, timingSafeEqual } from "node:crypto";

/** How long a preview link works (decision 052). */
export const PREVIEW_LINK_DAYS = 7;

function signature(secret: string, articleId: string, expires: number) {
  return createHmac("sha256", secret).update(`article-preview:${articleId}:${expires}`).digest("base64url");
}

/** `<expiry seconds>.<HMAC of article id and expiry>`: anyone holding it sees the working copy until it expires. */
export function signPreviewToken(secret: string, articleId: string, now = new Date(), days = PREVIEW_LINK_DAYS) {
  const expires = Math.floor(now.getTime() / 1000) + days * 86_400;
  return { token: `${expires}.${signature(secret, articleId, expires)}`, expiresAt: new Date(expires * 1000) };
}

export function verifyPreviewToken(secret: string, articleId: string, token: string | null, now = new Date()) {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "");
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(signature(secret, articleId, expires));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
