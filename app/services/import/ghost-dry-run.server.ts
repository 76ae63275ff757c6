import type { Readable } from "node:stream";
import { htmlToMarkdown } from "./wordpress-body.server";
import { readGhost } from "./ghost-reader.server";
import { emptyDryRun, IMAGE_IN_HTML, type ArticleStatus, type DryRun } from "./wordpress-dry-run.server";

/**
 * What an import of a Ghost export would do (decision 158), in one pass over the file: Ghost
 * writes its tables in name order, so the posts come before the tags, users and the links between
 * them; only ids and counts are held from the posts until those arrive.
 */

type GhostPost = { id?: string; title?: string; slug?: string; type?: string; status?: string; visibility?: string; html?: string | null; lexical?: string | null; mobiledoc?: string | null; feature_image?: string | null; meta_title?: string | null; meta_description?: string | null };

/** Ghost's statuses and visibility as ours: members-only posts stay drafts (publishing them would give them away). */
export function ghostStatusOf(post: Pick<GhostPost, "status" | "visibility">): { status: ArticleStatus; note?: string } | { skip: string } {
  const members = post.visibility && post.visibility !== "public" ? `for ${post.visibility === "paid" || post.visibility === "tiers" ? "paying members" : "members"} in Ghost: imported as a draft, not published` : undefined;
  switch (post.status) {
    case "published":
      return members ? { status: "draft", note: members } : { status: "published" };
    case "scheduled":
      return members ? { status: "draft", note: members } : { status: "scheduled" };
    case "draft":
      return { status: "draft", ...(members ? { note: members } : {}) };
    case "sent":
      return { skip: "sent by e-mail only in Ghost, never on the web" };
    default:
      return { skip: `status "${post.status ?? "none"}" is not one an article can have` };
  }
}

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

export async function dryRunGhost(input: Readable): Promise<DryRun> {
  const run = emptyDryRun();
  const imported = new Set<string>();
  const postsByAuthor = new Map<string, number>();
  const postsByPrimaryTag = new Map<string, number>();
  const primaryTagged = new Set<string>();
  const categories: DryRun["categories"] = [];

  for await (const { table, row } of readGhost(input)) {
    if (table === "posts") {
      const post = row as GhostPost;
      const id = text(post.id);
      const label = text(post.title) || `(untitled post ${id})`;
      const oldUrl = post.slug ? `/${post.slug}/` : "";
      if (post.type === "page") {
        run.lines.push({ item: label, oldUrl, outcome: "skipped", reason: "a Ghost page, not a post: this site’s own pages (about, privacy, terms) take their place" });
        continue;
      }
      const status = ghostStatusOf(post);
      if ("skip" in status) {
        run.lines.push({ item: label, oldUrl, outcome: "skipped", reason: status.skip });
        continue;
      }
      imported.add(id);
      run.articles[status.status] += 1;
      if (oldUrl) run.oldUrls += 1;
      if (status.note) run.lines.push({ item: label, oldUrl, outcome: "converted with loss", reason: status.note });
      if (post.feature_image) run.featuredImages.found += 1;
      if (post.meta_title) run.seo.titles += 1;
      if (post.meta_description) run.seo.descriptions += 1;
      const html = text(post.html);
      if (!html.trim()) {
        const reason = post.lexical || post.mobiledoc ? "the body is only in Ghost’s editor format (no HTML in the export): not converted" : "the body is empty";
        run.lines.push({ item: label, oldUrl, outcome: "converted with loss", reason });
        continue;
      }
      run.imagesInBodies += [...html.matchAll(IMAGE_IN_HTML)].length;
      const losses: string[] = [];
      if (/kg-gallery-card/.test(html)) losses.push("gallery cards converted as their images only");
      htmlToMarkdown(html, losses);
      for (const loss of losses) run.lines.push({ item: label, oldUrl, outcome: "converted with loss", reason: loss });
    } else if (table === "posts_meta") {
      // Ghost 4 and later keep the SEO fields here rather than on the post.
      if (!imported.has(text(row.post_id))) continue;
      if (row.meta_title) run.seo.titles += 1;
      if (row.meta_description) run.seo.descriptions += 1;
    } else if (table === "posts_authors") {
      if (imported.has(text(row.post_id)) && Number(row.sort_order ?? 0) === 0) postsByAuthor.set(text(row.author_id), (postsByAuthor.get(text(row.author_id)) ?? 0) + 1);
    } else if (table === "posts_tags") {
      // The primary tag, the first, is the one that maps to a category.
      const postId = text(row.post_id);
      if (imported.has(postId) && Number(row.sort_order ?? 0) === 0 && !primaryTagged.has(postId)) {
        primaryTagged.add(postId);
        postsByPrimaryTag.set(text(row.tag_id), (postsByPrimaryTag.get(text(row.tag_id)) ?? 0) + 1);
      }
    } else if (table === "settings") {
      if (row.key === "title") run.site.title = text(row.value);
    } else if (table === "tags") {
      const posts = postsByPrimaryTag.get(text(row.id)) ?? 0;
      if (posts > 0) categories.push({ slug: text(row.slug), name: text(row.name), posts });
    } else if (table === "users") {
      run.authors.push({ login: text(row.slug), email: text(row.email), displayName: text(row.name), posts: postsByAuthor.get(text(row.id)) ?? 0 });
    }
  }
  run.categories = categories.sort((a, b) => b.posts - a.posts || a.slug.localeCompare(b.slug));
  // Posts without a tag go to the category the operator picks for the unmapped: listed last.
  const untagged = imported.size - primaryTagged.size;
  if (untagged > 0) run.categories.push({ slug: "", name: "(no primary tag)", posts: untagged });
  return run;
}
