import { fillPlaceholders, type PublicSiteConfig } from "~/config/site";
import { firstParagraph, renderMarkdown, typographicText } from "~/lib/markdown.server";

/** A preview request larger than this is refused with 413 (the longest article is about 20 KB). */
export const ARTICLE_PREVIEW_MAX_BYTES = 200 * 1024;

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * An article body as the public page shows it: the first paragraph as the large serif intro, the
 * rest rendered by the same renderMarkdown inside the same typography container (routes/article.tsx).
 */
export function renderArticlePreview(markdown: string, site: PublicSiteConfig, options: { sponsored?: boolean } = {}): string {
  const [intro = "", ...rest] = markdown.replace(/\r\n/g, "\n").split(/\n\s*\n/);
  const introText = typographicText(fillPlaceholders(firstParagraph(intro), site));
  return (
    `<p class="mt-10 font-serif text-xl leading-relaxed text-foreground">${escapeHtml(introText)}</p>` +
    `<div class="prose-article mt-6">${renderMarkdown(rest.join("\n\n"), site, { sponsored: options.sponsored })}</div>`
  );
}
