import { categoryBySlug } from "~/config/categories";
import { currentSnapshot } from "./published";
import type { PublicAuthor, PublishedArticle } from "./published";
import { pickRelated } from "./related";
import { toTeaser } from "./teasers";
import { paginate } from "./paging";

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

/**
 * What an author page shows: the public profile and one page of the author's teasers (same
 * double use; the live set keeps page 1). A page past the last throws a 404.
 */
export function authorPageContent(author: PublicAuthor, page = 1) {
  const { id: _id, ...profile } = author;
  const paged = paginate(getArticlesByAuthor(author.slug), page);
  return { author: profile, articles: paged.items.map(toTeaser), page, pageCount: paged.pageCount };
}

/**
 * What a page of `/blog` shows: all posts (the featured article above the grid on page 1) or one
 * category's. The loader renders it, and the live set digests a category's first page to render
 * it again only when it changed (server/live-pages.ts). A page past the last throws a 404.
 */
export function blogListPage(category: ReturnType<typeof categoryBySlug>, page = 1) {
  const featuredArticle = category ? undefined : getFeaturedArticle();
  const articles = getArticlesInCategory(category?.slug ?? null);
  // "All Posts" shows the featured article on its own above the grid of the others, on page 1 only.
  const listed = featuredArticle ? articles.filter((article) => article.slug !== featuredArticle.slug) : articles;
  const paged = paginate(listed, page);
  return {
    category: category ?? null,
    featured: featuredArticle && page === 1 ? toTeaser(featuredArticle) : null,
    grid: paged.items.map(toTeaser),
    page,
    pageCount: paged.pageCount,
  };
}

/** "2025-12": the months that have articles, newest first, with how many (the archive by date). */
export function getArchiveMonths() {
  const counts = new Map<string, number>();
  for (const article of currentSnapshot().articles) {
    const month = article.date.slice(0, 7);
    counts.set(month, (counts.get(month) ?? 0) + 1);
  }
  return [...counts].map(([month, count]) => ({ month, count }));
}

/** The articles published in one month (New York days, as the article page shows them). */
export function getArticlesInMonth(month: string) {
  return currentSnapshot().articles.filter((article) => article.date.startsWith(`${month}-`));
}
