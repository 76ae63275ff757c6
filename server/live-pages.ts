import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { ARTICLE_CATEGORIES } from "~/config/categories";
import { currentSnapshot, type PublicAuthor, type PublishedArticle } from "~/content/published";
import { articlePageInputs, authorPageContent, blogListPage, getArticlesInCategory } from "~/content/index";
import { getEnv } from "~/http/env.server";
import { renderPage } from "./prerender-views";
import { staticFileFromBody, type StaticFile } from "./static-files";
import type { PageToRender } from "./page-store";
import { holdsConsentForm } from "./consent-form-pages";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * Brotli quality of the pages rendered per change. 11 (the build's) costs ~40 ms per article page
 * on this machine and a full re-render of ~30 pages would take over a second; 5 renders and
 * compresses everything in well under a second for a few percent more bytes (docs/benchmarks.md).
 */
export const LIVE_BROTLI_QUALITY = 5;
const GZIP_LEVEL = 9;

/**
 * A key of the live set and the address rendered for it (views of `/` by Host are keyed like
 * PRERENDERED_VIEWS). `dependsOn` digests everything the page shows from the snapshot, for pages
 * that show one article, one author or one category (its first page and its feed): while it is
 * unchanged, the file of the last render is reused, so publishing in one category renders that
 * category's page and feed but not the five others. Pages without it (`/blog`, home, the site's
 * feed, the sitemap) are rendered on every change.
 */
type LivePage = { key: string; url: string; optional?: boolean; dependsOn?: string };

const digest = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("base64url");

/**
 * The pages rendered on every change and always in memory: `/blog` and each category's first
 * page, `/home` and `/` on the main domains, the feeds and the sitemap (their size does not grow
 * with the archive: lists are paginated, feeds hold the latest items). The article and author
 * pages are not in it: they are rendered on their first request and kept in the page store
 * (server/page-store.ts, decision 075), so neither the start nor a change renders the archive.
 */
export function livePageList(): LivePage[] {
  const pages: { path: string; dependsOn?: string }[] = [{ path: "/blog" }, { path: "/home" }];
  return [
    ...pages.flatMap(({ path, dependsOn }) => [
      { key: path, url: path, dependsOn },
      { key: `${path}.data`, url: `${path}.data`, optional: true, dependsOn },
    ]),
    { key: HOME_KEY, url: "/" },
    ...ARTICLE_CATEGORIES.map((category) => ({ key: `/blog?category=${category.slug}`, url: `/blog?category=${category.slug}`, dependsOn: digest(blogListPage(category)) })),
    { key: "/rss.xml", url: "/rss.xml" },
    ...ARTICLE_CATEGORIES.map((category) => ({
      key: `/rss/${category.slug}.xml`,
      url: `/rss/${category.slug}.xml`,
      // The feed's items as the route takes them; each names its live revision, so an edit shows.
      dependsOn: digest(getArticlesInCategory(category.slug).slice(0, getEnv().RSS_ITEMS)),
    })),
    { key: "/sitemap.xml", url: "/sitemap.xml" },
  ];
}

type SlugIndex = { articles: Map<string, PublishedArticle>; authors: Map<string, PublicAuthor> };
const indexes = new WeakMap<object, SlugIndex>();

/** Articles and authors by slug, made once per snapshot (a lookup per request must not scan 10,000). */
function slugIndex(): SlugIndex {
  const snapshot = currentSnapshot();
  let index = indexes.get(snapshot);
  if (!index) {
    index = { articles: new Map(snapshot.articles.map((article) => [article.slug, article])), authors: new Map(snapshot.authors.map((author) => [author.slug, author])) };
    indexes.set(snapshot, index);
  }
  return index;
}

const STORED_PAGE = /^\/(articles|authors)\/([a-z0-9]+(?:-[a-z0-9]+)*)(\.data)?$/;

/** Is this path an article or author page (or its .data) of the page store? */
export function isStoredPagePath(pathname: string) {
  return STORED_PAGE.test(pathname);
}

/**
 * The digest of what the page at `pathname` shows now, from the same inputs its loader renders
 * (app/content/index.ts); undefined when it is not a public article or author page.
 */
export function storedPageDigest(pathname: string): string | undefined {
  const match = STORED_PAGE.exec(pathname);
  if (!match) return undefined;
  const index = slugIndex();
  if (match[1] === "articles") {
    const article = index.articles.get(match[2]!);
    return article && digest(articlePageInputs(article));
  }
  const author = index.authors.get(match[2]!);
  return author && digest(authorPageContent(author));
}

/** The article or author page to render for `pathname`, or undefined (not one, or not public: the router answers). */
export function storedPageFor(pathname: string): PageToRender | undefined {
  const dependsOn = storedPageDigest(pathname);
  return dependsOn === undefined ? undefined : { key: pathname, url: pathname, dependsOn };
}

/** Renders and compresses one page as the live set does; null when the router does not answer 200. */
export async function renderStoredPage(page: PageToRender, host: string) {
  const response = await renderPage(page.url, host);
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) return null;
  const contentType = response.headers.get("content-type") ?? "text/html; charset=utf-8";
  const file = await compressed(page.key, body, contentType);
  return { body, contentType, gzip: file.gzip, brotli: file.brotli };
}

async function compressed(key: string, body: Buffer, contentType: string): Promise<StaticFile> {
  if (body.length < 256) return staticFileFromBody(body, key, { contentType });
  const [gz, br] = await Promise.all([
    gzip(body, { level: GZIP_LEVEL }),
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: LIVE_BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  return staticFileFromBody(body, key, { contentType, gzip: gz, brotli: br });
}

export type RenderStats = { pages: number; rendered: number; reused: number; ms: number; renderMs: number; compressMs: number };

/** A rendered file and what it showed (LivePage.dependsOn), kept to reuse on the next change. */
export type RenderedPage = { file: StaticFile; dependsOn?: string };

/**
 * Renders and compresses the live set with the same renderPage the build uses; a page whose
 * `dependsOn` matches the previous render's is taken from `previous` instead. At start there is
 * no previous render: everything is rendered.
 */
export async function renderLivePages(host: string, previous: ReadonlyMap<string, RenderedPage> = new Map()) {
  const started = performance.now();
  const rendered: { key: string; body: Buffer; contentType: string; dependsOn?: string }[] = [];
  const reused: [string, RenderedPage][] = [];
  for (const page of livePageList()) {
    const last = previous.get(page.key);
    if (page.dependsOn !== undefined && last?.dependsOn === page.dependsOn) {
      reused.push([page.key, last]);
      continue;
    }
    const response = await renderPage(page.url, host);
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) {
      if (page.optional) continue;
      throw new Error(`Rendering ${page.url} answered ${response.status}`);
    }
    rendered.push({ key: page.key, body, contentType: response.headers.get("content-type") ?? "text/html; charset=utf-8", dependsOn: page.dependsOn });
  }
  const renderedAt = performance.now();
  const files = await Promise.all(
    rendered.map(async (page) => [page.key, { file: await compressed(page.key, page.body, page.contentType), dependsOn: page.dependsOn }] as [string, RenderedPage]),
  );
  const done = performance.now();
  const all = new Map<string, RenderedPage>([...reused, ...files]);
  return {
    pages: new Map([...all].map(([key, page]) => [key, page.file])),
    rendered: all,
    stats: { pages: all.size, rendered: files.length, reused: reused.length, ms: Math.round(done - started), renderMs: Math.round(renderedAt - started), compressMs: Math.round(done - renderedAt) },
  };
}

/** The key of the home page in the live set. */
export const HOME_KEY = "/#home";
/**
 * How many earlier pages with a consent form stay at hand for the consent record (decisions 080,
 * 127): `/` and `/home` change together on a publication, so 16 is the last 8 publications.
 */
const EARLIER_FORM_PAGES = 16;

/** A page with a consent form the live set showed under `key` before it was replaced. */
export type EarlierPage = { key: string; file: StaticFile };

/**
 * The earlier pages with a consent form after a render replaced the live set `before` with
 * `after`, newest first: a form sent with a page just replaced may still come back, and its record
 * keeps the page the person saw, found by the ETag in its cookie (decision 080).
 */
export function earlierFormPagesAfter(earlier: readonly EarlierPage[], before: ReadonlyMap<string, StaticFile>, after: ReadonlyMap<string, StaticFile>): EarlierPage[] {
  const replaced: EarlierPage[] = [];
  for (const [key, file] of before) {
    // The same bytes rendered again (every change renders the home page) replace nothing.
    if (after.get(key)?.etag !== file.etag && holdsConsentForm(file)) replaced.push({ key, file });
  }
  if (replaced.length === 0) return [...earlier];
  return [...replaced, ...earlier].slice(0, EARLIER_FORM_PAGES);
}

/**
 * Keeps `target.live` equal to a render of the current snapshot: `refresh()` renders what changed
 * and swaps the whole map in one assignment (a reader sees the old set or the new one). Calls that
 * come while a render runs are folded into one more render after it.
 */
export function createLivePages(target: { live: Map<string, StaticFile>; earlierFormPages?: EarlierPage[] }, host: string, onRendered: (stats: RenderStats) => void, onError: (error: unknown) => void) {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  // The files on show and what each showed: only pages whose content changed are rendered again.
  let shown: ReadonlyMap<string, RenderedPage> = new Map();
  const renderOnce = async () => {
    // A change during the render means a mixed set: render again before showing it.
    for (let attempt = 0; attempt < 3; attempt++) {
      const snapshot = currentSnapshot();
      const { pages, rendered, stats } = await renderLivePages(host, shown);
      if (snapshot === currentSnapshot() || attempt === 2) {
        target.earlierFormPages = earlierFormPagesAfter(target.earlierFormPages ?? [], target.live, pages);
        target.live = pages;
        shown = rendered;
        onRendered(stats);
        return;
      }
    }
  };
  const refresh = (): Promise<void> => {
    if (!running) {
      running = renderOnce()
        .catch(onError)
        .finally(() => {
          running = null;
        });
      return running;
    }
    queued ??= running.then(() => {
      queued = null;
      return refresh();
    });
    return queued;
  };
  return { refresh, idle: () => running ?? Promise.resolve() };
}
