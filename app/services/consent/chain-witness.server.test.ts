import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { toNumber, type Db } from "~/db/client.server";
import { createSmtpTransport } from "~/services/providers/email-transport.server";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { freePort } from "../../../tests/support/ports";
import { startSmtpCapture } from "../../../tests/support/smtp-capture";
import { optInToSms } from "../subscription/sms-opt-in.server";
import {
  acknowledgeChainBreak,
  canonicalEventJsonOf,
  chainHash,
  ConsentChainBrokenError,
  consentChainIntegrity,
  sealConsentChain,
  signConsentChainHead,
  startConsentChain,
  verifyConsentChain,
} from "./chain.server";
import { keepRenderedPage } from "./served-page.server";
import { consentPublicKey, consentSigner } from "./signing.server";
import { mailDailyHead } from "./witness-mail.server";
import { fileWitness, type ConsentWitness } from "./witness.server";

const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const };
const keyA = consentSigner("witness-test-key-a-0123456789-abcdefghijklmn");
const keyB = consentSigner("witness-test-key-b-0123456789-abcdefghijklmn");
const folder = mkdtempSync(path.join(tmpdir(), "consent-witness-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
/** A witness file of its own for each database, as each server has under its DATA_DIR. */
const newWitness = () => fileWitness(path.join(folder, `witness-${++files}`, "consent-witness.jsonl"));

let phones = 0;
async function optIn(db: Db) {
  phones++;
  const result = await optInToSms(
    db,
    {
      firstName: "Betsy",
      lastName: "Ross",
      phone: `212-456-${String(3000 + phones).padStart(4, "0")}`,
      clickId: null,
      smsConsent: true,
      termsConsent: true,
      source: "opt-in",
      evidence: NO_EVIDENCE,
    },
    SETTINGS,
  );
  expect(result).toMatchObject({ ok: true });
}

/** `n` events, each sealed and its head signed at once, as a busy server does once a minute. */
async function growChain(db: Db, witness: ConsentWitness, n: number, signer = keyA) {
  for (let i = 0; i < n; i++) {
    await optIn(db);
    await sealConsentChain(db);
    expect(await signConsentChainHead(db, signer, { witness })).not.toBeNull();
  }
}

/** Statements run as an intruder with psql runs them: the append-only triggers off, then back on. */
async function asIntruder(db: Db, statements: ReturnType<typeof sql>[]) {
  const tables = ["consent_events", "consent_chain", "consent_chain_heads", "served_pages"];
  for (const table of tables) await db.execute(sql.raw(`ALTER TABLE ${table} DISABLE TRIGGER ALL`));
  try {
    for (const statement of statements) await db.execute(statement);
  } finally {
    for (const table of tables) await db.execute(sql.raw(`ALTER TABLE ${table} ENABLE TRIGGER ALL`));
  }
}

/** Deletes the chain's rows from `fromSeq` on, with their events and (with `heads`) the heads over them. */
function deleteTail(fromSeq: number, options: { heads: boolean }) {
  return [
    sql`DELETE FROM consent_events WHERE id IN (SELECT event_id FROM consent_chain WHERE seq >= ${fromSeq})`,
    sql`DELETE FROM consent_chain WHERE seq >= ${fromSeq}`,
    ...(options.heads ? [sql`DELETE FROM consent_chain_heads WHERE seq >= ${fromSeq}`] : []),
  ];
}

async function headCount(db: Db) {
  const result = await db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM consent_chain_heads`);
  return toNumber(result.rows[0]!.n);
}

/** The server's routine: seal and sign on the job loop, as every process runs it. */
function routine(
  db: Db,
  witness: ConsentWitness,
  signer = keyA,
  retiredKeys = [] as ReturnType<typeof consentPublicKey>[],
) {
  const lines: { level: string; entry: Record<string, unknown>; message: string }[] = [];
  const logger = {
    info: (entry: Record<string, unknown>, message: string) => lines.push({ level: "info", entry, message }),
    warn: (entry: Record<string, unknown>, message: string) => lines.push({ level: "warn", entry, message }),
    error: (entry: Record<string, unknown>, message: string) => lines.push({ level: "error", entry, message }),
  };
  const loop = startConsentChain({ db, signer, retiredKeys, witness, logger, signEveryMs: 0, autoStart: false });
  return { loop, lines, errors: () => lines.filter((line) => line.level === "error") };
}

describe.each(DB_KINDS)("the newest event deleted with its chain row, on %s", (kind) => {
  const database = useTestDatabase(kind);
  const witness = newWitness();

  it("is reported before and after the next signing, which refuses to sign over it", async () => {
    const { db } = database;
    await growChain(db, witness, 12);
    expect(await verifyConsentChain(db, keyA, [], witness)).toMatchObject({
      ok: true,
      checked: 12,
      heads: { database: 12, witnessed: 12 },
    });

    // A STOP is the newest event: the intruder deletes it and its chain row, leaving the head.
    await asIntruder(db, deleteTail(12, { heads: false }));
    const before = await verifyConsentChain(db, keyA, [], witness);
    expect(before.problem).toMatchObject({ kind: "head_mismatch", seq: 12 });
    expect(before.problem!.detail).toContain("is no longer in the chain, which now ends at seq 11");

    // The server's routine runs: it refuses, logs one error line however often it polls, and the admin pages show the break.
    const server = routine(db, witness);
    await server.loop.runOnce();
    await server.loop.runOnce();
    expect(server.errors()).toHaveLength(1);
    expect(server.errors()[0]!.message).toContain("no head is signed until this is resolved");
    expect(consentChainIntegrity()).toMatchObject({ state: "broken", problem: { seq: 12 } });
    expect(await headCount(db)).toBe(12);

    // The intruder deletes the head too: the witness file still names it, and the last good one.
    await asIntruder(db, [sql`DELETE FROM consent_chain_heads WHERE seq = 12`]);
    await expect(signConsentChainHead(db, keyA, { witness })).rejects.toBeInstanceOf(ConsentChainBrokenError);
    const after = await verifyConsentChain(db, keyA, [], witness);
    expect(after.problem).toMatchObject({ kind: "witness_mismatch", seq: 12 });
    expect(after.problem!.detail).toContain("The last witnessed head the chain still holds is seq 11");
    expect(after.witness?.lastMatching).toMatchObject({ seq: 11 });

    // A new event takes seq 12 with another hash: still not signed over.
    await optIn(db);
    await server.loop.runOnce();
    expect(await headCount(db)).toBe(11);
    const later = await verifyConsentChain(db, keyA, [], witness);
    expect(later.problem).toMatchObject({ kind: "witness_mismatch", seq: 12 });
    expect(later.problem!.detail).toContain("it was rewritten");
    await server.loop.stop();
  });
});

describe.each(DB_KINDS)("the last ten events deleted with their heads, on %s", (kind) => {
  const database = useTestDatabase(kind);
  const witnessPath = newWitness().path;

  it("is named by the witness after a restart and a key rotation, and signing resumes only after an acknowledgement", async () => {
    const { db } = database;
    await growChain(db, fileWitness(witnessPath), 14);
    await asIntruder(db, deleteTail(5, { heads: true }));
    expect(await verifyConsentChain(db, keyA)).toMatchObject({ ok: true, checked: 4 }); // the database alone shows nothing

    // A restart (a new witness reader on the same file) and a rotation to key B with A retired.
    const witness = fileWitness(witnessPath);
    const retired = [consentPublicKey(keyA.publicKey)];
    const result = await verifyConsentChain(db, keyB, retired, witness);
    expect(result.problem).toMatchObject({ kind: "witness_mismatch", seq: 14 });
    expect(result.problem!.detail).toContain("The last witnessed head the chain still holds is seq 4");
    const server = routine(db, witness, keyB, retired);
    await server.loop.runOnce();
    expect(server.errors()).toHaveLength(1);
    expect(await headCount(db)).toBe(4);

    // Only heads the chain lost can be acknowledged, with a reason; then B signs from the chain as it is.
    expect(
      await acknowledgeChainBreak(db, keyB, retired, witness, { actor: "ops@example.com", reason: "short" }),
    ).toMatchObject({ ok: false });
    const ack = await acknowledgeChainBreak(db, keyB, retired, witness, {
      actor: "ops@example.com",
      reason: "Restored the 2026-11-26 backup after a disk failure",
    });
    expect(ack).toMatchObject({ ok: true, acknowledgement: { broken: { seq: 14 }, resume: { seq: 4 } } });
    await server.loop.runOnce();
    expect(await headCount(db)).toBe(5);
    const verified = await verifyConsentChain(db, keyB, retired, witness);
    expect(verified).toMatchObject({
      ok: true,
      acknowledged: [{ actor: "ops@example.com", broken: { seq: 14 }, resume: { seq: 4 } }],
    });
    const audit = await db.execute<{ action: string }>(
      sql`SELECT action FROM audit_log WHERE entity = 'consent_chain'`,
    );
    expect(audit.rows.map((row) => row.action)).toEqual(["consent.chain_break_acknowledged"]);
    // New events are signed again, and a later cut is caught again.
    await growChain(db, witness, 2, keyB);
    expect((await verifyConsentChain(db, keyB, retired, witness)).ok).toBe(true);
    await asIntruder(db, deleteTail(6, { heads: true }));
    expect((await verifyConsentChain(db, keyB, retired, witness)).problem).toMatchObject({
      kind: "witness_mismatch",
      seq: 6,
    });
    await server.loop.stop();
  });
});

describe.each(DB_KINDS)("a chain rewritten with recomputed hashes, on %s", (kind) => {
  const database = useTestDatabase(kind);
  const witness = newWitness();

  it("passes the row-by-row walk but not the witness, and is never signed over", async () => {
    const { db } = database;
    await growChain(db, witness, 8);
    const links = await db.execute<{ seq: unknown; event_id: unknown; prev_hash: string }>(
      sql`SELECT seq, event_id, prev_hash FROM consent_chain ORDER BY seq`,
    );
    const target = toNumber(links.rows[4]!.event_id);
    // The forger changes the fifth event, recomputes every hash from there, and removes the heads.
    const statements = [
      sql`UPDATE consent_events SET first_name = 'Mallory' WHERE id = ${target}`,
      sql`DELETE FROM consent_chain_heads`,
    ];
    await asIntruder(db, statements);
    const canonical = await canonicalEventJsonOf(
      db,
      links.rows.map((row) => toNumber(row.event_id)),
    );
    let prev = links.rows[3]
      ? (await db.execute<{ hash: string }>(sql`SELECT hash FROM consent_chain WHERE seq = 4`)).rows[0]!.hash
      : "";
    const rewrites = [];
    for (const row of links.rows.slice(4)) {
      const seq = toNumber(row.seq);
      const hash = chainHash(seq, prev, canonical.get(toNumber(row.event_id))!);
      rewrites.push(sql`UPDATE consent_chain SET prev_hash = ${prev}, hash = ${hash} WHERE seq = ${seq}`);
      prev = hash;
    }
    await asIntruder(db, rewrites);
    expect(await verifyConsentChain(db, keyA)).toMatchObject({ ok: true, checked: 8 });
    const result = await verifyConsentChain(db, keyA, [], witness);
    expect(result.problem).toMatchObject({ kind: "witness_mismatch", seq: 8 });
    expect(result.problem!.detail).toContain("it was rewritten");
    expect(result.problem!.detail).toContain("The last witnessed head the chain still holds is seq 4");
    await expect(signConsentChainHead(db, keyA, { witness })).rejects.toBeInstanceOf(ConsentChainBrokenError);
    // An edit is no fault an acknowledgement can pass over once the heads name it: the forged rows stay named.
    expect((await verifyConsentChain(db, keyA, [], witness)).ok).toBe(false);
  });
});

describe.each(DB_KINDS)("every signed head checked, and a kept page edited, on %s", (kind) => {
  const database = useTestDatabase(kind);
  const witness = newWitness();

  it("names an older head whose hash the chain no longer has, and a kept page whose bytes changed", async () => {
    const { db } = database;
    await growChain(db, witness, 5);
    // An older head (seq 2) rewritten to another hash: its signature fails, though the newest head is fine.
    await asIntruder(db, [sql`UPDATE consent_chain_heads SET hash = ${"f".repeat(64)} WHERE seq = 2`]);
    expect((await verifyConsentChain(db, keyA, [], witness)).problem).toMatchObject({ kind: "head_signature", seq: 2 });
    await asIntruder(db, [sql`DELETE FROM consent_chain_heads WHERE seq = 2`]);
    expect((await verifyConsentChain(db, keyA, [], witness)).ok).toBe(true);

    const page = Buffer.from("<!DOCTYPE html><title>Opt in</title><p>Consent is not a condition of any purchase.</p>");
    const sha256 = await keepRenderedPage(db, page, "text/html; charset=utf-8");
    expect((await verifyConsentChain(db, keyA, [], witness)).pagesChecked).toBeGreaterThanOrEqual(1);
    await asIntruder(db, [
      sql`UPDATE served_pages SET body = ${Buffer.from(page.toString().replace("is not", "is"))} WHERE sha256 = ${sha256}`,
    ]);
    expect((await verifyConsentChain(db, keyA, [], witness)).problem).toMatchObject({ kind: "page_altered" });
  });
});

describe("the day's head mailed to the compliance address", () => {
  const database = useTestDatabase("pglite");
  const witness = newWitness();

  it("goes once a day through a real SMTP server, with what is needed to check it, and is recorded in the witness", async () => {
    const { db } = database;
    await growChain(db, witness, 3);
    const smtpPort = await freePort();
    const sink = await startSmtpCapture({ smtpPort, httpPort: await freePort() });
    const transport = createSmtpTransport(`smtp://127.0.0.1:${smtpPort}`, "Patriot Investor <no-reply@example.com>");
    try {
      const mail = { to: "compliance@example.com", transport, siteName: "Patriot Investor", publicKey: keyA.publicKey };
      const logger = { info: () => {}, warn: () => {}, error: () => {} };
      const day = new Date("2026-11-27T08:00:00Z");
      expect(await mailDailyHead(mail, witness, keyA, [], logger, day)).toBe(true);
      expect(await mailDailyHead(mail, fileWitness(witness.path), keyA, [], logger, day)).toBe(false); // another process on the same file
      expect(sink.mails).toHaveLength(1);
      const [sent] = sink.mails;
      expect(sent!.subject).toBe("Patriot Investor consent record, 2026-11-27: signed head at seq 3");
      const hash = (await db.execute<{ hash: string }>(sql`SELECT hash FROM consent_chain WHERE seq = 3`)).rows[0]!
        .hash;
      expect(sent!.plain).toContain(`npm run consent:verify -- --expect 3:${hash}`);
      expect(sent!.plain).toContain(keyA.publicKey);
      expect(readFileSync(witness.path, "utf8")).toContain('"kind":"mailed","day":"2026-11-27","seq":3');
      expect(await mailDailyHead(mail, witness, keyA, [], logger, new Date("2026-11-28T00:00:01Z"))).toBe(true);
      expect(sink.mails).toHaveLength(2);
    } finally {
      transport.close?.();
      await sink.close();
    }
  });
});
