import { csvField } from "~/services/admin/csv-export.server";
import type { DryRunSummary } from "~/db/schema";
import type { DryRun, ReportLine } from "./wordpress-dry-run.server";

/** What the review page shows of a dry run; its lines are kept as rows. */
export function dryRunSummaryOf(run: DryRun): DryRunSummary {
  return {
    site: { title: run.site.title, link: run.site.baseSiteUrl || run.site.link },
    articles: run.articles,
    authors: run.authors,
    categories: run.categories,
    featuredImages: run.featuredImages,
    imagesInBodies: run.imagesInBodies,
    seo: run.seo,
    oldUrls: run.oldUrls,
    lines: run.lines.length,
  };
}

/** The report's lines as a CSV file (formula-safe, like every export of the admin). */
export function reportCsv(lines: readonly { item: string; oldUrl: string; outcome: string; reason: string }[]) {
  const rows = [["Item", "Old URL", "Outcome", "Reason"], ...lines.map((line) => [line.item, line.oldUrl, line.outcome, line.reason])];
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The dry run in words, as the command prints it. */
export function dryRunSummary(run: DryRun): string[] {
  return summaryLines(dryRunSummaryOf(run), run.site.wxrVersion ? `WordPress export, WXR ${run.site.wxrVersion}` : "Ghost export", run.lines);
}

/** The findings in words, for the command and the review page alike. */
export function summaryLines(summary: DryRunSummary, sourceName: string, lines?: readonly ReportLine[]): string[] {
  const total = summary.articles.published + summary.articles.scheduled + summary.articles.draft;
  const counted = lines
    ? `${count(lines.filter((line) => line.outcome === "skipped").length, "item")} skipped; ${count(new Set(lines.filter((line) => line.outcome === "converted with loss").map((line) => `${line.item}\u0000${line.oldUrl}`)).size, "article")} converted with loss (each listed in the report).`
    : `${count(summary.lines, "line")} in the report of what is skipped or converted with loss.`;
  return [
    `${summary.site.title || "(untitled site)"}${summary.site.link ? ` at ${summary.site.link}` : ""} (${sourceName})`,
    `${count(total, "article")} would be imported: ${summary.articles.published.toLocaleString("en-US")} published, ${summary.articles.scheduled.toLocaleString("en-US")} scheduled, ${summary.articles.draft.toLocaleString("en-US")} drafts.`,
    counted,
    `${count(summary.authors.length, "author")}: ${summary.authors.map((author) => `${author.displayName} <${author.email || "no e-mail"}> (${count(author.posts, "post")})`).join(", ")}.`,
    `${count(summary.categories.length, "category", "categories")} to map: ${summary.categories.map((category) => `${category.name} [${category.slug}] (${count(category.posts, "post")})`).join(", ")}.`,
    `Featured images: ${summary.featuredImages.found.toLocaleString("en-US")} in the export, ${summary.featuredImages.missing.toLocaleString("en-US")} missing; ${count(summary.imagesInBodies, "image")} in bodies.`,
    `SEO fields: ${count(summary.seo.titles, "title")}, ${count(summary.seo.descriptions, "description")}.`,
    `${count(summary.oldUrls, "old address", "old addresses")} would answer 301 to the new ones.`,
  ];
}
