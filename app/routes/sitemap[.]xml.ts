import { listPublicPages, sitemapChunks, sitemapIndexXml, urlsetXml } from "~/content/site-map.server";
import { ensurePublishedContent } from "~/content/published-content.server";
import { getPublicSiteConfig } from "~/http/site.server";
import { absoluteUrl } from "~/lib/seo";

/**
 * Every public page; past the protocol's 50,000 URLs, an index of child sitemaps
 * (`/sitemaps/<n>.xml`, each with its newest lastmod).
 */
export async function loader() {
  await ensurePublishedContent();
  const site = getPublicSiteConfig();
  const absolute = (path: string) => absoluteUrl(site, path);
  const chunks = sitemapChunks(listPublicPages());
  const xml = chunks.length <= 1 ? urlsetXml(chunks[0]?.entries ?? [], absolute) : sitemapIndexXml(chunks, absolute);
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
