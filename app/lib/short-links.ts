/** Links in a message: http(s) URLs up to white space, without trailing sentence punctuation. */
const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

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
