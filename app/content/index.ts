import { categoryBySlug } from "~/config/categories";
import { currentSnapshot } from "./published";
import { pickRelated } from "./related";

/**
 * The one content index: blog, home teasers, article pages, author pages, RSS and the sitemap
 * all read it. It is the published snapshot of this process (app/content/published.ts), loaded
 * from the database at start and swapped on every change; only loaders read it.
 */
export function getArticles() {
  return currentSnapshot().articles;
}

export function getArticle(slug: string) {
  return currentSnapshot().articles.find((article) => article.slug === slug);
}

/** Was public once and is not now: the page answers 410. */
export function wasRemoved(slug: string) {
  return currentSnapshot().removedSlugs.has(slug);
}

/** The featured article (decision 051); the newest one if the snapshot holds none marked. */
export function getFeaturedArticle() {
  const { articles } = currentSnapshot();
  return articles.find((article) => article.featured) ?? articles[0];
}

export function getLatestArticles(count: number) {
  return currentSnapshot().articles.slice(0, count);
}

export function getArticlesInCategory(categorySlug: string | null) {
  const category = categoryBySlug(categorySlug);
  const { articles } = currentSnapshot();
  return category ? articles.filter((article) => article.category === category.name) : articles;
}

/** Three articles to read after this one (the closest in time, same category first; decision 057). */
export function getRelatedArticles(slug: string, count = 3) {
  const article = getArticle(slug);
  return article ? pickRelated(currentSnapshot().articles, article, count) : [];
}

export function getAuthors() {
  return currentSnapshot().authors;
}

export function getAuthor(slug: string) {
  return currentSnapshot().authors.find((author) => author.slug === slug);
}

export function getAuthorById(id: string) {
  return currentSnapshot().authors.find((author) => author.id === id);
}

export function getArticlesByAuthor(authorSlug: string) {
  return currentSnapshot().articles.filter((article) => article.authorSlug === authorSlug);
}
