import { categorySlugOf } from "~/config/categories";
import type { PublishedArticle } from "./published";

/** What a list of articles needs: everything but the body. */
export type ArticleTeaser = Pick<
  PublishedArticle,
  "slug" | "title" | "excerpt" | "author" | "authorSlug" | "date" | "category" | "image" | "imageAlt" | "featured" | "readingMinutes" | "sponsored" | "sponsorName"
> & { categorySlug: string };

export function toTeaser(article: PublishedArticle): ArticleTeaser {
  return {
    slug: article.slug,
    title: article.title,
    excerpt: article.excerpt,
    author: article.author,
    authorSlug: article.authorSlug,
    date: article.date,
    category: article.category,
    categorySlug: categorySlugOf(article.category),
    image: article.image,
    imageAlt: article.imageAlt,
    featured: article.featured,
    readingMinutes: article.readingMinutes,
    sponsored: article.sponsored,
    sponsorName: article.sponsorName,
  };
}
