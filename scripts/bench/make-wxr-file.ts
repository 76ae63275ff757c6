import { createWriteStream } from "node:fs";
import { once } from "node:events";

/** The pooled featured images' count and names (bench:import writes the files into an uploads folder). */
export const IMAGE_POOL = 10;
export const poolImageName = (k: number) => `stock-${k}.jpg`;

/**
 * A WordPress export of `posts` posts of about `bodyBytes` each, with authors, categories, an
 * attachment per ten posts and the shortcodes and blocks a real site has, written as a stream
 * (a 600 MB file never sits in memory here either).
 */
export async function makeWxrFile(file: string, posts: number, bodyBytes = 9_000, options: { /** Every post's featured image one of IMAGE_POOL files, as a site with stock pictures has. */ pooledImages?: boolean } = {}) {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  await write(`<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Bench Ledger</title><link>https://old.example.test</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>https://old.example.test</wp:base_site_url><wp:base_blog_url>https://old.example.test</wp:base_blog_url>
`);
  for (let a = 1; a <= 20; a++) {
    await write(`<wp:author><wp:author_id>${a}</wp:author_id><wp:author_login><![CDATA[writer${a}]]></wp:author_login><wp:author_email><![CDATA[writer${a}@example.com]]></wp:author_email><wp:author_display_name><![CDATA[Writer ${a}]]></wp:author_display_name></wp:author>\n`);
  }
  const categories = ["gold", "silver", "bonds", "stocks", "retirement", "economy", "uncategorized"];
  for (const slug of categories) await write(`<wp:category><wp:category_nicename><![CDATA[${slug}]]></wp:category_nicename><wp:cat_name><![CDATA[${slug[0]!.toUpperCase()}${slug.slice(1)}]]></wp:cat_name></wp:category>\n`);
  if (options.pooledImages) {
    for (let k = 0; k < IMAGE_POOL; k++) {
      await write(`<item><title><![CDATA[Stock picture ${k}]]></title><wp:post_id>${800000 + k}</wp:post_id><wp:status><![CDATA[inherit]]></wp:status><wp:post_type><![CDATA[attachment]]></wp:post_type><wp:attachment_url><![CDATA[https://old.example.test/wp-content/uploads/pool/${poolImageName(k)}]]></wp:attachment_url><wp:postmeta><wp:meta_key><![CDATA[_wp_attachment_image_alt]]></wp:meta_key><wp:meta_value><![CDATA[A stock picture of coins and charts, number ${k}]]></wp:meta_value></wp:postmeta></item>\n`);
    }
  }
  const paragraph = "<p>Sound money, honest markets and the saver’s long view: a paragraph of an article about gold, bonds and retirement, with a <a href=\"https://old.example.test/2020/01/01/older-post/\">link to an older post</a> and <strong>some emphasis</strong>.</p>\n";
  for (let i = 1; i <= posts; i++) {
    const day = String((i % 28) + 1).padStart(2, "0");
    const month = String((i % 12) + 1).padStart(2, "0");
    const year = 2010 + (i % 16);
    const slug = `bench-post-${i}`;
    let body = `<!-- wp:paragraph -->\n${paragraph}<!-- /wp:paragraph -->\n`;
    if (i % 5 === 0) body += `[caption id="attachment_${i}" width="800"]<img src="https://old.example.test/wp-content/uploads/${year}/${month}/img-${i}.jpg" alt="Chart ${i}" /> Chart ${i}.[/caption]\n`;
    if (i % 50 === 0) body += `[gallery ids="${i},${i + 1}"]\n`;
    while (body.length < bodyBytes) body += paragraph;
    await write(`<item><title><![CDATA[Bench Post Number ${i} About Sound Money]]></title><link>https://old.example.test/${year}/${month}/${day}/${slug}/</link><dc:creator><![CDATA[writer${(i % 20) + 1}]]></dc:creator><guid isPermaLink="false">https://old.example.test/?p=${i + 1000}</guid>
<content:encoded><![CDATA[${body}]]></content:encoded><excerpt:encoded><![CDATA[A short excerpt of post ${i}, on sound money and the saver’s long view.]]></excerpt:encoded>
<wp:post_id>${i + 1000}</wp:post_id><wp:post_date_gmt><![CDATA[${year}-${month}-${day} 12:00:00]]></wp:post_date_gmt><wp:post_modified_gmt><![CDATA[${year}-${month}-${day} 13:00:00]]></wp:post_modified_gmt><wp:post_name><![CDATA[${slug}]]></wp:post_name><wp:status><![CDATA[${i % 40 === 0 ? "draft" : "publish"}]]></wp:status><wp:post_type><![CDATA[post]]></wp:post_type>
<category domain="category" nicename="${categories[i % categories.length]}"><![CDATA[${categories[i % categories.length]}]]></category>
<wp:postmeta><wp:meta_key><![CDATA[_yoast_wpseo_metadesc]]></wp:meta_key><wp:meta_value><![CDATA[Description of post ${i}.]]></wp:meta_value></wp:postmeta>
${options.pooledImages ? `<wp:postmeta><wp:meta_key><![CDATA[_thumbnail_id]]></wp:meta_key><wp:meta_value><![CDATA[${800000 + (i % IMAGE_POOL)}]]></wp:meta_value></wp:postmeta>` : i % 10 === 0 ? `<wp:postmeta><wp:meta_key><![CDATA[_thumbnail_id]]></wp:meta_key><wp:meta_value><![CDATA[${900000 + i}]]></wp:meta_value></wp:postmeta>` : ""}</item>
`);
    if (i % 10 === 0) {
      await write(`<item><title><![CDATA[img-${i}]]></title><wp:post_id>${900000 + i}</wp:post_id><wp:status><![CDATA[inherit]]></wp:status><wp:post_parent>${i + 1000}</wp:post_parent><wp:post_type><![CDATA[attachment]]></wp:post_type><wp:attachment_url><![CDATA[https://old.example.test/wp-content/uploads/${year}/${month}/img-${i}.jpg]]></wp:attachment_url></item>\n`);
    }
  }
  await write("</channel>\n</rss>\n");
  out.end();
  await once(out, "finish");
}
