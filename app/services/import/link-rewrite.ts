import { QuoteType, Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import { normalizeOldPath, siteHostKey } from "./old-urls";

/**
 * Links inside an imported body that point at the old site, turned into this site's addresses
 * before the body becomes Markdown (issue 35): `<a href>` and `<img src>`. The HTML is read by
 * htmlparser2's tokenizer, which tells where each attribute's value lies in the text; only those
 * values are replaced, so every other character (entities, comments, shortcodes, odd markup) comes
 * out as it went in.
 */

export type LinkRewrite = { html: string; rewritten: number; unresolved: string[] };

/** The attribute that carries the address, by element. */
const ADDRESS_ATTRIBUTE = new Map([
  ["a", "href"],
  ["img", "src"],
]);

type Found = { start: number; end: number; quote: QuoteType; value: string };

/** The `href` and `src` values of the body's links and images, with where they lie. */
function findAddresses(html: string): Found[] {
  const found: Found[] = [];
  let tag = "";
  let attribute = "";
  let nameEnd = 0;
  let value = "";
  let done = false;
  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      tag = html.slice(start, end).toLowerCase();
      done = false;
    },
    onattribname(start, end) {
      attribute = html.slice(start, end).toLowerCase();
      nameEnd = end;
      value = "";
    },
    onattribdata(start, end) {
      value += html.slice(start, end);
    },
    onattribentity(codepoint) {
      value += String.fromCodePoint(codepoint);
    },
    onattribend(quote, endIndex) {
      // Browsers take the first of a repeated attribute; so does this.
      if (done || quote === QuoteType.NoValue || ADDRESS_ATTRIBUTE.get(tag) !== attribute) return;
      done = true;
      const end = quote === QuoteType.Unquoted ? endIndex : endIndex - 1;
      found.push({ start: valueStart(html, nameEnd, quote), end, quote, value });
    },
    onopentagend() {
      tag = "";
    },
    onselfclosingtag() {
      tag = "";
    },
    onclosetag() {},
    ontext() {},
    ontextentity() {},
    oncdata() {},
    oncomment() {},
    ondeclaration() {},
    onprocessinginstruction() {},
    onend() {},
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  return found;
}

/**
 * Where a value starts: after the attribute's name come optional whitespace, `=`, optional
 * whitespace and the opening quote, if any (the tokenizer has already read them as such).
 */
function valueStart(html: string, nameEnd: number, quote: QuoteType): number {
  let at = nameEnd;
  const skipSpace = () => {
    while (at < html.length && /\s/.test(html[at]!)) at += 1;
  };
  skipSpace();
  at += 1; // "="
  skipSpace();
  return quote === QuoteType.Unquoted ? at : at + 1;
}

/** A value as an attribute's text: `&` and the quote that holds it escaped; an unquoted one gets quotes. */
function attributeText(value: string, quote: QuoteType): string {
  const escaped = value.replace(/&/g, "&amp;");
  if (quote === QuoteType.Single) return escaped.replace(/'/g, "&#39;");
  if (quote === QuoteType.Double) return escaped.replace(/"/g, "&quot;");
  return `"${escaped.replace(/"/g, "&quot;")}"`;
}

/**
 * The path of an address on the old site, with its fragment apart, or null when it is not on the
 * old site: absolute on one of its hosts (either scheme, with or without `www.`), `//host/…`, or
 * root-relative. Relative paths (`photo.jpg`) depend on the page they were on and are left alone.
 */
function oldSitePath(raw: string, oldHosts: Set<string>): { path: string; fragment: string } | null {
  const value = raw.trim();
  const hashAt = value.indexOf("#");
  const address = hashAt >= 0 ? value.slice(0, hashAt) : value;
  const fragment = hashAt >= 0 ? value.slice(hashAt) : "";
  if (address === "") return null;
  const isAbsolute = /^[a-z][a-z0-9+.-]*:/i.test(address);
  // Browsers read a backslash as a slash in http(s) addresses: `/\host` is another host.
  const isHostRelative = /^[\\/][\\/]/.test(address);
  if (isAbsolute || isHostRelative) {
    let url: URL;
    try {
      url = new URL(address, "https://old.invalid/");
    } catch {
      return null;
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || !oldHosts.has(siteHostKey(url))) return null;
  } else if (!/^[\\/]/.test(address)) {
    return null;
  }
  const path = normalizeOldPath(address);
  return path === null ? null : { path, fragment };
}

/**
 * Rewrites the body's links and images that point at the old site (`oldOrigins`, e.g.
 * `https://old.example.com`; the scheme and `www.` do not matter) to the path `resolve` gives
 * for their normalized path (normalizeOldPath), keeping the `#fragment` when the new path has
 * none. Those `resolve` does not know stay as they are and are listed in `unresolved` as written,
 * once each, for the import's report. Links elsewhere, relative ones and `mailto:` are untouched.
 */
export function rewriteOldLinks(html: string, oldOrigins: string[], resolve: (path: string) => string | null): LinkRewrite {
  const oldHosts = new Set<string>();
  for (const origin of oldOrigins) {
    try {
      oldHosts.add(siteHostKey(new URL(origin)));
    } catch {
      // An origin that is not an address matches nothing.
    }
  }
  const unresolved: string[] = [];
  let rewritten = 0;
  let out = "";
  let copied = 0;
  for (const found of findAddresses(html)) {
    const old = oldSitePath(found.value, oldHosts);
    if (!old) continue;
    const target = resolve(old.path);
    if (target === null) {
      const written = found.value.trim();
      if (!unresolved.includes(written)) unresolved.push(written);
      continue;
    }
    const next = target.includes("#") ? target : target + old.fragment;
    out += html.slice(copied, found.start) + attributeText(next, found.quote);
    copied = found.end;
    rewritten += 1;
  }
  return { html: out + html.slice(copied), rewritten, unresolved };
}
