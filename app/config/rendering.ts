import { ARTICLE_CATEGORIES } from "./categories";

/**
 * Pages rendered to HTML at build time (articles are added from the content index).
 * /opt-in is prerendered empty; the production server writes the prefill of /opt-in?… into it.
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
  "/opt-in",
  "/sitemap.xml",
  "/robots.txt",
  "/rss.xml",
] as const;

/**
 * Views React Router's prerender cannot write (it keys files by path only): they are rendered
 * after the build by scripts/prerender-views.mjs into build/views/ and served from memory by
 * server/pages.ts. `/` depends on the Host only: one document per variant. Each blog list view
 * is one query string; a paged list adds its pages here.
 */
export const PRERENDERED_VIEWS = [
  { key: "/#home", url: "/", variant: "home" },
  { key: "/#opt-in", url: "/", variant: "opt-in" },
  ...ARTICLE_CATEGORIES.map((category) => ({
    key: `/blog?category=${category.slug}`,
    url: `/blog?category=${category.slug}`,
    variant: "any" as const,
  })),
] as const satisfies readonly { key: string; url: string; variant: "home" | "opt-in" | "any" }[];
