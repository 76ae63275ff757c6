import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, dncImports, dncNumbers } from "~/db/schema";
import { checkUsMobile } from "~/lib/phone";

export type DncLookup = { federal: boolean; internal: boolean; dataDate: string | null };

/** Registry data older than this may not be relied on (TSR safe harbor, the 31-day rule). */
export const DNC_MAX_AGE_DAYS = 31;

type Executor = Pick<Db, "select" | "insert" | "delete" | "execute">;

export async function lookupDnc(db: Executor, national10: string): Promise<DncLookup> {
  const rows = await db.select({ source: dncNumbers.source }).from(dncNumbers).where(eq(dncNumbers.phone, national10));
  return {
    federal: rows.some((row) => row.source === "federal"),
    internal: rows.some((row) => row.source === "internal"),
    dataDate: await cachedDncDataDate(db),
  };
}

/**
 * The data date changes only when a registry file is imported; reading it once every few seconds
 * instead of on every opt-in saves a query on the busiest path.
 */
const DATA_DATE_TTL_MS = 5_000;
let dataDateCache: { value: string | null; expires: number; db: unknown } | undefined;

export async function cachedDncDataDate(db: Executor) {
  const now = Date.now();
  if (dataDateCache && dataDateCache.db === db && dataDateCache.expires > now) return dataDateCache.value;
  const value = await latestDncDataDate(db);
  dataDateCache = { value, expires: now + DATA_DATE_TTL_MS, db };
  return value;
}

export function forgetDncDataDate() {
  dataDateCache = undefined;
}

export async function latestDncDataDate(db: Executor): Promise<string | null> {
  const [latest] = await db
    .select({ dataDate: dncImports.dataDate })
    .from(dncImports)
    .orderBy(desc(dncImports.dataDate))
    .limit(1);
  return latest?.dataDate ?? null;
}

/** Our own Do-Not-Call list: a number that said STOP is never texted again until it says START. */
export async function addInternalDnc(db: Executor, national10: string) {
  await db.insert(dncNumbers).values({ phone: national10, source: "internal" }).onConflictDoNothing();
}

export async function removeInternalDnc(db: Executor, national10: string) {
  await db.delete(dncNumbers).where(and(eq(dncNumbers.phone, national10), eq(dncNumbers.source, "internal")));
}

export function dncDataAgeDays(dataDate: string | null, now = new Date()) {
  if (!dataDate) return null;
  return Math.floor((now.getTime() - Date.parse(`${dataDate}T00:00:00Z`)) / 86_400_000);
}

export async function countDnc(db: Executor) {
  const result = await db.execute<{ source: string; count: string | number }>(
    sql`SELECT source, count(*)::int AS count FROM dnc_numbers GROUP BY source`,
  );
  const counts = { federal: 0, internal: 0 };
  for (const row of result.rows) counts[row.source as "federal" | "internal"] = Number(row.count);
  return counts;
}

/** What the admin DNC page shows, with the 31-day rule applied. */
export async function dncStatus(db: Executor, now = new Date()) {
  const [counts, dataDate] = await Promise.all([countDnc(db), latestDncDataDate(db)]);
  const ageDays = dncDataAgeDays(dataDate, now);
  return { counts, dataDate, ageDays, maxAgeDays: DNC_MAX_AGE_DAYS, stale: ageDays === null || ageDays > DNC_MAX_AGE_DAYS };
}

/** An admin adds a number to (or removes it from) our own list; the change goes to the audit log. */
export async function changeInternalDnc(db: Executor, input: { phone: string; add: boolean; actor: string }) {
  const phone = checkUsMobile(input.phone);
  if (!phone.ok) return { ok: false as const, message: phone.message };
  if (input.add) await addInternalDnc(db, phone.national);
  else await removeInternalDnc(db, phone.national);
  await db.insert(auditLog).values({ actor: input.actor, action: input.add ? "dnc.add" : "dnc.remove", entity: "dnc_numbers", after: phone.e164 });
  return { ok: true as const, e164: phone.e164 };
}
