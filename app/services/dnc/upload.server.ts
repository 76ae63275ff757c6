import { createReadStream } from "node:fs";
import { open as openFile, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { and, eq, lt, sql } from "drizzle-orm";
import yauzl from "yauzl";
import type { Db } from "~/db/client.server";
import { auditLog, dncImports, dncUploadRows, dncUploads } from "~/db/schema";
import { forgetDncDataDate } from "./dnc.server";
import { parseDncLine } from "./import.server";

/** The registry's files run to hundreds of MB; more than this is not a registry download. */
export const DNC_UPLOAD_MAX_BYTES = 1024 ** 3;
/** Staged per statement: each holds the (embedded) database's one session for a moment only. */
export const DNC_UPLOAD_CHUNK = 2_000;
/** An upload whose progress has not moved for this long was cut off by a restart. */
const STALE_AFTER_SECONDS = 120;
const BAD_LINE_SAMPLES = 50;

export type DncUpload = typeof dncUploads.$inferSelect;

export class DncUploadError extends Error {
  override name = "DncUploadError";
}

/** Records a new upload (its file is on disk) and clears what uploads cut off by a restart left. */
export async function createDncUpload(
  db: Db,
  input: { fileName: string; mode: "add" | "remove"; dataDate: string; bytesTotal: number; actor: string },
): Promise<number> {
  await db
    .update(dncUploads)
    .set({ state: "failed", error: "The server stopped before the import finished. Nothing was changed.", updatedAt: sql`now()` })
    .where(and(eq(dncUploads.state, "importing"), lt(dncUploads.updatedAt, sql`now() - make_interval(secs => ${STALE_AFTER_SECONDS})`)));
  await db.execute(sql`DELETE FROM dnc_upload_rows r USING dnc_uploads u WHERE u.id = r.upload_id AND u.state = 'failed'`);
  const [row] = await db.insert(dncUploads).values(input).returning({ id: dncUploads.id });
  return row!.id;
}

export async function getDncUpload(db: Db, id: number): Promise<DncUpload | null> {
  const [row] = await db.select().from(dncUploads).where(eq(dncUploads.id, id));
  if (!row) return null;
  const stale = row.state === "importing" && Date.now() - row.updatedAt.getTime() > STALE_AFTER_SECONDS * 1000;
  return stale ? { ...row, state: "failed", error: "The server stopped before the import finished. Nothing was changed." } : row;
}

type LineSource = { lines: AsyncIterable<string>; bytesRead: () => number; bytesTotal: number; close: () => void };

async function isZip(filePath: string) {
  const handle = await openFile(filePath, "r");
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  } finally {
    await handle.close();
  }
}

function countingLines(stream: Readable, counter: { bytes: number }): AsyncIterable<string> {
  stream.on("data", (chunk: Buffer) => (counter.bytes += chunk.length));
  // The iterator buffers lines from now on; one made at the first `for await` would miss the
  // lines read while the caller was still waiting for the database.
  return createInterface({ input: stream, crlfDelay: Infinity })[Symbol.asyncIterator]();
}

function textSource(filePath: string, size: number): LineSource {
  const counter = { bytes: 0 };
  const stream = createReadStream(filePath);
  return { lines: countingLines(stream, counter), bytesRead: () => counter.bytes, bytesTotal: size, close: () => stream.destroy() };
}

/** Every file in the archive (a registry download may hold one or several), read as it unpacks. */
async function zipSource(filePath: string): Promise<LineSource> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    // Open until every entry has been read (the entries are listed first, then read).
    yauzl.open(filePath, { lazyEntries: true, autoClose: false }, (error, file) => (error ? reject(new DncUploadError(`This is not a readable .zip file (${error.message}).`)) : resolve(file))),
  );
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith("/")) entries.push(entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve());
    zip.once("error", (error: Error) => reject(new DncUploadError(`This .zip file is damaged (${error.message}).`)));
    zip.readEntry();
  });
  if (entries.length === 0) {
    zip.close();
    throw new DncUploadError("The .zip file holds no file.");
  }
  const counter = { bytes: 0 };
  let current: Readable | undefined;
  async function* lines() {
    try {
      for (const entry of entries) {
        current = await new Promise<Readable>((resolve, reject) =>
          zip.openReadStream(entry, (error, stream) => (error ? reject(new DncUploadError(`${entry.fileName} in the .zip file cannot be read (${error.message}).`)) : resolve(stream))),
        );
        yield* countingLines(current, counter);
      }
    } finally {
      zip.close();
    }
  }
  return {
    lines: lines(),
    bytesRead: () => counter.bytes,
    bytesTotal: entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0),
    close: () => {
      current?.destroy();
      zip.close();
    },
  };
}

async function stageChunk(db: Db, uploadId: number, numbers: string[]) {
  // One array parameter (digits only), not thousands of parameters.
  await db.execute(sql`INSERT INTO dnc_upload_rows (upload_id, phone) SELECT ${uploadId}, unnest(${`{${numbers.join(",")}}`}::text[])`);
}

/**
 * Moves staged numbers into the list (or, for deletions, out of it): all of them, or up to
 * `limit` in one statement that also counts them on the upload, so a chunk is applied and counted
 * together or not at all. Returns how many numbers of the list changed.
 */
async function applyStaged(db: Db, uploadId: number, mode: "add" | "remove", limit: number | null) {
  const batch = limit
    ? sql`DELETE FROM dnc_upload_rows WHERE ctid IN (SELECT ctid FROM dnc_upload_rows WHERE upload_id = ${uploadId} LIMIT ${limit}) RETURNING phone`
    : sql`SELECT phone FROM dnc_upload_rows WHERE upload_id = ${uploadId}`;
  const change =
    mode === "add"
      ? sql`INSERT INTO dnc_numbers (phone, source) SELECT DISTINCT phone, 'federal' FROM batch ON CONFLICT DO NOTHING RETURNING 1`
      : sql`DELETE FROM dnc_numbers WHERE source = 'federal' AND phone IN (SELECT phone FROM batch) RETURNING 1`;
  const result = await db.execute<{ moved: number; changed: number }>(sql`
    WITH batch AS (${batch}),
      changed AS (${change}),
      counted AS (
        UPDATE dnc_uploads SET changed = changed + (SELECT count(*) FROM changed), updated_at = now()
        WHERE id = ${uploadId} AND ${limit !== null} RETURNING 1)
    SELECT (SELECT count(*) FROM batch)::int AS moved, (SELECT count(*) FROM changed)::int AS changed, (SELECT count(*) FROM counted)::int AS counted`);
  return limit ? Number(result.rows[0]?.moved ?? 0) : Number(result.rows[0]?.changed ?? 0);
}

/** The import record and audit entry of a finished upload, once (an upload already done is left alone). */
async function recordDone(db: Db, uploadId: number) {
  const [upload] = await db
    .update(dncUploads)
    .set({ state: "done", updatedAt: sql`now()` })
    .where(and(eq(dncUploads.id, uploadId), sql`${dncUploads.state} IN ('importing', 'applying')`))
    .returning();
  if (!upload) return;
  const summary = { file: upload.fileName, sha256: upload.sha256, dataDate: upload.dataDate, lines: upload.lines, changed: upload.changed, badLines: upload.badLines };
  await db.insert(dncImports).values({ fileName: upload.fileName, sha256: upload.sha256 ?? "", mode: upload.mode, dataDate: upload.dataDate, lines: upload.lines, changed: upload.changed, badLines: upload.badLines });
  await db.insert(auditLog).values({ actor: upload.actor, action: upload.mode === "add" ? "dnc.upload_add" : "dnc.upload_remove", entity: "dnc_numbers", after: JSON.stringify(summary) });
  await db.delete(dncUploadRows).where(eq(dncUploadRows.uploadId, uploadId));
}

export const DNC_APPLY_CHUNK = 10_000;

/**
 * On the embedded database one transaction over a whole file would hold the site's only session
 * for seconds per million numbers: there the staged numbers are applied chunk by chunk, each chunk
 * one statement, and an upload interrupted in this phase is finished when the server starts again
 * (resumeDncUploads), so a file read whole is always applied whole.
 */
export async function finishApplying(db: Db, uploadId: number) {
  const [upload] = await db.select().from(dncUploads).where(eq(dncUploads.id, uploadId));
  if (!upload || upload.state !== "applying") return;
  while ((await applyStaged(db, uploadId, upload.mode, DNC_APPLY_CHUNK)) > 0);
  await db.transaction(async (tx) => recordDone(tx as unknown as Db, uploadId));
  forgetDncDataDate();
}

/** At start: finishes the uploads a stop interrupted while they were being applied. */
export async function resumeDncUploads(db: Db) {
  const pending = await db.select({ id: dncUploads.id }).from(dncUploads).where(eq(dncUploads.state, "applying"));
  for (const { id } of pending) await finishApplying(db, id);
  return pending.length;
}

/**
 * Reads the uploaded file (plain or .zip) line by line into the staging table, reporting progress
 * on the upload's row, then applies it to the list with its import record and audit entry: in one
 * transaction, or (`applyInChunks`, the embedded database) chunk by chunk, see finishApplying.
 * Any failure while reading marks the upload failed and leaves the list as it was. The file is
 * removed in every case.
 */
export async function runDncUpload(
  db: Db,
  uploadId: number,
  filePath: string,
  sha256: string,
  options: { applyInChunks?: boolean } = {},
): Promise<DncUpload> {
  let source: LineSource | undefined;
  let applying = false;
  try {
    const [upload] = await db.select().from(dncUploads).where(eq(dncUploads.id, uploadId));
    if (!upload) throw new DncUploadError(`Upload ${uploadId} does not exist.`);
    await db.update(dncUploads).set({ sha256 }).where(eq(dncUploads.id, uploadId));
    source = (await isZip(filePath)) ? await zipSource(filePath) : textSource(filePath, upload.bytesTotal);
    await db.update(dncUploads).set({ bytesTotal: source.bytesTotal }).where(eq(dncUploads.id, uploadId));

    let lineNumber = 0;
    let badLines = 0;
    const samples: { line: number; text: string }[] = [];
    let chunk: string[] = [];
    const flush = async () => {
      if (chunk.length > 0) await stageChunk(db, uploadId, chunk);
      chunk = [];
      await db
        .update(dncUploads)
        .set({ bytesRead: source!.bytesRead(), lines: lineNumber, badLines, badLineSamples: samples, updatedAt: sql`now()` })
        .where(eq(dncUploads.id, uploadId));
    };
    for await (const line of source.lines) {
      lineNumber++;
      if (!line.trim()) continue;
      const number = parseDncLine(line);
      if (!number) {
        badLines++;
        if (samples.length < BAD_LINE_SAMPLES) samples.push({ line: lineNumber, text: line.slice(0, 80) });
        continue;
      }
      chunk.push(number);
      if (chunk.length >= DNC_UPLOAD_CHUNK) await flush();
    }
    await flush();
    if (lineNumber === badLines && lineNumber > 0) throw new DncUploadError("No line of this file is a phone number: is it a Do-Not-Call registry file?");

    if (options.applyInChunks) {
      applying = true;
      await db.update(dncUploads).set({ state: "applying", bytesRead: source.bytesTotal, updatedAt: sql`now()` }).where(eq(dncUploads.id, uploadId));
      await finishApplying(db, uploadId);
    } else {
      await db.transaction(async (tx) => {
        const changed = await applyStaged(tx as unknown as Db, uploadId, upload.mode, null);
        await tx.update(dncUploads).set({ changed, bytesRead: source!.bytesTotal }).where(eq(dncUploads.id, uploadId));
        await recordDone(tx as unknown as Db, uploadId);
      });
    }
    forgetDncDataDate();
  } catch (error) {
    source?.close();
    // Past this point the file was read whole: the rest is applied when the server starts again.
    if (applying) throw error;
    const message = error instanceof DncUploadError ? error.message : "The import failed; nothing was changed. The server log has the details.";
    await db.update(dncUploads).set({ state: "failed", error: message, updatedAt: sql`now()` }).where(eq(dncUploads.id, uploadId)).catch(() => {});
    await db.delete(dncUploadRows).where(eq(dncUploadRows.uploadId, uploadId)).catch(() => {});
    if (!(error instanceof DncUploadError)) throw error;
  } finally {
    await rm(filePath, { force: true });
  }
  return (await getDncUpload(db, uploadId))!;
}
