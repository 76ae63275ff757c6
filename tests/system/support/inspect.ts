import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, toNumber, type DatabaseHandle } from "~/db/client.server";

/** Opens the database a (stopped) site used: its PGlite folder, or its PostgreSQL database. */
export function openSiteDatabase(target: { dataDir?: string; url?: string }): Promise<DatabaseHandle> {
  return target.url
    ? openDatabase({ url: target.url, connectTimeoutMs: 60_000 })
    : openDatabase({ dataDir: path.join(target.dataDir!, "pglite") });
}

export async function rows<T>(handle: DatabaseHandle, query: string): Promise<T[]> {
  const result = (await handle.db.execute(sql.raw(query))) as unknown as { rows: T[] };
  return result.rows;
}

async function countByPhone(handle: DatabaseHandle, query: string) {
  const counts = new Map<string, number>();
  for (const row of await rows<{ phone: string; n: unknown }>(handle, query)) counts.set(row.phone, toNumber(row.n));
  return counts;
}

/** Per phone number: subscriber rows, consent events and welcome texts queued. */
export async function smsRecordsByPhone(handle: DatabaseHandle) {
  return {
    subscribers: await countByPhone(handle, "SELECT phone_e164 AS phone, count(*) AS n FROM subscribers WHERE channel = 'sms' GROUP BY 1"),
    consentEvents: await countByPhone(handle, "SELECT phone_e164 AS phone, count(*) AS n FROM consent_events WHERE channel = 'sms' GROUP BY 1"),
    welcomes: await countByPhone(handle, "SELECT address AS phone, count(*) AS n FROM campaign_recipients WHERE kind = 'welcome' GROUP BY 1"),
  };
}
