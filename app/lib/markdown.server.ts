import { Marked } from "marked";
import { fillPlaceholders, type PublicSiteConfig } from "~/config/site";

const marked = new Marked({ gfm: true, async: false });

/**
 * Renders trusted Markdown from content/ to HTML. Placeholders such as {{siteName}} are filled
 * first (HTML-escaped, since Markdown passes raw HTML through).
 */
export function renderMarkdown(markdown: string, site: PublicSiteConfig) {
  const escaped = Object.fromEntries(
    Object.entries(site).map(([key, value]) => [key, typeof value === "string" ? escapeHtml(value) : value]),
  ) as PublicSiteConfig;
  return marked.parse(fillPlaceholders(markdown, escaped)) as string;
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The first paragraph of a Markdown body as plain text (article intros, meta fallbacks). */
export function firstParagraph(markdown: string) {
  const paragraph = markdown.split(/\n\s*\n/).find((block) => block.trim() && !block.trim().startsWith("#")) ?? "";
  return paragraph.replace(/[*_`]/g, "").replace(/\s+/g, " ").trim();
}
