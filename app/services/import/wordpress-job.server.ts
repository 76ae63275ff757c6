import { createReadStream, existsSync } from "node:fs";
import { categorySlugOf, type ArticleCategoryName } from "~/config/categories";
import { IMPORT_LOSSES as L, IMPORT_RUN_TEXTS as T } from "~/lib/import-texts";
import type { Db } from "~/db/client.server";
import { articleFieldsFromPost, categoryFor, slugOfPost, wordpressDate, type CategoryMapping, type ImportedPost } from "./article-from-post";
import { bringImage, isUploadedFile, type ImageSourceOptions } from "./images.server";
import type { UploadsSource } from "./uploads-source.server";
import { rewriteOldLinks } from "./link-rewrite";
import { wordpressArchivePaths, wordpressPostPaths } from "./old-urls";
import { bringBodyImages } from "./body-images.server";
import { expandYoast } from "./yoast";
import { finishRun, ImportFailure, renewLease, setRunTotal, type ImportRun, type ReportLineInput } from "./runs.server";
import { statusOf } from "./wordpress-dry-run.server";
import { convertWordPressBody } from "./wordpress-body.server";
import { readWxr, type WxrAuthor, type WxrItem, type WxrSite, type WxrTerm } from "./wxr-reader.server";
import { createChangeBatcher, ensureAuthor, importArchiveRedirects, importedSlugs, publishedMonths, takenSlugs, writeImportedArticle, type ImportJobContext } from "./writer.server";

/**
 * The import of a WordPress export as a job (decision 159). Two passes over the file, each a
 * stream (decision 158):
 * 1. the plan: every post's id, slug and old address, the attachments (featured images), the
 *    authors and the categories, held as small records (a few hundred bytes a post, never a body);
 * 2. the write: each post converted and written in its own transaction with the run's progress.
 * A run interrupted at any point (kill -9) is claimed again and goes on after the last post
 * written: the plan is read again, the posts before `itemsDone` are passed over.
 */

type PlannedPost = { slug: string; title: string; link: string };
type Attachment = { url: string; alt: string; title: string; parentId: string };

export type WordPressPlan = {
  site: WxrSite;
  authors: Map<string, WxrAuthor>;
  categories: WxrTerm[];
  tags: WxrTerm[];
  attachments: Map<string, Attachment>;
  /** Importable posts by WordPress id, in file order. */
  posts: Map<string, PlannedPost>;
};

const sourceOf = (site: WxrSite) => `wordpress:${(site.baseSiteUrl || site.link).replace(/\/+$/, "")}`;

function openFile(run: ImportRun) {
  if (!existsSync(run.filePath)) throw new ImportFailure(T.fileGone(run.filePath));
  return createReadStream(run.filePath, { highWaterMark: 64 * 1024 });
}

/** Pass 1: what the write needs to know about the whole file before the first post. */
async function planWordPress(db: Db, run: ImportRun): Promise<WordPressPlan> {
  const plan: WordPressPlan = { site: { title: "", link: "", baseSiteUrl: "", baseBlogUrl: "", wxrVersion: "" }, authors: new Map(), categories: [], tags: [], attachments: new Map(), posts: new Map() };
  let read = 0;
  for await (const record of readWxr(openFile(run))) {
    if (record.kind === "site") plan.site = record.site;
    else if (record.kind === "author") plan.authors.set(record.author.login, record.author);
    else if (record.kind === "term") (record.term.kind === "category" ? plan.categories : plan.tags).push(record.term);
    else if (record.kind === "item") {
      const item = record.item;
      if (item.type === "attachment") {
        plan.attachments.set(item.id, { url: item.attachmentUrl, alt: item.meta._wp_attachment_image_alt ?? "", title: item.title, parentId: item.parentId });
      } else if (item.type === "post" && !("skip" in statusOf(item))) {
        plan.posts.set(item.id, { slug: item.slug, title: item.title, link: item.link });
      }
    }
    // A long first reading keeps the claim (a 600 MB file takes a minute or more).
    if (++read % 500 === 0) await renewLease(db, run.id);
  }
  // Slugs: an imported post keeps the one it was given; a new one takes its old slug when free.
  const mine = await importedSlugs(db, sourceOf(plan.site));
  const taken = await takenSlugs(db);
  for (const [id, post] of plan.posts) {
    const kept = mine.get(id);
    if (kept) {
      post.slug = kept;
      continue;
    }
    const wanted = slugOfPost(post.slug, post.title);
    let slug = wanted;
    for (let n = 2; taken.has(slug); n++) slug = `${wanted.slice(0, 95)}-${n}`;
    taken.add(slug);
    post.slug = slug;
  }
  return plan;
}

function yoastText(template: string | undefined, item: WxrItem, plan: WordPressPlan, body: string): string {
  if (!template) return "";
  const categories = item.terms.filter((term) => term.kind === "category").map((term) => term.name);
  const author = plan.authors.get(item.creator);
  return expandYoast(template, {
    title: item.title,
    siteName: plan.site.title,
    siteDescription: "",
    excerpt: item.excerptHtml.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim(),
    content: body,
    categories,
    tags: item.terms.filter((term) => term.kind === "tag").map((term) => term.name),
    authorName: author?.displayName || item.creator,
    date: wordpressDate(item.postDateGmt),
    modified: wordpressDate(item.modifiedDateGmt),
    now: new Date(),
    focusKeyword: item.meta._yoast_wpseo_focuskw,
    meta: item.meta,
  }).text;
}

/** One post as this site's article, its images brought over and its links pointing here. */
async function importedPostOf(item: WxrItem, plan: WordPressPlan, context: ImportJobContext, images: ImageSourceOptions): Promise<{ post: ImportedPost; lines: ReportLineInput[] }> {
  const planned = plan.posts.get(item.id)!;
  const label = item.title || `(untitled post ${item.id})`;
  const losses: string[] = [];
  const origins = [plan.site.baseSiteUrl, plan.site.baseBlogUrl, plan.site.link].filter(Boolean);
  const targets = context.postTargets;
  const rewritten = rewriteOldLinks(item.contentHtml, origins, (path) => targets.get(path) ?? null);
  // Images are moved below, not linked: only links to pages that did not come along are reported.
  const unresolved = rewritten.unresolved.filter((address) => !isUploadedFile(address));
  if (unresolved.length > 0) losses.push(L.linkUnresolved(unresolved.length));
  const converted = convertWordPressBody(rewritten.html);
  losses.push(...converted.losses);
  const body = await bringBodyImages(context.db, converted.markdown, images, losses);

  const status = statusOf(item);
  if ("skip" in status) throw new Error(`post ${item.id} was planned but cannot be imported`);
  if (status.note) losses.push(status.note);

  let image = "";
  let imageAlt = "";
  const attachment = item.meta._thumbnail_id ? plan.attachments.get(item.meta._thumbnail_id) : undefined;
  if (attachment?.url) {
    const brought = await bringImage(context.db, attachment.url, attachment.alt || attachment.title || item.title, images);
    if (brought.ok) {
      image = brought.src;
      imageAlt = attachment.alt || brought.alt;
    } else losses.push(L.featuredNotHad(attachment.url, brought.reason));
  } else if (item.meta._thumbnail_id) {
    losses.push(L.featuredNotHad(`attachment ${item.meta._thumbnail_id}`, "it is not in the export"));
  }

  const category = item.terms.find((term) => term.kind === "category")?.slug ?? "";
  if (category && !(category in context.mapping.categories)) losses.push(L.categoryUnmapped(category, categoryFor(category, context.mapping)));
  const bodyText = body.replace(/\s+/g, " ");
  const post: ImportedPost = {
    sourceId: item.id,
    oldUrl: item.link,
    title: item.title,
    slug: planned.slug,
    excerpt: item.excerptHtml.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim(),
    body,
    status: status.status,
    publishedAt: wordpressDate(item.postDateGmt),
    modifiedAt: wordpressDate(item.modifiedDateGmt),
    categorySlug: category,
    image,
    imageAlt,
    seoTitle: yoastText(item.meta._yoast_wpseo_title, item, plan, bodyText),
    seoDescription: yoastText(item.meta._yoast_wpseo_metadesc, item, plan, bodyText),
  };
  const wanted = slugOfPost(item.slug, item.title);
  if (wanted !== planned.slug) losses.push(L.slugTaken(wanted, planned.slug));
  return { post, lines: losses.map((reason) => ({ item: label, oldUrl: item.link, outcome: "converted with loss", reason })) };
}

/** Runs (or goes on with) a claimed WordPress import until it is done, stopped or fails. */
export async function runWordPressImport(db: Db, run: ImportRun, options: { isStopped: () => boolean; onProgress?: (done: number, total: number) => void; actor: string; uploads?: UploadsSource }) {
  const plan = await planWordPress(db, run);
  const source = sourceOf(plan.site);
  const mapping: CategoryMapping = { categories: run.options.categories, defaultCategory: run.options.defaultCategory };
  await setRunTotal(db, run.id, plan.posts.size, plan.site.baseSiteUrl || plan.site.link);
  const siteHosts = [plan.site.baseSiteUrl, plan.site.baseBlogUrl, plan.site.link].flatMap((address) => {
    try {
      const host = new URL(address).hostname.toLowerCase();
      return [host, host.startsWith("www.") ? host.slice(4) : `www.${host}`];
    } catch {
      return [];
    }
  });
  // A local copy of wp-content/uploads answers for the addresses under the old site's own.
  const sitePath = (() => {
    try {
      return new URL(plan.site.baseSiteUrl || plan.site.link).pathname.replace(/\/+$/, "");
    } catch {
      return "";
    }
  })();
  const uploads = options.uploads ? { files: options.uploads, urlPath: `${sitePath}/wp-content/uploads` } : undefined;
  const images: ImageSourceOptions = { source, runId: run.id, allowedHosts: [...new Set(siteHosts)], uploads, actor: options.actor };

  // Every old post address to its new page, for the links inside the bodies.
  const postTargets = new Map<string, string>();
  for (const [id, post] of plan.posts) {
    for (const path of wordpressPostPaths(plan.site, { id, link: post.link, guid: "" } as WxrItem)) postTargets.set(path, `/articles/${post.slug}`);
  }
  const context: ImportJobContext = { db, run, source, mapping, postTargets, actor: options.actor, changes: createChangeBatcher(db) };

  const authorIds = new Map<string, string>();
  const authorSlugs = new Map<string, string>();
  const skippedLines: ReportLineInput[] = [];
  let index = -1;
  const done = run.itemsDone;
  options.onProgress?.(done, plan.posts.size);
  for await (const record of readWxr(openFile(run))) {
    if (options.isStopped()) {
      await context.changes.flush();
      return { stopped: true as const };
    }
    if (record.kind !== "item") continue;
    const item = record.item;
    const label = item.title || `(untitled ${item.type} ${item.id})`;
    if (item.type === "page") {
      skippedLines.push({ item: label, oldUrl: item.link, outcome: "skipped", reason: "a WordPress page, not a post: this site’s own pages (about, privacy, terms) take their place" });
      continue;
    }
    if (item.type !== "post") continue;
    if (!plan.posts.has(item.id)) {
      const status = statusOf(item);
      if ("skip" in status) skippedLines.push({ item: label, oldUrl: item.link, outcome: "skipped", reason: status.skip });
      continue;
    }
    index++;
    if (index < done) continue;
    // Fetching a post's images may take a while: the claim is renewed before each post.
    await renewLease(db, run.id);
    const author = plan.authors.get(item.creator) ?? { login: item.creator, email: "", displayName: item.creator, firstName: "", lastName: "", id: "" };
    let authorId = authorIds.get(author.login);
    if (!authorId) {
      const ensured = await ensureAuthor(db, source, { sourceId: author.login, name: author.displayName || author.login, email: author.email }, run.id);
      authorId = ensured.id;
      authorIds.set(author.login, ensured.id);
      authorSlugs.set(author.login, ensured.slug);
    }
    const { post, lines } = await importedPostOf(item, plan, context, images);
    const targetPaths = wordpressPostPaths(plan.site, item);
    await writeImportedArticle(context, index, { post, fields: articleFieldsFromPost(post, mapping), authorId, lines, redirectPaths: targetPaths });
    options.onProgress?.(index + 1, plan.posts.size);
  }
  // The old site's archives and feeds (categories, tags, authors, dates) to their places here.
  const archive = wordpressArchivePaths(plan.site, { categories: plan.categories, tags: plan.tags, authors: [...plan.authors.values()], months: await publishedMonths(db) }, {
    categoryTarget: (slug) => `/blog?category=${categorySlugOf(categoryFor(slug, mapping) as ArticleCategoryName)}`,
    authorTarget: (login) => (authorSlugs.has(login) ? `/authors/${authorSlugs.get(login)}` : null),
  });
  await importArchiveRedirects(context, archive, skippedLines);
  await finishRun(db, run.id, {});
  return { stopped: false as const };
}
