import { categoryBySlug } from "~/config/categories";
import { buildArticleIndex } from "./registry";
import { pickRelated } from "./related";

/**
 * The one content index: blog, home teasers, article pages, RSS, sitemap and the prerender list
 * all read it. Loaded by Vite at build time; only loaders import it, so no Markdown ships to
 * the browser.
 */
const articleFiles = import.meta.glob<string>("./articles/*.md", { query: "?raw", import: "default", eager: true });

export const ARTICLES = buildArticleIndex(articleFiles);

export function getArticle(slug: string) {
  return ARTICLES.find((article) => article.slug === slug);
}

export function getFeaturedArticle() {
  const featured = ARTICLES.find((article) => article.featured);
  if (!featured) throw new Error("No featured article");
  return featured;
}

export function getLatestArticles(count: number) {
  return ARTICLES.slice(0, count);
}

export function getArticlesInCategory(categorySlug: string | null) {
  const category = categoryBySlug(categorySlug);
  return category ? ARTICLES.filter((article) => article.category === category.name) : ARTICLES;
}

/** Three articles to read after this one (same category first, then the newest). */
export function getRelatedArticles(slug: string, count = 3) {
  const article = getArticle(slug);
  return article ? pickRelated(ARTICLES, article, count) : [];
}
