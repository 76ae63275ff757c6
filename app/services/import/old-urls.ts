import type { WxrAuthor, WxrItem, WxrSite, WxrTerm } from "./wxr-reader.server";

/**
 * Which addresses of the old site answer 301 to what here, after a WordPress or Ghost import
 * (issue 35). Pure: the importer writes the pairs to `redirects`, and the server, which looks an
 * incoming request up there, must put the request through `normalizeOldPath` first, so that the
 * two sides agree on one spelling of every address.
 */

export type OldRedirect = { path: string; target: string };

/**
 * WordPress's query variables that name a page by themselves (a post, a page, an archive, a feed,
 * a search). Everything else in a query (utm_*, fbclid, replytocom, paged, preview…) is dropped, so
 * a link shared with tracking still finds its post.
 */
const MEANINGFUL_QUERY = new Set(["p", "page_id", "attachment_id", "cat", "tag", "author", "feed", "m", "year", "monthnum", "day", "name", "pagename", "category_name", "author_name", "s"]);

const HEX = "0123456789ABCDEF";
const UTF8 = new TextEncoder();

/** RFC 3986 `pchar` without `%`: the characters a path segment may hold unencoded. */
const isSegmentSafe = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || "-._~!$&'()*+,;=:@".includes(String.fromCharCode(byte));

const isHex = (code: number | undefined) => code !== undefined && ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66));

/**
 * One path segment in its one spelling: the bytes it stands for (a `%XX` is its byte, any other
 * character its UTF-8 bytes), then each byte written literally when it is an unreserved character or
 * a sub-delimiter, `:` or `@`, and as `%XX` with capital hex digits otherwise. Working on bytes
 * rather than decoded text keeps a segment that is not valid UTF-8 (a Latin-1 `%E9`) intact.
 */
function canonicalSegment(raw: string): string {
  const bytes: number[] = [];
  for (let at = 0; at < raw.length; ) {
    if (raw[at] === "%" && isHex(raw.charCodeAt(at + 1)) && isHex(raw.charCodeAt(at + 2))) {
      bytes.push(Number.parseInt(raw.slice(at + 1, at + 3), 16));
      at += 3;
    } else {
      const char = String.fromCodePoint(raw.codePointAt(at)!);
      bytes.push(...UTF8.encode(char));
      at += char.length;
    }
  }
  let out = "";
  for (const byte of bytes) out += isSegmentSafe(byte) ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  return out;
}

/** A query value in one spelling: what encodeURIComponent writes, with capital hex digits (it always does). */
const canonicalQueryPart = (value: string) => encodeURIComponent(value);

/**
 * An old address (a full URL, `//host/…`, or a path with its query) as the key the redirects are
 * stored under, or null when it cannot be read as an address:
 * - the scheme, host and `#fragment` are dropped (the table holds one old site's paths);
 * - `.` and `..` segments are resolved, empty segments and the trailing slash dropped (`/` stays
 *   `/`), and a last `index.php` segment dropped (`/index.php?p=1` is `/?p=1` in WordPress);
 * - percent-encoding: decoded to bytes and re-encoded, leaving literal only RFC 3986's unreserved
 *   characters, its sub-delimiters, `:` and `@`; everything else, non-ASCII included, becomes
 *   `%XX` in capitals (`/caf%c3%a9/`, `/café` and `/caf%C3%A9` are all `/caf%C3%A9`);
 * - the query keeps only WordPress's query variables that name a page (`p`, `page_id`, `cat`,
 *   `feed`, `m`, `s`…), non-empty, the last of a repeated one (as PHP reads it), sorted by name
 *   and written as encodeURIComponent writes them.
 * Letter case is kept: the old server told `/Photo.JPG` from `/photo.jpg`.
 */
export function normalizeOldPath(pathOrUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(pathOrUrl.trim(), "http://old.invalid/");
  } catch {
    return null;
  }
  const segments = url.pathname
    .split("/")
    .filter((segment) => segment !== "")
    .map(canonicalSegment);
  if (segments.at(-1)?.toLowerCase() === "index.php") segments.pop();
  const kept = new Map<string, string>();
  for (const [key, value] of url.searchParams) {
    if (!MEANINGFUL_QUERY.has(key)) continue;
    kept.delete(key);
    if (value.trim() !== "") kept.set(key, value.trim());
  }
  const query = [...kept]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${canonicalQueryPart(key)}=${canonicalQueryPart(value)}`)
    .join("&");
  return `/${segments.join("/")}${query ? `?${query}` : ""}`;
}

/**
 * The host two addresses of one site share: lower case, without the port a scheme implies and
 * without a leading `www.` (old sites answered both, and moved from http to https over the
 * years: their own links carry either).
 */
export function siteHostKey(url: URL): string {
  return url.host.toLowerCase().replace(/^www\./, "");
}

/** The old site's home: where its permalinks, archives and feeds hang (WXR's `<link>`, also `wp:base_blog_url`). */
function wordpressHome(site: WxrSite): URL | null {
  for (const candidate of [site.link, site.baseBlogUrl, site.baseSiteUrl]) {
    try {
      if (candidate) return new URL(candidate);
    } catch {
      // The next one may be readable.
    }
  }
  return null;
}

/** The folder a site lives in (`/blog` for https://old.example.com/blog/), "" at a host's root. */
function folderOf(home: URL | null): string {
  const path = home ? normalizeOldPath(home.pathname) : "/";
  return path === "/" || path === null ? "" : path;
}

const pushUnique = (list: string[], path: string | null) => {
  if (path !== null && !list.includes(path)) list.push(path);
};

/**
 * A WordPress item's old addresses: its permalink as the export's `<link>` gives it (whatever the
 * permalink structure, with the folder of a site in one), `?p=<id>`, which WordPress answers for
 * every post (`?page_id=` for a page, `?attachment_id=` for an attachment too), and the guid when
 * it is a `?p=`/`?page_id=` address on the same host that differs from those (a post moved in
 * from another WordPress keeps its first guid). All normalized (normalizeOldPath). The caller
 * lets a real `?p=<id>` win over another item's guid.
 */
export function wordpressPostPaths(site: WxrSite, item: WxrItem): string[] {
  const home = wordpressHome(site);
  const folder = folderOf(home);
  const paths: string[] = [];
  if (item.link) {
    try {
      pushUnique(paths, normalizeOldPath(new URL(item.link, home ?? "http://old.invalid/").href));
    } catch {
      // A link that is not an address gives no path; the id below still does.
    }
  }
  if (/^[0-9]+$/.test(item.id)) {
    pushUnique(paths, normalizeOldPath(`${folder}/?p=${item.id}`));
    if (item.type === "page") pushUnique(paths, normalizeOldPath(`${folder}/?page_id=${item.id}`));
    if (item.type === "attachment") pushUnique(paths, normalizeOldPath(`${folder}/?attachment_id=${item.id}`));
  }
  if (item.guid && home) {
    try {
      const guid = new URL(item.guid);
      const named = guid.searchParams.get("p") ?? guid.searchParams.get("page_id");
      if ((guid.protocol === "http:" || guid.protocol === "https:") && siteHostKey(guid) === siteHostKey(home) && named && /^[0-9]+$/.test(named)) {
        pushUnique(paths, normalizeOldPath(guid.href));
      }
    } catch {
      // A guid need not be an address (WordPress only writes one): nothing to add.
    }
  }
  return paths;
}

/**
 * An attachment's page (WordPress gives every uploaded file one, under its post or at
 * `?attachment_id=`) answers with the article of the post it was uploaded to; an attachment
 * whose parent is not imported (`parentTarget` null) has none. The file itself is not a page: the
 * images are the media import's.
 */
export function wordpressAttachmentPath(site: WxrSite, item: WxrItem, parentTarget: string | null): OldRedirect[] {
  if (item.type !== "attachment" || !parentTarget || !item.parentId || item.parentId === "0") return [];
  return wordpressPostPaths(site, item).map((path) => ({ path, target: parentTarget }));
}

/** The site's whole feed here. */
export const SITE_FEED = "/rss.xml";

/**
 * The feed matching a list of ours: `/blog?category=<slug>` has `/rss/<slug>.xml` (the route
 * wants the `.xml`); any other list (the blog, a search) the site's feed.
 */
export function feedTargetFor(listTarget: string): string {
  const url = new URL(listTarget, "http://here.invalid/");
  const category = url.pathname === "/blog" ? url.searchParams.get("category") : null;
  return category ? `/rss/${encodeURIComponent(category)}.xml` : SITE_FEED;
}

/** Our search for a tag's name: we have no tag pages, and the articles that carried it mention it. */
export function searchTarget(name: string): string {
  return `/search?${new URLSearchParams({ q: name }).toString()}`;
}

/** WordPress answers a feed at `…/feed`, `…/feed/<type>` and `…/<type>` for each of its types. */
const WORDPRESS_FEED_SUFFIXES = ["feed", "feed/rss2", "feed/atom", "feed/rss", "feed/rdf", "rss2", "atom", "rss", "rdf"];
const WORDPRESS_FEED_TYPES = ["rss2", "atom", "rss", "rdf", "feed"];

export type WordPressArchiveMapping = {
  /** Our list for a WordPress category (by its slug as the export writes it), e.g. `/blog?category=precious-metals`. */
  categoryTarget(slug: string): string;
  /** The author's page here, or null when the author has none (then the old page is left out). */
  authorTarget(login: string): string | null;
};

export type WordPressArchiveOptions = {
  /**
   * The static start of the old permalink structure (`/archives` for `/archives/%post_id%`):
   * WordPress puts the category, tag, author and date archives under it as well. The export does
   * not carry the structure; without a front only the root forms are listed.
   */
  front?: string;
  /** Settings → Permalinks' category and tag bases, when the old site changed them. */
  categoryBase?: string;
  tagBase?: string;
};

/**
 * `sanitize_title` of a login, as WordPress made the `user_nicename` its author pages use (the
 * export has only the login): lower case, dots to hyphens, characters other than letters, digits,
 * `_` and `-` dropped (non-ASCII kept percent-encoded), spaces and runs of hyphens to one.
 */
export function wordpressNicename(login: string): string {
  let out = "";
  for (const char of login.toLowerCase()) {
    if (/[a-z0-9_-]/.test(char)) out += char;
    else if (char === "." || char === " ") out += "-";
    else if (char.charCodeAt(0) > 0x7f) out += canonicalSegment(char).toLowerCase();
  }
  return out.replace(/-+/g, "-").replace(/^-|-$/g, "");
}

/**
 * The old site's lists and feeds with their counterparts here:
 * - `/category/<slug>` (a child also as `/category/<parent>/<child>`, its WordPress address, and
 *   `/category/<child>`, which WordPress answers too), `?cat=<id>` → our category list; their
 *   feeds (`/feed`, `/feed/atom`, `/rss2`…, `?cat=<id>&feed=rss2`) → that category's feed;
 * - `/tag/<slug>`, `?tag=<slug>` → a search for the tag's name (we have no tag pages; the
 *   articles that carried it mention it); tag feeds → the site's feed;
 * - `/author/<nicename>` (and `/author/<login>` where it differs), `?author=<id>` → the author's
 *   page; author feeds → the site's feed;
 * - the site's feeds (`/feed`, `/feed/rss2`, `/atom`…, `?feed=rss2`) → `/rss.xml`. The comments'
 *   feeds are left out: we have no comments, and a comments subscription filled with articles
 *   would be wrong;
 * - date archives for `months` ("YYYY-MM", the months that have articles here: `/blog/<y>/<m>`
 *   is a 404 for any other): `/<y>/<m>`, `/date/<y>/<m>`, `?m=<y><m>` → `/blog/<y>/<m>`, and
 *   the year (`/<y>`, `?m=<y>`) → its latest month, as WordPress's year page starts with it.
 *   Day archives are not listed (the server can map `/<y>/<m>/<d>` by pattern).
 * Paths are normalized and carry the site's folder; the first pair for a path wins, and a path
 * that is already its own target (a site in `/blog` had its months where ours are) is left out.
 */
export function wordpressArchivePaths(
  site: WxrSite,
  content: { categories: WxrTerm[]; tags: WxrTerm[]; authors: WxrAuthor[]; months?: string[] },
  mapping: WordPressArchiveMapping,
  options: WordPressArchiveOptions = {},
): OldRedirect[] {
  const folder = folderOf(wordpressHome(site));
  const fronts = [""];
  const front = options.front ? normalizeOldPath(options.front) : null;
  if (front && front !== "/") fronts.push(front);
  const out = new Map<string, string>();
  const add = (path: string, target: string) => {
    const normalized = normalizeOldPath(`${folder}${path}`);
    // A site in /blog had its months at /blog/2024/03, where ours are: no redirect to itself.
    if (normalized !== null && normalized !== target && !out.has(normalized)) out.set(normalized, target);
  };
  const addWithFeeds = (path: string, target: string, feed: string) => {
    add(path, target);
    for (const suffix of WORDPRESS_FEED_SUFFIXES) add(`${path}/${suffix}`, feed);
  };
  const base = (value: string | undefined, fallback: string) => (value ? value.replace(/^\/+|\/+$/g, "") : fallback);
  const categoryBase = base(options.categoryBase, "category");
  const tagBase = base(options.tagBase, "tag");

  // Parents by slug: a child's address is its ancestors' slugs and its own.
  const bySlug = new Map(content.categories.map((term) => [term.slug, term]));
  const chainOf = (term: WxrTerm) => {
    const chain = [term.slug];
    const seen = new Set(chain);
    for (let parent = bySlug.get(term.parent); parent && !seen.has(parent.slug); parent = bySlug.get(parent.parent)) {
      chain.unshift(parent.slug);
      seen.add(parent.slug);
    }
    return chain;
  };
  for (const term of content.categories) {
    if (!term.slug) continue;
    const target = mapping.categoryTarget(term.slug);
    const feed = feedTargetFor(target);
    for (const at of fronts) {
      addWithFeeds(`${at}/${categoryBase}/${chainOf(term).join("/")}`, target, feed);
      addWithFeeds(`${at}/${categoryBase}/${term.slug}`, target, feed);
    }
    if (/^[0-9]+$/.test(term.id)) {
      add(`/?cat=${term.id}`, target);
      for (const type of WORDPRESS_FEED_TYPES) add(`/?cat=${term.id}&feed=${type}`, feed);
    }
  }
  for (const term of content.tags) {
    if (!term.slug) continue;
    const target = searchTarget(term.name || decodeSlug(term.slug));
    for (const at of fronts) addWithFeeds(`${at}/${tagBase}/${term.slug}`, target, SITE_FEED);
    add(`/?tag=${term.slug}`, target);
    for (const type of WORDPRESS_FEED_TYPES) add(`/?tag=${term.slug}&feed=${type}`, SITE_FEED);
  }
  for (const author of content.authors) {
    const target = author.login ? mapping.authorTarget(author.login) : null;
    if (!target) continue;
    for (const name of [wordpressNicename(author.login), author.login]) {
      if (!name) continue;
      for (const at of fronts) addWithFeeds(`${at}/author/${name}`, target, SITE_FEED);
      add(`/?author_name=${name}`, target);
    }
    if (/^[0-9]+$/.test(author.id)) {
      add(`/?author=${author.id}`, target);
      for (const type of WORDPRESS_FEED_TYPES) add(`/?author=${author.id}&feed=${type}`, SITE_FEED);
    }
  }
  for (const suffix of WORDPRESS_FEED_SUFFIXES) add(`/${suffix}`, SITE_FEED);
  for (const type of WORDPRESS_FEED_TYPES) add(`/?feed=${type}`, SITE_FEED);

  const months = [...new Set((content.months ?? []).filter((month) => /^[0-9]{4}-(0[1-9]|1[0-2])$/.test(month)))].sort().reverse();
  for (const month of months) {
    const [year, number] = month.split("-") as [string, string];
    const target = `/blog/${year}/${number}`;
    for (const at of fronts) {
      // WordPress moves its dates under /date/ when the permalinks start with numbers; both are listed.
      for (const dated of [at, `${at}/date`]) {
        add(`${dated}/${year}/${number}`, target);
        // Months newest first: the first a year meets is its latest.
        add(`${dated}/${year}`, target);
      }
    }
    add(`/?m=${year}${number}`, target);
    add(`/?m=${year}`, target);
  }
  return [...out].map(([path, target]) => ({ path, target }));
}

/** A slug for people (a tag without a name): percent-encoding decoded, hyphens as spaces. */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug).replace(/-/g, " ");
  } catch {
    return slug.replace(/-/g, " ");
  }
}

/** The fields of a Ghost `posts` row the addresses need (readGhost hands rows over as they are). */
export type GhostPostRow = { slug?: unknown; uuid?: unknown };
/** The fields of a Ghost `tags` or `users` row the addresses need. */
export type GhostNamedRow = { slug?: unknown; name?: unknown; visibility?: unknown };

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** The folder of a Ghost site given by its address (`https://example.com/blog` → `/blog`), "" at the root. */
function ghostFolder(siteUrl: string): string {
  try {
    return folderOf(new URL(siteUrl));
  } catch {
    return "";
  }
}

/**
 * A Ghost post's old addresses: `/<slug>/`, Ghost's default (a custom routes.yaml is not in the
 * export), its AMP copy `/<slug>/amp/` (Ghost had AMP until 6.0), and `/p/<uuid>/`, the preview
 * link Ghost gives a post before and after it is published: such links were shared with people and
 * lead them to the article (a draft here answers 404 as before). Normalized, with the folder.
 */
export function ghostPostPaths(siteUrl: string, post: GhostPostRow): string[] {
  const folder = ghostFolder(siteUrl);
  const slug = text(post.slug);
  const uuid = text(post.uuid);
  const paths: string[] = [];
  if (slug) {
    pushUnique(paths, normalizeOldPath(`${folder}/${slug}/`));
    pushUnique(paths, normalizeOldPath(`${folder}/${slug}/amp/`));
  }
  if (uuid) pushUnique(paths, normalizeOldPath(`${folder}/p/${uuid}/`));
  return paths;
}

export type GhostArchiveMapping = {
  /** Our list for a Ghost tag mapped to one of our categories, or null (then a search for its name). */
  tagTarget(slug: string): string | null;
  /** The author's page here by the Ghost user's slug, or null when the author has none. */
  authorTarget(slug: string): string | null;
};

/**
 * A Ghost site's lists and feeds: `/tag/<slug>/` → the mapped category or a search for the tag's
 * name, `/tag/<slug>/rss/` → its feed; `/author/<slug>/` → the author's page, its `/rss/` → the
 * site's feed; `/rss/` → `/rss.xml`. Internal tags (`#name`) have no pages in Ghost and are left out.
 */
export function ghostArchivePaths(siteUrl: string, content: { tags: GhostNamedRow[]; authors: GhostNamedRow[] }, mapping: GhostArchiveMapping): OldRedirect[] {
  const folder = ghostFolder(siteUrl);
  const out = new Map<string, string>();
  const add = (path: string, target: string) => {
    const normalized = normalizeOldPath(`${folder}${path}`);
    if (normalized !== null && !out.has(normalized)) out.set(normalized, target);
  };
  for (const tag of content.tags) {
    const slug = text(tag.slug);
    const name = text(tag.name);
    if (!slug || tag.visibility === "internal" || name.startsWith("#")) continue;
    const mapped = mapping.tagTarget(slug);
    const target = mapped ?? searchTarget(name || decodeSlug(slug));
    add(`/tag/${slug}/`, target);
    add(`/tag/${slug}/rss/`, mapped ? feedTargetFor(mapped) : SITE_FEED);
  }
  for (const author of content.authors) {
    const slug = text(author.slug);
    const target = slug ? mapping.authorTarget(slug) : null;
    if (!target) continue;
    add(`/author/${slug}/`, target);
    add(`/author/${slug}/rss/`, SITE_FEED);
  }
  add("/rss/", SITE_FEED);
  return [...out].map(([path, target]) => ({ path, target }));
}
