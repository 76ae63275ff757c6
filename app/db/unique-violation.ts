/**
 * A "check, then insert" is checked by the service and enforced by a unique constraint: two
 * writers on separate connections can both pass the check, and the second one's write then fails
 * with PostgreSQL's unique violation (SQLSTATE 23505). The embedded database runs one transaction
 * at a time, so there only the check answers; on PostgreSQL the constraint is the last word and
 * must answer as the check would.
 *
 * Both drivers report it the same way: pg's DatabaseError and PGlite's error carry `code` and
 * `constraint` (the constraint's or unique index's name); drizzle wraps them in a
 * DrizzleQueryError and better-auth may wrap that again, so the whole `cause` chain is searched.
 */
const UNIQUE_VIOLATION = "23505";

/** True when `error`, or an error it wraps, is a unique violation of `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    const { code, constraint: name, cause } = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (code === UNIQUE_VIOLATION && name === constraint) return true;
    current = cause;
  }
  return false;
}

/**
 * Runs `work`; when it fails on `constraint` (another writer got there between the check and the
 * write), answers `refusal()` instead, the checked path's own result. Any other error is thrown.
 * Wrap the whole transaction: after the violation the transaction is aborted and rolled back.
 */
export async function refuseUniqueViolation<T, R>(work: () => Promise<T>, constraint: string, refusal: () => R): Promise<T | R> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, constraint)) return refusal();
    throw error;
  }
}
