/** Links in a message: http(s) URLs up to white space, without trailing sentence punctuation. */
const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
/** What mail and SMS apps take into a link from the sentence around it (`/l/<code>` answers with it). */
export const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

export const SHORT_CODE_LENGTH = 7;

export function findUrls(text: string) {
  return [...new Set([...text.matchAll(URL_PATTERN)].map((match) => match[0].replace(TRAILING_PUNCTUATION, "")))];
}

/**
 * Replaces every URL with `replace(url)`, each where it stands, in one pass: a replacement is never
 * searched again, so a URL that begins another one (the site's bare address in a footer) cannot
 * rewrite a short link already put in its place.
 */
export function replaceUrls(text: string, replace: (url: string) => string) {
  return text.replace(URL_PATTERN, (match) => {
    const url = match.replace(TRAILING_PUNCTUATION, "");
    return replace(url) + match.slice(url.length);
  });
}

/** The text as it will be sent, for counting: each URL becomes a short link of the real length. */
export function withShortLinkPlaceholders(text: string, siteUrl: string) {
  return replaceUrls(text, (url) => (url.startsWith(`${siteUrl}/l/`) ? url : `${siteUrl}/l/${"x".repeat(SHORT_CODE_LENGTH)}`));
}

/** The query parameter naming the e-mail copy a short link was sent in (decision 151). */
export const COPY_PARAMETER = "c";

/**
 * Each short link of one e-mail copy marked with that copy's ledger id, so a click can be set
 * against the moment the copy was handed over (mail scanners open links within seconds of it).
 */
export function withCopyMarker(text: string, siteUrl: string, copyId: number) {
  const shortLink = new RegExp(`${siteUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/l/[A-Za-z0-9]{7,16}(?![A-Za-z0-9?])`, "g");
  return text.replace(shortLink, (link) => `${link}?${COPY_PARAMETER}=${copyId}`);
}

/** The copy id a short link's query names, or null (a text message's links name none). */
export function copyIdFromQuery(query: string) {
  const value = new URLSearchParams(query).get(COPY_PARAMETER);
  // A sentence's full stop may follow the link, and so the number.
  const digits = value ? /^\d{1,15}/.exec(value)?.[0] : undefined;
  return digits ? Number(digits) : null;
}
