import { ARTICLE_LEDE_CLASS } from "~/components/articles/article-view";
import type { PublicSiteConfig } from "~/config/site";
import { renderArticleBody } from "~/lib/markdown.server";

/** A preview request larger than this is refused with 413 (the longest article is about 20 KB). */
export const ARTICLE_PREVIEW_MAX_BYTES = 200 * 1024;

/**
 * An article body as the public page shows it: the first block as the large intro, the rest below
 * it, both rendered by the same renderArticleBody in the same containers (components/articles/article-view.tsx).
 */
export function renderArticlePreview(markdown: string, site: PublicSiteConfig, options: { sponsored?: boolean } = {}): string {
  const { introHtml, bodyHtml } = renderArticleBody(markdown, site, { sponsored: options.sponsored });
  return `<div class="${ARTICLE_LEDE_CLASS}">${introHtml}</div><div class="prose-article mt-6">${bodyHtml}</div>`;
}
