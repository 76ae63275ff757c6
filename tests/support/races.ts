import { sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type DatabaseHandle, type Db } from "~/db/client.server";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * A second database handle (its own pool, so its own connections) on the PostgreSQL database of
 * `database`: what a second server process is to the first. Opened before the tests of the
 * enclosing describe block, closed after them.
 */
export function useSecondHandle(database: { url: string | undefined }) {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    if (!database.url) throw new Error("a second handle needs a PostgreSQL database");
    handle = await openDatabase({ url: database.url, connectTimeoutMs: 60_000 });
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });
  return {
    get db() {
      if (!handle) throw new Error("the second handle is not open yet");
      return handle.db;
    },
  };
}

/** Resolves once some session of this database waits for a lock another transaction holds. */
export async function untilSomeoneWaitsForALock(db: Db, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (Number(result.rows[0]?.n ?? 0) > 0) return;
    if (Date.now() > deadline) throw new Error("no session started waiting for a lock");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The race of two processes, made certain: `other` writes a row in a transaction it keeps open;
 * meanwhile `action` runs on `db`, passes its check (the row is not committed, so not visible) and
 * blocks on the unique index; then `other` commits and `action` meets the constraint. Answers what
 * `action` answered.
 */
export async function raceAgainstUncommitted<T>(db: Db, other: Db, write: (tx: Tx) => Promise<unknown>, action: () => Promise<T>): Promise<T> {
  let commit!: () => void;
  const committed = new Promise<void>((resolve) => (commit = resolve));
  let written!: () => void;
  const isWritten = new Promise<void>((resolve) => (written = resolve));
  const holder = other.transaction(async (tx) => {
    await write(tx);
    written();
    await committed;
  });
  await Promise.race([isWritten, holder]);
  const answer = action();
  // Keep a failure of `action` from going unhandled while we wait.
  answer.catch(() => {});
  try {
    // An action that never reaches the write (a check refused it) ends the wait too.
    await Promise.race([untilSomeoneWaitsForALock(db), answer.then(() => {}, () => {})]);
  } finally {
    commit();
    await holder;
  }
  return answer;
}
