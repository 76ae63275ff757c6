import { ARTICLES } from "./index";

export type SitemapEntry = { path: string; lastmod?: string; changefreq: "daily" | "weekly" | "monthly" | "yearly" };

/** Every public, indexable page. Auth, admin and the paid advertorial's sponsor are left out. */
export function listPublicPages(): SitemapEntry[] {
  const newest = ARTICLES[0]?.date;
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
    ...ARTICLES.map((article) => ({
      path: `/articles/${article.slug}`,
      lastmod: article.updated ?? article.date,
      changefreq: "monthly" as const,
    })),
  ];
}
