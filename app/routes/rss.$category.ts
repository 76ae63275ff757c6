import type { Route } from "./+types/rss.$category";
import { categoryBySlug } from "~/config/categories";
import { getArticlesInCategory } from "~/content/index";
import { RSS_CONTENT_TYPE, rssFeed, withBodies } from "~/content/feed.server";
import { ensurePublishedContent } from "~/content/published-content.server";
import { getEnv } from "~/http/env.server";
import { getPublicSiteConfig } from "~/http/site.server";

/** `/rss/<category>.xml`: the latest RSS_ITEMS articles of one category, linked from its page. */
export async function loader({ params }: Route.LoaderArgs) {
  await ensurePublishedContent();
  const slug = params.category.endsWith(".xml") ? params.category.slice(0, -".xml".length) : null;
  const category = categoryBySlug(slug);
  if (!category) return new Response("Not Found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const site = getPublicSiteConfig();
  const articles = getArticlesInCategory(category.slug).slice(0, getEnv().RSS_ITEMS);
  const xml = rssFeed(site, { title: `${site.name}: ${category.name}`, link: `/blog?category=${category.slug}`, self: `/rss/${category.slug}.xml` }, await withBodies(articles));
  return new Response(xml, { headers: { "Content-Type": RSS_CONTENT_TYPE } });
}
