import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { importItems, mediaAssets } from "~/db/schema";
import { IMAGE_FAILURES as F } from "~/lib/import-texts";
import { ALT_MIN, mediaReference } from "~/lib/media-image";
import { MEDIA_UPLOAD_MAX_BYTES, storeImage } from "~/services/content/media.server";
import type { UploadsSource } from "./uploads-source.server";

/**
 * Images of an imported site moved here, never hot-linked (decision 159): each old address is
 * taken from the uploads the operator gave (WordPress's `wp-content/uploads`, Ghost's
 * `content/images`, as a folder or a .zip) or fetched from the old site, then stored like an
 * upload from the desk (the same checks, sizes and formats, `storeImage`). An address is stored once per source: a second
 * run, or a second post with the same image, reuses it.
 */

export type ImageSourceOptions = {
  /** The import's source key ("wordpress:https://old.example.com"). */
  source: string;
  runId: number;
  /** Hosts images may be fetched from: the old site's own (an export names any address it likes). */
  allowedHosts: readonly string[];
  /** A local copy of the old site's uploads, and the path under which the old site served it. */
  uploads?: { files: UploadsSource; urlPath: string };
  fetchTimeoutMs?: number;
  actor: string;
};

export type BroughtImage = { ok: true; src: string; alt: string } | { ok: false; reason: string };

const MAX_REDIRECTS = 3;

/** An address of a file a site uploaded (WordPress's uploads, Ghost's images, or an image by its extension). */
export function isUploadedFile(address: string) {
  return /\/(wp-content\/uploads|content\/images)\//.test(address) || /\.(jpe?g|png|gif|webp|avif|svg|pdf|mp4|mp3)([?#]|$)/i.test(address);
}

/** An image's old address without its query or fragment (the same file whatever the cache-buster). */
export function imageKey(url: string) {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host.toLowerCase()}${parsed.pathname}`;
  } catch {
    return url;
  }
}

/** The path of an old address under the uploads (`2024/03/bar.jpg`), or null when it is not under them. */
function pathInUploads(url: URL, urlPath: string) {
  const prefix = urlPath.replace(/\/?$/, "/");
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  // "../" in an address reaches nothing: the uploads source refuses such a path.
  return pathname.startsWith(prefix) ? pathname.slice(prefix.length) : null;
}

async function fetchBytes(url: URL, options: ImageSourceOptions): Promise<{ ok: true; bytes: Buffer } | { ok: false; reason: string }> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (current.protocol !== "http:" && current.protocol !== "https:") return { ok: false, reason: F.notHttp };
    if (!options.allowedHosts.includes(current.hostname.toLowerCase())) return { ok: false, reason: F.notAllowedHost };
    let response: Response;
    try {
      response = await fetch(current, { redirect: "manual", signal: AbortSignal.timeout(options.fetchTimeoutMs ?? 20_000) });
    } catch (error) {
      const name = (error as Error).name;
      return { ok: false, reason: name === "TimeoutError" || name === "AbortError" ? F.timeout : F.unreachable((error as Error).message) };
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      current = new URL(location, current);
      continue;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return { ok: false, reason: F.status(response.status) };
    }
    const declared = Number(response.headers.get("content-length") ?? 0);
    if (declared > MEDIA_UPLOAD_MAX_BYTES) {
      await response.body.cancel();
      return { ok: false, reason: F.tooLarge(MEDIA_UPLOAD_MAX_BYTES / 1024 ** 2) };
    }
    // Read with a cap: a server that lies about the length is cut off at the limit.
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > MEDIA_UPLOAD_MAX_BYTES) {
          await response.body.cancel().catch(() => {});
          return { ok: false, reason: F.tooLarge(MEDIA_UPLOAD_MAX_BYTES / 1024 ** 2) };
        }
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      const name = (error as Error).name;
      return { ok: false, reason: name === "TimeoutError" || name === "AbortError" ? F.timeout : F.unreachable((error as Error).message) };
    }
    return { ok: true, bytes: Buffer.concat(chunks) };
  }
  return { ok: false, reason: F.unreachable("too many redirects") };
}

/** The stored image of an old address: the one stored before, or fetched (or read) and stored now. */
export async function bringImage(db: Db, oldUrl: string, alt: string, options: ImageSourceOptions): Promise<BroughtImage> {
  const key = imageKey(oldUrl);
  const [known] = await db
    .select({ id: mediaAssets.id, width: mediaAssets.width, height: mediaAssets.height, alt: mediaAssets.alt })
    .from(importItems)
    .innerJoin(mediaAssets, eq(mediaAssets.id, importItems.targetId))
    .where(and(eq(importItems.source, options.source), eq(importItems.kind, "image"), eq(importItems.sourceId, key)));
  if (known) return { ok: true, src: mediaReference(known.id, known.width, known.height), alt: known.alt };

  let url: URL;
  try {
    url = new URL(oldUrl);
  } catch {
    return { ok: false, reason: F.notHttp };
  }
  const local = options.uploads ? pathInUploads(url, options.uploads.urlPath) : null;
  const got = local !== null ? await options.uploads!.files.read(local) : await fetchBytes(url, options);
  if (!got.ok) return got;
  const name = decodeURIComponent(url.pathname.split("/").pop() || "image");
  // The desk asks for a description; an old image without one gets its file name's words.
  const description = alt.trim().length >= ALT_MIN ? alt.trim() : name.replace(/\.[a-z0-9]+$/i, "").replace(/[-_]+/g, " ").trim().padEnd(ALT_MIN, ".");
  const stored = await storeImage(db, { file: got.bytes, originalName: name, alt: description.slice(0, 300), actor: options.actor });
  if (!stored.ok) return { ok: false, reason: stored.code === "too_many_pixels" ? F.tooManyPixels : F.notImage };
  await db
    .insert(importItems)
    .values({ source: options.source, kind: "image", sourceId: key, targetId: stored.asset.id, oldUrl, contentHash: "", runId: options.runId })
    .onConflictDoNothing();
  return { ok: true, src: stored.asset.src, alt: stored.asset.alt };
}
