import { getArticles, getArticlesByAuthor, getAuthors } from "./index";

function getAuthorsWithArticles() {
  return getAuthors().map((author) => ({ slug: author.slug, lastmod: getArticlesByAuthor(author.slug)[0]?.modifiedAt }));
}

export type SitemapEntry = { path: string; lastmod?: string; changefreq: "daily" | "weekly" | "monthly" | "yearly" };

/**
 * Every public, indexable page. Auth, admin and the paid advertorial's sponsor are left out.
 * `lastmod` is a full ISO 8601 time (W3C datetime), from the articles' dateModified.
 */
export function listPublicPages(): SitemapEntry[] {
  const articles = getArticles();
  const newest = articles.reduce<string | undefined>((latest, article) => (!latest || article.modifiedAt > latest ? article.modifiedAt : latest), undefined);
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
    ...getAuthorsWithArticles().map((author) => ({ path: `/authors/${author.slug}`, lastmod: author.lastmod, changefreq: "weekly" as const })),
    ...articles.map((article) => ({
      path: `/articles/${article.slug}`,
      lastmod: article.modifiedAt,
      changefreq: "monthly" as const,
    })),
  ];
}
