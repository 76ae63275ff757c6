import type { Route } from "./+types/sitemaps.$name";
import { listPublicPages, sitemapChunks, urlsetXml } from "~/content/site-map.server";
import { ensurePublishedContent } from "~/content/published-content.server";
import { getPublicSiteConfig } from "~/http/site.server";
import { absoluteUrl } from "~/lib/seo";

/** `/sitemaps/<n>.xml`: the n-th child of the sitemap index; only while /sitemap.xml is an index. */
export async function loader({ params }: Route.LoaderArgs) {
  await ensurePublishedContent();
  const match = /^([1-9][0-9]{0,4})\.xml$/.exec(params.name);
  const chunks = sitemapChunks(listPublicPages());
  const chunk = match && chunks.length > 1 ? chunks[Number(match[1]) - 1] : undefined;
  if (!chunk) return new Response("Not Found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const site = getPublicSiteConfig();
  return new Response(urlsetXml(chunk.entries, (path) => absoluteUrl(site, path)), { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
