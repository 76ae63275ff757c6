import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { exportDatabase, importDatabase, readTransferHeader } from "~/db/transfer.server";
import { NO_EVIDENCE, openTestDatabase, type TestDatabase } from "../../../tests/support/test-db";
import { optInToSms } from "../subscription/sms-opt-in.server";
import { createFlusher } from "./flusher.server";
import { createRecorder } from "./recorder";
import { createRollupWriter } from "./rollup-writer.server";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function countSome(db: Db, paths: string[]) {
  const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 1000, ownHosts: [] });
  const writer = createRollupWriter(db);
  paths.forEach((path, index) => recorder.count({ path, query: "utm_source=news&utm_medium=email" }, { "user-agent": CHROME, "accept-language": "en", "sec-fetch-mode": "navigate" }, `203.0.${index}.9`));
  recorder.count({ path: "/", query: "" }, { "user-agent": "curl/8.5.0" }, "198.51.100.1");
  await createFlusher({ recorder, writer, salts: writer, site: "https://patriotinvestor.example" }).flush();
}

async function rows(db: Db, query: ReturnType<typeof sql>) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL TimeZone = 'UTC'`);
    return (await tx.execute<{ j: string }>(query)).rows.map((row) => row.j);
  });
}
const rollups = (db: Db) =>
  Promise.all([
    rows(db, sql`SELECT row_to_json(t)::text AS j FROM analytics_daily t ORDER BY 1`),
    rows(db, sql`SELECT row_to_json(t)::text AS j FROM analytics_hourly t ORDER BY 1`),
  ]);

describe("analytics through db:export and db:import", () => {
  let dir: string;
  let source: TestDatabase;
  let target: TestDatabase;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "analytics-transfer-"));
    [source, target] = await Promise.all([openTestDatabase("pglite"), openTestDatabase("postgres")]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([source?.drop(), target?.drop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("carries the rollups and the sign-ups' attributions, never the day's salt, the visitor hashes or the visits' entries, and replaces a new install's first counts", async () => {
    await countSome(source.db, ["/a", "/a", "/b"]);
    const signUp = await optInToSms(
      source.db,
      { firstName: "Betsy", lastName: "Ross", phone: "(212) 456-7090", smsConsent: true, termsConsent: true, source: "opt-in", evidence: { ...NO_EVIDENCE, pageUrl: "https://patriotinvestor.example/opt-in?sub2=carried" } },
      { siteName: "Patriot Investor", dncPolicy: "refuse" },
    );
    expect(signUp).toMatchObject({ ok: true });
    expect((await source.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM analytics_visit_entries`)).rows[0]!.n).toBe(3);
    // The target is a new install that already counted a visit of its own.
    await countSome(target.db, ["/first-visit"]);
    const file = path.join(dir, "export.jsonl.gz");
    await exportDatabase(source, file);
    const header = await readTransferHeader(file);
    const names = header.tables.map((table) => table.name);
    expect(names).toEqual(expect.arrayContaining(["analytics_daily", "analytics_hourly"]));
    expect(names).toContain("subscription_attributions");
    for (const name of ["analytics_salts", "analytics_visitors", "analytics_visit_entries", "analytics_flushes"]) expect(names).not.toContain(name);
    const salt = (await source.db.execute<{ salt: string }>(sql`SELECT encode(salt, 'hex') AS salt FROM analytics_salts`)).rows[0]!.salt;
    const text = gunzipSync(readFileSync(file)).toString("utf8");
    expect(text).not.toContain(salt);
    expect(text).not.toContain("analytics_visitors");

    await importDatabase(target, file);
    expect(await rollups(target.db)).toEqual(await rollups(source.db));
    const attributions = (db: Db) => rows(db, sql`SELECT row_to_json(t)::text AS j FROM subscription_attributions t ORDER BY 1`);
    expect(await attributions(target.db)).toEqual(await attributions(source.db));
    expect(await attributions(target.db)).toHaveLength(1);
    const visits = await target.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM analytics_daily WHERE value = '/first-visit'`);
    expect(visits.rows[0]!.n).toBe(0);
  });
});
