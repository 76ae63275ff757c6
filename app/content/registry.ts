import matter from "gray-matter";
import { z } from "zod";
import { ArticleMetaSchema, type Article } from "./article-schema";

export const WORDS_PER_MINUTE = 230;

export class ContentError extends Error {
  override name = "ContentError";
}

export function countWords(markdown: string) {
  return markdown
    .replace(/[#>*_`|[\]()-]/g, " ")
    .split(/\s+/)
    .filter((word) => /[A-Za-z0-9]/.test(word)).length;
}

/**
 * Turns the raw article files into the validated, newest-first article list.
 * Every rule that would make the site wrong (missing field, duplicate slug, a file name that
 * disagrees with its slug, not exactly one featured article) throws, so a bad edit fails the build.
 */
export function buildArticleIndex(files: Record<string, string>): Article[] {
  const problems: string[] = [];
  const articles: Article[] = [];

  for (const [path, raw] of Object.entries(files)) {
    const fileSlug = path.split("/").pop()?.replace(/\.md$/, "");
    const parsed = matter(raw);
    const meta = ArticleMetaSchema.safeParse(parsed.data);
    if (!meta.success) {
      problems.push(`${path}: ${z.prettifyError(meta.error).replace(/\n/g, "; ")}`);
      continue;
    }
    if (meta.data.slug !== fileSlug) {
      problems.push(`${path}: slug "${meta.data.slug}" does not match the file name`);
    }
    const body = parsed.content.trim();
    const wordCount = countWords(body);
    articles.push({
      ...meta.data,
      body,
      wordCount,
      readingMinutes: Math.max(1, Math.round(wordCount / WORDS_PER_MINUTE)),
    });
  }

  const seen = new Set<string>();
  for (const article of articles) {
    if (seen.has(article.slug)) problems.push(`duplicate slug "${article.slug}"`);
    seen.add(article.slug);
  }
  const featured = articles.filter((article) => article.featured);
  if (featured.length !== 1) {
    problems.push(`exactly one article must be featured, found ${featured.length}`);
  }
  if (problems.length > 0) {
    throw new ContentError(`Invalid article content:\n- ${problems.join("\n- ")}`);
  }

  return articles.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}
