import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import type { Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import { createGunzip, createGzip } from "node:zlib";
import { DrizzleQueryError, sql, type SQL } from "drizzle-orm";
import { DatabaseLockedError, toNumber, type Db, type DbKind } from "./client.server";
import { auditLog } from "./schema";

/**
 * A data export of the app's database: one file of JSON lines, gzip'ed when its name ends in .gz.
 *
 *   line 1        header: format, version, source, schema migration, every table with its columns,
 *                 row count and checksum, and the sequences' positions
 *   then          {"table":"<name>","rows":[<row>,…]}, one line per batch, tables in foreign-key order
 *   last line     {"end":true,"batches":<n>,"rows":<n>}
 *
 * A row is PostgreSQL's own row_to_json() and is loaded with json_populate_recordset(), so the
 * rows never pass through JavaScript values (a bigint would lose digits there).
 */
export const TRANSFER_FORMAT = "patriot-investor-data";
export const TRANSFER_VERSION = 1;
export const TRANSFER_BATCH_ROWS = 5_000;

/**
 * Tables whose rows an empty install already has or may gain without anyone using the site: the
 * seed's welcome text, the request counters, the page-view rollups and the offer clicks (a new
 * install counts its first visitors, bots included, before anyone imports into it). The import replaces them; any
 * other row means the target holds data and the import refuses.
 */
export const REPLACEABLE_TABLES = ["sms_config", "app_rate_limits", "rate_limit", "analytics_daily", "analytics_hourly", "offer_clicks"];

/**
 * Tables never exported nor touched by an import: the analytics day salts, visitor hashes and
 * the visits' entries keyed by them, which exist only to be destroyed after 48 hours (a copy
 * would outlive them, decisions 143 and 149),
 * the ledger of recent analytics flushes (meaningful only to the processes that wrote them),
 * and the minute rollups of the last two hours with their visitor hashes (decision 156).
 */
export const UNEXPORTED_TABLES = ["analytics_salts", "analytics_visitors", "analytics_visit_entries", "analytics_flushes", "analytics_minutes", "analytics_minute_visitors"];

/**
 * Tables the database derives from others (the published rows, kept by a trigger on `articles`): not
 * exported, and rebuilt at the end of an import from what it loaded.
 */
export const DERIVED_TABLES = ["published_articles"];

export class TransferError extends Error {
  override name = "TransferError";
}

type Executor = Pick<Db, "execute">;

/** The database's own error: drizzle wraps it in one whose message repeats the statement and its parameters (a batch of rows). */
function databaseError(error: unknown): Error & { code?: string } {
  let current = error;
  while (current instanceof DrizzleQueryError && current.cause) current = current.cause;
  return current instanceof Error ? current : new Error(String(current));
}

export type TransferColumn = { name: string; type: string };
export type TransferTable = { name: string; columns: TransferColumn[]; rows: number; checksum: string };
export type TransferSequence = { table: string; column: string; name: string; lastValue: string; isCalled: boolean };
export type TransferHeader = {
  format: typeof TRANSFER_FORMAT;
  version: number;
  createdAt: string;
  source: { kind: DbKind; server: string };
  schema: { migration: string | null; migratedAt: number | null };
  tables: TransferTable[];
  sequences: TransferSequence[];
};

export type TransferProgress = {
  table: string;
  tableRows: number;
  tableTotal: number;
  rows: number;
  total: number;
  elapsedMs: number;
};
export type TableCount = { name: string; rows: number };
export type ExportResult = { header: TransferHeader; rows: number; batches: number; bytes: number; elapsedMs: number };
export type ImportResult = {
  header: TransferHeader;
  tables: TableCount[];
  rows: number;
  sequences: { name: string; value: string }[];
  elapsedMs: number;
};

type TableShape = { name: string; columns: TransferColumn[] };

/** Every name is qualified: a search_path that puts another schema first must not redirect a statement. */
function tableSql(name: string) {
  return sql`${sql.identifier("public")}.${sql.identifier(name)}`;
}

// row_to_json() follows session settings (times in the session's zone, intervals in its style, …):
// pin them so the checksums of two servers agree.
async function pinOutputSettings(db: Executor) {
  await db.execute(sql`SET LOCAL TimeZone = 'UTC'`);
  await db.execute(sql`SET LOCAL IntervalStyle = 'postgres'`);
  await db.execute(sql`SET LOCAL bytea_output = 'hex'`);
  await db.execute(sql`SET LOCAL extra_float_digits = 1`);
}

/** The ordinary tables of the public schema with their stored columns, parents before children. */
async function readTables(db: Executor): Promise<TableShape[]> {
  const tables = await db.execute<{ name: string }>(sql`
    SELECT c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY c.relname`);
  const columns = await db.execute<{ table: string; name: string; type: string }>(sql`
    SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    ORDER BY a.attrelid, a.attnum`);
  const references = await db.execute<{ child: string; parent: string }>(sql`
    SELECT child.relname AS child, parent.relname AS parent
    FROM pg_constraint k
      JOIN pg_class child ON child.oid = k.conrelid
      JOIN pg_class parent ON parent.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = k.connamespace
    WHERE k.contype = 'f' AND n.nspname = 'public'`);

  const shapes = tables.rows.filter((row) => !DERIVED_TABLES.includes(String(row.name)) && !UNEXPORTED_TABLES.includes(String(row.name))).map((row) => ({
    name: String(row.name),
    columns: columns.rows
      .filter((column) => column.table === row.name)
      .map((column) => ({ name: String(column.name), type: String(column.type) })),
  }));
  const parents = new Map(shapes.map((shape) => [shape.name, new Set<string>()]));
  for (const { child, parent } of references.rows) {
    if (child !== parent) parents.get(String(child))?.add(String(parent));
  }
  // Kahn's algorithm; alphabetical among the ready ones so every export lists tables alike.
  const ordered: TableShape[] = [];
  const remaining = [...shapes];
  while (remaining.length > 0) {
    const placed = new Set(ordered.map((shape) => shape.name));
    let index = remaining.findIndex((shape) =>
      [...parents.get(shape.name)!].every((parent) => placed.has(parent) || !parents.has(parent)),
    );
    // A cycle of foreign keys has no valid order; take the next one and let the database judge.
    if (index === -1) index = 0;
    ordered.push(...remaining.splice(index, 1));
  }
  return ordered;
}

/** The columns as row_to_json() should see them: a json value as its exact text (json keeps whitespace). */
function selectList(table: { columns: TransferColumn[] }) {
  return sql.join(
    table.columns.map((column) =>
      column.type === "json"
        ? sql`to_json(${sql.identifier(column.name)}::text) AS ${sql.identifier(column.name)}`
        : sql.identifier(column.name),
    ),
    sql`, `,
  );
}

function rowsOf(shape: TableShape): SQL {
  return sql`(SELECT ${selectList(shape)} FROM ${tableSql(shape.name)}) AS r`;
}

/**
 * Row count and an order-free checksum: the sum of the first 64 bits of each row's md5. Sorting
 * row texts would depend on the servers' collations, and a sum needs no sort of a million rows.
 */
async function countAndChecksum(db: Executor, shape: TableShape) {
  const result = await db.execute<{ rows: unknown; checksum: unknown }>(sql`
    SELECT count(*) AS rows, coalesce(sum(('x' || left(md5(row_to_json(r)::text), 16))::bit(64)::bigint), 0)::text AS checksum
    FROM ${rowsOf(shape)}`);
  const row = result.rows[0]!;
  return { rows: toNumber(row.rows), checksum: String(row.checksum) };
}

async function readSequences(db: Executor): Promise<{ table: string; column: string; name: string; min: string }[]> {
  const result = await db.execute<{ table: string; column: string; name: string; min: unknown }>(sql`
    SELECT t.relname AS table, a.attname AS column, s.relname AS name, q.seqmin::text AS min
    FROM pg_class s
      JOIN pg_sequence q ON q.seqrelid = s.oid
      JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
      JOIN pg_class t ON t.oid = d.refobjid
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
      JOIN pg_namespace n ON n.oid = s.relnamespace
    WHERE s.relkind = 'S' AND n.nspname = 'public'
    ORDER BY t.relname, a.attname`);
  return result.rows.map((row) => ({
    table: String(row.table),
    column: String(row.column),
    name: String(row.name),
    min: String(row.min),
  }));
}

async function readMigration(db: Executor, migrationsFolder: string) {
  const result = await db.execute<{ created_at: unknown }>(sql`
    SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`);
  const migratedAt = result.rows[0] ? toNumber(result.rows[0].created_at) : null;
  let migration: string | null = migratedAt === null ? null : String(migratedAt);
  const journal = path.join(migrationsFolder, "meta", "_journal.json");
  if (migratedAt !== null && existsSync(journal)) {
    const entries = (JSON.parse(readFileSync(journal, "utf8")) as { entries: { when: number; tag: string }[] }).entries;
    migration = entries.find((entry) => entry.when === migratedAt)?.tag ?? migration;
  }
  return { migration, migratedAt };
}

async function serverVersion(db: Executor) {
  const result = await db.execute<{ version: string }>(sql`SELECT version() AS version`);
  return String(result.rows[0]!.version).split(" on ")[0]!;
}

/**
 * Writes every table of the database to `file` from one consistent snapshot, streaming each table
 * through a cursor in batches. The file appears only when complete.
 */
export async function exportDatabase(
  database: { kind: DbKind; db: Db },
  file: string,
  options: { batchRows?: number; migrationsFolder?: string; onProgress?: (progress: TransferProgress) => void } = {},
): Promise<ExportResult> {
  const started = Date.now();
  const batchRows = options.batchRows ?? TRANSFER_BATCH_ROWS;
  const partial = `${file}.partial`;
  const output = createWriteStream(partial);
  const gzip = file.endsWith(".gz") ? createGzip({ level: 3 }) : null;
  const sink: Writable = gzip ?? output;
  // pipeline() destroys the gzip stream when the file fails, so a write waiting for "drain" rejects.
  const flushed = gzip ? pipeline(gzip, output) : finished(output);
  flushed.catch(() => {});
  let bytes = 0;
  const write = async (text: string) => {
    if (sink.destroyed) {
      await flushed; // rejects with the reason the file failed
      throw new Error(`${partial} was closed while writing`);
    }
    bytes += Buffer.byteLength(text);
    if (!sink.write(text)) await once(sink, "drain");
  };

  try {
    const result = await database.db.transaction(
      async (tx) => {
        await pinOutputSettings(tx);
        const shapes = await readTables(tx);
        const tables: TransferTable[] = [];
        for (const shape of shapes)
          tables.push({ name: shape.name, columns: shape.columns, ...(await countAndChecksum(tx, shape)) });
        const sequences: TransferSequence[] = [];
        for (const sequence of await readSequences(tx)) {
          const state = await tx.execute<{ last_value: unknown; is_called: unknown }>(
            sql`SELECT last_value::text AS last_value, is_called FROM ${tableSql(sequence.name)}`,
          );
          const row = state.rows[0]!;
          sequences.push({
            table: sequence.table,
            column: sequence.column,
            name: sequence.name,
            lastValue: String(row.last_value),
            isCalled: row.is_called === true || row.is_called === "t",
          });
        }
        const header: TransferHeader = {
          format: TRANSFER_FORMAT,
          version: TRANSFER_VERSION,
          createdAt: new Date().toISOString(),
          source: { kind: database.kind, server: await serverVersion(tx) },
          schema: await readMigration(tx, options.migrationsFolder ?? path.resolve("drizzle")),
          tables,
          sequences,
        };
        await write(`${JSON.stringify(header)}\n`);

        const total = tables.reduce((sum, table) => sum + table.rows, 0);
        let rows = 0;
        let batches = 0;
        for (const table of tables) {
          if (table.rows === 0) continue;
          const prefix = `{"table":${JSON.stringify(table.name)},"rows":[`;
          await tx.execute(
            sql`DECLARE transfer_rows NO SCROLL CURSOR FOR SELECT row_to_json(r)::text AS j FROM ${rowsOf(table)}`,
          );
          let tableRows = 0;
          for (;;) {
            const batch = await tx.execute<{ j: string }>(
              sql`FETCH FORWARD ${sql.raw(String(batchRows))} FROM transfer_rows`,
            );
            if (batch.rows.length === 0) break;
            await write(`${prefix}${batch.rows.map((row) => row.j).join(",")}]}\n`);
            tableRows += batch.rows.length;
            rows += batch.rows.length;
            batches++;
            options.onProgress?.({
              table: table.name,
              tableRows,
              tableTotal: table.rows,
              rows,
              total,
              elapsedMs: Date.now() - started,
            });
          }
          await tx.execute(sql`CLOSE transfer_rows`);
        }
        await write(`${JSON.stringify({ end: true, batches, rows })}\n`);
        return { header, rows, batches };
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    sink.end();
    await flushed;
    renameSync(partial, file);
    return { ...result, bytes, elapsedMs: Date.now() - started };
  } catch (error) {
    gzip?.destroy();
    output.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}

const MAX_LINE_CHARS = 256 * 1024 * 1024;

/** The file's lines, read through gunzip when it starts with the gzip magic bytes. */
async function* readLines(file: string): AsyncGenerator<string> {
  const handle = await open(file, "r").catch((error: NodeJS.ErrnoException) => {
    throw new TransferError(
      error.code === "ENOENT" ? `No such file: ${file}` : `Cannot read ${file}: ${error.message}`,
    );
  });
  const magic = Buffer.alloc(2);
  await handle.read(magic, 0, 2, 0);
  await handle.close();
  const source = createReadStream(file);
  const input = magic[0] === 0x1f && magic[1] === 0x8b ? source.pipe(createGunzip()) : source;
  if (input !== source) source.on("error", (error) => input.destroy(error));
  const decoder = new StringDecoder("utf8");
  let rest = "";
  try {
    for await (const chunk of input) {
      const text = decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = text.indexOf("\n", start); end !== -1; end = text.indexOf("\n", start)) {
        yield rest + text.slice(start, end);
        rest = "";
        start = end + 1;
      }
      rest += text.slice(start);
      // Batches are a few MB; a longer line means this is some other file, and it would fill the memory.
      if (rest.length > MAX_LINE_CHARS)
        throw new TransferError(`${file} is not a data export of this app (a line is too long).`);
    }
  } catch (error) {
    if (error instanceof TransferError) throw error;
    throw new TransferError(`${file} is damaged or incomplete (${(error as Error).message}).`);
  } finally {
    source.destroy();
  }
  rest += decoder.end();
  if (rest) yield rest;
}

function parseHeader(line: string | undefined, file: string): TransferHeader {
  let header: Partial<TransferHeader> | null;
  try {
    header = line ? (JSON.parse(line) as Partial<TransferHeader>) : null;
  } catch {
    header = null;
  }
  if (!header || typeof header !== "object" || header.format !== TRANSFER_FORMAT) {
    throw new TransferError(`${file} is not a data export of this app (its first line is not an export header).`);
  }
  if (header.version !== TRANSFER_VERSION) {
    throw new TransferError(
      `${file} is written in export format version ${String(header.version)}; this version of the app reads version ${TRANSFER_VERSION}.`,
    );
  }
  if (!Array.isArray(header.tables) || !Array.isArray(header.sequences) || !header.source || !header.schema) {
    throw new TransferError(`${file} has a damaged header.`);
  }
  return header as TransferHeader;
}

/** Checks that `file` is an export this app can read and returns its header. */
export async function readTransferHeader(file: string): Promise<TransferHeader> {
  const lines = readLines(file);
  try {
    const first = await lines.next();
    return parseHeader(first.done ? undefined : first.value, file);
  } finally {
    await lines.return(undefined);
  }
}

const BATCH_PREFIX = /^\{"table":("(?:[^"\\]|\\.)*"),"rows":\[/y;

function parseTableName(text: string) {
  try {
    return JSON.parse(text) as string;
  } catch {
    return null;
  }
}

function checkCompatible(header: TransferHeader, target: TableShape[], file: string) {
  const byName = new Map(target.map((table) => [table.name, table]));
  const problems: string[] = [];
  for (const table of header.tables) {
    const found = byName.get(table.name);
    if (!found) {
      problems.push(`table ${table.name} does not exist here`);
      continue;
    }
    for (const column of table.columns) {
      const match = found.columns.find((candidate) => candidate.name === column.name);
      if (!match) problems.push(`column ${table.name}.${column.name} does not exist here`);
      else if (match.type !== column.type)
        problems.push(`column ${table.name}.${column.name} is ${match.type} here, ${column.type} in the file`);
    }
  }
  if (problems.length > 0) {
    throw new TransferError(
      `${file} does not fit this database's schema (file: ${header.schema.migration ?? "no migrations"}); run the same version of the app on both sides:\n  ${problems.join("\n  ")}`,
    );
  }
}

/** Tables of the target that hold rows an untouched install would not have. */
/**
 * The first start imports the seed articles (decision 048) into every new database; a database
 * holding nothing else is still new: those rows are replaced by the copy's like sms_config.
 */
const SEEDED_CONTENT_TABLES = ["audit_log", "authors", "articles", "article_revisions"];

async function onlySeededContent(db: Executor, tables: TableShape[]) {
  if (!SEEDED_CONTENT_TABLES.every((name) => tables.some((shape) => shape.name === name))) return false;
  const result = await db.execute<{ other: unknown }>(sql`
    SELECT (SELECT count(*) FROM audit_log WHERE action <> 'article.imported')
         + (SELECT count(*) FROM article_revisions WHERE reason <> 'import') AS other`);
  return toNumber(result.rows[0]?.other) === 0;
}

async function replaceableTables(db: Executor, tables: TableShape[]) {
  return (await onlySeededContent(db, tables)) ? [...REPLACEABLE_TABLES, ...SEEDED_CONTENT_TABLES] : REPLACEABLE_TABLES;
}

async function tablesWithData(db: Executor, tables: TableShape[]): Promise<TableCount[]> {
  const found: TableCount[] = [];
  const replaceable = await replaceableTables(db, tables);
  for (const shape of tables) {
    if (replaceable.includes(shape.name)) continue;
    const result = await db.execute<{ rows: unknown }>(sql`SELECT count(*) AS rows FROM ${tableSql(shape.name)}`);
    const rows = toNumber(result.rows[0]?.rows);
    if (rows > 0) found.push({ name: shape.name, rows });
  }
  return found;
}

function insertBatch(shape: TransferTable, rowsJson: string): SQL {
  const name = tableSql(shape.name);
  const columns = sql.join(
    shape.columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  // A json column travels as a JSON string holding its exact text.
  const values = sql.join(
    shape.columns.map((column) =>
      column.type === "json"
        ? sql`(p.${sql.identifier(column.name)} #>> '{}')::json`
        : sql`p.${sql.identifier(column.name)}`,
    ),
    sql`, `,
  );
  return sql`
    WITH inserted AS (
      INSERT INTO ${name} (${columns}) OVERRIDING SYSTEM VALUE
      SELECT ${values} FROM json_populate_recordset(NULL::${name}, ${rowsJson}::json) AS p
      RETURNING 1
    )
    SELECT count(*) AS rows FROM inserted`;
}

/** Moves each sequence past both the highest id and the source's position, so no id is handed out twice. */
async function resetSequences(db: Executor, header: TransferHeader) {
  const done: { name: string; value: string }[] = [];
  for (const sequence of await readSequences(db)) {
    const highest = await db.execute<{ max: unknown }>(
      sql`SELECT max(${sql.identifier(sequence.column)})::text AS max FROM ${tableSql(sequence.table)}`,
    );
    const source = header.sequences.find(
      (candidate) => candidate.table === sequence.table && candidate.column === sequence.column,
    );
    const min = BigInt(sequence.min);
    let value = min - 1n;
    const max = highest.rows[0]?.max;
    if (max !== null && max !== undefined && BigInt(String(max)) > value) value = BigInt(String(max));
    if (source) {
      const used = BigInt(source.lastValue) - (source.isCalled ? 0n : 1n);
      if (used > value) value = used;
    }
    const called = value >= min;
    const position = called ? value : min;
    await db.execute(
      sql`SELECT setval(format('%I.%I', 'public', ${sequence.name}::text)::regclass, ${position.toString()}::bigint, ${called})`,
    );
    done.push({ name: sequence.name, value: called ? position.toString() : "(unused)" });
  }
  return done;
}

/**
 * Loads an export into an empty install of the app, in one transaction: the target's tables are
 * locked, checked for data, filled batch by batch, their sequences moved on, and every table's
 * count and checksum compared with the file's header. Any problem rolls everything back.
 */
export async function importDatabase(
  database: { db: Db },
  file: string,
  options: {
    lockTimeoutMs?: number;
    migrationsFolder?: string;
    onProgress?: (progress: TransferProgress) => void;
    /** Who loaded the file: recorded in the audit log with the import (db:import gives it). */
    actor?: string;
  } = {},
): Promise<ImportResult> {
  const started = Date.now();
  const header = await readTransferHeader(file);
  const total = header.tables.reduce((sum, table) => sum + table.rows, 0);
  const expected = new Map(header.tables.map((table) => [table.name, table]));

  const result = await database.db.transaction(async (tx) => {
    await pinOutputSettings(tx);
    await tx.execute(sql`SET LOCAL lock_timeout = ${sql.raw(`'${options.lockTimeoutMs ?? 10_000}ms'`)}`);
    // The consent events arrive with their chain and its queue (decision 069): the trigger that
    // queues a new event for the chain stands aside in this transaction.
    await tx.execute(sql`SET LOCAL app.importing = 'on'`);
    const schema = await readMigration(tx, options.migrationsFolder ?? path.resolve("drizzle"));
    if ((header.schema.migratedAt ?? 0) > (schema.migratedAt ?? 0)) {
      throw new TransferError(
        `${file} comes from a newer version of the app (schema ${header.schema.migration}; this database is at ${schema.migration ?? "no migrations"}). Update this copy of the app first.`,
      );
    }
    const target = await readTables(tx);
    checkCompatible(header, target, file);
    if (target.length > 0) {
      try {
        await tx.execute(
          sql`LOCK TABLE ${sql.join(
            target.map((shape) => tableSql(shape.name)),
            sql`, `,
          )} IN EXCLUSIVE MODE`,
        );
      } catch (error) {
        if (databaseError(error).code === "55P03") {
          throw new TransferError(
            "The target database is in use (its tables are locked). Stop the app's processes that use it and try again.",
          );
        }
        throw error;
      }
    }
    const occupied = await tablesWithData(tx, target);
    if (occupied.length > 0) {
      throw new TransferError(
        `The target database already holds data (${occupied.map((table) => `${table.name}: ${table.rows.toLocaleString("en-US")} rows`).join(", ")}). Import only into a new, empty database.`,
      );
    }
    const replaceable = await replaceableTables(tx, target);
    for (const shape of [...target].reverse()) {
      if (replaceable.includes(shape.name)) await tx.execute(sql`DELETE FROM ${tableSql(shape.name)}`);
    }

    const loaded = new Map<string, number>();
    let rows = 0;
    let lineNumber = 0;
    let ended = false;
    for await (const line of readLines(file)) {
      lineNumber++;
      if (lineNumber === 1) continue;
      if (ended) throw new TransferError(`${file} has data after its end line (line ${lineNumber}).`);
      if (line.startsWith('{"end":')) {
        ended = true;
        continue;
      }
      BATCH_PREFIX.lastIndex = 0;
      const prefix = BATCH_PREFIX.exec(line);
      if (!prefix || !line.endsWith("]}"))
        throw new TransferError(`${file} is damaged: line ${lineNumber} is not a batch of rows.`);
      const name = parseTableName(prefix[1]!);
      const table = name === null ? undefined : expected.get(name);
      if (!table)
        throw new TransferError(
          `${file} is damaged: line ${lineNumber} holds rows of ${name ?? prefix[1]}, a table its header does not list.`,
        );
      let inserted: number;
      try {
        const batch = await tx.execute<{ rows: unknown }>(insertBatch(table, line.slice(prefix[0].length - 1, -1)));
        inserted = toNumber(batch.rows[0]?.rows);
      } catch (error) {
        throw new TransferError(
          `Loading ${table.name} failed at line ${lineNumber} of ${file}: ${databaseError(error).message}`,
        );
      }
      const tableRows = (loaded.get(table.name) ?? 0) + inserted;
      loaded.set(table.name, tableRows);
      rows += inserted;
      options.onProgress?.({
        table: table.name,
        tableRows,
        tableTotal: table.rows,
        rows,
        total,
        elapsedMs: Date.now() - started,
      });
    }
    if (!ended) throw new TransferError(`${file} is incomplete: it stops before its end line.`);

    const tables: TableCount[] = [];
    const mismatches: string[] = [];
    for (const table of header.tables) {
      const actual = await countAndChecksum(tx, table);
      tables.push({ name: table.name, rows: actual.rows });
      if (actual.rows !== table.rows)
        mismatches.push(`${table.name}: ${actual.rows} rows loaded, ${table.rows} expected`);
      else if (actual.checksum !== table.checksum)
        mismatches.push(`${table.name}: the rows' checksum differs from the file's`);
    }
    if (mismatches.length > 0) {
      throw new TransferError(
        `${file} does not match its header, so nothing was imported:\n  ${mismatches.join("\n  ")}`,
      );
    }
    await tx.execute(sql`SELECT published_articles_refresh(id) FROM articles WHERE status = 'published'`);
    // Last: setval() is not undone by a rollback.
    const sequences = await resetSequences(tx, header);
    // After the check against the file (the audit log is one of its tables), in the same commit.
    if (options.actor) {
      await tx.insert(auditLog).values({
        actor: options.actor,
        action: "database.import",
        entity: "database",
        after: JSON.stringify({ file: path.basename(file), rows, tables: header.tables.length, exportedAt: header.createdAt, source: header.source.kind }),
      });
    }
    return { tables, rows, sequences };
  });

  // Fresh statistics so the first queries on a million-row table get sensible plans.
  for (const loaded of result.tables) {
    if (loaded.rows > 0) await database.db.execute(sql`ANALYZE ${tableSql(loaded.name)}`).catch(() => {});
  }
  return { header, ...result, elapsedMs: Date.now() - started };
}

/** A sentence for the person at the terminal: no stack trace, and what to check. */
export function describeTransferError(error: unknown, where?: string): string {
  if (error instanceof TransferError || error instanceof DatabaseLockedError) return error.message;
  const failure = databaseError(error) as Error & { code?: string; errors?: { code?: string }[] };
  const codes = [failure.code, ...(failure.errors ?? []).map((inner) => inner.code)];
  const place = where ? ` at ${where}` : "";
  if (codes.includes("ECONNREFUSED"))
    return `Cannot connect to PostgreSQL${place}: connection refused. Is the server running, and is the address right?`;
  if (codes.includes("ENOTFOUND") || codes.includes("EAI_AGAIN"))
    return `Cannot connect to PostgreSQL${place}: unknown host.`;
  if (codes.includes("ETIMEDOUT")) return `Cannot connect to PostgreSQL${place}: the connection timed out.`;
  const message = failure.message || String(error);
  if (failure.code === "28P01" || failure.code === "28000") return `PostgreSQL${place} refused the login: ${message}`;
  if (failure.code === "3D000") return `PostgreSQL${place}: ${message}. Create it first (createdb).`;
  return message;
}

/** host:port/database of a postgres:// URL, without the password, for messages. */
export function describeUrl(url: string) {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return "the given PostgreSQL URL";
  }
}

/** Per-table row counts as an aligned plain-text table. */
export function formatCounts(tables: TableCount[]) {
  const width = Math.max(5, ...tables.map((table) => table.name.length));
  const numbers = tables.map((table) => table.rows.toLocaleString("en-US"));
  const total = tables.reduce((sum, table) => sum + table.rows, 0).toLocaleString("en-US");
  const numberWidth = Math.max(4, total.length, ...numbers.map((text) => text.length));
  const line = (name: string, rows: string) => `  ${name.padEnd(width)}  ${rows.padStart(numberWidth)}`;
  return [
    line("table", "rows"),
    line("-".repeat(width), "-".repeat(numberWidth)),
    ...tables.map((table, index) => line(table.name, numbers[index]!)),
    line("-".repeat(width), "-".repeat(numberWidth)),
    line("total", total),
  ].join("\n");
}

/** Progress on stderr: one line rewritten in place on a terminal, a line per 100,000 rows in a log. */
export function progressPrinter(stream: NodeJS.WriteStream = process.stderr) {
  let shown = 0;
  let open = false;
  return {
    update: ({ table, tableRows, tableTotal, rows, total }: TransferProgress) => {
      if (!stream.isTTY && rows - shown < 100_000 && tableRows < tableTotal) return;
      shown = rows;
      const text = `  ${table}: ${tableRows.toLocaleString("en-US")} of ${tableTotal.toLocaleString("en-US")} rows (${Math.floor((100 * rows) / Math.max(1, total))}% of all)`;
      if (stream.isTTY) {
        stream.write(`\r${text.padEnd(72)}`);
        open = true;
      } else stream.write(`${text}\n`);
    },
    done: () => {
      if (open) stream.write("\n");
      open = false;
    },
  };
}
