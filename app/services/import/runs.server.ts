import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import path from "node:path";
import { hostname } from "node:os";
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, importReportLines, importRuns, type DryRunSummary } from "~/db/schema";

/**
 * Import runs as a job that survives a restart (decision 159). A run is claimed by one process at
 * a time with a lease it renews with every post it writes; the write of a post and the step of
 * `itemsDone` are one transaction that only commits while the lease is still this process's, so
 * a process that lost its lease (stalled, then woke up) cannot write a post twice.
 */

export type ImportRun = typeof importRuns.$inferSelect;
export type ImportRunOptions = ImportRun["options"];

/** Where the run's copy of the old site's uploads is (a folder or a .zip), under either name it was stored. */
export const uploadsPathOf = (options: ImportRunOptions) => options.uploadsPath ?? options.uploadsFolder;

/** The files the admin's upload put under DATA_DIR/imports (the export, the uploads' .zip); a command's files are the operator's own. */
async function removeUploadedFiles(run: { filePath: string; options: ImportRunOptions }) {
  for (const file of [run.filePath, uploadsPathOf(run.options)]) {
    if (file && path.basename(path.dirname(file)) === "imports") await rm(file, { force: true });
  }
}

/** How long a claim holds without renewal; another process takes the run over after it. */
export const IMPORT_LEASE_MS = 60_000;

/** This process's name on its leases. */
export const LEASE_OWNER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** The run's lease was taken over (this process stalled past it): stop, write nothing more. */
export class LostLeaseError extends Error {
  override name = "LostLeaseError";
}

/** A run that cannot go on whatever is tried again (the file is gone, or not an export): said in words on the run. */
export class ImportFailure extends Error {
  override name = "ImportFailure";
}

export async function createRun(
  db: Db,
  input: {
    kind: ImportRun["kind"];
    filePath: string;
    fileName: string;
    fileBytes: number;
    options: ImportRunOptions;
    actor: string;
    claim?: boolean;
    /** Uploaded in the admin: its dry run comes first. */ uploaded?: boolean;
  },
  now = new Date(),
): Promise<ImportRun> {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .insert(importRuns)
      .values({
        kind: input.kind,
        filePath: input.filePath,
        fileName: input.fileName,
        fileBytes: input.fileBytes,
        options: input.options,
        createdBy: input.actor,
        ...(input.uploaded ? { status: "uploaded" as const } : {}),
        // A command that runs the import itself claims it at once, so a server beside it waits.
        ...(input.claim
          ? {
              status: "running" as const,
              leaseOwner: LEASE_OWNER,
              leaseUntil: new Date(now.getTime() + IMPORT_LEASE_MS),
              startedAt: now,
            }
          : {}),
      })
      .returning();
    // Who brought which file in, whether from the admin or a command (issue 32: every change audited).
    await tx
      .insert(auditLog)
      .values({
        actor: input.actor,
        action: input.uploaded ? "import.uploaded" : "import.started",
        entity: `import:${run!.id}`,
        after: JSON.stringify({ kind: input.kind, file: input.fileName, options: input.options }),
      });
    return run!;
  });
}

/**
 * The oldest run that is waiting (for its dry run or its import) or whose lease ran out, claimed
 * for this process. An uploaded run stays "uploaded" while its dry run is read.
 */
export async function claimNextRun(db: Db, now = new Date()): Promise<ImportRun | null> {
  const rows = await db.execute<{ id: number }>(sql`
    UPDATE import_runs SET status = CASE WHEN status = 'uploaded' THEN 'uploaded' ELSE 'running' END, lease_owner = ${LEASE_OWNER},
      lease_until = ${new Date(now.getTime() + IMPORT_LEASE_MS).toISOString()}::timestamptz,
      started_at = coalesce(started_at, ${now.toISOString()}::timestamptz)
    WHERE id = (
      SELECT id FROM import_runs
      WHERE status IN ('uploaded', 'queued', 'running') AND (lease_until IS NULL OR lease_until < ${now.toISOString()}::timestamptz)
      ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id`);
  const id = rows.rows[0]?.id;
  return id === undefined ? null : getRun(db, Number(id));
}

/**
 * At the start of the server on the embedded database: every lease left is a dead process's (only
 * one process opens the folder, and a command beside the server goes through it), so the
 * interrupted run goes on at once instead of after its lease.
 */
export async function releaseDeadLeases(db: Db) {
  await db
    .update(importRuns)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(sql`${importRuns.status} IN ('uploaded', 'running')`);
}

export async function getRun(db: Db, id: number) {
  const [run] = await db.select().from(importRuns).where(eq(importRuns.id, id));
  return run ?? null;
}

export async function listRuns(db: Db, limit = 20) {
  return db.select().from(importRuns).orderBy(desc(importRuns.id)).limit(limit);
}

type Executor = Pick<Db, "execute">;

export type ItemOutcome = "created" | "updated" | "unchanged" | "keptEdited" | "skipped";

/**
 * Inside a post's transaction: the step of the run's progress, its count, and the lease renewed.
 * Throws LostLeaseError (rolling the post back) when the run is not this process's at this step.
 */
export async function stepRun(
  tx: Executor,
  runId: number,
  index: number,
  outcome: ItemOutcome | null,
  now = new Date(),
) {
  const column = {
    created: sql`created`,
    updated: sql`updated`,
    unchanged: sql`unchanged`,
    keptEdited: sql`kept_edited`,
    skipped: sql`skipped`,
  };
  const count = outcome ? sql`, ${column[outcome]} = ${column[outcome]} + 1` : sql``;
  const rows = await tx.execute(sql`
    UPDATE import_runs SET items_done = ${index + 1}, lease_until = ${new Date(now.getTime() + IMPORT_LEASE_MS).toISOString()}::timestamptz ${count}
    WHERE id = ${runId} AND items_done = ${index} AND lease_owner = ${LEASE_OWNER} AND status = 'running'
    RETURNING id`);
  if (rows.rows.length === 0)
    throw new LostLeaseError(`import run ${runId} is no longer this process's at post ${index + 1}`);
}

/** Keeps the claim while a long step (the first reading of the file) runs. */
export async function renewLease(db: Executor, runId: number, now = new Date()) {
  const rows = await db.execute(sql`
    UPDATE import_runs SET lease_until = ${new Date(now.getTime() + IMPORT_LEASE_MS).toISOString()}::timestamptz
    WHERE id = ${runId} AND lease_owner = ${LEASE_OWNER} AND status = 'running' RETURNING id`);
  if (rows.rows.length === 0) throw new LostLeaseError(`import run ${runId} is no longer this process's`);
}

export async function setRunTotal(db: Executor, runId: number, total: number, siteUrl: string) {
  await db.execute(
    sql`UPDATE import_runs SET items_total = ${total}, site_url = ${siteUrl} WHERE id = ${runId} AND lease_owner = ${LEASE_OWNER}`,
  );
}

/** A clean stop: the run waits for the next claim, which need not wait for the lease to run out. */
export async function releaseRun(db: Db, runId: number) {
  await db
    .update(importRuns)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(
      sql`${importRuns.id} = ${runId} AND ${importRuns.leaseOwner} = ${LEASE_OWNER} AND ${importRuns.status} IN ('uploaded', 'running')`,
    );
}

/** The dry run's findings and lines stored, and the run handed to the operator to confirm. */
export async function storeDryRun(db: Db, runId: number, summary: DryRunSummary, lines: readonly ReportLineInput[]) {
  await db.transaction(async (tx) => {
    // A dry run read again after a restart replaces the lines of the one cut off.
    await tx
      .delete(importReportLines)
      .where(sql`${importReportLines.runId} = ${runId} AND ${importReportLines.phase} = 'dry-run'`);
    for (let start = 0; start < lines.length; start += 1_000) {
      await tx
        .insert(importReportLines)
        .values(lines.slice(start, start + 1_000).map((line) => ({ runId, phase: "dry-run" as const, ...line })));
    }
    await tx
      .update(importRuns)
      .set({ status: "reviewing", dryRun: summary, siteUrl: summary.site.link, leaseOwner: null, leaseUntil: null })
      .where(
        sql`${importRuns.id} = ${runId} AND ${importRuns.leaseOwner} = ${LEASE_OWNER} AND ${importRuns.status} = 'uploaded'`,
      );
  });
}

/** The operator's confirmation: the mapping checked against the dry run, the run queued. */
export async function confirmRun(
  db: Db,
  runId: number,
  options: ImportRunOptions,
  actor: string,
): Promise<{ ok: true } | { ok: false; problem: "not_found" | "wrong_state" | "unmapped"; unmapped?: string[] }> {
  return db.transaction(async (tx) => {
    const [run] = await tx.select().from(importRuns).where(eq(importRuns.id, runId)).for("update");
    if (!run) return { ok: false as const, problem: "not_found" as const };
    if (run.status !== "reviewing") return { ok: false as const, problem: "wrong_state" as const };
    const unmapped = (run.dryRun?.categories ?? [])
      .map((category) => category.slug)
      .filter((slug) => !options.categories[slug]);
    if (unmapped.length > 0 && !options.defaultCategory)
      return { ok: false as const, problem: "unmapped" as const, unmapped };
    await tx
      .update(importRuns)
      .set({ status: "queued", options: { ...run.options, ...options } })
      .where(eq(importRuns.id, runId));
    await tx
      .insert(auditLog)
      .values({ actor, action: "import.confirmed", entity: `import:${runId}`, after: JSON.stringify(options) });
    return { ok: true as const };
  });
}

/** A run not started yet, dropped by the operator, and its uploaded files with it. */
export async function cancelRun(db: Db, runId: number, actor: string) {
  const rows = await db
    .update(importRuns)
    .set({ status: "cancelled", finishedAt: new Date() })
    .where(sql`${importRuns.id} = ${runId} AND ${importRuns.status} IN ('uploaded', 'reviewing', 'queued')`)
    .returning({ id: importRuns.id, filePath: importRuns.filePath, options: importRuns.options });
  if (!rows[0]) return null;
  await db.insert(auditLog).values({ actor, action: "import.cancelled", entity: `import:${runId}` });
  await removeUploadedFiles(rows[0]);
  return rows[0];
}

export async function finishRun(db: Db, runId: number, outcome: { error?: string }, now = new Date()) {
  const [run] = await db
    .update(importRuns)
    .set({
      status: outcome.error ? "failed" : "done",
      error: outcome.error ?? null,
      finishedAt: now,
      leaseOwner: null,
      leaseUntil: null,
    })
    .where(sql`${importRuns.id} = ${runId} AND ${importRuns.leaseOwner} = ${LEASE_OWNER}`)
    .returning({ filePath: importRuns.filePath, options: importRuns.options });
  // An uploaded export (and uploads' .zip) is not needed once imported (the report stays); a failed one is kept to look into.
  if (run && !outcome.error) await removeUploadedFiles(run);
}

export type ReportLineInput = { item: string; oldUrl: string; outcome: string; reason: string };

export async function addReportLines(tx: Pick<Db, "insert">, runId: number, lines: readonly ReportLineInput[]) {
  if (lines.length > 0) await tx.insert(importReportLines).values(lines.map((line) => ({ runId, ...line })));
}

export async function reportLinesOf(
  db: Db,
  runId: number,
  phase: "dry-run" | "import" = "import",
  page?: { limit: number; offset: number },
) {
  const query = db
    .select()
    .from(importReportLines)
    .where(sql`${importReportLines.runId} = ${runId} AND ${importReportLines.phase} = ${phase}`)
    .orderBy(importReportLines.id);
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

export async function countReportLines(db: Db, runId: number, phase: "dry-run" | "import") {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(importReportLines)
    .where(sql`${importReportLines.runId} = ${runId} AND ${importReportLines.phase} = ${phase}`);
  return row?.n ?? 0;
}
