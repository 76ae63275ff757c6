import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { handleInboundSms } from "../subscription/inbound-sms.server";
import { optInToSms } from "../subscription/sms-opt-in.server";
import { buildCertificate, signCertificate } from "./certificate.server";
import { sealConsentChain, signConsentChainHead } from "./chain.server";
import { consentSigner } from "./signing.server";

const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const };
const signer = consentSigner("examiner-test-secret-0123456789-abcdefghijk");
const stranger = consentSigner("examiner-stranger-secret-0123456789-abcdefg");
const SITE = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };
const folder = mkdtempSync(path.join(tmpdir(), "certificate-examiner-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The examiner's script, as someone outside the company runs it: Node alone, no project code. */
function examine(text: string, publicKey?: string) {
  const file = path.join(folder, `certificate-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, text);
  const run = spawnSync(
    process.execPath,
    ["scripts/verify-consent-certificate.mjs", file, ...(publicKey ? [publicKey] : [])],
    { encoding: "utf8" },
  );
  return { status: run.status, output: run.stdout + run.stderr };
}

async function optIn(db: Parameters<typeof optInToSms>[0], phone: string) {
  const result = await optInToSms(
    db,
    {
      firstName: "Betsy",
      lastName: "Ross",
      phone,
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

describe.each(DB_KINDS)("a consent certificate checked alone by an examiner, on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("recomputes each event's hash and its links to the signed head without other people's data; any change fails", async () => {
    const { db } = database;
    await optIn(db, "212-456-7101");
    for (const phone of ["212-456-7102", "212-456-7103", "212-456-7104"]) await optIn(db, phone);
    await handleInboundSms(db, { messageSid: `SM${"7".repeat(32)}`, from: "+12124567101", body: "STOP" }, SITE);
    await sealConsentChain(db);
    await signConsentChainHead(db, signer);
    const [subscriber] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124567101"));
    const certificate = (await buildCertificate(db, subscriber!.id, signer))!;
    const text = signCertificate(certificate, signer);
    // Other people's events are in the links as digests only.
    for (const other of ["+12124567102", "+12124567103", "+12124567104"]) expect(text).not.toContain(other);

    const checked = examine(text, signer.publicKey);
    expect(checked.output).toContain("RESULT: everything checks out.");
    expect(checked.status).toBe(0);
    expect(checked.output).toMatch(/seq 1: hash [0-9a-f]{64} \(chain version 5\)/);
    expect(checked.output).toContain("links lead to the head at seq");
    expect(checked.output).toMatch(/time to the microsecond: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/);

    // Another publisher's key, a changed detail, a changed link: each fails.
    expect(examine(text, stranger.publicKey).status, "another key").toBe(1);
    const edited = JSON.parse(text).certificate;
    edited.events[0].phoneE164 = "+12124567199";
    const resigned = signCertificate(edited, signer);
    const shown = examine(resigned, signer.publicKey);
    expect(shown.status, shown.output).toBe(1);
    expect(shown.output).toContain("differs from the hashed content: phoneE164");
    const relinked = JSON.parse(text).certificate;
    relinked.events[0].proof.links[1].digest = "0".repeat(64);
    const links = examine(signCertificate(relinked, signer), signer.publicKey);
    expect(links.status, links.output).toBe(1);
    expect(links.output).toContain("do not lead to the signed head");
    expect(examine(text.replace("Betsy", "Betty"), signer.publicKey).output).toContain(
      "it was changed after it was signed",
    );
  });
});
