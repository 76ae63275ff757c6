/**
 * Errors that mean "the database cannot be reached right now" rather than "this query is wrong":
 * refused or dropped connections, a server shutting down or starting up, a pool that timed out
 * waiting for a connection. Drivers and libraries wrap them (drizzle's DrizzleQueryError,
 * better-auth), so the whole `cause` chain is searched.
 */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
// SQLSTATE class 08 (connection exception) and 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now).
const SQLSTATE = /^(08\d{3}|57P0[123])$/;
const MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Cannot use a pool after calling end on the pool",
  "the database system is shutting down",
  "the database system is starting up",
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, cause, errors } = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof message === "string" && MESSAGES.some((text) => message.includes(text))) return true;
    // Node's AggregateError (IPv4 and IPv6 both refused) lists its parts in `errors`.
    if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
    current = cause;
  }
  return false;
}

/** The innermost message of a wrapped error ("connect ECONNREFUSED 127.0.0.1:5432"), for one-line logs. */
export function databaseErrorReason(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 8 && current && typeof current === "object" && "cause" in current && current.cause; depth++) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
