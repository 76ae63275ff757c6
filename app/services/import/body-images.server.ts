import type { Db } from "~/db/client.server";
import { IMPORT_LOSSES as L } from "~/lib/import-texts";
import { bringImage, type ImageSourceOptions } from "./images.server";

/** A Markdown image as the body converter writes it: ![alt](address "title"). */
const MARKDOWN_IMAGE = /!\[([^\]]*)\]\((\S+?)(\s+"[^"]*")?\)/g;

/**
 * Every image of a converted body moved here (decision 159): its address becomes the stored
 * copy's; an image that cannot be had is left out of the body and named in `losses`, so the page
 * never shows a broken picture or loads one from the old site.
 */
export async function bringBodyImages(db: Db, markdown: string, options: ImageSourceOptions, losses: string[]): Promise<string> {
  const found = [...markdown.matchAll(MARKDOWN_IMAGE)];
  if (found.length === 0) return markdown;
  const stored = new Map<string, string | null>();
  for (const match of found) {
    const address = match[2]!;
    if (stored.has(address) || address.startsWith("/media/") || address.startsWith("/images/")) continue;
    const brought = await bringImage(db, address, match[1] ?? "", options);
    stored.set(address, brought.ok ? brought.src : null);
    if (!brought.ok) losses.push(L.imageNotHad(address, brought.reason));
  }
  return markdown.replace(MARKDOWN_IMAGE, (whole, alt: string, address: string, title: string | undefined) => {
    if (!stored.has(address)) return whole;
    const src = stored.get(address);
    return src ? `![${alt}](${src}${title ?? ""})` : "";
  });
}
