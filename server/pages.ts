import type { IncomingMessage } from "node:http";
import path from "node:path";
import { hasSessionCookie } from "~/auth/session-cookie";
import { isMainDomain } from "~/config/site";
import { readOptInPrefill } from "~/components/opt-in/prefill";
import type { OptInPrefill } from "~/components/opt-in/opt-in-page";
import { loadStaticFiles, loadViews, type StaticFile } from "./static-files";
import { prefilledDocument, prefillTemplate, type PrefillTemplate } from "./opt-in-prefill";
import { currentSnapshot } from "~/content/published";
import { HOME_KEY, isStoredPagePath, storedPageDigest, storedPageFor } from "./live-pages";
import type { PageStore, PageToRender } from "./page-store";
import { holdsConsentForm } from "./consent-form-pages";
import type { EarlierPage } from "./live-pages";

/** Everything answered from memory: the client build, the prerendered views, the opt-in templates. */
export type MemoryPages = {
  /** build/client by URL path: assets, public files, prerendered pages. */
  files: Map<string, StaticFile>;
  /** build/views by PRERENDERED_VIEWS key. */
  views: Map<string, StaticFile>;
  /**
   * The pages made from the database (server/live-pages.ts), keyed by path or view key; replaced
   * as a whole on every content change. Looked up before the build's files and views.
   */
  live: Map<string, StaticFile>;
  /** The article and author pages, rendered on first request (server/page-store.ts, decision 075). */
  store?: PageStore;
  /**
   * The pages with a consent form the live set showed before its current ones, newest first, by
   * their key in `live` (server/live-pages.ts): a form sent with one may come back after a change.
   */
  earlierFormPages?: EarlierPage[];
  /** /opt-in, and `/` on any host that is not a main domain, ready for a prefill. */
  optIn?: PrefillTemplate;
  optInHost?: PrefillTemplate;
  mainDomains: readonly string[];
};

export type MemoryAnswer = { file: StaticFile } | { template: PrefillTemplate; prefill: OptInPrefill };

export function loadMemoryPages(buildDir: string, mainDomains: readonly string[]): MemoryPages {
  const files = loadStaticFiles(path.join(buildDir, "client"));
  const views = loadViews(path.join(buildDir, "views"));
  const optIn = files.get("/opt-in");
  const optInHost = views.get("/#opt-in");
  return {
    files,
    views,
    live: new Map(),
    optIn: optIn && prefillTemplate(optIn),
    optInHost: optInHost && prefillTemplate(optInHost),
    mainDomains,
  };
}

function prefilled(template: PrefillTemplate | undefined, params: URLSearchParams): MemoryAnswer | undefined {
  if (!template) return undefined;
  const prefill = readOptInPrefill(params);
  // Nothing to write in: the prerendered bytes as they are, with their brotli twin and ETag.
  if (!prefill.clickId && !prefill.firstName && !prefill.lastName && !prefill.phone) return { file: template.file };
  return { template, prefill };
}

/**
 * THE decision whether a request is answered from memory instead of being rendered; every rule
 * about it belongs here. Only for what a render of the same URL would produce byte for byte (the
 * system test tests/system/memory-pages.test.ts compares them):
 * - a file of the build by path, when there is no query string;
 * - `/` by Host: the home or the opt-in document;
 * - `/opt-in` (and `/` on opt-in hosts) with any query string: the opt-in document with its
 *   prefill written in;
 * - `/home` with any query string (an ad's or a newsletter's tracking parameters): its live page,
 *   as `/` on a main domain (the home page shows nothing of the query);
 * - `/blog?category=<known slug>` : its live page 1 (an unknown one goes to the router: 404;
 *   so does any `page` parameter: further pages are rendered per request);
 * - the live pages (blog, home, RSS, sitemap) rendered from the database, and the article and
 *   author pages kept by the page store while their digest is current and they are public (a
 *   removed one goes to the router: 404 or 410; one not kept yet: pageToRenderOnFirstRequest).
 * A `notice` parameter always goes to the router (the root layout shows that notice).
 * Undefined means: let the router render it.
 */
export function answerFromMemory(req: IncomingMessage, pages: MemoryPages): MemoryAnswer | undefined {
  const answer = anonymousAnswer(req, pages);
  // Prerendered pages and their .data are the anonymous visitor's: a signed-in person's (their
  // header) is rendered per request. Assets are the same for everybody. Decision 036.
  if (answer && isPage(answer, req.url ?? "") && hasSessionCookie(req.headers.cookie)) return undefined;
  return answer;
}

function isPage(answer: MemoryAnswer, url: string) {
  if ("template" in answer) return true;
  return answer.file.contentType.startsWith("text/html") || url.split("?")[0]!.endsWith(".data");
}

function anonymousAnswer(req: IncomingMessage, pages: MemoryPages): MemoryAnswer | undefined {
  if (req.method !== "GET" && req.method !== "HEAD") return undefined;
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  const query = queryAt < 0 ? "" : url.slice(queryAt + 1);
  if (!query) {
    if (pathname === "/") return homeOrOptIn(req, pages, undefined);
    const file = pages.live.get(pathname) ?? storedPage(pages, pathname) ?? pages.files.get(pathname);
    return file && { file };
  }
  if (pathname !== "/" && pathname !== "/opt-in" && pathname !== "/blog" && pathname !== "/home") return undefined;
  // Parsed as the router parses it (a Request made from the same address), so values match.
  let params: URLSearchParams;
  try {
    params = new URL(`http://localhost${url}`).searchParams;
  } catch {
    return undefined;
  }
  if (params.has("notice")) return undefined;
  if (pathname === "/opt-in") return prefilled(pages.optIn, params);
  if (pathname === "/") return homeOrOptIn(req, pages, params);
  if (pathname === "/home") {
    const home = pages.live.get("/home");
    return home && { file: home };
  }
  // Page 1 of /blog and of each category is in the live set; `page` (2, 3, … or a bad one) goes
  // to the router, which renders further pages per request from the snapshot (decision 073).
  if (params.has("page")) return undefined;
  const category = params.get("category");
  const view = category === null ? pages.live.get("/blog") : pages.live.get(`/blog?category=${category}`);
  return view && { file: view };
}

/**
 * The document with a consent form that answerFromMemory answers an anonymous GET of `url` from:
 * the opt-in document (before the URL's values are written in), or any other page answered from
 * memory that holds a consent form (the home page on `/` and `/home`, with any query string; a
 * page of the page store that holds one); undefined for a page without one, or one the router
 * renders. The consent record keeps it (decisions 079, 080, 127).
 * `etag`: the document the page's cookie names (decision 080); when the page has changed since,
 * the earlier one of the same address with that ETag, if still at hand.
 */
export function servedFormDocument(pages: MemoryPages, url: URL, etag?: string | null): StaticFile | undefined {
  const request = { method: "GET", url: url.pathname + url.search, headers: { host: url.host } } as unknown as IncomingMessage;
  const answer = anonymousAnswer(request, pages);
  if (!answer) return undefined;
  const file = "template" in answer ? answer.template.file : answer.file;
  if (!holdsConsentForm(file)) return undefined;
  if (!etag || etag === file.etag) return file;
  const key = liveKeyOf(pages, file);
  return (key !== undefined && pages.earlierFormPages?.find((earlier) => earlier.key === key && earlier.file.etag === etag)?.file) || file;
}

/** The key `file` is shown under in the live set, if it is one of its pages. */
function liveKeyOf(pages: MemoryPages, file: StaticFile) {
  for (const [key, shown] of pages.live) if (shown === file) return key;
  return undefined;
}

/**
 * The page as sent for `url` from a kept document: the opt-in document (`/opt-in`, `/` on a
 * landing host) with the same cut and the same writing-in; any other page (the home page, a page
 * kept as it was rendered) as it is.
 */
export function fillServedForm(pages: MemoryPages, document: Buffer, url: URL): Buffer {
  const optIn = url.pathname === "/opt-in" || (url.pathname === "/" && !isMainDomain(url.host, pages.mainDomains));
  if (!optIn) return document;
  const template = prefillTemplate({ body: document } as StaticFile);
  return prefilledDocument(template, readOptInPrefill(url.searchParams));
}

function storedPage(pages: MemoryPages, pathname: string) {
  if (!pages.store || !isStoredPagePath(pathname)) return undefined;
  return pages.store.peek(pathname, currentSnapshot(), () => storedPageDigest(pathname));
}

/**
 * An article or author page (or its .data) that answerFromMemory did not have: the one to render
 * now, keep, and send (the same anonymous, query-less GET/HEAD rule). Undefined: the router
 * answers (a page not public: 404 or 410; a signed-in visitor; a query string).
 */
export function pageToRenderOnFirstRequest(req: IncomingMessage, pages: MemoryPages): PageToRender | undefined {
  if (!pages.store || (req.method !== "GET" && req.method !== "HEAD")) return undefined;
  const url = req.url ?? "/";
  if (url.includes("?") || hasSessionCookie(req.headers.cookie) || !isStoredPagePath(url)) return undefined;
  return storedPageFor(url);
}

function homeOrOptIn(req: IncomingMessage, pages: MemoryPages, params: URLSearchParams | undefined): MemoryAnswer | undefined {
  if (isMainDomain(req.headers.host, pages.mainDomains)) {
    const home = pages.live.get(HOME_KEY);
    return home && { file: home };
  }
  if (!params) {
    const optIn = pages.optInHost?.file;
    return optIn && { file: optIn };
  }
  return prefilled(pages.optInHost, params);
}
