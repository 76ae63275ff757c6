import type { PublicSiteConfig } from "~/config/site";
import { categorySlugOf } from "~/config/categories";
import { getDb } from "~/db/database.server";
import { renderArticleBody } from "~/lib/markdown.server";
import { loadRevisionBodies } from "~/services/content/published.server";
import { articlePageInputs, getArticle } from "./index";
import type { PublicAuthor, PublishedArticle } from "./published";
import type { ArticleTeaser } from "./teasers";

/** Everything an article page shows, with the Markdown rendered (the public page and the preview). */
export function articlePage(article: PublishedArticle, body: string, author: PublicAuthor | undefined, site: PublicSiteConfig, related: ArticleTeaser[]) {
  const { introHtml, bodyHtml } = renderArticleBody(body, site, { sponsored: article.sponsored });
  return {
    slug: article.slug,
    title: article.title,
    excerpt: article.excerpt,
    author: article.author,
    authorSlug: article.authorSlug,
    authorCredentials: author?.credentials ?? "",
    authorPhoto: author?.photo ?? null,
    date: article.date,
    updated: article.updated ?? article.date,
    publishedAt: article.publishedAt,
    modifiedAt: article.modifiedAt,
    category: article.category,
    categorySlug: categorySlugOf(article.category),
    image: article.image,
    imageAlt: article.imageAlt,
    readingMinutes: article.readingMinutes,
    seoTitle: article.seoTitle,
    seoDescription: article.seoDescription,
    sponsored: article.sponsored,
    sponsorName: article.sponsorName,
    introHtml,
    bodyHtml,
    related,
  };
}

export type ArticlePageData = ReturnType<typeof articlePage>;

/**
 * The public article page; null when no such article is published. The body is read from the
 * live revision the snapshot names (decision 078): the one page that shows it is the one that
 * reads it.
 */
export async function loadArticlePage(slug: string, site: PublicSiteConfig) {
  const article = getArticle(slug);
  if (!article) return null;
  const body = (await loadRevisionBodies(await getDb(), [article.revisionId])).get(article.revisionId) ?? "";
  const { author, related } = articlePageInputs(article);
  return articlePage(article, body, author, site, related);
}
