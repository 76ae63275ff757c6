/**
 * Pages rendered to HTML at build time: the ones that do not show articles. Articles, `/blog`
 * and its categories, `/home`, `/` on the main domains, RSS, the sitemap and the author pages
 * come from the database and are rendered by the server at start and on every change
 * (server/live-pages.ts). /opt-in is prerendered empty; the production server writes the
 * prefill of /opt-in?… into it.
 */
export const PRERENDERED_PATHS = [
  "/about",
  "/contact",
  "/privacy",
  "/terms",
  "/disclaimer",
  "/gold",
  "/opt-in",
  "/robots.txt",
] as const;

/**
 * Views React Router's prerender cannot write (it keys files by path only): they are rendered
 * after the build by scripts/prerender-views.mjs into build/views/ and served from memory by
 * server/pages.ts. `/` depends on the Host only: one document per variant; the home variant
 * (`/#home`) shows articles and is a live page.
 */
export const PRERENDERED_VIEWS = [{ key: "/#opt-in", url: "/", variant: "opt-in" }] as const satisfies readonly { key: string; url: string; variant: "home" | "opt-in" | "any" }[];
