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
 * The archive's files by name, kept small whatever its entries carry (comments, extra fields): the
 * names' UTF-8 bytes in one buffer, the numbers needed to read an entry in typed arrays, and a hash
 * table of file names (`bar.jpg`) whose buckets chain entries by index. 50,000 files cost about
 * 5 MB, not the 50 MB or so of yauzl's entry objects.
 */
type ZipIndex = {
  count: number;
  nameBytes: Buffer;
  /** Entry i's name is nameBytes[nameStart[i], nameStart[i + 1]). */
  nameStart: Uint32Array;
  offset: Float64Array;
  compressedSize: Uint32Array;
  /** 0xffffffff for anything that large (far past any image's limit). */
  uncompressedSize: Uint32Array;
  method: Uint16Array;
  flags: Uint16Array;
  /** Bucket (a file name's hash) → its last entry; `next` leads to the one before it (-1: none). */
  buckets: Int32Array;
  next: Int32Array;
};

const SLASH = 0x2f;
const TOO_LARGE = 0xffffffff;

/** FNV-1a of a name's last segment. */
function baseNameHash(bytes: Uint8Array, end: number) {
  let start = end;
  while (start > 0 && bytes[start - 1] !== SLASH) start--;
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

function openZipFile(file: string) {
  return new Promise<yauzl.ZipFile>((resolve, reject) =>
    // Strings are decoded here, not by yauzl: one entry with a bad name must not make the whole archive unreadable.
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (error, zip) => (error ? reject(new UploadsError(T.notZip(file, error.message))) : resolve(zip))),
  );
}

function indexZip(zip: yauzl.ZipFile, file: string): Promise<ZipIndex> {
  const capacity = zip.entryCount;
  const buckets = new Int32Array(2 ** Math.max(4, Math.ceil(Math.log2(capacity * 2 + 1)))).fill(-1);
  const nameStart = new Uint32Array(capacity + 1);
  const offset = new Float64Array(capacity);
  const compressedSize = new Uint32Array(capacity);
  const uncompressedSize = new Uint32Array(capacity);
  const method = new Uint16Array(capacity);
  const flags = new Uint16Array(capacity);
  const next = new Int32Array(capacity);
  let names = Buffer.alloc(64 * 1024);
  let used = 0;
  let count = 0;
  return new Promise((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      // Folders, and names no file may have here (absolute, climbing out), are left out.
      if (!name.endsWith("/") && yauzl.validateFileName(name) === null && count < capacity) {
        const bytes = Buffer.from(name, "utf8");
        if (used + bytes.length > names.length) {
          const grown = Buffer.alloc(Math.max(names.length * 2, used + bytes.length));
          names.copy(grown, 0, 0, used);
          names = grown;
        }
        bytes.copy(names, used);
        const i = count++;
        nameStart[i] = used;
        used += bytes.length;
        nameStart[i + 1] = used;
        offset[i] = entry.relativeOffsetOfLocalHeader;
        const large = entry.compressedSize >= TOO_LARGE || entry.uncompressedSize >= TOO_LARGE;
        compressedSize[i] = large ? 0 : entry.compressedSize;
        uncompressedSize[i] = large ? TOO_LARGE : entry.uncompressedSize;
        method[i] = entry.compressionMethod;
        flags[i] = entry.generalPurposeBitFlag;
        const bucket = baseNameHash(bytes, bytes.length) & (buckets.length - 1);
        next[i] = buckets[bucket]!;
        buckets[bucket] = i;
      }
      zip.readEntry();
    });
    zip.once("end", () => {
      // The names' buffer cut to what it holds (it grew by doubling); the listener, which the open
      // archive keeps, lets the grown one go.
      const nameBytes = Buffer.from(names.subarray(0, used));
      names = Buffer.alloc(0);
      zip.removeAllListeners("entry");
      resolve({ count, nameBytes, nameStart, offset, compressedSize, uncompressedSize, method, flags, buckets, next });
    });
    zip.once("error", (error: Error) => reject(new UploadsError(T.damagedZip(file, error.message))));
    zip.readEntry();
  });
}

/**
 * The entry holding `uploads/<relative path>` whatever the archive's root: `2024/03/bar.jpg`,
 * `uploads/2024/…`, `wp-content/uploads/2024/…` or `images/2024/…` (Ghost). A match ends the name
 * at a `/` boundary; of several, the shortest name (the one nearest the archive's root) wins.
 */
function findInZipIndex(index: ZipIndex, relativePath: string): number {
  const segments = uploadSegments(relativePath);
  if (!segments) return -1;
  const wanted = Buffer.from(segments.join("/"), "utf8");
  const names = index.nameBytes;
  let best = -1;
  let bestLength = Infinity;
  for (let i = index.buckets[baseNameHash(wanted, wanted.length) & (index.buckets.length - 1)]!; i >= 0; i = index.next[i]!) {
    const start = index.nameStart[i]!;
    const end = index.nameStart[i + 1]!;
    const length = end - start;
    if (length < wanted.length || length >= bestLength) continue;
    if (length > wanted.length && names[end - wanted.length - 1] !== SLASH) continue;
    if (names.compare(wanted, 0, wanted.length, end - wanted.length, end) !== 0) continue;
    best = i;
    bestLength = length;
  }
  return best;
}

function entryOf(index: ZipIndex, i: number) {
  // yauzl reads an entry from these fields alone; the rest of its record is not kept.
  return Object.assign(new yauzl.Entry(), {
    fileName: index.nameBytes.toString("utf8", index.nameStart[i]!, index.nameStart[i + 1]!),
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
    if (zip.isOpen) zip.close();
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
