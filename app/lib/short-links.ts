/** Links in a message: http(s) URLs up to white space, without trailing sentence punctuation. */
const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

export const SHORT_CODE_LENGTH = 7;

export function findUrls(text: string) {
  return [...new Set([...text.matchAll(URL_PATTERN)].map((match) => match[0].replace(/[.,;:!?)\]]+$/, "")))];
}

/** Replaces every URL with `replace(url)` (all occurrences). */
export function replaceUrls(text: string, replace: (url: string) => string) {
  let result = text;
  // Longest first, so a URL that is the prefix of another is not replaced inside it.
  for (const url of findUrls(text).sort((a, b) => b.length - a.length)) result = result.split(url).join(replace(url));
  return result;
}

/** The text as it will be sent, for counting: each URL becomes a short link of the real length. */
export function withShortLinkPlaceholders(text: string, siteUrl: string) {
  return replaceUrls(text, (url) => (url.startsWith(`${siteUrl}/l/`) ? url : `${siteUrl}/l/${"x".repeat(SHORT_CODE_LENGTH)}`));
}
