import { categorySlugOf } from "~/config/categories";
import type { Article } from "./article-schema";

/** What a list of articles needs: everything but the body. */
export type ArticleTeaser = Pick<
  Article,
  "slug" | "title" | "excerpt" | "author" | "date" | "category" | "image" | "imageAlt" | "featured" | "readingMinutes"
> & { categorySlug: string };

export function toTeaser(article: Article): ArticleTeaser {
  return {
    slug: article.slug,
    title: article.title,
    excerpt: article.excerpt,
    author: article.author,
    date: article.date,
    category: article.category,
    categorySlug: categorySlugOf(article.category),
    image: article.image,
    imageAlt: article.imageAlt,
    featured: article.featured,
    readingMinutes: article.readingMinutes,
  };
}
