import { and, count, desc, eq, sql } from "drizzle-orm";
import sharp, { type Metadata, type Sharp } from "sharp";
import type { Db } from "~/db/client.server";
import { auditLog, mediaAssets, mediaFiles } from "~/db/schema";
import { ALT_MAX, ALT_MIN, largestWidth, MEDIA_FORMATS, mediaReference, srcsetWidths, type MediaFormat } from "~/lib/media-image";

/** An upload larger than this is refused with 413 before it is read further. */
export const MEDIA_UPLOAD_MAX_BYTES = 15 * 1024 ** 2;
/** Decompression bombs: a small file that decodes to a huge picture is refused. */
export const MEDIA_MAX_PIXELS = 50_000_000;
export const MEDIA_PAGE_SIZE = 24;
// Each upload is read once and written nine times from the same pipeline: libvips' cache of
// decoded images never answers a second request, and one thread per encode keeps the native memory
// of a thousand images in an import (or a morning of the desk's uploads) at one image's worth
// (decision 137, issue 35: the import's memory bound).
sharp.cache(false);
sharp.concurrency(1);

/** Formats sharp reads that people upload as photos or graphics (the content decides, not the name). */
const ACCEPTED_INPUT = new Set(["jpeg", "png", "webp", "avif", "heif", "gif", "tiff"]);

const ENCODE: Record<MediaFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 3 }),
  webp: (image) => image.webp({ quality: 75 }),
  jpeg: (image) => image.jpeg({ quality: 80, mozjpeg: true }),
};

export type MediaAsset = { id: string; src: string; alt: string; width: number; height: number };

export type StoreImageResult =
  | { ok: true; asset: MediaAsset; files: number }
  | { ok: false; code: "alt_required" | "alt_too_long" | "not_image" | "too_many_pixels" };

/** The alt text rule, shared by the page's check and the service. */
export function checkAlt(alt: string): "alt_required" | "alt_too_long" | null {
  const trimmed = alt.trim();
  if (trimmed.length < ALT_MIN) return "alt_required";
  if (trimmed.length > ALT_MAX) return "alt_too_long";
  return null;
}

type ResizedFile = { format: MediaFormat; width: number; height: number; bytes: Buffer };

/**
 * Reads an uploaded file (a path or the bytes) and, if it is a real image, turns it upright (EXIF
 * orientation), strips every metadata block (EXIF with GPS, XMP, comments; only the sRGB colour
 * meaning is kept) and writes AVIF, WebP and JPEG at each width of the upload rule, never larger
 * than the original.
 */
export async function resizeImage(input: string | Buffer): Promise<{ ok: true; files: ResizedFile[] } | { ok: false; code: "not_image" | "too_many_pixels" }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, code: "not_image" };
  }
  if (!metadata.format || !ACCEPTED_INPUT.has(metadata.format) || !metadata.width || !metadata.height) return { ok: false, code: "not_image" };
  if (metadata.width * metadata.height > MEDIA_MAX_PIXELS) return { ok: false, code: "too_many_pixels" };
  const upright = (metadata.orientation ?? 1) >= 5 ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height };
  const files: ResizedFile[] = [];
  try {
    const base = sharp(input, { limitInputPixels: MEDIA_MAX_PIXELS, failOn: "error" }).rotate().toColourspace("srgb");
    for (const width of srcsetWidths(largestWidth(upright.width))) {
      const resized = base.clone().resize({ width, withoutEnlargement: true });
      for (const format of MEDIA_FORMATS) {
        const { data, info } = await ENCODE[format](resized.clone()).toBuffer({ resolveWithObject: true });
        files.push({ format, width: info.width, height: info.height, bytes: data });
      }
    }
  } catch {
    // Readable header, broken pixels (a truncated file): not an image we can serve.
    return { ok: false, code: "not_image" };
  }
  return { ok: true, files };
}

/** Resizes and stores an upload: the asset and all its files in one transaction, or nothing. */
export async function storeImage(db: Db, input: { file: string | Buffer; originalName: string; alt: string; actor: string }): Promise<StoreImageResult> {
  const altProblem = checkAlt(input.alt);
  if (altProblem) return { ok: false, code: altProblem };
  const alt = input.alt.trim();
  const resized = await resizeImage(input.file);
  if (!resized.ok) return resized;
  const largest = resized.files.filter((file) => file.format === "jpeg").at(-1)!;
  const asset = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mediaAssets)
      .values({ originalName: input.originalName.slice(0, 200), alt, width: largest.width, height: largest.height, createdBy: input.actor })
      .returning({ id: mediaAssets.id });
    await tx.insert(mediaFiles).values(resized.files.map((file) => ({ assetId: row!.id, ...file })));
    await tx.insert(auditLog).values({ actor: input.actor, action: "media.upload", entity: `media:${row!.id}`, after: JSON.stringify({ name: input.originalName, alt }) });
    return row!;
  });
  return { ok: true, asset: { id: asset.id, src: mediaReference(asset.id, largest.width, largest.height), alt, width: largest.width, height: largest.height }, files: resized.files.length };
}

/** Uploads, newest first, with their references. */
export async function listImages(db: Db, page: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(mediaAssets).orderBy(desc(mediaAssets.createdAt), desc(mediaAssets.id)).limit(MEDIA_PAGE_SIZE).offset((page - 1) * MEDIA_PAGE_SIZE),
    db.select({ n: count() }).from(mediaAssets),
  ]);
  return {
    rows: rows.map((row) => ({ id: row.id, src: mediaReference(row.id, row.width, row.height), alt: row.alt, width: row.width, height: row.height, originalName: row.originalName, createdAt: row.createdAt, createdBy: row.createdBy })),
    total: Number(total?.n ?? 0),
  };
}

/** One stored file, or null. */
export async function getImageFile(db: Db, id: string, width: number, format: MediaFormat): Promise<Buffer | null> {
  const [row] = await db
    .select({ bytes: mediaFiles.bytes })
    .from(mediaFiles)
    .where(and(eq(mediaFiles.assetId, id), eq(mediaFiles.format, format), eq(mediaFiles.width, width)));
  return row?.bytes ?? null;
}

/** Bytes stored for uploads (for the page's footer). */
export async function storedImageBytes(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<string>`coalesce(sum(octet_length(${mediaFiles.bytes})), 0)` }).from(mediaFiles);
  return Number(row?.n ?? 0);
}
