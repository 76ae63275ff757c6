import { eq } from "drizzle-orm";
import { createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { handleInboundSms } from "../subscription/inbound-sms.server";
import { optInToSms } from "../subscription/sms-opt-in.server";
import { smsDisclosureText } from "~/lib/consent-texts";
import { buildCertificate, signCertificate } from "./certificate.server";
import { headMessage, sealConsentChain, signConsentChainHead } from "./chain.server";
import { consentPublicKey, consentSigner } from "./signing.server";

const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const };
const signer = consentSigner("certificate-test-secret-0123456789-abcdefghij");

describe.each(DB_KINDS)("consent certificate on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("holds the opt-in as recorded, its welcome text, its place in the signed chain, and later events", async () => {
    const { db } = database;
    const result = await optInToSms(
      db,
      {
        firstName: "Betsy",
        lastName: "Ross",
        phone: "(212) 456-7001",
        clickId: "click-cert",
        smsConsent: true,
        termsConsent: true,
        source: "opt-in",
        evidence: NO_EVIDENCE,
      },
      SETTINGS,
    );
    expect(result).toMatchObject({ ok: true });
    const [subscriber] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124567001"));

    const unsealed = await buildCertificate(db, subscriber!.id, signer);
    expect(unsealed!.events[0]!.chain).toBeNull();

    await sealConsentChain(db);
    await signConsentChainHead(db, signer);
    const certificate = (await buildCertificate(db, subscriber!.id, signer))!;
    expect(certificate.subscriber).toMatchObject({ phoneE164: "+12124567001", status: "active" });
    expect(certificate.events).toHaveLength(1);
    const [event] = certificate.events;
    expect(event).toMatchObject({
      action: "opt_in",
      grants: true,
      consentText: smsDisclosureText("Patriot Investor"),
      smsCheckbox: true,
      termsCheckbox: true,
      ip: "203.0.113.7",
      clickId: "click-cert",
      localZone: "America/New_York",
      dnc: { result: "clear" },
      chain: { seq: 1 },
    });
    expect(event!.texts).toEqual([expect.objectContaining({ kind: "welcome", status: "queued" })]);
    expect(certificate.chainHead).toMatchObject({
      seq: 1,
      keyId: signer.keyId,
      publicKey: signer.publicKey,
      hash: event!.chain!.hash,
    });

    // The download's signature checks out with the public key alone.
    const signed = JSON.parse(signCertificate(certificate, signer)) as {
      certificate: unknown;
      signature: { value: string };
    };
    const publicKey = createPublicKey({
      key: {
        kty: "OKP",
        crv: "Ed25519",
        x: Buffer.from(certificate.signingKey.publicKey, "base64").toString("base64url"),
      },
      format: "jwk",
    });
    expect(
      verify(
        null,
        Buffer.from(JSON.stringify(signed.certificate)),
        publicKey,
        Buffer.from(signed.signature.value, "base64"),
      ),
    ).toBe(true);
    expect(
      verify(
        null,
        Buffer.from(JSON.stringify({ ...(signed.certificate as object), issuedAt: "x" })),
        publicKey,
        Buffer.from(signed.signature.value, "base64"),
      ),
    ).toBe(false);

    // A later STOP joins the certificate.
    await handleInboundSms(
      db,
      { messageSid: `SM${"1".repeat(32)}`, from: "+12124567001", body: "STOP" },
      { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" },
    );
    const later = (await buildCertificate(db, subscriber!.id, signer))!;
    expect(later.events.map((e) => e.action)).toEqual(["opt_in", "opt_out"]);
    expect(later.events[1]!.grants).toBe(false);
  });

  it("gives the configured key that signed the head: a retired one after a rotation, none for a key not configured", async () => {
    const { db } = database;
    const [subscriber] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124567001"));
    const rotated = consentSigner("certificate-rotated-secret-0123456789-abcdef");
    const certificate = (await buildCertificate(db, subscriber!.id, rotated, [consentPublicKey(signer.publicKey)]))!;
    // The head was signed before the rotation: its key is the retired one, the certificate's own the current one.
    expect(certificate.chainHead).toMatchObject({ keyId: signer.keyId, publicKey: signer.publicKey });
    expect(certificate.signingKey.publicKey).toBe(rotated.publicKey);
    // A reader checks the head's signature with that public key alone.
    const head = certificate.chainHead!;
    const headKey = createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(head.publicKey!, "base64").toString("base64url") },
      format: "jwk",
    });
    expect(
      verify(
        null,
        Buffer.from(headMessage(head.seq, head.hash, head.signedAt)),
        headKey,
        Buffer.from(head.signature, "base64"),
      ),
    ).toBe(true);

    expect((await buildCertificate(db, subscriber!.id, rotated))!.chainHead).toMatchObject({
      keyId: signer.keyId,
      publicKey: null,
    });
  });

  it("answers null for an unknown subscriber", async () => {
    expect(await buildCertificate(database.db, "00000000-0000-4000-8000-000000000000", signer)).toBeNull();
  });
});
