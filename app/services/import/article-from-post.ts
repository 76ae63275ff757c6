import { CATEGORY_NAMES } from "~/config/categories";
import { SLUG_PATTERN } from "~/services/content/article-fields";
import { slugify } from "~/services/content/slugs";
import { IMPORT_LOSSES as L } from "~/lib/import-texts";
import type { ArticleStatus } from "./wordpress-dry-run.server";

/**
 * An old post as this site's article fields (decision 159), for WordPress and Ghost alike: the
 * desk's rules decide what may be published. A post published on the old site that breaks one
 * (no image, a title or summary of the wrong length) is imported as a draft with the reason in
 * the report, so nothing goes live that an editor could not have published here.
 */

export type ImportedPost = {
  sourceId: string;
  oldUrl: string;
  title: string;
  slug: string;
  /** Plain text; empty when the old site had none (the body's opening is used). */
  excerpt: string;
  /** Markdown. */
  body: string;
  status: ArticleStatus;
  publishedAt: Date | null;
  modifiedAt: Date | null;
  /** The old site's category (or Ghost's primary tag) by slug; "" for none. */
  categorySlug: string;
  /** `/media/…` once its image is stored here, or "" when it could not be had. */
  image: string;
  imageAlt: string;
  seoTitle: string;
  seoDescription: string;
};

export type ArticleFieldsFromPost = {
  slug: string;
  title: string;
  excerpt: string;
  body: string;
  category: string;
  image: string;
  imageAlt: string;
  seoTitle: string | null;
  seoDescription: string | null;
  status: ArticleStatus;
  publishAt: Date | null;
  contentUpdatedAt: Date | null;
  losses: string[];
};

export type CategoryMapping = { categories: Record<string, string>; defaultCategory: string };

const TITLE_MIN = 10;
const TITLE_MAX = 120;
const EXCERPT_MIN = 40;
const EXCERPT_MAX = 300;
const SEO_TITLE_MAX = 70;
const SEO_DESCRIPTION_MAX = 170;
const IMAGE_ALT_MIN = 10;

/** Text cut at the last word that fits, with an ellipsis. */
export function cutAtWord(text: string, max: number) {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const head = clean.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.–—-]+$/, "")}…`;
}

/** Markdown's visible words, roughly: what a summary made from the body may say. */
export function plainTextOfMarkdown(markdown: string) {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^#+\s+/gm, "")
    .replace(/[*_`>|]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The slug the old site used, when it is one of ours; else made from it (or the title). */
export function slugOfPost(oldSlug: string, title: string) {
  let decoded = oldSlug;
  try {
    decoded = decodeURIComponent(oldSlug);
  } catch {
    // A stray % in a slug: take it as it is.
  }
  const candidate = SLUG_PATTERN.test(decoded) && decoded.length <= 100 ? decoded : slugify(decoded || title);
  return (candidate || slugify(title) || "imported-post").slice(0, 100).replace(/-+$/, "");
}

export function categoryFor(slug: string, mapping: CategoryMapping) {
  const mapped = mapping.categories[slug];
  return mapped && (CATEGORY_NAMES as readonly string[]).includes(mapped) ? mapped : mapping.defaultCategory;
}

/** The fields to write, and why a post published on the old site is a draft here. */
export function articleFieldsFromPost(post: ImportedPost, mapping: CategoryMapping): ArticleFieldsFromPost {
  const losses: string[] = [];
  const fullTitle = post.title.replace(/\s+/g, " ").trim();
  const title = fullTitle.length > TITLE_MAX ? cutAtWord(fullTitle, TITLE_MAX) : fullTitle;
  if (title !== fullTitle) losses.push(L.titleCut(TITLE_MAX));
  const excerptSource = post.excerpt.trim() || plainTextOfMarkdown(post.body);
  const excerpt = cutAtWord(excerptSource, EXCERPT_MAX);
  if (!post.excerpt.trim() && excerpt) losses.push(L.excerptFromBody);
  const seoTitle = post.seoTitle ? cutAtWord(post.seoTitle, SEO_TITLE_MAX) : null;
  if (seoTitle && seoTitle !== post.seoTitle.trim()) losses.push(L.seoTitleCut(SEO_TITLE_MAX));
  const seoDescription = post.seoDescription ? cutAtWord(post.seoDescription, SEO_DESCRIPTION_MAX) : null;
  if (seoDescription && seoDescription !== post.seoDescription.trim()) losses.push(L.seoDescriptionCut(SEO_DESCRIPTION_MAX));
  const imageAlt = post.imageAlt.trim().length >= IMAGE_ALT_MIN ? post.imageAlt.trim() : title;

  // What the desk would refuse to publish: the post is kept as a draft for an editor to finish.
  const unpublishable: string[] = [];
  if (title.length < TITLE_MIN) unpublishable.push(L.titleShort(TITLE_MIN));
  if (excerpt.length < EXCERPT_MIN) unpublishable.push(L.excerptShort(EXCERPT_MIN));
  if (!post.body.trim()) unpublishable.push(L.bodyEmpty);
  if (!post.image) unpublishable.push(L.noImage);
  else if (imageAlt.length < IMAGE_ALT_MIN) unpublishable.push(L.imageAltShort(IMAGE_ALT_MIN));
  let status = post.status;
  if (status !== "draft" && unpublishable.length > 0) {
    losses.push(L.keptAsDraft(status, unpublishable));
    status = "draft";
  }
  return {
    slug: post.slug,
    title,
    excerpt,
    body: post.body,
    category: categoryFor(post.categorySlug, mapping),
    image: post.image,
    imageAlt,
    seoTitle,
    seoDescription,
    status,
    publishAt: status === "draft" ? null : post.publishedAt,
    contentUpdatedAt: post.modifiedAt ?? post.publishedAt,
    losses,
  };
}

/** WordPress's GMT dates ("2024-03-05 14:00:00"; all zeros for a draft never published). */
export function wordpressDate(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text.trim());
  if (!match || match[1] === "0000") return null;
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}
