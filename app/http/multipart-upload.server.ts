import { createHash, randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";

export type ReceivedFile = { path: string; name: string; bytes: number; sha256: string };
export type Received = { fields: Record<string, string>; file: ReceivedFile | null };

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
 * Streams a multipart/form-data body to disk: the file goes straight to a new file in `dir`
 * (hashed on the way), never into memory; the short text fields are collected. A body cut off in
 * the middle, or a file over `maxBytes`, leaves no file behind.
 */
export async function receiveMultipart(request: Request, options: { dir: string; maxBytes: number; fileField: string }): Promise<Received> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new UploadError(415, "Send the file as multipart/form-data (the page’s upload form).");
  if (!request.body) throw new UploadError(400, "The upload is empty.");
  // Refused before a byte is read: the server then closes the connection instead of reading it all.
  if (Number(request.headers.get("content-length")) > options.maxBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(options.maxBytes);
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });

  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": type }, limits: { files: 1, fields: 10, fieldSize: 1024, fileSize: options.maxBytes, parts: 12 } });
  } catch (error) {
    throw new UploadError(400, `The upload cannot be read: ${(error as Error).message}.`);
  }
  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  // Set inside the parser's callbacks (TypeScript cannot see those assignments).
  let writing = null as Promise<void> | null;
  let failure = null as UploadError | null;
  const target = path.join(options.dir, `upload-${randomUUID()}`);

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) failure ??= new UploadError(400, `The field ${name} is too long.`);
    else fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    if (name !== options.fileField || file || writing) {
      stream.resume();
      return;
    }
    const hash = createHash("sha256");
    let bytes = 0;
    const counting = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    stream.on("limit", () => {
      failure ??= tooLarge(options.maxBytes);
    });
    writing = pipeline(stream, counting, createWriteStream(target, { mode: 0o600 })).then(() => {
      file = { path: target, name: path.basename(info.filename ?? "upload").slice(0, 200) || "upload", bytes, sha256: hash.digest("hex") };
    });
  });
  parser.on("partsLimit", () => (failure ??= new UploadError(400, "The upload has too many parts.")));
  parser.on("filesLimit", () => (failure ??= new UploadError(400, "Upload one file at a time.")));

  try {
    await pipeline(Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>), parser);
    await writing;
  } catch (error) {
    await writing?.catch(() => {});
    await rm(target, { force: true });
    if (error instanceof UploadError) throw error;
    throw new UploadError(400, `The upload was cut off or malformed (${(error as Error).message}).`);
  }
  if (failure) {
    await rm(target, { force: true });
    throw failure;
  }
  return { fields, file };
}
