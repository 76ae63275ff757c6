// What db:export and db:import share as commands: their arguments, the configuration, opening the
// database, and running the transfer with a progress line and a clear error (no stack trace).
import { parseArgs } from "node:util";
import { openDatabase, type DatabaseHandle, type OpenOptions } from "~/db/client.server";
import { embeddedDatabaseDir, NotADataDirError } from "~/db/data-dir.server";
import { describeTransferError, progressPrinter, type TransferProgress } from "~/db/transfer.server";
import { getEnv, type Env } from "~/http/env.server";

/**
 * `<file> [--<urlFlag> postgres://…] [--data-dir <DATA_DIR>]`; wrong usage exits with 2. The data
 * folder is the DATA_DIR the server runs with, not the database folder inside it.
 */
export function parseTransferArgs(command: string, urlFlag: "from" | "to") {
  const usage = `usage: npm run ${command} -- <file> [--${urlFlag} postgres://…] [--data-dir <DATA_DIR>]`;
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { [urlFlag]: { type: "string" }, "data-dir": { type: "string" } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
  const { values, positionals } = parsed;
  const file = positionals[0];
  const url = values[urlFlag] as string | undefined;
  const dataDir = values["data-dir"] as string | undefined;
  if (!file || positionals.length > 1 || (url && dataDir)) {
    console.error(usage);
    process.exit(2);
  }
  if (url && !/^postgres(ql)?:\/\//.test(url)) {
    console.error(`--${urlFlag} must be a postgres:// connection URL`);
    process.exit(2);
  }
  return { file, url, dataDir };
}

/**
 * The embedded database of a DATA_DIR, found as the server finds it (embeddedDatabaseDir), or
 * exit 2 with the folder to give instead.
 */
export function embeddedDirOrExit(dataDir: string): string {
  try {
    return embeddedDatabaseDir(dataDir);
  } catch (error) {
    if (!(error instanceof NotADataDirError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}

export function envOrExit(): Env {
  try {
    return getEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

export async function openOrExit(options: OpenOptions, where: string): Promise<DatabaseHandle> {
  try {
    // Beside a running server on the embedded database, through its socket.
    return await openDatabase({ ...options, viaRunningServer: true });
  } catch (error) {
    console.error(describeTransferError(error, where));
    process.exit(1);
  }
}

/** Runs the transfer with a progress line, closes the database, and exits 0 or 1. */
export async function runTransfer(
  database: DatabaseHandle,
  failure: { label: string; where: string; note?: string },
  work: (onProgress: (progress: TransferProgress) => void) => Promise<void>,
): Promise<never> {
  let exitCode = 0;
  const progress = progressPrinter();
  try {
    await work(progress.update);
    progress.done();
  } catch (error) {
    progress.done();
    console.error(`${failure.label}: ${describeTransferError(error, failure.where)}`);
    if (failure.note) console.error(failure.note);
    exitCode = 1;
  } finally {
    await database.close();
  }
  process.exit(exitCode);
}
