/**
 * The words of an import of a WordPress or Ghost site (issue 35): the report's reasons, the
 * command's lines and the admin's. One place, so the command, the page and the CSV say the same.
 */

const list = (items: readonly string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** Why an imported article differs from the old post (the report's "converted with loss"). */
export const IMPORT_LOSSES = {
  excerptFromBody: "no excerpt on the old site: the summary is the body’s opening",
  titleCut: (max: number) => `the title is longer than ${max} characters: cut at the last whole word`,
  seoTitleCut: (max: number) => `the SEO title is longer than ${max} characters: cut at the last whole word`,
  seoDescriptionCut: (max: number) => `the SEO description is longer than ${max} characters: cut at the last whole word`,
  titleShort: (min: number) => `the title is shorter than ${min} characters`,
  excerptShort: (min: number) => `the summary is shorter than ${min} characters`,
  bodyEmpty: "the body is empty",
  noImage: "it has no featured image that could be brought over",
  imageAltShort: (min: number) => `the image’s description is shorter than ${min} characters`,
  keptAsDraft: (status: string, reasons: readonly string[]) => `${status} on the old site, imported as a draft because ${list(reasons)}: an editor can finish and publish it`,
  slugTaken: (wanted: string, given: string) => `the address “${wanted}” is taken by another article here: imported as “${given}”`,
  editedHere: "edited in the desk since it was imported: left as it is (run the import with “overwrite edits” to replace it)",
  deletedHere: "imported before and deleted here since: not brought back",
  imageNotHad: (url: string, why: string) => `image ${url} could not be brought over (${why}): left out`,
  featuredNotHad: (url: string, why: string) => `featured image ${url} could not be brought over (${why})`,
  linkUnresolved: (count: number) => (count === 1 ? "a link to the old site points at no imported post: left as it was" : `${count} links to the old site point at no imported post: left as they were`),
  oldAddressNotKept: (path: string, why: string) => `old address ${path} does not answer 301: ${why}`,
  categoryUnmapped: (slug: string, category: string) => `category “${slug}” has no mapping: filed under ${category}`,
} as const;

/** Why an image could not be had. */
export const IMAGE_FAILURES = {
  notAllowedHost: "its host is not the old site’s",
  notHttp: "not an http or https address",
  tooLarge: (mb: number) => `larger than ${mb} MB`,
  status: (status: number) => `the old site answered ${status}`,
  unreachable: (message: string) => `the old site did not answer: ${message}`,
  timeout: "the old site took too long",
  notImage: "not an image this site can show",
  tooManyPixels: "too many pixels",
  notInUploads: "not in the old site’s uploads given",
  unreadableInZip: (message: string) => `it cannot be read from the .zip of the uploads (${message})`,
} as const;

/** Why the old site’s uploads given (a folder or a .zip) cannot be used at all. */
export const UPLOADS_SOURCE_TEXTS = {
  gone: (location: string) => `The old site’s uploads ${location} are not there (give the folder or the .zip again).`,
  notZip: (location: string, why: string) => `The old site’s uploads ${location} are neither a folder nor a readable .zip file (${why}).`,
  damagedZip: (location: string, why: string) => `The .zip of the old site’s uploads ${location} is damaged (${why}).`,
} as const;

/** What the command and the admin say about a run. */
export const IMPORT_RUN_TEXTS = {
  unmappedCategories: (slugs: readonly string[]) =>
    `These categories of the old site have no category here: ${list(slugs.map((slug) => `“${slug}”`))}. Map each (--category old-slug="Our Category") or name the one for all others (--default-category "Market Analysis").`,
  unknownCategory: (name: string, known: readonly string[]) => `“${name}” is not a category here. The categories are: ${list(known)}.`,
  badMapping: (text: string) => `“${text}” is not a mapping: write it as old-slug="Our Category".`,
  progress: (done: number, total: number) => `${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} posts`,
  finished: (counts: { created: number; updated: number; unchanged: number; keptEdited: number; skipped: number }) =>
    `Done: ${counts.created.toLocaleString("en-US")} created, ${counts.updated.toLocaleString("en-US")} updated, ${counts.unchanged.toLocaleString("en-US")} unchanged, ${counts.keptEdited.toLocaleString("en-US")} edited here and kept, ${counts.skipped.toLocaleString("en-US")} skipped.`,
  failed: (message: string) => `The import stopped: ${message}`,
  resumed: (done: number) => `Going on from post ${(done + 1).toLocaleString("en-US")} (the earlier run of this import was interrupted).`,
  fileGone: (path: string) => `The export file ${path} is no longer there: start the import again with the file.`,
} as const;

/** The admin's import pages (/admin/import and /admin/import/:id). */
export const IMPORT_PAGE_TEXTS = {
  title: "Site import",
  intro: "Move a WordPress or Ghost site in: its posts become articles, its authors authors, its images are stored here and its old addresses answer 301 to the new pages. Nothing is written until you have read the dry run and confirmed the categories.",
  uploadHeading: "Upload an export",
  kindLegend: "The export is from",
  kindWordPress: "WordPress (Tools → Export, an .xml file)",
  kindGhost: "Ghost (Settings → Labs → Export, a .json file)",
  fileLabel: "Export file",
  uploadsLabel: "The old site’s uploads as a .zip (optional)",
  uploadsHint: "A .zip of WordPress’s wp-content/uploads folder or Ghost’s content/images folder, up to 4 GB. The images found in it are not fetched from the old site; without it they are.",
  siteLabel: "The old site’s address (for Ghost, where the export does not say it; optional)",
  upload: "Upload and read",
  notUploaded: "Not Uploaded",
  chooseFile: "Choose the export file to upload.",
  chooseKind: "Choose whether the export is from WordPress or Ghost.",
  uploadsNotZip: "The old site’s uploads must be a .zip file (of wp-content/uploads or content/images); this file is not one that can be read.",
  badSite: "The old site’s address must start with https:// or http:// and have no query (for example https://old-site.example).",
  runsHeading: "Imports",
  noRuns: "No import yet.",
  columns: { file: "File", status: "Status", progress: "Progress", started: "Uploaded" },
  status: {
    uploaded: "Reading the file",
    reviewing: "Waiting for your confirmation",
    queued: "Waiting to start",
    running: "Importing",
    done: "Done",
    failed: "Stopped",
    cancelled: "Cancelled",
  } as Record<string, string>,
  reading: "The file is being read for the dry run. This page shows what the import would do once it is read.",
  refresh: "Refresh",
  dryRunHeading: "What the import would do",
  mappingHeading: "Categories",
  mappingIntro: "Each category of the old site goes to one of ours. Those you leave on “The category below” go to the category chosen below.",
  toDefault: "The category below",
  defaultLabel: "Category for the rest",
  overwriteLabel: "Replace articles edited here since an earlier import of this site",
  start: "Start the import",
  cancel: "Cancel this import",
  notStarted: "Not Started",
  unmapped: (slugs: readonly string[]) => `Choose a category for ${slugs.map((slug) => `“${slug}”`).join(", ")}, or a category for the rest.`,
  wrongState: "This import is not waiting for a confirmation any more.",
  cancelled: "The import was cancelled and its file removed.",
  progressLabel: (done: number, total: number) => `${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} posts written`,
  reportHeading: (count: number) => `Report (${count.toLocaleString("en-US")} ${count === 1 ? "line" : "lines"})`,
  dryRunReportHeading: (count: number) => `What would be skipped or converted with loss (${count.toLocaleString("en-US")} ${count === 1 ? "line" : "lines"})`,
  reportColumns: { item: "Item", oldUrl: "Old address", outcome: "Outcome", reason: "Reason" },
  reportCsv: "Download the whole report (CSV)",
  reportShown: (shown: number, total: number) => `The first ${shown.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} lines; the CSV has them all.`,
  counts: (run: { created: number; updated: number; unchanged: number; keptEdited: number; skipped: number }) =>
    `${run.created.toLocaleString("en-US")} created, ${run.updated.toLocaleString("en-US")} updated, ${run.unchanged.toLocaleString("en-US")} unchanged, ${run.keptEdited.toLocaleString("en-US")} edited here and kept, ${run.skipped.toLocaleString("en-US")} skipped.`,
  notFound: "No such import.",
} as const;
