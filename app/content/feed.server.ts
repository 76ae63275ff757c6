import { createHash } from "node:crypto";
import type { PublicSiteConfig } from "~/config/site";
import { SITE_DESCRIPTION } from "~/config/site";
import { renderMarkdown } from "~/lib/markdown.server";
import { absoluteUrl } from "~/lib/seo";
import { escapeXml } from "~/lib/xml";
import { getDb } from "~/db/database.server";
import { loadRevisionBodies } from "~/services/content/published.server";
import type { PublishedArticle } from "./published";

type FeedArticle = PublishedArticle & { body: string };

/** The feed's few articles with their bodies, read from their live revisions (decision 078). */
export async function withBodies(articles: readonly PublishedArticle[]): Promise<FeedArticle[]> {
  const bodies = await loadRevisionBodies(await getDb(), articles.map((article) => article.revisionId));
  return articles.map((article) => ({ ...article, body: bodies.get(article.revisionId) ?? "" }));
}

/** RFC 822 time of an ISO 8601 one (the article's datePublished). */
function rfc822(isoTime: string) {
  return new Date(isoTime).toUTCString();
}

/** Site-relative addresses in an article's HTML made absolute: a feed reader has no base. */
function absoluteLinks(html: string, site: Pick<PublicSiteConfig, "url">) {
  return html.replace(/\s(src|href|srcset)="\/(?!\/)/g, (_match, attribute: string) => ` ${attribute}="${site.url}/`);
}

type FeedChannel = { title: string; link: string; self: string };

/**
 * Each item's HTML by its body's SHA-256, its sponsored flag and the site settings: a publication
 * renders and sanitizes its own article's body, not the other 19 of each feed again (2-4 ms a
 * body; hashing one is a few microseconds). Bounded: the oldest entry goes first.
 */
const ITEM_HTML_CACHE = 256;
const itemHtmlCache = new Map<string, string>();

function itemHtml(article: FeedArticle, site: PublicSiteConfig, siteKey: string) {
  const key = `${createHash("sha256").update(article.body).digest("base64")}\0${article.sponsored}\0${siteKey}`;
  let html = itemHtmlCache.get(key);
  if (html === undefined) {
    html = absoluteLinks(renderMarkdown(article.body, site, { sponsored: article.sponsored }), site);
    if (itemHtmlCache.size >= ITEM_HTML_CACHE) itemHtmlCache.delete(itemHtmlCache.keys().next().value!);
    itemHtmlCache.set(key, html);
  }
  return html;
}

/**
 * An RSS 2.0 feed of `articles` (already the latest few, newest first) with each article's full
 * HTML in `content:encoded`, the same sanitized HTML its page shows (issue 26).
 */
export function rssFeed(site: PublicSiteConfig, channel: FeedChannel, articles: readonly FeedArticle[]) {
  const siteKey = JSON.stringify(site);
  const items = articles
    .map((article) => {
      const url = absoluteUrl(site, `/articles/${article.slug}`);
      const html = itemHtml(article, site, siteKey);
      return [
        "    <item>",
        `      <title>${escapeXml(article.title)}</title>`,
        `      <link>${escapeXml(url)}</link>`,
        // The slug never changes, so readers never see an article twice.
        `      <guid isPermaLink="false">${escapeXml(`${site.url}/articles/${article.slug}`)}</guid>`,
        `      <description>${escapeXml(article.excerpt)}</description>`,
        `      <content:encoded>${escapeXml(html)}</content:encoded>`,
        `      <category>${escapeXml(article.category)}</category>`,
        `      <dc:creator>${escapeXml(article.author)}</dc:creator>`,
        `      <pubDate>${rfc822(article.publishedAt)}</pubDate>`,
        "    </item>",
      ].join("\n");
    })
    .join("\n");
  const newest = articles[0];
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>${escapeXml(channel.title)}</title>
    <link>${escapeXml(absoluteUrl(site, channel.link))}</link>
    <atom:link href="${escapeXml(absoluteUrl(site, channel.self))}" rel="self" type="application/rss+xml" />
    <description>${escapeXml(SITE_DESCRIPTION)}</description>
    <language>en-us</language>
${newest ? `    <lastBuildDate>${rfc822(newest.publishedAt)}</lastBuildDate>\n` : ""}${items}
  </channel>
</rss>
`;
}

export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";
