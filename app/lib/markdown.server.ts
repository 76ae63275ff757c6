import { Marked } from "marked";
import { markedSmartypants } from "marked-smartypants";
import { smartypantsu } from "smartypants";
import { fillPlaceholders, type PublicSiteConfig } from "~/config/site";
import { labelTableCells } from "./article-tables";
import { sanitizeBodyHtml } from "./html-sanitizer.server";
import { mediaPictureHtml } from "./media-picture";

const SAFE_HREF = /^(https?:\/\/|mailto:|tel:|\/(?!\/)|#)/i;
/** Images come from the web or from this site: the same rule as links, less mail, phone and anchors. */
const SAFE_SRC = /^(https?:\/\/|\/(?!\/))/i;

/** The characters SmartyPants rewrites; as entities they are left alone. */
const SMARTYPANTS_CHARACTERS = /[-.'"`]/g;

/**
 * SmartyPants turns quotes, apostrophes, "--" (an em dash, as our editors use it) and "..." into
 * their typographic forms in the rendered HTML, skipping code, preformatted text and attributes.
 * A bare address shown as its own link text (https://example.com/a--b) must stay as typed.
 */
const marked = new Marked(
  { gfm: true, async: false },
  {
    renderer: {
      // Articles are written by editors in the admin area (decision 048): raw HTML is shown as
      // text, never passed through, so a body cannot add scripts, styles or forms to a page.
      html(token) {
        return escapeHtml(token.text);
      },
      link(token) {
        // Only web, mail and phone links, and addresses on this site: no javascript: or data: URLs.
        if (!SAFE_HREF.test(token.href)) return escapeHtml(token.text);
        if (token.text !== token.href && `mailto:${token.text}` !== token.href) return false;
        const text = escapeHtml(token.text).replace(SMARTYPANTS_CHARACTERS, (char) => `&#${char.charCodeAt(0)};`);
        return `<a href="${escapeHtml(token.href)}">${text}</a>`;
      },
      // An uploaded image becomes the same <picture> as <ResponsiveImage>; others stay as marked
      // writes them. An image from any other scheme (javascript:, data:) is shown as its alt text.
      image(token) {
        if (!SAFE_SRC.test(token.href)) return escapeHtml(token.text);
        return mediaPictureHtml(token.href, token.text);
      },
    },
  },
  markedSmartypants({ config: 1 }),
  {
    tokenizer: {
      // marked-smartypants passes inline text through unescaped so that SmartyPants can still see
      // its quotes; text that only looks like a tag (`<img src=x onerror=alert('x')>`, which is no
      // valid HTML token) then reached the page as markup. Escape the markup characters, not quotes.
      inlineText(src) {
        const cap = this.rules.inline.text.exec(src);
        if (!cap) return undefined;
        return { type: "text", raw: cap[0], text: escapeMarkup(cap[0]), escaped: true };
      },
    },
  },
);

export type MarkdownOptions = {
  /** A sponsored article: every link gets rel="sponsored noopener" (FTC; search engines). */
  sponsored?: boolean;
};

/**
 * Renders trusted Markdown from content/ to HTML. Placeholders such as {{siteName}} are filled
 * first (HTML-escaped, since Markdown passes raw HTML through).
 */
export function renderMarkdown(markdown: string, site: PublicSiteConfig, options: MarkdownOptions = {}) {
  const escaped = Object.fromEntries(
    Object.entries(site).map(([key, value]) => [key, typeof value === "string" ? escapeHtml(value) : value]),
  ) as PublicSiteConfig;
  const html = marked.parse(fillPlaceholders(markdown, escaped)) as string;
  // Cells wrap, and on phones each row stacks into a labelled card (app.css). A table that is
  // still too wide scrolls inside a focusable, labelled region, so keyboards scroll it too.
  const withTables = labelTableCells(html)
    .replace(/<table>/g, '<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>')
    .replace(/<\/table>/g, "</table></div>");
  const withRel = options.sponsored ? withTables.replace(/<a(\s[^>]*)?>/g, (_tag, attributes = "") => `<a${String(attributes).replace(/\srel="[^"]*"/g, "")} rel="sponsored noopener">`) : withTables;
  return sanitizeBodyHtml(withRel);
}

/**
 * An article body as its page shows it: the first block as the large intro (the lede) and the
 * rest below it, both with every Markdown rule of renderMarkdown (the public page, the signed
 * preview and the editor's preview).
 */
export function renderArticleBody(markdown: string, site: PublicSiteConfig, options: MarkdownOptions = {}) {
  const [intro = "", ...rest] = markdown.replace(/\r\n/g, "\n").split(/\n\s*\n/);
  return { introHtml: renderMarkdown(intro, site, options), bodyHtml: renderMarkdown(rest.join("\n\n"), site, options) };
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** `&` (unless it starts an entity), `<` and `>`; quotes stay for SmartyPants. */
function escapeMarkup(text: string) {
  return text.replace(/&(?!#?\w+;)/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The same typography for plain text that rendered Markdown gets. */
export function typographicText(text: string) {
  return smartypantsu(text, 1);
}
