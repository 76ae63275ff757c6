/**
 * Pages rendered to HTML at build time (articles are added from the content index).
 * Request-dependent pages (/ by host, /opt-in prefill, /blog?category=, /auth, /admin) stay on SSR;
 * the production server answers the prerendered files only for requests without a query string.
 */
export const PRERENDERED_PATHS = [
  "/home",
  "/about",
  "/blog",
  "/contact",
  "/privacy",
  "/terms",
  "/disclaimer",
  "/gold",
  "/sitemap.xml",
  "/robots.txt",
  "/rss.xml",
] as const;
