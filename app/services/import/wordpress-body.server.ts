import TurndownService from "turndown";

/**
 * A WordPress post's body (classic or block editor) as this site's Markdown, with every part that
 * could not be carried over named (decision 158): nothing is left as raw `[shortcode]` text.
 */

export type BodyConversion = { markdown: string; losses: string[] };

/** Shortcodes WordPress and the common plugins register; a bracketed word not among them is text ("[sic]"). */
const KNOWN_SHORTCODES = new Set(["caption", "wp_caption", "gallery", "embed", "video", "audio", "playlist", "contact-form-7", "contact-form", "gravityform", "gravityforms", "wpforms", "ninja_form", "mc4wp_form", "fusion_builder_container"]);
/** A shortcode name as WordPress allows it; plugin families by prefix (Visual Composer, Divi, Shortcodes Ultimate). */
const SHORTCODE_PREFIXES = /^(vc_|et_pb_|su_|fusion_|av_|tie_|ux_)/;

function isShortcodeName(name: string, hasAttributes: boolean, closed: boolean) {
  return KNOWN_SHORTCODES.has(name) || SHORTCODE_PREFIXES.test(name) || closed || (hasAttributes && /[_-]/.test(name));
}

const SHORTCODE = /\[(\/?)([a-zA-Z][\w-]*)((?:\s[^\]]*)?)\]/g;
const ATTRIBUTE = /([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))/g;

function attributesOf(text: string) {
  const found: Record<string, string> = {};
  for (const match of text.matchAll(ATTRIBUTE)) found[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? "";
  return found;
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Shortcodes to their nearest HTML before the Markdown conversion: `[caption]` a figure with its
 * caption, `[embed]` and `[video]`/`[audio]` with a source a plain link; every other shortcode is
 * left out and named in `losses`.
 */
export function replaceShortcodes(html: string, losses: string[]): string {
  const closers = new Set<string>();
  for (const match of html.matchAll(SHORTCODE)) if (match[1] === "/") closers.add(match[2]!.toLowerCase());
  // Enclosing shortcodes first: [name …]inner[/name].
  let out = html.replace(/\[([a-zA-Z][\w-]*)((?:\s[^\]]*)?)\]([\s\S]*?)\[\/\1\]/g, (whole, rawName: string, rawAttributes: string, inner: string) => {
    const name = rawName.toLowerCase();
    const attributes = attributesOf(rawAttributes);
    if (name === "caption" || name === "wp_caption") {
      const image = /<img\b[^>]*>/i.exec(inner)?.[0];
      const linked = /<a\b[^>]*>\s*<img\b[^>]*>\s*<\/a>/i.exec(inner)?.[0];
      const caption = (attributes.caption ?? inner.replace(linked ?? image ?? "", "")).trim();
      if (!image) {
        losses.push(`[${name}] without an image: its caption kept as text`);
        return caption;
      }
      return `<figure>${image}<figcaption>${caption}</figcaption></figure>`;
    }
    if (name === "embed" || name === "video" || name === "audio") {
      const url = (attributes.src ?? attributes.mp4 ?? attributes.mp3 ?? inner).trim();
      if (/^https?:\/\//.test(url)) {
        losses.push(`[${name}] turned into a plain link: ${url}`);
        return `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`;
      }
    }
    if (!isShortcodeName(name, rawAttributes.trim() !== "", true)) return whole;
    losses.push(`[${name}] left out with what it enclosed`);
    return "";
  });
  // Self-closing ones: [name …].
  out = out.replace(SHORTCODE, (whole, slash: string, rawName: string, rawAttributes: string) => {
    const name = rawName.toLowerCase();
    if (slash) return closers.has(name) && isShortcodeName(name, false, true) ? "" : whole;
    if (!isShortcodeName(name, rawAttributes.trim() !== "", closers.has(name))) return whole;
    const attributes = attributesOf(rawAttributes);
    if ((name === "embed" || name === "video" || name === "audio") && /^https?:\/\//.test(attributes.src ?? attributes.mp4 ?? attributes.mp3 ?? "")) {
      const url = attributes.src ?? attributes.mp4 ?? attributes.mp3!;
      losses.push(`[${name}] turned into a plain link: ${url}`);
      return `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`;
    }
    losses.push(name === "gallery" ? `[gallery${attributes.ids ? ` ids="${attributes.ids}"` : ""}] left out: galleries are not converted` : `[${name}] left out`);
    return "";
  });
  return out;
}

/** Blocks of the block editor that carry nothing a reader sees in an article, or that turndown converts as HTML. */
const PLAIN_BLOCKS = /^(paragraph|heading|list|list-item|quote|image|table|separator|spacer|code|preformatted|pullquote|group|columns|column|html|freeform|more|nextpage|buttons|button|media-text|cover|verse|footnotes|details)$/;

/** Names the block editor's blocks that are not plain content (an embed, a form, a plugin's block). */
function reportBlocks(html: string, losses: string[]) {
  const seen = new Set<string>();
  for (const match of html.matchAll(/<!--\s+wp:([a-z0-9-]+(?:\/[a-z0-9-]+)?)[\s{/]/g)) {
    const name = match[1]!;
    const core = name.startsWith("core/") ? name.slice(5) : name.includes("/") ? null : name;
    if (core !== null && PLAIN_BLOCKS.test(core)) continue;
    if (core === "embed" || core?.startsWith("core-embed")) {
      if (!seen.has("embed")) losses.push("embed blocks turned into plain links");
      seen.add("embed");
      continue;
    }
    if (!seen.has(name)) losses.push(`block ${name} converted as its HTML only`);
    seen.add(name);
  }
}

/** WordPress stores classic-editor posts without paragraphs (it adds them when it shows the post). */
function addParagraphs(html: string) {
  if (/<!--\s+wp:/.test(html) || /<p[\s>]/i.test(html)) return html;
  return html
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (/^<(h[1-6]|ul|ol|blockquote|figure|table|pre|div|hr)\b/i.test(part) ? part : `<p>${part.replace(/\n/g, "<br>")}</p>`))
    .join("\n");
}

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
turndown.remove(["script", "style", "iframe", "form", "noscript"]);
turndown.addRule("figure", {
  filter: "figure",
  replacement: (_content, node) => {
    const element = node as HTMLElement;
    const image = element.querySelector("img");
    if (!image) return `\n\n${_content}\n\n`;
    const caption = element.querySelector("figcaption")?.textContent?.trim() ?? "";
    const alt = image.getAttribute("alt") ?? "";
    const src = image.getAttribute("src") ?? "";
    return `\n\n![${alt || caption}](${src})${caption ? `\n*${caption.replace(/\*/g, "\\*")}*` : ""}\n\n`;
  },
});

/** Any export's HTML as Markdown: frames, forms and scripts left out and named in `losses`. */
export function htmlToMarkdown(html: string, losses: string[]): string {
  if (/<iframe\b/i.test(html)) losses.push("embedded frames (iframe) left out");
  if (/<form\b/i.test(html)) losses.push("forms left out");
  if (/<script\b/i.test(html)) losses.push("scripts left out");
  return turndown.turndown(html).trim();
}

/** A WordPress body as Markdown, with what was lost on the way. */
export function convertWordPressBody(html: string): BodyConversion {
  const losses: string[] = [];
  reportBlocks(html, losses);
  const markdown = htmlToMarkdown(addParagraphs(replaceShortcodes(html, losses)), losses);
  return { markdown, losses };
}
