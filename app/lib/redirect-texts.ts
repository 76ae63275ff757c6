/** The words of old addresses answering 301 (decision 160): refusals, the admin page, its notices. */
export const REDIRECT_REFUSALS = {
  empty: "Enter the old address: a path such as /2019/05/my-post/ or the old page’s full URL.",
  tooLong: "The old address can be at most 2,000 characters.",
  badEncoding: "The old address has a broken %-escape; copy it again from the old site.",
  notAPath: "The old address must be a path that starts with / (or a full http:// or https:// URL).",
  home: "The home page (/) cannot be redirected; only an old query such as /?p=123 on it can.",
  ownPage: (path: string) => `${path} is an address of this site’s own pages, so it cannot be redirected.`,
  targetEmpty: "Enter where the old address goes: a path of this site such as /articles/my-post.",
  targetTooLong: "The new address can be at most 2,000 characters.",
  targetNotHere: "The new address must be a path of this site that starts with a single / (no http://, no other site).",
  targetIsSource: (target: string) => `${target} is itself an old address that redirects: point to where it goes instead, so readers are not sent on twice.`,
  sourceIsTarget: (path: string) => `Another old address redirects to ${path}: redirecting it too would send readers on twice. Change that one first.`,
  selfLoop: "The old and the new address are the same.",
  duplicate: "This old address appears twice with different new addresses; the first one was kept.",
} as const;

export const REDIRECT_TEXTS = {
  title: "Redirects",
  description: "Old addresses of the site that send readers on to its pages.",
  intro:
    "An old address (from the site moved in, or a page renamed) answers “moved permanently” and sends readers and search engines to the new one. Imports add them by themselves; add, change or remove one here.",
  searchLabel: "Old or new address contains",
  searchButton: "Search",
  tableCaption: "Redirects, old addresses in order",
  columns: { path: "Old address", target: "Goes to", origin: "Added by", updated: "Changed", actions: "Change" },
  empty: "No redirects match.",
  total: (n: number) => (n === 1 ? "1 redirect" : `${n.toLocaleString("en-US")} redirects`),
  addHeading: "Add a redirect",
  pathLabel: "Old address (path or full URL)",
  pathHint: "For example /2019/05/my-post/, /?p=123 or https://old.example/my-post/",
  targetLabel: "Goes to (a path of this site)",
  targetHint: "For example /articles/my-post",
  addButton: "Add redirect",
  saveButton: "Save",
  deleteButton: "Remove",
  editTargetLabel: (path: string) => `New address for ${path}`,
  exportLink: "Download all as CSV",
  originImport: "import",
  originAdmin: "by hand",
} as const;

export const REDIRECT_NOTICES = {
  saved: { title: "Redirect Saved", description: "The old address now sends readers to the new one.", variant: "success" },
  deleted: { title: "Redirect Removed", description: "The old address no longer redirects.", variant: "success" },
  notFound: { title: "Not Found", description: "That redirect no longer exists; perhaps someone removed it.", variant: "error" },
  refused: (reason: string) => ({ title: "Not Saved", description: reason, variant: "error" as const }),
} as const;
