/**
 * Uploaded images are referenced as `/media/<asset id>/<W>x<H>`: W x H is the largest stored size.
 * Their files are `/media/<asset id>/<width>.<avif|webp|jpg>` at the widths below that do not
 * exceed W, plus W itself. Pure and isomorphic: the upload, the Markdown renderer and
 * <ResponsiveImage> all use these rules.
 */
export const MEDIA_WIDTHS = [480, 800, 1200, 1600] as const;
export const MEDIA_MAX_WIDTH: number = MEDIA_WIDTHS[MEDIA_WIDTHS.length - 1]!;
export const MEDIA_FORMATS = ["avif", "webp", "jpeg"] as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[number];
export const MEDIA_EXTENSIONS: Record<MediaFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };
export const MEDIA_CONTENT_TYPES: Record<MediaFormat, string> = { avif: "image/avif", webp: "image/webp", jpeg: "image/jpeg" };

/** Alt text of an upload: required, in these bounds (characters, trimmed). */
export const ALT_MIN = 5;
export const ALT_MAX = 300;

export type MediaReference = { id: string; width: number; height: number };

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const REFERENCE = new RegExp(`^/media/(${UUID})/([1-9]\\d{0,4})x([1-9]\\d{0,4})$`);
const FILE = new RegExp(`^/media/(${UUID})/([1-9]\\d{0,4})\\.(avif|webp|jpg)$`);

/** The stored width of the largest file for an original this wide (never upscaled). */
export function largestWidth(originalWidth: number) {
  return Math.min(originalWidth, MEDIA_MAX_WIDTH);
}

/** Every stored width, ascending, for a largest width `width` (the upload rule). */
export function srcsetWidths(width: number): number[] {
  return [...MEDIA_WIDTHS.filter((candidate) => candidate < width), width];
}

/** The height of a file `width` wide, keeping the aspect ratio of `largest`. */
export function heightAt(largest: { width: number; height: number }, width: number) {
  return Math.max(1, Math.round((largest.height * width) / largest.width));
}

export function mediaReference(id: string, width: number, height: number) {
  return `/media/${id}/${width}x${height}`;
}

/** `/media/<uuid>/<W>x<H>` as its parts, or null for anything else (including `/images/...`). */
export function parseMediaReference(src: string): MediaReference | null {
  const match = REFERENCE.exec(src);
  if (!match) return null;
  const width = Number(match[2]);
  const height = Number(match[3]);
  if (width > MEDIA_MAX_WIDTH) return null;
  return { id: match[1]!, width, height };
}

/** `/media/<uuid>/<width>.<ext>` as its parts, or null. */
export function parseMediaFilePath(path: string): { id: string; width: number; format: MediaFormat } | null {
  const match = FILE.exec(path);
  if (!match) return null;
  const format = match[3] === "jpg" ? "jpeg" : (match[3] as MediaFormat);
  return { id: match[1]!, width: Number(match[2]), format };
}

export function mediaFileUrl(id: string, width: number, format: MediaFormat) {
  return `/media/${id}/${width}.${MEDIA_EXTENSIONS[format]}`;
}

export function mediaSrcset(reference: MediaReference, format: MediaFormat) {
  return srcsetWidths(reference.width)
    .map((width) => `${mediaFileUrl(reference.id, width, format)} ${width}w`)
    .join(", ");
}

/** What a responsive image renders: one description for React and for the Markdown renderer. */
export type PictureModel = {
  sources: { type: string; srcSet: string }[];
  img: { src: string; srcSet?: string; width?: number; height?: number };
};

export function pictureModel(src: string): PictureModel {
  const reference = parseMediaReference(src);
  if (!reference) return { sources: [], img: { src } };
  return {
    sources: (["avif", "webp"] as const).map((format) => ({ type: MEDIA_CONTENT_TYPES[format], srcSet: mediaSrcset(reference, format) })),
    img: {
      src: mediaFileUrl(reference.id, reference.width, "jpeg"),
      srcSet: mediaSrcset(reference, "jpeg"),
      width: reference.width,
      height: reference.height,
    },
  };
}

/** The `sizes` of an image in an article body (the text column is at most 768 px wide). */
export const ARTICLE_BODY_SIZES = "(min-width: 48rem) 768px, 100vw";
