import { getDb } from "~/db/database.server";
import { MEDIA_CONTENT_TYPES, parseMediaFilePath } from "~/lib/media-image";
import { getImageFile } from "~/services/content/media.server";

/** Uploaded files kept in memory per process, least recently used dropped first. */
export const MEDIA_CACHE_MAX_BYTES = 64 * 1024 ** 2;
export const MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";

type Cached = { bytes: Buffer; contentType: string; etag: string };

/** A Map iterates in insertion order: re-inserting on use makes its first key the least recent. */
export class MediaCache {
  private entries = new Map<string, Cached>();
  private size = 0;
  constructor(private readonly maxBytes: number) {}

  get(key: string) {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: Cached) {
    if (entry.bytes.length > this.maxBytes || this.entries.has(key)) return;
    this.entries.set(key, entry);
    this.size += entry.bytes.length;
    for (const [oldest, old] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= old.bytes.length;
    }
  }

  get bytes() {
    return this.size;
  }
}

const cache: MediaCache = ((globalThis as { __mediaCache?: MediaCache }).__mediaCache ??= new MediaCache(MEDIA_CACHE_MAX_BYTES));

export type MediaFileAnswer =
  | { status: 200; headers: Record<string, string>; body: Buffer }
  | { status: 304; headers: Record<string, string> }
  | { status: 404 | 405; headers: Record<string, string>; body: string };

/**
 * GET /media/<id>/<width>.<avif|webp|jpg>: from memory, else from the database (then kept). A file
 * never changes (a new upload is a new id), so browsers and CDNs keep it for a year.
 */
export async function answerMediaFile(method: string, path: string, ifNoneMatch: string | undefined, load = loadFromDatabase): Promise<MediaFileAnswer> {
  if (method !== "GET" && method !== "HEAD") return { status: 405, headers: { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }, body: "Method not allowed\n" };
  const file = parseMediaFilePath(path);
  const notFound = { status: 404 as const, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }, body: "Not found\n" };
  if (!file) return notFound;
  const key = `${file.id}/${file.width}/${file.format}`;
  let entry = cache.get(key);
  if (!entry) {
    const bytes = await load(file.id, file.width, file.format);
    if (!bytes) return notFound;
    entry = { bytes, contentType: MEDIA_CONTENT_TYPES[file.format], etag: `"${file.id}-${file.width}-${file.format}"` };
    cache.set(key, entry);
  }
  const headers = { "Content-Type": entry.contentType, "Cache-Control": MEDIA_CACHE_CONTROL, ETag: entry.etag };
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim() === entry.etag || tag.trim() === "*")) return { status: 304, headers };
  return { status: 200, headers: { ...headers, "Content-Length": String(entry.bytes.length) }, body: entry.bytes };
}

async function loadFromDatabase(id: string, width: number, format: Parameters<typeof getImageFile>[3]) {
  return getImageFile(await getDb(), id, width, format);
}
