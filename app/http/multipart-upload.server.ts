import { createHash, randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";

export type ReceivedFile = { path: string; name: string; bytes: number; sha256: string };
/** `file` is the (first) file field's; `files` has every file field's received file by name. */
export type Received = { fields: Record<string, string>; file: ReceivedFile | null; files: Record<string, ReceivedFile> };

/** One file field and its limit, or several (a form with an export and an archive beside it). */
export type MultipartOptions = { dir: string } & ({ maxBytes: number; fileField: string } | { fileFields: Record<string, number> });

export class UploadError extends Error {
  override name = "UploadError";
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** Room for the short fields and the part headers beside the file in a multipart body. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const tooLarge = (maxBytes: number) => new UploadError(413, `The file is larger than ${Math.round(maxBytes / 1024 ** 2)} MB.`);

/**
 * Streams a multipart/form-data body to disk: each file goes straight to a new file in `dir`
 * (hashed on the way), never into memory; the short text fields are collected. A body cut off in
 * the middle, or a file over its field's limit, leaves no file behind.
 */
export async function receiveMultipart(request: Request, options: MultipartOptions): Promise<Received> {
  const limits: Record<string, number> = "fileFields" in options ? options.fileFields : { [options.fileField]: options.maxBytes };
  const names = Object.keys(limits);
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new UploadError(415, "Send the file as multipart/form-data (the page’s upload form).");
  if (!request.body) throw new UploadError(400, "The upload is empty.");
  // Refused before a byte is read: the server then closes the connection instead of reading it all.
  const allFiles = names.reduce((sum, name) => sum + limits[name]!, 0);
  if (Number(request.headers.get("content-length")) > allFiles + MULTIPART_OVERHEAD_BYTES) throw tooLarge(allFiles);
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });

  let parser: busboy.Busboy;
  try {
    // busboy's one size limit holds for every file: the largest, each field's own is counted below.
    parser = busboy({ headers: { "content-type": type }, limits: { files: names.length, fields: 10, fieldSize: 1024, fileSize: Math.max(...names.map((name) => limits[name]!)), parts: 11 + names.length } });
  } catch (error) {
    throw new UploadError(400, `The upload cannot be read: ${(error as Error).message}.`);
  }
  const fields: Record<string, string> = {};
  const files: Record<string, ReceivedFile> = {};
  const writing: Promise<void>[] = [];
  const targets: string[] = [];
  const started = new Set<string>();
  // Set inside the parser's callbacks (TypeScript cannot see those assignments).
  let failure = null as UploadError | null;

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) failure ??= new UploadError(400, `The field ${name} is too long.`);
    else fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    const maxBytes = limits[name];
    if (maxBytes === undefined || started.has(name)) {
      stream.resume();
      return;
    }
    started.add(name);
    const target = path.join(options.dir, `upload-${randomUUID()}`);
    targets.push(target);
    const hash = createHash("sha256");
    let bytes = 0;
    const counting = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        // Past this field's limit the rest is read and dropped (the body must be read to its end).
        if (bytes > maxBytes) {
          failure ??= tooLarge(maxBytes);
          return callback();
        }
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    stream.on("limit", () => {
      failure ??= tooLarge(maxBytes);
    });
    writing.push(
      pipeline(stream, counting, createWriteStream(target, { mode: 0o600 })).then(() => {
        files[name] = { path: target, name: path.basename(info.filename ?? "upload").slice(0, 200) || "upload", bytes, sha256: hash.digest("hex") };
      }),
    );
  });
  parser.on("partsLimit", () => (failure ??= new UploadError(400, "The upload has too many parts.")));
  parser.on("filesLimit", () => (failure ??= new UploadError(400, names.length === 1 ? "Upload one file at a time." : `Upload at most ${names.length} files.`)));

  const removeAll = () => Promise.all(targets.map((target) => rm(target, { force: true })));
  try {
    await pipeline(Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>), parser);
    await Promise.all(writing);
  } catch (error) {
    await Promise.allSettled(writing);
    await removeAll();
    if (error instanceof UploadError) throw error;
    throw new UploadError(400, `The upload was cut off or malformed (${(error as Error).message}).`);
  }
  if (failure) {
    await removeAll();
    throw failure;
  }
  return { fields, file: files[names[0]!] ?? null, files };
}
