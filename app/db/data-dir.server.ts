import { existsSync } from "node:fs";
import path from "node:path";

/** The embedded database's own folder inside DATA_DIR. */
export const EMBEDDED_DATABASE_FOLDER = "pglite";

/** A folder given as DATA_DIR (to the server or a command) that is not one; the message says which to give. */
export class NotADataDirError extends Error {
  override name = "NotADataDirError";
}

const isDatabaseCluster = (folder: string) => existsSync(path.join(folder, "PG_VERSION"));

/**
 * Where the embedded database of a DATA_DIR lives: `DATA_DIR/pglite`, or "memory" for a throw-away
 * one. The server and every command that takes a data folder (`--data-dir` or DATA_DIR) resolve
 * it here, so a command can only write where the server started on the same DATA_DIR reads
 * (decision 129). Refused, with the folder to give instead:
 * - a database folder itself (it holds PG_VERSION): the inner `DATA_DIR/pglite`, or a DATA_DIR
 *   an earlier import made into a database where the server never looks;
 * - a folder named `pglite` with no `pglite` inside: the inner folder of a DATA_DIR not made yet.
 */
export function embeddedDatabaseDir(dataDir: string): string {
  if (dataDir === "memory") return "memory";
  const folder = path.resolve(dataDir);
  const inner = path.join(folder, EMBEDDED_DATABASE_FOLDER);
  const named = path.basename(folder) === EMBEDDED_DATABASE_FOLDER;
  if (isDatabaseCluster(folder) || (named && !existsSync(inner))) {
    const parent = path.dirname(folder);
    throw new NotADataDirError(
      named
        ? `${dataDir} is the embedded database's own folder, inside a data folder: give the data folder, ${parent} (the DATA_DIR the server runs with; its database is in ${parent}/${EMBEDDED_DATABASE_FOLDER}).`
        : `${dataDir} holds a database of its own, where the server does not look (it reads ${inner}): give the DATA_DIR the server runs with, and move this database to ${inner} if it is the one to keep.`,
    );
  }
  return inner;
}
