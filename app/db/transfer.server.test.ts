import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, consentEvents, session, smsConfig, twoFactor, user, verification } from "~/db/schema";
import { saveWelcomeMessage } from "~/services/admin/welcome-message.server";
import { saveContactMessage } from "~/services/contact.server";
import { importDncFile } from "~/services/dnc/import.server";
import { enqueueEmail } from "~/services/providers/email.server";
import { handleInboundSms } from "~/services/subscription/inbound-sms.server";
import { subscribeToNewsletter } from "~/services/subscription/newsletter-sign-up.server";
import { hitRateLimit, RATE_LIMITS } from "~/services/rate-limit.server";
import { optInToSms } from "~/services/subscription/sms-opt-in.server";
import { createPostgresDatabase, NO_EVIDENCE, openTestDatabase, type TestDatabase } from "../../tests/support/test-db";
import { openDatabase, type DatabaseHandle, type Db } from "./client.server";
import { searchArticles } from "~/services/content/search.server";
import {
  exportDatabase,
  importDatabase,
  readTransferHeader,
  TransferError,
  type ExportResult,
  type ImportResult,
} from "./transfer.server";

/** The newest migration in drizzle/ (the export names the schema it was made with). */
const LATEST_MIGRATION = (JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: { tag: string }[] }).entries.at(-1)!.tag;

const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const, siteUrl: "http://localhost:3000" };
const SITE = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };
const AWKWARD = `'; DROP TABLE subscribers;-- \\ $$ "quoted" 🇺🇸😀\nsecond line\r\n\ttab`;
const DNC_ROWS = 20_000;

/** Every row of every public table as PostgreSQL prints it, in a fixed order. */
async function snapshot(db: Db) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL TimeZone = 'UTC'`);
    const tables = await tx.execute<{ name: string }>(
      sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    const rows: Record<string, string[]> = {};
    for (const { name } of tables.rows) {
      // Generated columns are not copied but computed again by the target, and a search vector
      // (published_articles is rebuilt by the import) is the target's own text-search parser's
      // (PGlite and the server may be different versions).
      const columns = await tx.execute<{ name: string }>(
        sql`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${name} AND is_generated = 'NEVER' AND data_type <> 'tsvector' ORDER BY ordinal_position`,
      );
      const list = sql.join(
        columns.rows.map((column) => sql.identifier(column.name)),
        sql`, `,
      );
      const result = await tx.execute<{ j: string }>(
        sql`SELECT row_to_json(t)::text AS j FROM (SELECT ${list} FROM ${sql.identifier(name)}) t ORDER BY row_to_json(t)::text COLLATE "C"`,
      );
      rows[name] = result.rows.map((row) => row.j);
    }
    // Sequence positions too: setval() is the one change a rollback would not undo.
    const sequences = await tx.execute<{ name: string }>(
      sql`SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = 'public' ORDER BY 1`,
    );
    for (const { name } of sequences.rows) {
      const state = await tx.execute<{ j: string }>(
        sql`SELECT last_value::text || ' ' || is_called::text AS j FROM ${sql.identifier(name)}`,
      );
      rows[`sequence ${name}`] = state.rows.map((row) => row.j);
    }
    return rows;
  });
}

/** Types the app's tables do not use yet, so the generic path is held to them too. */
async function createProbeTable(db: Db) {
  await db.execute(sql`
    CREATE TABLE transfer_probe (
      id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      doc json, docb jsonb, big bigint, amount numeric, ratio float8, raw bytea, tags text[], span interval,
      local_time timestamp, twice int GENERATED ALWAYS AS (id * 2) STORED
    )`);
}

async function fillProbeTable(db: Db) {
  await db.execute(sql`
    INSERT INTO transfer_probe (doc, docb, big, amount, ratio, raw, tags, span, local_time) VALUES
      (${'{\n  "z": 1,  "z": 2, "text": "a\\"b\\\\c"\n}'}::json, ${'{"nested": {"emoji": "🇺🇸", "n": 12345678901234567890}}'}::jsonb,
       9223372036854775807, 12345678901234567890.123456789, 0.1 + 0.2, '\\x00ff10'::bytea, ARRAY['a,b', 'c"d', NULL, '🙂'],
       '1 year 2 mons 3 days 04:05:06.789', '2026-02-03 04:05:06.123456'),
      (NULL, NULL, -9223372036854775808, NULL, 'NaN', NULL, '{}', NULL, NULL)`);
}

/** A realistic embedded install: everything the forms, the inbound webhook, the admin and the DNC import write. */
async function fillThroughServices(db: Db, dir: string) {
  const dncFile = path.join(dir, "dnc.txt");
  writeFileSync(dncFile, Array.from({ length: DNC_ROWS }, (_, i) => `212,${String(5_000_000 + i)}`).join("\n"));
  await importDncFile(db, dncFile, { mode: "add", dataDate: "2026-11-20", actor: "dnc:import" });

  const evidence = { ...NO_EVIDENCE, userAgent: AWKWARD, referrer: "https://example.com/?q=a'b\\c" };
  for (let i = 0; i < 5; i++) {
    const result = await optInToSms(
      db,
      {
        firstName: AWKWARD,
        lastName: `Ross ${i} 🦅`,
        phone: `(213) 456-70${String(i).padStart(2, "0")}`,
        clickId: `click-$$-${i}`,
        smsConsent: true,
        termsConsent: true,
        source: "opt-in",
        evidence,
      },
      SETTINGS,
    );
    expect(result.ok).toBe(true);
  }
  await optInToSms(
    db,
    {
      firstName: "On",
      lastName: "The list",
      phone: "212-500-0001",
      clickId: null,
      smsConsent: true,
      termsConsent: true,
      source: "opt-in",
      evidence,
    },
    SETTINGS,
  );
  await subscribeToNewsletter(
    db,
    {
      firstName: "Zoë",
      lastName: AWKWARD,
      email: "Reader+News@Example.com",
      phone: "",
      smsConsent: false,
      termsConsent: true,
      evidence,
    },
    SETTINGS,
  );
  await handleInboundSms(
    db,
    { messageSid: "SM00000000000000000000000000000001", from: "+12134567001", body: `STOP ${AWKWARD}` },
    SITE,
  );
  await handleInboundSms(
    db,
    { messageSid: "SM00000000000000000000000000000002", from: "+12134567002", body: "HELP" },
    SITE,
  );
  const saved = await saveWelcomeMessage(db, {
    text: `Patriot Investor: welcome 🇺🇸 $$ \\ 'quoted' "double"\nReply STOP to cancel, HELP for help.`,
    expectedVersion: 1,
    actor: "admin@example.com",
  });
  expect(saved.ok).toBe(true);
  await saveContactMessage(
    db,
    { name: AWKWARD, email: "writer@example.com", phone: undefined, subject: "Hi $$", message: AWKWARD },
    { ip: "2001:db8::1", userAgent: null },
  );
  await enqueueEmail(db, {
    to: "reader+news@example.com",
    subject: "Verify",
    text: `Link: https://example.com/verify?token=a'b\n${AWKWARD}`,
    kind: "verify_email",
  });
  await hitRateLimit(db, RATE_LIMITS.optInPerIp, "203.0.113.7");

  const now = new Date("2026-11-21T10:11:12.345Z");
  await db.insert(user).values({
    id: "user-1",
    name: `Admin ${AWKWARD}`,
    email: "admin@example.com",
    emailVerified: true,
    role: "admin",
    createdAt: now,
    updatedAt: now,
    twoFactorEnabled: true,
  });
  await db.insert(account).values({
    id: "account-1",
    accountId: "user-1",
    providerId: "credential",
    userId: "user-1",
    password: "salt:hash$$\\",
    createdAt: now,
    updatedAt: now,
  });
  await db.insert(session).values({
    id: "session-1",
    token: "token-1",
    userId: "user-1",
    expiresAt: new Date("2026-12-01T00:00:00.000Z"),
    updatedAt: now,
    ipAddress: "203.0.113.7",
    userAgent: AWKWARD,
  });
  await db.insert(twoFactor).values({ id: "tf-1", secret: "s3cr3t", backupCodes: '["a","b"]', userId: "user-1" });
  await db.insert(verification).values({
    id: "v-1",
    identifier: "reset-password:x",
    value: "user-1",
    expiresAt: new Date("2026-12-01T00:00:00Z"),
  });
  await db.execute(
    sql`INSERT INTO rate_limit (id, key, count, last_request) VALUES ('rl-1', '/sign-in/email', 2, 9223372036854775807)`,
  );
}

const dncBatches = (all: string[]) => all.flatMap((line, i) => (line.startsWith('{"table":"dnc_numbers"') ? [i] : []));

function lines(file: string) {
  const buffer = readFileSync(file);
  return (buffer[0] === 0x1f ? gunzipSync(buffer) : buffer).toString("utf8").split("\n").filter(Boolean);
}

describe("moving the embedded database to PostgreSQL", () => {
  let dir: string;
  let file: string;
  let dataDir: string;
  let source: DatabaseHandle;
  let target: TestDatabase;
  let spare: TestDatabase;
  let sourceRows: Record<string, string[]>;
  let exported: ExportResult;
  let imported: ImportResult;
  let created: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "transfer-"));
    file = path.join(dir, "export.jsonl.gz");
    dataDir = path.join(dir, "data");
    [source, target, spare] = await Promise.all([
      openDatabase({ dataDir: path.join(dataDir, "pglite") }),
      openTestDatabase("postgres"),
      openTestDatabase("postgres"),
    ]);
    await Promise.all([createProbeTable(source.db), createProbeTable(target.db), createProbeTable(spare.db)]);
    await fillThroughServices(source.db, dir);
    await fillProbeTable(source.db);
    sourceRows = await snapshot(source.db);
    exported = await exportDatabase(source, file, { batchRows: 1_000 });
    imported = await importDatabase(target, file);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([source?.close(), target?.drop(), spare?.drop(), created?.drop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("writes a header with the counts, then the rows in batches, then an end line", async () => {
    const header = await readTransferHeader(file);
    expect(header).toMatchObject({
      format: "patriot-investor-data",
      version: 1,
      source: { kind: "pglite" },
      schema: { migration: LATEST_MIGRATION },
    });
    const counts = Object.fromEntries(header.tables.map((table) => [table.name, table.rows]));
    expect(counts).toMatchObject({
      dnc_numbers: DNC_ROWS + 1,
      subscribers: 7,
      user: 1,
      sms_config: 1,
      transfer_probe: 2,
    });
    expect(header.tables.map((table) => table.name).indexOf("subscribers")).toBeLessThan(
      header.tables.map((table) => table.name).indexOf("consent_events"),
    );
    const all = lines(file);
    expect(all.filter((line) => line.startsWith('{"table":"dnc_numbers"'))).toHaveLength(
      Math.ceil((DNC_ROWS + 1) / 1_000),
    );
    expect(JSON.parse(all.at(-1)!)).toEqual({ end: true, batches: exported.batches, rows: exported.rows });
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it("copies every table's rows exactly: awkward text, times, json, bigints, nulls and the edited welcome text", async () => {
    const targetRows = await snapshot(target.db);
    expect(Object.keys(targetRows)).toEqual(Object.keys(sourceRows));
    for (const name of Object.keys(sourceRows)) expect(targetRows[name], name).toEqual(sourceRows[name]);
    expect(imported.tables.find((table) => table.name === "dnc_numbers")?.rows).toBe(DNC_ROWS + 1);
    // The search rows are not in the file but rebuilt from the articles it brought.
    expect(imported.tables.map((table) => table.name)).not.toContain("published_articles");
    expect(targetRows.published_articles!.length).toBeGreaterThan(0);
    expect((await searchArticles(target.db, "gold")).total).toBeGreaterThan(0);
    const [config] = await target.db.select().from(smsConfig);
    expect(config).toMatchObject({ version: 2, updatedBy: "admin@example.com" });
    expect(config!.welcomeMessage).toContain(`🇺🇸 $$ \\ 'quoted' "double"\nReply`);
    const probe = await target.db.execute<{ doc: string; big: string }>(
      sql`SELECT doc::text AS doc, big::text AS big FROM transfer_probe ORDER BY id`,
    );
    expect(probe.rows[0]).toEqual({ doc: '{\n  "z": 1,  "z": 2, "text": "a\\"b\\\\c"\n}', big: "9223372036854775807" });
    const names = await target.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM subscribers WHERE first_name = ${AWKWARD}`,
    );
    expect(names.rows[0]!.n).toBe(5);
  });

  it("moves every sequence on, so new rows get new ids", async () => {
    const before = await target.db.execute<{ events: string; messages: string; audit: string }>(
      sql`SELECT (SELECT max(id) FROM consent_events)::text AS events, (SELECT max(id) FROM campaign_recipients)::text AS messages, (SELECT max(id) FROM audit_log)::text AS audit`,
    );
    const result = await optInToSms(
      target.db,
      {
        firstName: "New",
        lastName: "Person",
        phone: "213-456-7099",
        clickId: null,
        smsConsent: true,
        termsConsent: true,
        source: "opt-in",
        evidence: NO_EVIDENCE,
      },
      SETTINGS,
    );
    expect(result.ok).toBe(true);
    const saved = await saveWelcomeMessage(target.db, {
      text: "Patriot Investor: hello again. Reply STOP to cancel.",
      expectedVersion: 2,
      actor: "admin@example.com",
    });
    expect(saved).toMatchObject({ ok: true, version: 3 });
    await target.db.execute(sql`INSERT INTO transfer_probe (big) VALUES (1)`);
    const after = await target.db.execute<{ events: string; messages: string; audit: string; probe: number }>(
      sql`SELECT (SELECT max(id) FROM consent_events)::text AS events, (SELECT max(id) FROM campaign_recipients)::text AS messages,
        (SELECT max(id) FROM audit_log)::text AS audit, (SELECT max(id) FROM transfer_probe) AS probe`,
    );
    expect(Number(after.rows[0]!.events)).toBe(Number(before.rows[0]!.events) + 1);
    expect(Number(after.rows[0]!.messages)).toBe(Number(before.rows[0]!.messages) + 1);
    expect(Number(after.rows[0]!.audit)).toBe(Number(before.rows[0]!.audit) + 1);
    expect(after.rows[0]!.probe).toBe(3);
  });

  it("keeps the consent evidence append-only on the target", async () => {
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => "no error",
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ""}`,
      );
    expect(await failure(target.db.update(consentEvents).set({ ip: "198.51.100.1" }))).toMatch(/append-only/);
    expect(await failure(target.db.execute(sql`DELETE FROM consent_events`))).toMatch(/append-only/);
  });

  it("refuses a target that already holds data and changes nothing there", async () => {
    const before = await snapshot(target.db);
    await expect(importDatabase(target, file)).rejects.toThrow(/already holds data \(.*subscribers: 8 rows/);
    expect(await snapshot(target.db)).toEqual(before);
  });

  describe("a damaged file is refused and the target stays as it was", () => {
    let untouched: Record<string, string[]>;
    beforeAll(async () => {
      untouched = await snapshot(spare.db);
    });

    it.each([
      [
        "a gzip file cut short",
        (all: string[]) => gzipSync(`${all.join("\n")}\n`).subarray(0, 9_000),
        /damaged or incomplete/,
      ],
      [
        "a file that stops before its end line",
        (all: string[]) => all.slice(0, -1).join("\n"),
        /incomplete: it stops before its end line/,
      ],
      [
        "a file missing a batch of rows",
        (all: string[]) => all.filter((_, i) => i !== dncBatches(all)[5]).join("\n"),
        /does not match its header[\s\S]*dnc_numbers: 19001 rows loaded, 20001 expected/,
      ],
      [
        "a file with an altered row",
        (all: string[]) => all.map((line) => line.replace('"first_name":"On"', '"first_name":"Off"')).join("\n"),
        /subscribers: the rows' checksum differs/,
      ],
      [
        "a file with a broken row",
        (all: string[]) =>
          all.map((line, i) => (i === dncBatches(all).at(-1) ? line.replace('{"phone"', '{phone"') : line)).join("\n"),
        /Loading dnc_numbers failed at line \d+ of .*: invalid input syntax for type json/,
      ],
      [
        "a file with rows of an unknown table",
        (all: string[]) => [...all.slice(0, 2), '{"table":"elsewhere","rows":[{}]}', ...all.slice(2)].join("\n"),
        /a table its header does not list/,
      ],
    ])("%s", async (_, damage, message) => {
      const damaged = path.join(dir, "damaged.jsonl");
      writeFileSync(damaged, damage(lines(file)));
      await expect(importDatabase(spare, damaged)).rejects.toThrow(message);
      expect(await snapshot(spare.db)).toEqual(untouched);
    });

    it("refuses files of another format version, no export at all, and no file", async () => {
      const [header, ...rest] = lines(file);
      const other = path.join(dir, "other.jsonl");
      writeFileSync(other, [JSON.stringify({ ...JSON.parse(header!), version: 2 }), ...rest].join("\n"));
      await expect(importDatabase(spare, other)).rejects.toThrow(
        /format version 2; this version of the app reads version 1/,
      );
      writeFileSync(other, "phone\n2125550000\n");
      await expect(importDatabase(spare, other)).rejects.toThrow(/not a data export of this app/);
      await expect(importDatabase(spare, path.join(dir, "missing.jsonl.gz"))).rejects.toThrow(TransferError);
      expect(await snapshot(spare.db)).toEqual(untouched);
    });

    it("refuses a target whose only data is one account", async () => {
      await spare.db.insert(user).values({ id: "someone", name: "Someone", email: "someone@example.com" });
      await expect(importDatabase(spare, file)).rejects.toThrow(/already holds data \(user: 1 rows\)/);
    });
  });

  async function run(script: string, args: string[], env: Record<string, string>) {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, ...args], {
        env: { ...process.env, NODE_ENV: "test", DATABASE_URL: "", ...env },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it("does the same as commands: db:export of the PGlite folder, db:import into a new PostgreSQL database, and a clear refusal for each problem", async () => {
    await source.close();
    created = await createPostgresDatabase();
    const prepared = await openDatabase({ url: created.url, connectTimeoutMs: 60_000 });
    await createProbeTable(prepared.db);
    await prepared.close();
    const backup = path.join(dir, "backup.jsonl.gz");

    const exportRun = await run("scripts/db-export.ts", [backup], { DATA_DIR: dataDir });
    expect(exportRun.stderr).toContain(`Exporting the embedded database in ${path.join(dataDir, "pglite")}`);
    expect(exportRun.stdout).toMatch(/subscribers\s+7\n/);
    expect(exportRun.stdout).toMatch(/dnc_numbers\s+20,001\n/);
    expect(exportRun.code).toBe(0);

    const importRun = await run("scripts/db-import.ts", [backup], { DATABASE_URL: created.url });
    expect(importRun.stdout).toMatch(/dnc_numbers\s+20,001\n/);
    expect(importRun.stdout).toContain("every table's count and checksum match the file");
    expect(importRun.code).toBe(0);

    const [again, refused, missing, garbage] = await Promise.all([
      run("scripts/db-import.ts", [backup], { DATABASE_URL: created.url }),
      run("scripts/db-import.ts", [backup, "--to", "postgres://postgres@127.0.0.1:1/nowhere"], {}),
      run("scripts/db-import.ts", [path.join(dir, "missing.jsonl.gz")], { DATABASE_URL: created.url }),
      run("scripts/db-import.ts", ["package.json"], { DATABASE_URL: created.url }),
    ]);
    expect(again).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/already holds data \(.*subscribers: 7 rows/),
    });
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("Cannot connect to PostgreSQL at 127.0.0.1:1/nowhere: connection refused"),
    });
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining("No such file") });
    expect(garbage).toMatchObject({ code: 1, stderr: expect.stringContaining("not a data export of this app") });
    for (const result of [again, refused, missing, garbage]) expect(result.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);
});
