import { isMainDomain } from "~/config/site";
import { MAX_PAGE_URL } from "~/lib/interaction";

/** How long page addresses were cut before decision 127 (the Referer, at 1,000 characters). */
export const EARLIER_PAGE_URL_CUT = 1_000;

/**
 * What the certificate must say about a consent event's page address (decision 127), or null:
 * - `cut`: it is exactly as long as the site cuts addresses at (MAX_PAGE_URL), or cut them at
 *   before (EARLIER_PAGE_URL_CUT): it may be the start of a longer one, and a kept page was
 *   rebuilt from what is left;
 * - `origin-only`: it is a landing host's bare origin, with a kept opt-in page rebuilt from it.
 *   A browser sends only the origin for an address over 4,096 characters; where the page's
 *   script ran, it sent the whole one instead, but without JavaScript the page's values (the
 *   landing address's names, phone and click id) may be missing from the rebuilt page.
 * `kept`: a page is kept for the event; `mainDomains`: the hosts whose `/` is the home page
 * (nothing of the address is written into it, so a shorter address changes nothing there).
 */
export function pageAddressNote(pageUrl: string | null, kept: boolean, mainDomains: readonly string[]): { cut: number } | "origin-only" | null {
  if (!pageUrl) return null;
  if (pageUrl.length === MAX_PAGE_URL || pageUrl.length === EARLIER_PAGE_URL_CUT) return { cut: pageUrl.length };
  if (!kept) return null;
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return null;
  }
  return url.pathname === "/" && url.search === "" && !isMainDomain(url.host, mainDomains) ? "origin-only" : null;
}
