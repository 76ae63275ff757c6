import { categoryBySlug } from "~/config/categories";
import { currentSnapshot } from "./published";
import type { PublicAuthor, PublishedArticle } from "./published";
import { pickRelated } from "./related";
import { toTeaser } from "./teasers";

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

/**
 * What an article page shows from the snapshot besides the site settings: the article, its
 * author's profile and three teasers to read next. The page's loader renders it, and the live set
 * digests it to know when the page must be rendered again (server/live-pages.ts).
 */
export function articlePageInputs(article: PublishedArticle) {
  return { article, author: getAuthor(article.authorSlug), related: getRelatedArticles(article.slug).map(toTeaser) };
}

/** What an author page shows: the public profile and the author's teasers (same double use). */
export function authorPageContent(author: PublicAuthor) {
  const { id: _id, ...profile } = author;
  return { author: profile, articles: getArticlesByAuthor(author.slug).map(toTeaser) };
}
