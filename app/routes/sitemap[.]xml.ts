import { listPublicPages } from "~/content/site-map.server";
import { ensurePublishedContent } from "~/content/published-content.server";
import { getPublicSiteConfig } from "~/http/site.server";
import { absoluteUrl } from "~/lib/seo";
import { escapeXml } from "~/lib/xml";

export async function loader() {
  await ensurePublishedContent();
  const site = getPublicSiteConfig();
  const urls = listPublicPages()
    .map(
      (page) =>
        `  <url><loc>${escapeXml(absoluteUrl(site, page.path))}</loc>${page.lastmod ? `<lastmod>${page.lastmod}</lastmod>` : ""}<changefreq>${page.changefreq}</changefreq></url>`,
    )
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
