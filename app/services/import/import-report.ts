import { csvField } from "~/services/admin/csv-export.server";
import type { DryRun, ReportLine } from "./wordpress-dry-run.server";

/** The report's lines as a CSV file (formula-safe, like every export of the admin). */
export function reportCsv(lines: readonly ReportLine[]) {
  const rows = [["Item", "Old URL", "Outcome", "Reason"], ...lines.map((line) => [line.item, line.oldUrl, line.outcome, line.reason])];
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The dry run in words, as the command prints it. */
export function dryRunSummary(run: DryRun): string[] {
  const total = run.articles.published + run.articles.scheduled + run.articles.draft;
  const skipped = run.lines.filter((line) => line.outcome === "skipped").length;
  const lossy = new Set(run.lines.filter((line) => line.outcome === "converted with loss").map((line) => `${line.item}\u0000${line.oldUrl}`)).size;
  return [
    run.site.wxrVersion ? `${run.site.title || "(untitled site)"} at ${run.site.baseBlogUrl || run.site.link} (WordPress export, WXR ${run.site.wxrVersion})` : `${run.site.title || "(untitled site)"} (Ghost export)`,
    `${count(total, "article")} would be imported: ${run.articles.published.toLocaleString("en-US")} published, ${run.articles.scheduled.toLocaleString("en-US")} scheduled, ${run.articles.draft.toLocaleString("en-US")} drafts.`,
    `${count(skipped, "item")} skipped; ${count(lossy, "article")} converted with loss (each listed in the report).`,
    `${count(run.authors.length, "author")}: ${run.authors.map((author) => `${author.displayName} <${author.email || "no e-mail"}> (${count(author.posts, "post")})`).join(", ")}.`,
    `${count(run.categories.length, "category", "categories")} to map: ${run.categories.map((category) => `${category.name} [${category.slug}] (${count(category.posts, "post")})`).join(", ")}.`,
    `Featured images: ${run.featuredImages.found.toLocaleString("en-US")} in the export, ${run.featuredImages.missing.toLocaleString("en-US")} missing; ${count(run.imagesInBodies, "image")} in bodies.`,
    `SEO fields: ${count(run.seo.titles, "title")}, ${count(run.seo.descriptions, "description")}.`,
    `${count(run.oldUrls, "old address", "old addresses")} would answer 301 to the new ones.`,
  ];
}
