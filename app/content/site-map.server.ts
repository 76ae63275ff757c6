import { ARTICLE_CATEGORIES } from "~/config/categories";
import { monthHref } from "~/lib/dates";
import { escapeXml } from "~/lib/xml";
import { getArticles, getArticlesByAuthor, getAuthors } from "./index";

function getAuthorsWithArticles() {
  return getAuthors().map((author) => ({ slug: author.slug, lastmod: getArticlesByAuthor(author.slug)[0]?.modifiedAt }));
}

export type SitemapEntry = { path: string; lastmod?: string; changefreq: "daily" | "weekly" | "monthly" | "yearly" };

/** The newest dateModified of each group of articles, in the order the groups first appear. */
function newestBy(articles: ReturnType<typeof getArticles>, group: (article: ReturnType<typeof getArticles>[number]) => string) {
  const newest = new Map<string, string>();
  for (const article of articles) {
    const key = group(article);
    const seen = newest.get(key);
    if (!seen || article.modifiedAt > seen) newest.set(key, article.modifiedAt);
  }
  return newest;
}

/**
 * Every public, indexable page: the first page of each list (a category, a month of the archive,
 * an author), every article. Auth, admin and the paid advertorial's sponsor are left out.
 * `lastmod` is a full ISO 8601 time (W3C datetime), from the articles' dateModified.
 */
export function listPublicPages(): SitemapEntry[] {
  const articles = getArticles();
  const newest = articles.reduce<string | undefined>((latest, article) => (!latest || article.modifiedAt > latest ? article.modifiedAt : latest), undefined);
  const byCategory = newestBy(articles, (article) => article.category);
  const byMonth = newestBy(articles, (article) => monthHref(article.date));
  return [
    { path: "/", lastmod: newest, changefreq: "daily" },
    { path: "/home", lastmod: newest, changefreq: "daily" },
    { path: "/opt-in", changefreq: "monthly" },
    { path: "/about", changefreq: "monthly" },
    { path: "/blog", lastmod: newest, changefreq: "daily" },
    { path: "/contact", changefreq: "yearly" },
    { path: "/gold", changefreq: "monthly" },
    { path: "/privacy", lastmod: "2025-01-01", changefreq: "yearly" },
    { path: "/terms", lastmod: "2025-01-01", changefreq: "yearly" },
    { path: "/disclaimer", lastmod: "2025-01-01", changefreq: "yearly" },
    ...ARTICLE_CATEGORIES.filter((category) => byCategory.has(category.name)).map((category) => ({
      path: `/blog?category=${category.slug}`,
      lastmod: byCategory.get(category.name),
      changefreq: "daily" as const,
    })),
    ...[...byMonth].map(([path, lastmod]) => ({ path, lastmod, changefreq: "monthly" as const })),
    ...getAuthorsWithArticles().map((author) => ({ path: `/authors/${author.slug}`, lastmod: author.lastmod, changefreq: "weekly" as const })),
    ...articles.map((article) => ({
      path: `/articles/${article.slug}`,
      lastmod: article.modifiedAt,
      changefreq: "monthly" as const,
    })),
  ];
}

/** The sitemap protocol's limit of URLs per file (sitemaps.org); past it /sitemap.xml is an index. */
export const SITEMAP_MAX_URLS = 50_000;

/** The entries split into the child sitemaps of an index, each with its newest lastmod. */
export function sitemapChunks(entries: readonly SitemapEntry[], limit = SITEMAP_MAX_URLS) {
  const chunks: { entries: SitemapEntry[]; lastmod?: string }[] = [];
  for (let at = 0; at < entries.length; at += limit) {
    const slice = entries.slice(at, at + limit);
    const lastmod = slice.reduce<string | undefined>((latest, entry) => (entry.lastmod && (!latest || entry.lastmod > latest) ? entry.lastmod : latest), undefined);
    chunks.push({ entries: slice, lastmod });
  }
  return chunks;
}

export function urlsetXml(entries: readonly SitemapEntry[], absolute: (path: string) => string) {
  const urls = entries
    .map((page) => `  <url><loc>${escapeXml(absolute(page.path))}</loc>${page.lastmod ? `<lastmod>${page.lastmod}</lastmod>` : ""}<changefreq>${page.changefreq}</changefreq></url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** The index of child sitemaps `/sitemaps/1.xml`, `/sitemaps/2.xml`, … each with its lastmod. */
export function sitemapIndexXml(chunks: readonly { lastmod?: string }[], absolute: (path: string) => string) {
  const items = chunks
    .map((chunk, index) => `  <sitemap><loc>${escapeXml(absolute(`/sitemaps/${index + 1}.xml`))}</loc>${chunk.lastmod ? `<lastmod>${chunk.lastmod}</lastmod>` : ""}</sitemap>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</sitemapindex>\n`;
}
