import type { Readable } from "node:stream";
import { convertWordPressBody } from "./wordpress-body.server";
import { readWxr, type WxrAuthor, type WxrItem, type WxrSite } from "./wxr-reader.server";

/**
 * What an import of a WordPress export would do, read from the whole file without writing anything
 * (decision 158): the articles by the status they would get, the authors, the categories to map,
 * and one report line for everything skipped or converted with loss (item, old URL, reason).
 */

export type ArticleStatus = "published" | "scheduled" | "draft";
export type ReportLine = { item: string; oldUrl: string; outcome: "skipped" | "converted with loss"; reason: string };

export type DryRun = {
  site: WxrSite;
  articles: Record<ArticleStatus, number>;
  authors: { login: string; email: string; displayName: string; posts: number }[];
  /** WordPress categories by slug with their post counts: the operator maps each to one of ours. */
  categories: { slug: string; name: string; posts: number }[];
  /** Posts whose featured image is an attachment of the export, and those whose is missing from it. */
  featuredImages: { found: number; missing: number };
  imagesInBodies: number;
  seo: { titles: number; descriptions: number };
  /** Old addresses that will answer 301 to the new ones (one per imported article). */
  oldUrls: number;
  lines: ReportLine[];
};

/**
 * WordPress's statuses as ours. Private posts become drafts: their readers were signed in to the old
 * site, and publishing them would show them to everyone.
 */
export function statusOf(item: Pick<WxrItem, "status">): { status: ArticleStatus; note?: string } | { skip: string } {
  switch (item.status) {
    case "publish":
      return { status: "published" };
    case "future":
      return { status: "scheduled" };
    case "draft":
    case "pending":
      return { status: "draft" };
    case "private":
      return { status: "draft", note: "private in WordPress: imported as a draft, not published" };
    case "trash":
      return { skip: "in the WordPress trash" };
    case "auto-draft":
      return { skip: "an automatic draft WordPress keeps, never written" };
    default:
      return { skip: `status "${item.status || "none"}" is not one an article can have` };
  }
}

/** A dry run that has read nothing yet: both sources fill the same shape. */
export function emptyDryRun(): DryRun {
  return {
    site: { title: "", link: "", baseSiteUrl: "", baseBlogUrl: "", wxrVersion: "" },
    articles: { published: 0, scheduled: 0, draft: 0 },
    authors: [],
    categories: [],
    featuredImages: { found: 0, missing: 0 },
    imagesInBodies: 0,
    seo: { titles: 0, descriptions: 0 },
    oldUrls: 0,
    lines: [],
  };
}

/** Images in a body's HTML, counted by both sources. */
export const IMAGE_IN_HTML = /<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi;

/** Reads the whole export once, in bounded memory, and says what an import would do. */
export async function dryRunWordPress(input: Readable | AsyncIterable<Buffer | string>): Promise<DryRun> {
  const run = emptyDryRun();
  const authors = new Map<string, WxrAuthor & { posts: number }>();
  const categories = new Map<string, { slug: string; name: string; posts: number }>();
  const attachments = new Set<string>();
  // A featured image names an attachment by id, which may come later in the file: checked at the end.
  const featured: { item: string; oldUrl: string; attachmentId: string }[] = [];

  for await (const record of readWxr(input)) {
    if (record.kind === "site") run.site = record.site;
    else if (record.kind === "author") authors.set(record.author.login, { ...record.author, posts: 0 });
    else if (record.kind === "term" && record.term.kind === "category") categories.set(record.term.slug, { slug: record.term.slug, name: record.term.name, posts: 0 });
    else if (record.kind === "item") {
      const item = record.item;
      const label = item.title || `(untitled ${item.type} ${item.id})`;
      if (item.type === "attachment") {
        attachments.add(item.id);
        continue;
      }
      if (item.type === "page") {
        run.lines.push({ item: label, oldUrl: item.link, outcome: "skipped", reason: "a WordPress page, not a post: this site’s own pages (about, privacy, terms) take their place" });
        continue;
      }
      if (item.type !== "post") continue;
      const status = statusOf(item);
      if ("skip" in status) {
        run.lines.push({ item: label, oldUrl: item.link, outcome: "skipped", reason: status.skip });
        continue;
      }
      run.articles[status.status] += 1;
      run.oldUrls += item.link ? 1 : 0;
      if (status.note) run.lines.push({ item: label, oldUrl: item.link, outcome: "converted with loss", reason: status.note });
      const author = authors.get(item.creator);
      if (author) author.posts += 1;
      else {
        authors.set(item.creator, { login: item.creator, email: "", displayName: item.creator, firstName: "", lastName: "", id: "", posts: 1 });
        run.lines.push({ item: label, oldUrl: item.link, outcome: "converted with loss", reason: `author “${item.creator}” is not among the export’s authors: created from the login alone` });
      }
      for (const term of item.terms) {
        if (term.kind !== "category") continue;
        const category = categories.get(term.slug) ?? { slug: term.slug, name: term.name, posts: 0 };
        category.posts += 1;
        categories.set(term.slug, category);
      }
      if (item.meta._thumbnail_id) featured.push({ item: label, oldUrl: item.link, attachmentId: item.meta._thumbnail_id });
      if (item.meta._yoast_wpseo_title) run.seo.titles += 1;
      if (item.meta._yoast_wpseo_metadesc) run.seo.descriptions += 1;
      run.imagesInBodies += [...item.contentHtml.matchAll(IMAGE_IN_HTML)].length;
      const body = convertWordPressBody(item.contentHtml);
      for (const loss of body.losses) run.lines.push({ item: label, oldUrl: item.link, outcome: "converted with loss", reason: loss });
      if (!body.markdown) run.lines.push({ item: label, oldUrl: item.link, outcome: "converted with loss", reason: "the body is empty" });
    }
  }
  for (const image of featured) {
    if (attachments.has(image.attachmentId)) run.featuredImages.found += 1;
    else {
      run.featuredImages.missing += 1;
      run.lines.push({ item: image.item, oldUrl: image.oldUrl, outcome: "converted with loss", reason: `featured image (attachment ${image.attachmentId}) is not in the export` });
    }
  }
  run.authors = [...authors.values()].map(({ login, email, displayName, posts }) => ({ login, email, displayName, posts }));
  run.categories = [...categories.values()].sort((a, b) => b.posts - a.posts || a.slug.localeCompare(b.slug));
  return run;
}
