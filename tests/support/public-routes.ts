import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";

/** The seed articles: the browser tests run on a fresh database, which imports them at first start. */
const ARTICLES_DIR = path.join(import.meta.dirname, "../../app/content/seed/articles");

export const ARTICLES = readdirSync(ARTICLES_DIR).map((name) => {
  const { data } = matter(readFileSync(path.join(ARTICLES_DIR, name), "utf8"));
  return data as { slug: string; title: string; featured: boolean; date: string; category: string; author: string };
});

/** Every page of the spec's route table with the headline it must show. */
export const PUBLIC_ROUTES: { path: string; heading: string | RegExp; hydrates: boolean }[] = [
  { path: "/", heading: "Protect Your Wealth. Defend Your Future.", hydrates: true },
  { path: "/home", heading: "Protect Your Wealth. Defend Your Future.", hydrates: true },
  { path: "/opt-in", heading: "Get Breaking Market Alerts by Text", hydrates: true },
  { path: "/about", heading: /^About /, hydrates: false },
  { path: "/blog", heading: "Market Insights", hydrates: false },
  { path: "/contact", heading: "Contact Us", hydrates: true },
  { path: "/privacy", heading: "Privacy Policy", hydrates: false },
  { path: "/terms", heading: "Terms of Service", hydrates: false },
  { path: "/disclaimer", heading: "Disclaimer", hydrates: false },
  { path: "/auth", heading: "Sign In", hydrates: true },
  { path: "/gold", heading: "Get Your Free Retirement Wealth Guide", hydrates: false },
  ...ARTICLES.map((article) => ({ path: `/articles/${article.slug}`, heading: article.title, hydrates: false })),
];
