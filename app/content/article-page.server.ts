import { fillPlaceholders, type PublicSiteConfig } from "~/config/site";
import { categorySlugOf } from "~/config/categories";
import { firstParagraph, renderMarkdown, typographicText } from "~/lib/markdown.server";
import { getArticle, getRelatedArticles } from "./index";
import { toTeaser } from "./teasers";

/** Everything an article page shows, with the Markdown rendered; null when there is no such article. */
export function loadArticlePage(slug: string, site: PublicSiteConfig) {
  const article = getArticle(slug);
  if (!article) return null;
  const [intro = "", ...rest] = article.body.split(/\n\s*\n/);
  return {
    slug: article.slug,
    title: article.title,
    excerpt: article.excerpt,
    author: article.author,
    date: article.date,
    updated: article.updated ?? article.date,
    category: article.category,
    categorySlug: categorySlugOf(article.category),
    image: article.image,
    imageAlt: article.imageAlt,
    readingMinutes: article.readingMinutes,
    intro: typographicText(fillPlaceholders(firstParagraph(intro), site)),
    bodyHtml: renderMarkdown(rest.join("\n\n"), site),
    related: getRelatedArticles(article.slug).map(toTeaser),
  };
}
