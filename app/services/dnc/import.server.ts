import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, dncImports } from "~/db/schema";
import { forgetDncDataDate } from "./dnc.server";

export const DNC_CHUNK_SIZE = 10_000;
/**
 * Beside a running server on the embedded database every chunk holds the site's one database
 * session while it runs: smaller chunks keep page answers short (docs/benchmarks.md).
 */
export const DNC_SHARED_SESSION_CHUNK_SIZE = 2_000;

export type DncImportProgress = { lines: number; changed: number; badLines: number; elapsedMs: number };

export type DncImportResult = DncImportProgress & {
  /** The first bad lines, with their line numbers (all are counted). */
  badLineSamples: { line: number; text: string }[];
  dataDate: string;
  sha256: string;
};

/**
 * A registry line as 10 digits, or null. The registry's flat files hold "212,4567890" (area code,
 * number) or one number per line; a leading 1 is allowed.
 */
export function parseDncLine(line: string): string | null {
  const trimmed = line.trim();
  if (!/^[\d\s,()+.-]+$/.test(trimmed)) return null;
  let digits = trimmed.replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  return /^[2-9]\d{2}[2-9]\d{6}$/.test(digits) ? digits : null;
}

async function applyChunk(db: Db, numbers: string[], mode: "add" | "remove") {
  // One array parameter (a Postgres array literal; the values are digits only), not 10,000 parameters.
  const list = `{${numbers.join(",")}}`;
  const result =
    mode === "add"
      ? await db.execute<{ n: number }>(sql`
          WITH inserted AS (
            INSERT INTO dnc_numbers (phone, source)
            SELECT unnest(${list}::text[]), 'federal'
            ON CONFLICT DO NOTHING RETURNING 1)
          SELECT count(*)::int AS n FROM inserted`)
      : await db.execute<{ n: number }>(sql`
          WITH deleted AS (
            DELETE FROM dnc_numbers WHERE source = 'federal' AND phone = ANY(${list}::text[]) RETURNING 1)
          SELECT count(*)::int AS n FROM deleted`);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Streams a registry file into dnc_numbers in chunks (each its own short statement, so the site
 * keeps answering), skipping and counting bad lines. Idempotent: numbers already present (or
 * already gone, with remove) change nothing. Records the file and its data date, and an audit
 * entry naming `actor`.
 */
export async function importDncFile(
  db: Db,
  filePath: string,
  options: { mode: "add" | "remove"; dataDate: string; actor: string; chunkSize?: number; onProgress?: (progress: DncImportProgress) => void },
): Promise<DncImportResult> {
  const started = performance.now();
  const hash = createHash("sha256");
  const stream = createReadStream(filePath);
  stream.on("data", (chunk) => hash.update(chunk));
  const lines = createInterface({ input: stream, crlfDelay: Infinity });

  let lineNumber = 0;
  let changed = 0;
  let badLines = 0;
  const badLineSamples: { line: number; text: string }[] = [];
  let chunk: string[] = [];
  const progress = () => ({ lines: lineNumber, changed, badLines, elapsedMs: performance.now() - started });

  for await (const line of lines) {
    lineNumber++;
    if (!line.trim()) continue;
    const number = parseDncLine(line);
    if (!number) {
      badLines++;
      if (badLineSamples.length < 50) badLineSamples.push({ line: lineNumber, text: line.slice(0, 80) });
      continue;
    }
    chunk.push(number);
    if (chunk.length >= (options.chunkSize ?? DNC_CHUNK_SIZE)) {
      changed += await applyChunk(db, chunk, options.mode);
      chunk = [];
      options.onProgress?.(progress());
    }
  }
  if (chunk.length > 0) changed += await applyChunk(db, chunk, options.mode);
  const sha256 = hash.digest("hex");
  const record = { fileName: basename(filePath), sha256, mode: options.mode, dataDate: options.dataDate, lines: lineNumber, changed, badLines };
  await db.insert(dncImports).values(record);
  // The same entry as a file uploaded at /admin/dnc (upload.server.ts); the actor says who and how.
  const summary = { file: record.fileName, sha256, dataDate: options.dataDate, lines: lineNumber, changed, badLines };
  await db.insert(auditLog).values({ actor: options.actor, action: options.mode === "add" ? "dnc.upload_add" : "dnc.upload_remove", entity: "dnc_numbers", after: JSON.stringify(summary) });
  forgetDncDataDate();
  const final = progress();
  options.onProgress?.(final);
  return { ...final, badLineSamples, dataDate: options.dataDate, sha256 };
}
