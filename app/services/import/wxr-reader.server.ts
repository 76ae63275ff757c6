import { SaxesParser, type SaxesTagPlain } from "saxes";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/**
 * A WordPress export (WXR 1.1/1.2, as Tools → Export writes it) read as a stream: each author,
 * category, tag and item is handed over as soon as its closing tag is read, so the memory held is
 * one chunk of the file and the record being read, whatever the file's size (decision 158). The
 * other importers in the field build the whole document first.
 */

export type WxrSite = { title: string; link: string; baseSiteUrl: string; baseBlogUrl: string; wxrVersion: string };
export type WxrAuthor = { login: string; email: string; displayName: string; firstName: string; lastName: string; id: string };
export type WxrTerm = { kind: "category" | "tag"; slug: string; name: string; parent: string; id: string; description: string };
export type WxrItem = {
  id: string;
  type: string;
  status: string;
  title: string;
  link: string;
  guid: string;
  slug: string;
  creator: string;
  contentHtml: string;
  excerptHtml: string;
  postDateGmt: string;
  modifiedDateGmt: string;
  parentId: string;
  attachmentUrl: string;
  /** The item's categories and tags by slug, in the export's order. */
  terms: { kind: "category" | "tag"; slug: string; name: string }[];
  /** `wp:postmeta` as key → value (the last one wins, as in WordPress's own importer). */
  meta: Record<string, string>;
};

export type WxrRecord = { kind: "site"; site: WxrSite } | { kind: "author"; author: WxrAuthor } | { kind: "term"; term: WxrTerm } | { kind: "item"; item: WxrItem };

/** The file is not a WordPress export (or is cut short): said in words, with the line where known. */
export class WxrError extends Error {}

/**
 * A copy of a short field that holds nothing else. V8 makes a trimmed or sliced string a view of
 * the string it came from, here a chunk of the file (64 KB): a title kept for the report would
 * keep its whole chunk alive, and a thousand titles a quarter of a gigabyte.
 */
const own = (value: string) => Buffer.from(value.trim(), "utf8").toString("utf8");

const emptyItem = (): WxrItem => ({
  id: "",
  type: "",
  status: "",
  title: "",
  link: "",
  guid: "",
  slug: "",
  creator: "",
  contentHtml: "",
  excerptHtml: "",
  postDateGmt: "",
  modifiedDateGmt: "",
  parentId: "",
  attachmentUrl: "",
  terms: [],
  meta: {},
});

/** Longest text kept for one field: a post body of 16 MB is far past any real one and bounds a hostile file. */
const MAX_FIELD_CHARS = 16 * 1024 * 1024;

/** Reads the export's records in file order; throws WxrError on a malformed or foreign file. */
export async function* readWxr(input: Readable | AsyncIterable<Buffer | string>): AsyncGenerator<WxrRecord> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const ready: WxrRecord[] = [];
  const path: string[] = [];
  let text = "";
  let sawRss = false;
  let site: WxrSite | null = { title: "", link: "", baseSiteUrl: "", baseBlogUrl: "", wxrVersion: "" };
  let item: WxrItem | null = null;
  let author: WxrAuthor | null = null;
  let term: WxrTerm | null = null;
  let itemTerm: { kind: "category" | "tag"; slug: string } | null = null;
  let metaKey = "";
  let metaValue = "";
  let failure: Error | null = null;

  parser.on("error", (error) => {
    failure ??= new WxrError(`The file is not well-formed XML: ${error.message}`);
  });
  parser.on("opentag", (tag: SaxesTagPlain) => {
    path.push(tag.name);
    text = "";
    if (tag.name === "rss") sawRss = true;
    else if (tag.name === "item" && path.at(-2) === "channel") item = emptyItem();
    else if (tag.name === "wp:author" && !item) author = { login: "", email: "", displayName: "", firstName: "", lastName: "", id: "" };
    else if ((tag.name === "wp:category" || tag.name === "wp:tag") && !item) term = { kind: tag.name === "wp:tag" ? "tag" : "category", slug: "", name: "", parent: "", id: "", description: "" };
    else if (tag.name === "category" && item) {
      const domain = String(tag.attributes.domain ?? "");
      itemTerm = domain === "category" || domain === "post_tag" ? { kind: domain === "post_tag" ? "tag" : "category", slug: own(String(tag.attributes.nicename ?? "")) } : null;
    } else if (tag.name === "wp:postmeta") {
      metaKey = "";
      metaValue = "";
    }
  });
  const keep = (chunk: string) => {
    if (text.length + chunk.length > MAX_FIELD_CHARS) failure ??= new WxrError(`A field at line ${parser.line} is longer than ${MAX_FIELD_CHARS / 1024 / 1024} MB.`);
    else text += chunk;
  };
  parser.on("text", keep);
  parser.on("cdata", keep);
  parser.on("closetag", (tag) => {
    const name = tag.name;
    const value = text;
    text = "";
    path.pop();
    if (item) {
      const current: WxrItem = item;
      switch (name) {
        case "item":
          ready.push({ kind: "item", item: current });
          item = null;
          return;
        case "title":
          current.title = own(value);
          return;
        case "link":
          current.link = own(value);
          return;
        case "guid":
          current.guid = own(value);
          return;
        case "dc:creator":
          current.creator = own(value);
          return;
        case "content:encoded":
          current.contentHtml = value;
          return;
        case "excerpt:encoded":
          current.excerptHtml = value;
          return;
        case "wp:post_id":
          current.id = own(value);
          return;
        case "wp:post_date_gmt":
          current.postDateGmt = own(value);
          return;
        case "wp:post_modified_gmt":
          current.modifiedDateGmt = own(value);
          return;
        case "wp:post_name":
          current.slug = own(value);
          return;
        case "wp:status":
          current.status = own(value);
          return;
        case "wp:post_type":
          current.type = own(value);
          return;
        case "wp:post_parent":
          current.parentId = own(value);
          return;
        case "wp:attachment_url":
          current.attachmentUrl = own(value);
          return;
        case "wp:meta_key":
          metaKey = own(value);
          return;
        case "wp:meta_value":
          metaValue = own(value);
          return;
        case "wp:postmeta":
          if (metaKey) current.meta[metaKey] = metaValue;
          return;
        case "category":
          if (itemTerm) current.terms.push({ ...itemTerm, name: own(value) });
          itemTerm = null;
          return;
        default:
          return;
      }
    }
    if (author) {
      const current: WxrAuthor = author;
      if (name === "wp:author") {
        ready.push({ kind: "author", author: current });
        author = null;
      } else if (name === "wp:author_login") current.login = own(value);
      else if (name === "wp:author_email") current.email = own(value);
      else if (name === "wp:author_display_name") current.displayName = own(value);
      else if (name === "wp:author_first_name") current.firstName = own(value);
      else if (name === "wp:author_last_name") current.lastName = own(value);
      else if (name === "wp:author_id") current.id = own(value);
      return;
    }
    if (term) {
      const current: WxrTerm = term;
      if (name === "wp:category" || name === "wp:tag") {
        ready.push({ kind: "term", term: current });
        term = null;
      } else if (name === "wp:category_nicename" || name === "wp:tag_slug") current.slug = own(value);
      else if (name === "wp:cat_name" || name === "wp:tag_name") current.name = own(value);
      else if (name === "wp:category_parent") current.parent = own(value);
      else if (name === "wp:term_id") current.id = own(value);
      else if (name === "wp:category_description" || name === "wp:tag_description") current.description = own(value);
      return;
    }
    if (site && path.at(-1) === "channel") {
      // The channel's own fields come before its first item; the site record goes out with the first record after them.
      if (name === "title") site.title = own(value);
      else if (name === "link") site.link = own(value);
      else if (name === "wp:base_site_url") site.baseSiteUrl = own(value);
      else if (name === "wp:base_blog_url") site.baseBlogUrl = own(value);
      else if (name === "wp:wxr_version") site.wxrVersion = own(value);
    }
  });

  const flushSite = () => {
    if (site && ready.length > 0) {
      if (!site.wxrVersion) failure ??= new WxrError("This is not a WordPress export: it has no wp:wxr_version (WordPress writes one in every export from Tools → Export).");
      ready.unshift({ kind: "site", site });
      site = null;
    }
  };

  // A chunk can end inside a character of several bytes: the decoder holds it for the next.
  const decoder = new StringDecoder("utf8");
  const handOver = function* () {
    const records = ready.splice(0, ready.length);
    yield* records;
  };
  for await (const chunk of input) {
    parser.write(typeof chunk === "string" ? chunk : decoder.write(chunk));
    if (failure) throw failure;
    flushSite();
    if (failure) throw failure;
    yield* handOver();
  }
  parser.write(decoder.end());
  parser.close();
  if (failure) throw failure;
  if (!sawRss) throw new WxrError("This is not a WordPress export: it has no <rss> element.");
  if (site) {
    // An export with nothing in it still names its site.
    const empty: WxrSite = site;
    if (!empty.wxrVersion) throw new WxrError("This is not a WordPress export: it has no wp:wxr_version (WordPress writes one in every export from Tools → Export).");
    yield { kind: "site", site: empty };
  }
  yield* handOver();
}
