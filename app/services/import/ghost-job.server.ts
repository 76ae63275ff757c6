import { createReadStream, existsSync } from "node:fs";
import { categorySlugOf, type ArticleCategoryName } from "~/config/categories";
import type { Db } from "~/db/client.server";
import { IMPORT_LOSSES as L, IMPORT_RUN_TEXTS as T } from "~/lib/import-texts";
import { articleFieldsFromPost, categoryFor, slugOfPost, type CategoryMapping, type ImportedPost } from "./article-from-post";
import { bringBodyImages } from "./body-images.server";
import { ghostStatusOf } from "./ghost-dry-run.server";
import { readGhost } from "./ghost-reader.server";
import { bringImage, isUploadedFile, type ImageSourceOptions } from "./images.server";
import type { UploadsSource } from "./uploads-source.server";
import { rewriteOldLinks } from "./link-rewrite";
import { ghostArchivePaths, ghostPostPaths } from "./old-urls";
import { finishRun, ImportFailure, renewLease, setRunTotal, type ImportRun, type ReportLineInput } from "./runs.server";
import { htmlToMarkdown } from "./wordpress-body.server";
import { createChangeBatcher, ensureAuthor, importArchiveRedirects, importedSlugs, takenSlugs, writeImportedArticle, type ImportJobContext } from "./writer.server";

/**
 * The import of a Ghost export as a job (decision 159), in the same two passes as WordPress's.
 * Ghost writes its tables in name order (posts before their authors, tags and SEO fields), so the
 * first pass collects those links for every post, and the second writes each post as it comes.
 * Ghost writes its own address as `__GHOST_URL__` in bodies and images: the operator gives the old
 * site's address (or its `content/images` folder) for the images to be had.
 */

type Row = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));
const GHOST_URL = "__GHOST_URL__";

type GhostPlan = {
  siteTitle: string;
  posts: Map<string, { slug: string; title: string; uuid: string; authorId: string; primaryTagId: string; metaTitle: string; metaDescription: string }>;
  tags: Map<string, { slug: string; name: string }>;
  users: Map<string, { slug: string; name: string; email: string }>;
  untagged: number;
};

function openFile(run: ImportRun) {
  if (!existsSync(run.filePath)) throw new ImportFailure(T.fileGone(run.filePath));
  return createReadStream(run.filePath, { highWaterMark: 64 * 1024 });
}

const importable = (post: Row) => post.type !== "page" && !("skip" in ghostStatusOf({ status: text(post.status), visibility: text(post.visibility) }));

async function planGhost(db: Db, run: ImportRun): Promise<GhostPlan> {
  const plan: GhostPlan = { siteTitle: "", posts: new Map(), tags: new Map(), users: new Map(), untagged: 0 };
  let read = 0;
  for await (const { table, row } of readGhost(openFile(run))) {
    if (table === "posts" && importable(row)) {
      plan.posts.set(text(row.id), { slug: text(row.slug), title: text(row.title), uuid: text(row.uuid), authorId: "", primaryTagId: "", metaTitle: text(row.meta_title), metaDescription: text(row.meta_description) });
    } else if (table === "posts_authors") {
      const post = plan.posts.get(text(row.post_id));
      if (post && (!post.authorId || Number(row.sort_order ?? 0) === 0)) post.authorId = text(row.author_id);
    } else if (table === "posts_tags") {
      const post = plan.posts.get(text(row.post_id));
      if (post && (!post.primaryTagId || Number(row.sort_order ?? 0) === 0)) post.primaryTagId = text(row.tag_id);
    } else if (table === "posts_meta") {
      const post = plan.posts.get(text(row.post_id));
      if (post) {
        post.metaTitle ||= text(row.meta_title);
        post.metaDescription ||= text(row.meta_description);
      }
    } else if (table === "tags") plan.tags.set(text(row.id), { slug: text(row.slug), name: text(row.name) });
    else if (table === "users") plan.users.set(text(row.id), { slug: text(row.slug), name: text(row.name), email: text(row.email) });
    else if (table === "settings" && row.key === "title") plan.siteTitle = text(row.value);
    if (++read % 500 === 0) await renewLease(db, run.id);
  }
  return plan;
}

/** Runs (or goes on with) a claimed Ghost import until it is done, stopped or fails. */
export async function runGhostImport(db: Db, run: ImportRun, options: { isStopped: () => boolean; onProgress?: (done: number, total: number) => void; actor: string; uploads?: UploadsSource }) {
  const plan = await planGhost(db, run);
  const siteUrl = (run.options.oldSiteUrl ?? "").replace(/\/+$/, "");
  const source = `ghost:${siteUrl || plan.siteTitle}`;
  const mapping: CategoryMapping = { categories: run.options.categories, defaultCategory: run.options.defaultCategory };
  await setRunTotal(db, run.id, plan.posts.size, siteUrl);

  // Slugs: kept from an earlier run, else Ghost's own when free here.
  const mine = await importedSlugs(db, source);
  const taken = await takenSlugs(db);
  const wantedSlugs = new Map<string, string>();
  const oldSlugs = new Map<string, string>();
  for (const [id, post] of plan.posts) {
    const wanted = slugOfPost(post.slug, post.title);
    wantedSlugs.set(id, wanted);
    oldSlugs.set(id, post.slug);
    const kept = mine.get(id);
    if (kept) {
      post.slug = kept;
      continue;
    }
    let slug = wanted;
    for (let n = 2; taken.has(slug); n++) slug = `${wanted.slice(0, 95)}-${n}`;
    taken.add(slug);
    post.slug = slug;
  }
  const postTargets = new Map<string, string>();
  // Old addresses carry Ghost's own slugs (the one here may differ when it was taken).
  for (const [id, post] of plan.posts) for (const path of ghostPostPaths(siteUrl, { slug: oldSlugs.get(id)!, uuid: post.uuid })) postTargets.set(path, `/articles/${post.slug}`);

  const host = (() => {
    try {
      return siteUrl ? new URL(siteUrl).hostname.toLowerCase() : "";
    } catch {
      return "";
    }
  })();
  const images: ImageSourceOptions = {
    source,
    runId: run.id,
    allowedHosts: host ? [host] : [],
    uploads: options.uploads ? { files: options.uploads, urlPath: `${siteUrl ? new URL(siteUrl).pathname.replace(/\/+$/, "") : ""}/content/images` } : undefined,
    actor: options.actor,
  };
  const context: ImportJobContext = { db, run, source, mapping, postTargets, actor: options.actor, changes: createChangeBatcher(db) };
  const authorIds = new Map<string, { id: string; slug: string }>();
  const skippedLines: ReportLineInput[] = [];
  const localAddress = (value: string) => value.replaceAll(GHOST_URL, siteUrl || "http://ghost.invalid");
  let index = -1;
  const done = run.itemsDone;
  options.onProgress?.(done, plan.posts.size);

  for await (const { table, row } of readGhost(openFile(run))) {
    if (options.isStopped()) {
      await context.changes.flush();
      return { stopped: true as const };
    }
    if (table !== "posts") continue;
    const id = text(row.id);
    const label = text(row.title) || `(untitled post ${id})`;
    const planned = plan.posts.get(id);
    if (!planned) {
      const oldUrl = row.slug ? `/${text(row.slug)}/` : "";
      if (row.type === "page") skippedLines.push({ item: label, oldUrl, outcome: "skipped", reason: "a Ghost page, not a post: this site’s own pages (about, privacy, terms) take their place" });
      else {
        const status = ghostStatusOf({ status: text(row.status), visibility: text(row.visibility) });
        if ("skip" in status) skippedLines.push({ item: label, oldUrl, outcome: "skipped", reason: status.skip });
      }
      continue;
    }
    index++;
    if (index < done) continue;
    await renewLease(db, run.id);

    const person = plan.users.get(planned.authorId) ?? { slug: planned.authorId || "unknown", name: "Unknown author", email: "" };
    let author = authorIds.get(person.slug);
    if (!author) {
      author = await ensureAuthor(db, source, { sourceId: person.slug, name: person.name || person.slug, email: person.email }, run.id);
      authorIds.set(person.slug, author);
    }
    const oldUrl = siteUrl ? `${siteUrl}/${oldSlugs.get(id)}/` : `/${oldSlugs.get(id)}/`;
    const losses: string[] = [];
    const status = ghostStatusOf({ status: text(row.status), visibility: text(row.visibility) });
    if ("skip" in status) continue;
    if (status.note) losses.push(status.note);
    const html = localAddress(text(row.html));
    let body = "";
    if (html.trim()) {
      if (/kg-gallery-card/.test(html)) losses.push("gallery cards converted as their images only");
      const rewritten = rewriteOldLinks(html, siteUrl ? [siteUrl] : [], (path) => postTargets.get(path) ?? null);
      const unresolved = rewritten.unresolved.filter((address) => !isUploadedFile(address));
      if (unresolved.length > 0) losses.push(L.linkUnresolved(unresolved.length));
      body = await bringBodyImages(db, htmlToMarkdown(rewritten.html, losses), images, losses);
    } else if (row.lexical || row.mobiledoc) losses.push("the body is only in Ghost’s editor format (no HTML in the export): not converted");

    let image = "";
    let imageAlt = text(row.feature_image_alt);
    if (row.feature_image) {
      const brought = await bringImage(db, localAddress(text(row.feature_image)), imageAlt || text(row.title), images);
      if (brought.ok) {
        image = brought.src;
        imageAlt ||= brought.alt;
      } else losses.push(L.featuredNotHad(localAddress(text(row.feature_image)), brought.reason));
    }
    const tag = plan.tags.get(planned.primaryTagId);
    const categorySlug = tag?.slug ?? "";
    if (categorySlug && !(categorySlug in mapping.categories)) losses.push(L.categoryUnmapped(categorySlug, categoryFor(categorySlug, mapping)));
    if (wantedSlugs.get(id) !== planned.slug) losses.push(L.slugTaken(wantedSlugs.get(id)!, planned.slug));
    const date = (value: unknown) => {
      const parsed = value ? new Date(text(value)) : null;
      return parsed && !Number.isNaN(parsed.getTime()) ? parsed : null;
    };
    const post: ImportedPost = {
      sourceId: id,
      oldUrl,
      title: text(row.title),
      slug: planned.slug,
      excerpt: text(row.custom_excerpt),
      body,
      status: status.status,
      publishedAt: date(row.published_at),
      modifiedAt: date(row.updated_at),
      categorySlug,
      image,
      imageAlt,
      seoTitle: planned.metaTitle,
      seoDescription: planned.metaDescription,
    };
    const lines = losses.map((reason) => ({ item: label, oldUrl, outcome: "converted with loss", reason }));
    await writeImportedArticle(context, index, { post, fields: articleFieldsFromPost(post, mapping), authorId: author.id, lines, redirectPaths: ghostPostPaths(siteUrl, { slug: oldSlugs.get(id)!, uuid: planned.uuid }) });
    options.onProgress?.(index + 1, plan.posts.size);
  }
  const archive = ghostArchivePaths(
    siteUrl,
    { tags: [...plan.tags.values()], authors: [...plan.users.values()] },
    {
      tagTarget: (slug) => (slug in mapping.categories ? `/blog?category=${categorySlugOf(categoryFor(slug, mapping) as ArticleCategoryName)}` : null),
      authorTarget: (slug) => (authorIds.has(slug) ? `/authors/${authorIds.get(slug)!.slug}` : null),
    },
  );
  await importArchiveRedirects(context, archive, skippedLines);
  await finishRun(db, run.id, {});
  return { stopped: false as const };
}
