import { getLatestArticles } from "~/content/index";
import { RSS_CONTENT_TYPE, rssFeed, withBodies } from "~/content/feed.server";
import { ensurePublishedContent } from "~/content/published-content.server";
import { getEnv } from "~/http/env.server";
import { getPublicSiteConfig } from "~/http/site.server";

/** The latest RSS_ITEMS articles (default 20) with full content; older ones are in the archive. */
export async function loader() {
  await ensurePublishedContent();
  const site = getPublicSiteConfig();
  const xml = rssFeed(site, { title: `${site.name} Market Insights`, link: "/blog", self: "/rss.xml" }, await withBodies(getLatestArticles(getEnv().RSS_ITEMS)));
  return new Response(xml, { headers: { "Content-Type": RSS_CONTENT_TYPE } });
}
