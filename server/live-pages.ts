import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { ARTICLE_CATEGORIES } from "~/config/categories";
import { currentSnapshot } from "~/content/published";
import { articlePageInputs, authorPageContent } from "~/content/index";
import { renderPage } from "./prerender-views";
import { staticFileFromBody, type StaticFile } from "./static-files";

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
 * that show one article or one author: while it is unchanged, the file of the last render is
 * reused. Pages without it (lists, home, feeds) are rendered on every change.
 */
type LivePage = { key: string; url: string; optional?: boolean; dependsOn?: string };

const digest = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("base64url");

/**
 * Every page that shows articles or authors, by the published snapshot: the article pages,
 * `/blog` and each category, `/home` and `/` on the main domains, RSS, the sitemap and the author
 * pages, plus the `.data` of each page the client can navigate to (prerender wrote those before).
 * The digests are of the same inputs the article and author loaders render (app/content/index.ts).
 */
export function livePageList(): LivePage[] {
  const { articles, authors } = currentSnapshot();
  const pages: { path: string; dependsOn?: string }[] = [
    { path: "/blog" },
    { path: "/home" },
    ...articles.map((article) => ({ path: `/articles/${article.slug}`, dependsOn: digest(articlePageInputs(article)) })),
    ...authors.map((author) => ({ path: `/authors/${author.slug}`, dependsOn: digest(authorPageContent(author)) })),
  ];
  return [
    ...pages.flatMap(({ path, dependsOn }) => [
      { key: path, url: path, dependsOn },
      { key: `${path}.data`, url: `${path}.data`, optional: true, dependsOn },
    ]),
    { key: "/#home", url: "/" },
    ...ARTICLE_CATEGORIES.map((category) => ({ key: `/blog?category=${category.slug}`, url: `/blog?category=${category.slug}` })),
    { key: "/rss.xml", url: "/rss.xml" },
    ...ARTICLE_CATEGORIES.map((category) => ({ key: `/rss/${category.slug}.xml`, url: `/rss/${category.slug}.xml` })),
    { key: "/sitemap.xml", url: "/sitemap.xml" },
  ];
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

/**
 * Keeps `target.live` equal to a render of the current snapshot: `refresh()` renders what changed
 * and swaps the whole map in one assignment (a reader sees the old set or the new one). Calls that
 * come while a render runs are folded into one more render after it.
 */
export function createLivePages(target: { live: Map<string, StaticFile> }, host: string, onRendered: (stats: RenderStats) => void, onError: (error: unknown) => void) {
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
