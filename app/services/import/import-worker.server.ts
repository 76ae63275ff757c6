import { EventEmitter } from "node:events";
import { createReadStream, existsSync } from "node:fs";
import type { Db } from "~/db/client.server";
import { IMPORT_RUN_TEXTS } from "~/lib/import-texts";
import { isDatabaseUnavailable } from "~/db/unavailable";
import { startJobLoop, type JobLogger, type JobLoop } from "../job-loop.server";
import { runGhostImport } from "./ghost-job.server";
import { GhostError } from "./ghost-reader.server";
import { dryRunGhost } from "./ghost-dry-run.server";
import { dryRunSummaryOf } from "./import-report";
import { claimNextRun, finishRun, ImportFailure, LostLeaseError, releaseDeadLeases, releaseRun, storeDryRun, uploadsPathOf, type ImportRun } from "./runs.server";
import { openUploads, UploadsError, type UploadsSource } from "./uploads-source.server";
import { dryRunWordPress } from "./wordpress-dry-run.server";
import { runWordPressImport } from "./wordpress-job.server";
import { WxrError } from "./wxr-reader.server";

/** What a run needs from the file and its options to run, whoever runs it (the server or the command). */
export async function runImport(db: Db, run: ImportRun, options: { isStopped: () => boolean; onProgress?: (done: number, total: number) => void }) {
  const actor = `import:${run.id}`;
  const location = uploadsPathOf(run.options);
  let uploads: UploadsSource | undefined;
  try {
    uploads = location ? await openUploads(location) : undefined;
  } catch (error) {
    throw error instanceof UploadsError ? new ImportFailure(error.message) : error;
  }
  // Open for the whole run (a .zip's index is read once), closed however the run ends.
  try {
    return run.kind === "wordpress" ? await runWordPressImport(db, run, { ...options, actor, uploads }) : await runGhostImport(db, run, { ...options, actor, uploads });
  } finally {
    uploads?.close();
  }
}

/**
 * Runs waiting imports in the server, one at a time, and goes on with one an interrupted process
 * left (decision 159). On a stop the post being written finishes and the run is released for the
 * next start.
 */
export async function drainImports(db: Db, options: { logger: JobLogger; isStopped: () => boolean }) {
  const run = await claimNextRun(db);
  if (!run) return 0;
  const { logger } = options;
  try {
    if (run.status === "uploaded") {
      if (!existsSync(run.filePath)) throw new ImportFailure(IMPORT_RUN_TEXTS.fileGone(run.fileName));
      const input = createReadStream(run.filePath, { highWaterMark: 64 * 1024 });
      const dryRun = run.kind === "ghost" ? await dryRunGhost(input) : await dryRunWordPress(input);
      await storeDryRun(db, run.id, dryRunSummaryOf(dryRun), dryRun.lines);
      logger.info({ run: run.id, kind: run.kind, file: run.fileName, lines: dryRun.lines.length }, "import dry run read; waiting for the mapping");
      return 1;
    }
    logger.info({ run: run.id, kind: run.kind, file: run.fileName, from: run.itemsDone }, run.itemsDone > 0 ? "import resumed" : "import started");
    const result = await runImport(db, run, { isStopped: options.isStopped });
    if (result.stopped) await releaseRun(db, run.id);
    else logger.info({ run: run.id }, "import finished");
  } catch (error) {
    if (error instanceof LostLeaseError) logger.warn({ run: run.id, reason: error.message }, "import taken over by another process");
    else if (isDatabaseUnavailable(error)) throw error;
    else if (error instanceof WxrError || error instanceof GhostError || error instanceof ImportFailure) {
      await finishRun(db, run.id, { error: error.message });
      logger.warn({ run: run.id, reason: error.message }, "import stopped: the file cannot be imported");
    } else {
      await finishRun(db, run.id, { error: (error as Error).message }).catch(() => {});
      logger.error({ err: error, run: run.id }, "import failed");
    }
  }
  return 1;
}

/** Wakes this process's import job at once (an upload or a confirmation made here); others poll. */
const importSignal = new EventEmitter();
export const importQueued = () => importSignal.emit("queued");

export function startImportWorker(options: { db: Db; embedded: boolean; logger: JobLogger; pollMs?: number }): JobLoop {
  let released = !options.embedded;
  return startJobLoop({
    name: "import",
    signal: importSignal,
    logger: options.logger,
    pollMs: options.pollMs ?? 5_000,
    drain: async (isStopped) => {
      if (!released) {
        await releaseDeadLeases(options.db);
        released = true;
      }
      return drainImports(options.db, { logger: options.logger, isStopped });
    },
  });
}
