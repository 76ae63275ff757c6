import { getArticles } from "~/content/index";
import { ensurePublishedContent } from "~/content/published-content.server";
import { getPublicSiteConfig } from "~/http/site.server";
import { absoluteUrl } from "~/lib/seo";
import { escapeXml } from "~/lib/xml";
import { SITE_DESCRIPTION } from "~/config/site";

/** RFC 822 time of an ISO 8601 one (the article's datePublished). */
function rfc822(isoTime: string) {
  return new Date(isoTime).toUTCString();
}

export async function loader() {
  await ensurePublishedContent();
  const site = getPublicSiteConfig();
  const articles = getArticles();
  const items = articles.map((article) => {
    const url = absoluteUrl(site, `/articles/${article.slug}`);
    return [
      "    <item>",
      `      <title>${escapeXml(article.title)}</title>`,
      `      <link>${escapeXml(url)}</link>`,
      // The slug never changes, so readers never see an article twice.
      `      <guid isPermaLink="false">${escapeXml(`${site.url}/articles/${article.slug}`)}</guid>`,
      `      <description>${escapeXml(article.excerpt)}</description>`,
      `      <category>${escapeXml(article.category)}</category>`,
      `      <dc:creator>${escapeXml(article.author)}</dc:creator>`,
      `      <pubDate>${rfc822(article.publishedAt)}</pubDate>`,
      "    </item>",
    ].join("\n");
  }).join("\n");
  const newest = articles[0];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${escapeXml(`${site.name} Market Insights`)}</title>
    <link>${escapeXml(`${site.url}/blog`)}</link>
    <atom:link href="${escapeXml(`${site.url}/rss.xml`)}" rel="self" type="application/rss+xml" />
    <description>${escapeXml(SITE_DESCRIPTION)}</description>
    <language>en-us</language>
${newest ? `    <lastBuildDate>${rfc822(newest.publishedAt)}</lastBuildDate>\n` : ""}${items}
  </channel>
</rss>
`;
  return new Response(xml, { headers: { "Content-Type": "application/rss+xml; charset=utf-8" } });
}
