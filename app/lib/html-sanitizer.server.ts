import sanitizeHtml from "sanitize-html";

/**
 * The last word on HTML that editors write (article bodies and their previews, a newsletter
 * issue's intro): an allowlist of what our Markdown renderer produces, and nothing else
 * (decision 061). The renderer already shows raw HTML as text; this holds even when a body finds
 * a way past it, so no event handler, script, style, form, frame or SVG reaches a page or an e-mail.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6",
    "strong", "em", "del", "code", "pre", "blockquote", "ul", "ol", "li", "input",
    "a", "img", "picture", "source",
    "div", "table", "thead", "tbody", "tr", "th", "td",
  ],
  allowedAttributes: {
    a: ["href", "title", { name: "rel", multiple: true, values: ["sponsored", "noopener"] }],
    img: ["src", "srcset", "sizes", "width", "height", "alt", "title", { name: "loading", values: ["lazy"] }, { name: "decoding", values: ["async"] }],
    source: [{ name: "type", values: ["image/avif", "image/webp"] }, "srcset", "sizes"],
    ol: ["start"],
    // A task list item's box (GFM), shown ticked or not and never editable.
    input: [{ name: "type", values: ["checkbox"] }, "checked", "disabled"],
    th: [{ name: "align", values: ["left", "center", "right"] }],
    td: [{ name: "align", values: ["left", "center", "right"] }, "data-label"],
    code: ["class"],
    // The scrolling region around a wide table (markdown.server.ts).
    div: ["class", { name: "role", values: ["region"] }, "aria-label", { name: "tabindex", values: ["0"] }],
  },
  allowedClasses: { code: ["language-*"], div: ["table-scroll"] },
  // Web, mail and phone links; images only from the web or this site. No javascript:, data:,
  // vbscript: or protocol-relative (//host) addresses anywhere; srcset entries are held to the same.
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"], source: ["http", "https"] },
  allowProtocolRelative: false,
  // <source> is a void element: without this it would get a stray </source>.
  selfClosing: ["img", "br", "hr", "input", "source"],
  disallowedTagsMode: "discard",
};

export function sanitizeBodyHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
