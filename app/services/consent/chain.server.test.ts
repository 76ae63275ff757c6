import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, toNumber, type Db } from "~/db/client.server";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { optInToSms } from "../subscription/sms-opt-in.server";
import {
  chainHash,
  headMessage,
  latestSignedHead,
  sealConsentChain,
  signConsentChainHead,
  startConsentChain,
  verifyConsentChain,
} from "./chain.server";
import { consentPublicKey, consentSigner } from "./signing.server";

const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const };
const signer = consentSigner("chain-test-secret-0123456789-abcdefghijklmnop");
const otherSigner = consentSigner("someone-else-s-secret-0123456789-abcdefghijk");

let phoneCounter = 0;
async function optIn(db: Db) {
  phoneCounter++;
  const phone = `212-456-${String(1000 + phoneCounter).padStart(4, "0")}`;
  const result = await optInToSms(
    db,
    {
      firstName: "Betsy",
      lastName: "Ross",
      phone,
      clickId: `click-${phoneCounter}`,
      smsConsent: true,
      termsConsent: true,
      source: "opt-in",
      evidence: NO_EVIDENCE,
    },
    SETTINGS,
  );
  expect(result).toMatchObject({ ok: true });
}

async function eventIds(db: Db) {
  const result = await db.execute<{ id: unknown }>(sql`SELECT id FROM consent_events ORDER BY id`);
  return result.rows.map((row) => toNumber(row.id));
}

/** Runs `tamper` as someone with direct access to the database: the append-only triggers off, then back on. */
async function tamper(
  db: Db,
  table: "consent_events" | "consent_chain" | "consent_chain_heads",
  statements: ReturnType<typeof sql>[],
) {
  await db.execute(sql.raw(`ALTER TABLE ${table} DISABLE TRIGGER ALL`));
  try {
    for (const statement of statements) await db.execute(statement);
  } finally {
    await db.execute(sql.raw(`ALTER TABLE ${table} ENABLE TRIGGER ALL`));
  }
}

describe.each(DB_KINDS)("consent hash chain on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("seals every consent event in one linear chain and signs its head", async () => {
    const { db } = database;
    for (let i = 0; i < 6; i++) await optIn(db);
    const before = await verifyConsentChain(db, signer);
    expect(before.pending).toBe(6);
    expect(await sealConsentChain(db)).toBe(6);
    const head = await signConsentChainHead(db, signer);
    expect(head).toMatchObject({ seq: 6, keyId: signer.keyId });
    const result = await verifyConsentChain(db, signer);
    expect(result).toMatchObject({ ok: true, checked: 6, pending: 0, headSigned: true, problem: null });
    // Nothing new: no new signature.
    expect(await signConsentChainHead(db, signer)).toBeNull();
  });

  it("names an event edited in the database", async () => {
    const { db } = database;
    const ids = await eventIds(db);
    const target = ids[2]!;
    await tamper(db, "consent_events", [sql`UPDATE consent_events SET sms_checkbox = false WHERE id = ${target}`]);
    const result = await verifyConsentChain(db, signer);
    expect(result.ok).toBe(false);
    expect(result.problem).toMatchObject({ kind: "edited", eventId: target, seq: 3 });
    expect(result.checked).toBe(2);
    await tamper(db, "consent_events", [sql`UPDATE consent_events SET sms_checkbox = true WHERE id = ${target}`]);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
  });

  it("notices an edit of the time by a microsecond", async () => {
    const { db } = database;
    const target = (await eventIds(db))[4]!;
    await tamper(db, "consent_events", [
      sql`UPDATE consent_events SET occurred_at = occurred_at + interval '1 microsecond' WHERE id = ${target}`,
    ]);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "edited", eventId: target });
    await tamper(db, "consent_events", [
      sql`UPDATE consent_events SET occurred_at = occurred_at - interval '1 microsecond' WHERE id = ${target}`,
    ]);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
  });

  it("names an event deleted from the database", async () => {
    const { db } = database;
    const target = (await eventIds(db))[3]!;
    await tamper(db, "consent_events", [
      sql`CREATE TEMP TABLE saved_event AS SELECT * FROM consent_events WHERE id = ${target}`,
      sql`DELETE FROM consent_events WHERE id = ${target}`,
    ]);
    const result = await verifyConsentChain(db, signer);
    expect(result.problem).toMatchObject({ kind: "deleted", eventId: target, seq: 4 });
    await tamper(db, "consent_events", [
      sql`INSERT INTO consent_events SELECT * FROM saved_event`,
      sql`DROP TABLE saved_event`,
    ]);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
  });

  it("names the first of two events whose places were swapped", async () => {
    const { db } = database;
    const ids = await eventIds(db);
    const [a, b] = [ids[1]!, ids[2]!];
    const swap = [
      sql`UPDATE consent_events SET id = -1 WHERE id = ${a}`,
      sql`UPDATE consent_events SET id = ${a} WHERE id = ${b}`,
      sql`UPDATE consent_events SET id = ${b} WHERE id = -1`,
    ];
    await tamper(db, "consent_events", swap);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "edited", eventId: a, seq: 2 });
    await tamper(db, "consent_events", swap);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
  });

  it("names the first chain row out of order when the chain's rows are re-ordered, and a removed chain row", async () => {
    const { db } = database;
    const swap = [
      sql`UPDATE consent_chain SET seq = -1 WHERE seq = 3`,
      sql`UPDATE consent_chain SET seq = 3 WHERE seq = 4`,
      sql`UPDATE consent_chain SET seq = 4 WHERE seq = -1`,
    ];
    await tamper(db, "consent_chain", swap);
    const ids = await eventIds(db);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({
      kind: "reordered",
      seq: 3,
      eventId: ids[3],
    });
    await tamper(db, "consent_chain", swap);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);

    await tamper(db, "consent_chain", [
      sql`CREATE TEMP TABLE saved_link AS SELECT * FROM consent_chain WHERE seq = 5`,
      sql`DELETE FROM consent_chain WHERE seq = 5`,
    ]);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "missing_link", seq: 6 });
    await tamper(db, "consent_chain", [
      sql`INSERT INTO consent_chain SELECT * FROM saved_link`,
      sql`DROP TABLE saved_link`,
    ]);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
  });

  it("catches a chain rewritten after an edit by its signed head, and a head signed by another key", async () => {
    const { db } = database;
    const last = (await eventIds(db)).at(-1)!;
    const row = await db.execute<{ prev_hash: string; hash: string }>(
      sql`SELECT prev_hash, hash FROM consent_chain WHERE seq = 6`,
    );
    const original = row.rows[0]!.hash;
    // The forger edits the newest event and recomputes its chain row, so the chain is consistent.
    await tamper(db, "consent_events", [sql`UPDATE consent_events SET first_name = 'Mallory' WHERE id = ${last}`]);
    const json = await db.execute<{ first_name: string }>(
      sql`SELECT first_name FROM consent_events WHERE id = ${last}`,
    );
    expect(json.rows[0]!.first_name).toBe("Mallory");
    const { canonicalEventJson } = await import("./chain.server");
    const canonical = await db.execute<Record<string, unknown>>(sql`
      SELECT id::text AS id, subscriber_id::text AS subscriber_id, channel, action, phone_e164, phone_raw, email, first_name, last_name,
        consent_text, consent_version, consent_text_sha256, terms_text, terms_version, sms_checkbox, terms_checkbox, ip, user_agent,
        accept_language, page_url, referrer, click_id, source, dnc_policy, dnc_result, to_char(dnc_data_date, 'YYYY-MM-DD') AS dnc_data_date,
        inbound_message_sid, inbound_body, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at
      FROM consent_events WHERE id = ${last}`);
    const forged = chainHash(6, row.rows[0]!.prev_hash, canonicalEventJson(canonical.rows[0]!));
    await tamper(db, "consent_chain", [sql`UPDATE consent_chain SET hash = ${forged} WHERE seq = 6`]);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "head_mismatch", seq: 6 });

    // Signing the forged head with another key does not help: the genuine head still names the rewrite.
    await signConsentChainHead(db, otherSigner);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "head_mismatch", seq: 6 });

    await tamper(db, "consent_chain", [sql`UPDATE consent_chain SET hash = ${original} WHERE seq = 6`]);
    await tamper(db, "consent_events", [sql`UPDATE consent_events SET first_name = 'Betsy' WHERE id = ${last}`]);
    await signConsentChainHead(db, signer);
    // Every head is checked, not only the newest: the other key's head is still named.
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "head_signature", seq: 6 });
    await tamper(db, "consent_chain_heads", [sql`DELETE FROM consent_chain_heads WHERE key_id = ${otherSigner.keyId}`]);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
  });

  it("names an event inserted around the trigger", async () => {
    const { db } = database;
    await tamper(db, "consent_events", [
      sql`INSERT INTO consent_events (subscriber_id, channel, action) SELECT subscriber_id, channel, 'help' FROM consent_events ORDER BY id LIMIT 1`,
    ]);
    const stray = Math.max(...(await eventIds(db)));
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "unsealed", eventId: stray });
  });
});

describe("consent hash chain with concurrent opt-ins and sealers on postgres", () => {
  const database = useTestDatabase("postgres");

  it("stays linear while several connections insert and two processes seal at once", async () => {
    const { db } = database;
    const second = await openDatabase({ url: database.url!, connectTimeoutMs: 60_000 });
    try {
      let sealing = true;
      const sealers = [db, second.db].map(async (handle) => {
        let sealed = 0;
        while (sealing) sealed += await sealConsentChain(handle);
        return sealed;
      });
      await Promise.all(Array.from({ length: 40 }, (_, i) => optIn(i % 2 === 0 ? db : second.db)));
      sealing = false;
      const sealedDuring = (await Promise.all(sealers)).reduce((sum, n) => sum + n, 0);
      const sealedAfter = await sealConsentChain(db);
      expect(sealedDuring + sealedAfter).toBe(40);
      await signConsentChainHead(second.db, signer);
      expect(await verifyConsentChain(db, signer)).toMatchObject({
        ok: true,
        checked: 40,
        pending: 0,
        headSigned: true,
      });
    } finally {
      await second.close();
    }
  });
});

describe("consent hash chain through db:export and db:import", () => {
  const from = useTestDatabase("pglite");
  const to = useTestDatabase("postgres");

  it("verifies on PostgreSQL after moving from the embedded database, queued events included", async () => {
    const { exportDatabase, importDatabase } = await import("~/db/transfer.server");
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    for (let i = 0; i < 3; i++) await optIn(from.db);
    await sealConsentChain(from.db);
    await signConsentChainHead(from.db, signer);
    await optIn(from.db); // still queued when exported
    const file = path.join(mkdtempSync(path.join(tmpdir(), "chain-")), "export.jsonl");
    await exportDatabase({ kind: "pglite", db: from.db }, file);
    await importDatabase({ db: to.db }, file);
    expect(await verifyConsentChain(to.db, signer)).toMatchObject({
      ok: true,
      checked: 3,
      pending: 1,
      headSigned: true,
    });
    expect(await sealConsentChain(to.db)).toBe(1);
    expect(await verifyConsentChain(to.db, signer)).toMatchObject({ ok: true, checked: 4, pending: 0 });
  });
});

describe.each(DB_KINDS)("consent chain versions on %s", (kind) => {
  const database = useTestDatabase(kind);
  const interaction = {
    v: 1 as const,
    loadedMs: 800,
    hydratedMs: 1_200,
    typingMs: { firstName: 900, lastName: 700, phone: 2_100 },
    tickedMs: { smsConsent: 8_000, termsConsent: 8_600 },
    submittedMs: 9_900,
  };

  it("version 4 and later cover what the person did on the form, the page it was served in and when it was sent: an edited timing, page or time is named", async () => {
    const { db } = database;
    const result = await optInToSms(
      db,
      {
        firstName: "Abigail",
        lastName: "Adams",
        phone: "212-456-7001",
        clickId: null,
        smsConsent: true,
        termsConsent: true,
        source: "opt-in",
        evidence: { ...NO_EVIDENCE, formServedAt: new Date("2026-11-26T14:30:05.123Z") },
        interaction,
        servedPageSha256: "a".repeat(64),
      },
      SETTINGS,
    );
    expect(result).toMatchObject({ ok: true });
    await sealConsentChain(db);
    const link = await db.execute<{ version: unknown; event_id: unknown }>(
      sql`SELECT version, event_id FROM consent_chain ORDER BY seq DESC LIMIT 1`,
    );
    expect(toNumber(link.rows[0]!.version)).toBe(5);
    const target = toNumber(link.rows[0]!.event_id);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
    await tamper(db, "consent_events", [
      sql`UPDATE consent_events SET interaction = jsonb_set(interaction, '{submittedMs}', '2500') WHERE id = ${target}`,
    ]);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "edited", eventId: target });
    await tamper(db, "consent_events", [
      sql`UPDATE consent_events SET interaction = jsonb_set(interaction, '{submittedMs}', '9900') WHERE id = ${target}`,
    ]);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
    await tamper(db, "consent_events", [
      sql`UPDATE consent_events SET served_page_sha256 = ${"b".repeat(64)} WHERE id = ${target}`,
    ]);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "edited", eventId: target });
    await tamper(db, "consent_events", [
      sql`UPDATE consent_events SET served_page_sha256 = ${"a".repeat(64)} WHERE id = ${target}`,
    ]);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
    // A millisecond earlier looks like a slower person: named all the same.
    await tamper(db, "consent_events", [
      sql`UPDATE consent_events SET form_served_at = form_served_at - interval '1 millisecond' WHERE id = ${target}`,
    ]);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "edited", eventId: target });
    await tamper(db, "consent_events", [
      sql`UPDATE consent_events SET form_served_at = '2026-11-26T14:30:05.123Z' WHERE id = ${target}`,
    ]);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
  });

  it("rows sealed as version 1 (before the form's record was covered) still verify, and only as version 1", async () => {
    const { db } = database;
    const { canonicalEventJson, GENESIS_HASH } = await import("./chain.server");
    const row = await db.execute<Record<string, unknown>>(sql`
      SELECT id::text AS id, subscriber_id::text AS subscriber_id, channel, action, phone_e164, phone_raw, email, first_name, last_name,
        consent_text, consent_version, consent_text_sha256, terms_text, terms_version, sms_checkbox, terms_checkbox, ip, user_agent,
        accept_language, page_url, referrer, click_id, source, dnc_policy, dnc_result, to_char(dnc_data_date, 'YYYY-MM-DD') AS dnc_data_date,
        inbound_message_sid, inbound_body, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at
      FROM consent_events ORDER BY id LIMIT 1`);
    // The chain's first row as an older release sealed it: version 1, hashed without `interaction`.
    const v1 = chainHash(1, GENESIS_HASH, canonicalEventJson(row.rows[0]!, 1), 1);
    await tamper(db, "consent_chain", [sql`UPDATE consent_chain SET version = 1, hash = ${v1} WHERE seq = 1`]);
    expect((await verifyConsentChain(db, signer)).ok).toBe(true);
    // Claiming version 2 for that hash does not pass.
    await tamper(db, "consent_chain", [sql`UPDATE consent_chain SET version = 2 WHERE seq = 1`]);
    expect((await verifyConsentChain(db, signer)).problem).toMatchObject({ kind: "edited", seq: 1 });
  });
});

describe.each(DB_KINDS)("consent signing key rotation on %s", (kind) => {
  const database = useTestDatabase(kind);
  const keyA = consentSigner("rotation-key-a-0123456789-abcdefghijklmnopqr");
  const keyB = consentSigner("rotation-key-b-0123456789-abcdefghijklmnopqr");
  // As CONSENT_RETIRED_PUBLIC_KEYS configures it: the public key alone, A's secret may be gone.
  const retiredA = [consentPublicKey(keyA.publicKey)];
  const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };
  const HOUR = 3_600_000;

  async function headCount(db: Db) {
    const result = await db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM consent_chain_heads`);
    return toNumber(result.rows[0]!.n);
  }

  it("refuses a head signed by the old key when it is not listed as retired, naming the key", async () => {
    const { db } = database;
    for (let i = 0; i < 3; i++) await optIn(db);
    await sealConsentChain(db);
    await signConsentChainHead(db, keyA);
    const result = await verifyConsentChain(db, keyB);
    expect(result).toMatchObject({
      ok: false,
      headSigned: false,
      headKey: null,
      problem: { kind: "head_signature", seq: 3 },
    });
    expect(result.problem!.detail).toContain(keyA.keyId);
    expect(result.problem!.detail).toMatch(/neither this server's key .* nor a retired one/);
    // Another retired key does not stand in for it.
    expect((await verifyConsentChain(db, keyB, [consentPublicKey(otherSigner.publicKey)])).problem).toMatchObject({
      kind: "head_signature",
    });
  });

  it("verifies the old key's head once it is listed as retired, and the next drain signs with the new key at once", async () => {
    const { db } = database;
    expect(await verifyConsentChain(db, keyB, retiredA)).toMatchObject({
      ok: true,
      checked: 3,
      headSigned: true,
      headKey: { status: "retired", keyId: keyA.keyId, publicKey: keyA.publicKey },
    });
    // Nothing was sealed since and the interval (an hour) has not passed: due anyway, because A is retired.
    const before = await headCount(db);
    const processes = [1, 2].map(() =>
      startConsentChain({
        db,
        signer: keyB,
        retiredKeys: retiredA,
        logger: quietLogger,
        signEveryMs: HOUR,
        autoStart: false,
      }),
    );
    try {
      for (const loop of processes) await loop.runOnce();
    } finally {
      await Promise.all(processes.map((loop) => loop.stop()));
    }
    // Signed once, by the first process; the second found the head already signed with B.
    expect(await headCount(db)).toBe(before + 1);
    expect(await latestSignedHead(db)).toMatchObject({ seq: 3, keyId: keyB.keyId, publicKey: keyB.publicKey });
    expect(await verifyConsentChain(db, keyB, retiredA)).toMatchObject({
      ok: true,
      headKey: { status: "current", keyId: keyB.keyId },
    });
  });

  it("refuses a head inserted with an attacker's key, even with the attacker's public key in the row or a configured key's id", async () => {
    const { db } = database;
    const attacker = consentSigner("attacker-secret-0123456789-abcdefghijklmnopq");
    const chainHead = await db.execute<{ hash: string }>(sql`SELECT hash FROM consent_chain WHERE seq = 3`);
    const hash = chainHead.rows[0]!.hash;
    const insertForgedHead = async (keyId: string) => {
      const signedAt = new Date().toISOString();
      await db.execute(sql`
        INSERT INTO consent_chain_heads (seq, hash, key_id, public_key, signature, signed_at)
        VALUES (3, ${hash}, ${keyId}, ${attacker.publicKey}, ${attacker.sign(headMessage(3, hash, signedAt))}, ${signedAt})`);
    };

    await insertForgedHead(attacker.keyId);
    const unknown = await verifyConsentChain(db, keyB, retiredA);
    expect(unknown).toMatchObject({ ok: false, headKey: null, problem: { kind: "head_signature", seq: 3 } });
    expect(unknown.problem!.detail).toContain(attacker.keyId);
    // A head by a key this server does not know waits for the interval: only a retired key's head is re-signed at once.
    expect(await signConsentChainHead(db, keyB, { minIntervalMs: HOUR, retiredKeys: retiredA })).toBeNull();

    // Every head is checked, not only the newest: each forged one is named while it is there.
    const removeForgedHeads = () =>
      db
        .execute(sql`ALTER TABLE consent_chain_heads DISABLE TRIGGER ALL`)
        .then(() => db.execute(sql`DELETE FROM consent_chain_heads WHERE public_key = ${attacker.publicKey}`))
        .finally(() => db.execute(sql`ALTER TABLE consent_chain_heads ENABLE TRIGGER ALL`));
    await removeForgedHeads();
    await insertForgedHead(keyA.keyId);
    expect((await verifyConsentChain(db, keyB, retiredA)).problem).toMatchObject({
      kind: "head_signature",
      detail: expect.stringContaining(`the retired key ${keyA.keyId}`),
    });
    await removeForgedHeads();
    await insertForgedHead(keyB.keyId);
    expect((await verifyConsentChain(db, keyB, retiredA)).problem).toMatchObject({
      kind: "head_signature",
      detail: expect.stringContaining(`this server's key (${keyB.keyId})`),
    });

    // The real key signs over it again; the forged head stays named until it is gone.
    await signConsentChainHead(db, keyB);
    expect((await verifyConsentChain(db, keyB, retiredA)).problem).toMatchObject({ kind: "head_signature", seq: 3 });
    await removeForgedHeads();
    expect(await verifyConsentChain(db, keyB, retiredA)).toMatchObject({ ok: true, headKey: { status: "current" } });
  });
});
