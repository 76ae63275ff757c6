import { open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import yauzl from "yauzl";
import { IMAGE_FAILURES as F, UPLOADS_SOURCE_TEXTS as T } from "~/lib/import-texts";
import { MEDIA_UPLOAD_MAX_BYTES } from "~/services/content/media.server";

/**
 * The old site's uploads as the operator gave them: WordPress's `wp-content/uploads` or Ghost's
 * `content/images`, as a folder or as a .zip of it (decision 159). One job: the bytes of a file by
 * its path under the uploads (`2024/03/bar.jpg`), within the same limit as an upload from the desk.
 *
 * A .zip is read in place (random access, never unpacked to disk): its central directory is read
 * once into a compact index, then each wanted file is inflated on its own, with a cap.
 */

export type UploadRead = { ok: true; bytes: Buffer } | { ok: false; reason: string };

export type UploadsSource = {
  readonly kind: "folder" | "zip";
  read(relativePath: string): Promise<UploadRead>;
  /** Releases the open archive (a folder holds nothing open). */
  close(): void;
};

/** The uploads given cannot be read at all (no such file, not a .zip, a damaged one). */
export class UploadsError extends Error {
  override name = "UploadsError";
}

const tooLarge = (): UploadRead => ({ ok: false, reason: F.tooLarge(MEDIA_UPLOAD_MAX_BYTES / 1024 ** 2) });
const notThere = (): UploadRead => ({ ok: false, reason: F.notInUploads });

/** The path's segments, or null when it tries to climb out (`..`), is absolute or empty. */
export function uploadSegments(relativePath: string): string[] | null {
  const segments = relativePath.replace(/^\/+/, "").split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === ".." || segment.includes("\\") || segment.includes("\0"))) return null;
  return segments;
}

function folderSource(folder: string): UploadsSource {
  const root = path.resolve(folder);
  return {
    kind: "folder",
    async read(relativePath) {
      const segments = uploadSegments(relativePath);
      if (!segments) return notThere();
      const file = path.resolve(root, ...segments);
      // Belt and braces: nothing outside the folder given, whatever the segments were.
      if (!file.startsWith(`${root}${path.sep}`)) return notThere();
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return notThere();
      if (info.size > MEDIA_UPLOAD_MAX_BYTES) return tooLarge();
      return { ok: true, bytes: await readFile(file) };
    },
    close() {},
  };
}

/**
 * The archive's files by name, kept small: names in one array, the numbers needed to read an
 * entry in typed arrays, and the entries sharing a file name (`bar.jpg`) chained by index, so a
 * 50,000-file archive costs a few MB whatever its entries carry (comments, extra fields).
 */
type ZipIndex = {
  names: string[];
  offset: Float64Array;
  compressedSize: Float64Array;
  uncompressedSize: Float64Array;
  method: Uint16Array;
  flags: Uint16Array;
  /** File name → the last entry of that name; `next` leads to the one before it (-1: none). */
  byBaseName: Map<string, number>;
  next: Int32Array;
};

function openZipFile(file: string) {
  return new Promise<yauzl.ZipFile>((resolve, reject) =>
    // Strings are decoded here, not by yauzl: one entry with a bad name must not make the whole archive unreadable.
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (error, zip) => (error ? reject(new UploadsError(T.notZip(file, error.message))) : resolve(zip))),
  );
}

function indexZip(zip: yauzl.ZipFile, file: string): Promise<ZipIndex> {
  const count = zip.entryCount;
  const index: ZipIndex = {
    names: [],
    offset: new Float64Array(count),
    compressedSize: new Float64Array(count),
    uncompressedSize: new Float64Array(count),
    method: new Uint16Array(count),
    flags: new Uint16Array(count),
    byBaseName: new Map(),
    next: new Int32Array(count),
  };
  return new Promise((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      // Folders, and names no file may have here (absolute, climbing out), are left out.
      if (!name.endsWith("/") && yauzl.validateFileName(name) === null) {
        const i = index.names.length;
        index.names.push(name);
        index.offset[i] = entry.relativeOffsetOfLocalHeader;
        index.compressedSize[i] = entry.compressedSize;
        index.uncompressedSize[i] = entry.uncompressedSize;
        index.method[i] = entry.compressionMethod;
        index.flags[i] = entry.generalPurposeBitFlag;
        const base = name.slice(name.lastIndexOf("/") + 1);
        index.next[i] = index.byBaseName.get(base) ?? -1;
        index.byBaseName.set(base, i);
      }
      zip.readEntry();
    });
    zip.once("end", () => resolve(index));
    zip.once("error", (error: Error) => reject(new UploadsError(T.damagedZip(file, error.message))));
    zip.readEntry();
  });
}

/**
 * The entry holding `uploads/<relative path>` whatever the archive's root: `2024/03/bar.jpg`,
 * `uploads/2024/…`, `wp-content/uploads/2024/…` or `images/2024/…` (Ghost). A match ends the name
 * at a `/` boundary; of several, the shortest name (the one nearest the archive's root) wins.
 */
export function findInZipIndex(index: Pick<ZipIndex, "names" | "byBaseName" | "next">, relativePath: string): number {
  const segments = uploadSegments(relativePath);
  if (!segments) return -1;
  const wanted = segments.join("/");
  let best = -1;
  for (let i = index.byBaseName.get(segments.at(-1)!) ?? -1; i >= 0; i = index.next[i]!) {
    const name = index.names[i]!;
    if (name !== wanted && !name.endsWith(`/${wanted}`)) continue;
    if (best < 0 || name.length < index.names[best]!.length) best = i;
  }
  return best;
}

function entryOf(index: ZipIndex, i: number) {
  // yauzl reads an entry from these fields alone; the rest of its record is not kept.
  return Object.assign(new yauzl.Entry(), {
    fileName: index.names[i]!,
    relativeOffsetOfLocalHeader: index.offset[i]!,
    compressedSize: index.compressedSize[i]!,
    uncompressedSize: index.uncompressedSize[i]!,
    compressionMethod: index.method[i]!,
    generalPurposeBitFlag: index.flags[i]!,
  });
}

async function readCapped(stream: Readable): Promise<UploadRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // A size the archive lied about is cut off at the limit, not read on into memory.
      if (size > MEDIA_UPLOAD_MAX_BYTES) {
        stream.destroy();
        return tooLarge();
      }
      chunks.push(chunk);
    }
  } catch (error) {
    return { ok: false, reason: F.unreadableInZip((error as Error).message) };
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

async function zipSource(file: string): Promise<UploadsSource> {
  const zip = await openZipFile(file);
  let index: ZipIndex;
  try {
    index = await indexZip(zip, file);
  } catch (error) {
    zip.close();
    throw error;
  }
  return {
    kind: "zip",
    async read(relativePath) {
      const i = findInZipIndex(index, relativePath);
      if (i < 0) return notThere();
      if (index.uncompressedSize[i]! > MEDIA_UPLOAD_MAX_BYTES) return tooLarge();
      if (index.flags[i]! & 0x1) return { ok: false, reason: F.unreadableInZip("it is encrypted") };
      let stream: Readable;
      try {
        stream = await zip.openReadStreamPromise(entryOf(index, i));
      } catch (error) {
        return { ok: false, reason: F.unreadableInZip((error as Error).message) };
      }
      return readCapped(stream);
    },
    close() {
      if (zip.isOpen) zip.close();
    },
  };
}

/** A .zip by its first bytes (a local file header, or the end record of an empty archive). */
async function looksLikeZip(file: string) {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) || head.equals(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  } finally {
    await handle.close();
  }
}

/**
 * The uploads at `location`: a folder as it is, a file as a .zip (indexed now, so a file that is no
 * archive is refused before the first image). Close it when the run ends.
 */
export async function openUploads(location: string): Promise<UploadsSource> {
  const info = await stat(location).catch(() => null);
  if (!info) throw new UploadsError(T.gone(location));
  if (info.isDirectory()) return folderSource(location);
  if (!info.isFile() || !(await looksLikeZip(location))) throw new UploadsError(T.notZip(location, "it does not start as a .zip file does"));
  return zipSource(location);
}
