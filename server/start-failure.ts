import { describeUrl } from "~/db/transfer.server";
import { databaseErrorReason, isDatabaseUnavailable } from "~/db/unavailable";

/**
 * A start that cannot succeed until the operator changes something: server.mjs writes its message
 * and details as one `fatal` JSON line, without a stack trace, and exits 1 (like a bad setting).
 */
export class StartError extends Error {
  override name = "StartError";
  constructor(
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The first `code` on the error or its causes (drizzle and better-auth wrap the driver's error). */
function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string") return code;
    current = cause;
  }
  return undefined;
}

/** `listen` refused: what to change, or null for a failure nobody can act on from here. */
export function listenFailure(error: unknown, port: number, host: string): StartError | null {
  const code = codeOf(error);
  const details = { port, host, code };
  if (code === "EADDRINUSE")
    return new StartError(`port ${port} on ${host} is already in use by another process (a second server?): stop that process, or set PORT to a free port`, details);
  if (code === "EACCES")
    return new StartError(`this user may not listen on port ${port}: set PORT to 1024 or above (or put a proxy on the low port)`, details);
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
    return new StartError(`HOST ${host} is not an address of this machine: set HOST to one of its addresses, or to 0.0.0.0 for all of them`, details);
  return null;
}

/**
 * Opening the database at start failed: what to change, or null for a fault of ours (that one is
 * logged with its stack). The URL is named without its password.
 */
export function databaseStartFailure(error: unknown, databaseUrl: string | undefined): StartError | null {
  const name = (error as { name?: unknown } | null)?.name;
  // Another server holds the embedded database, PostgreSQL may lose commits, or DATA_DIR is the
  // database's own folder: the messages say what to do.
  if (name === "DatabaseLockedError" || name === "UnsafeDatabaseSettingsError" || name === "NotADataDirError") return new StartError((error as Error).message, { database: databaseUrl ? describeUrl(databaseUrl) : "embedded" });
  if (!databaseUrl) return null;
  const database = describeUrl(databaseUrl);
  const reason = databaseErrorReason(error);
  const code = codeOf(error);
  const details = { database, reason, code };
  if (code === "28P01" || code === "28000")
    return new StartError(`PostgreSQL at ${database} refused the sign-in (${reason}): correct the user and password in DATABASE_URL, or the server's pg_hba.conf`, details);
  if (code === "3D000")
    return new StartError(`the database ${database} does not exist (${reason}): create it (createdb), or correct DATABASE_URL`, details);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return new StartError(`the database host in DATABASE_URL (${database}) is not known (${reason}): correct DATABASE_URL`, details);
  if (isDatabaseUnavailable(error))
    return new StartError(`could not connect to PostgreSQL at ${database} (${reason}): start PostgreSQL there, or correct DATABASE_URL, then start the server again`, details);
  return null;
}
