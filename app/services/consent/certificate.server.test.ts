import { and, eq } from "drizzle-orm";
import { createPublicKey, verify } from "node:crypto";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { campaignRecipients, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { sendQueuedTexts } from "../../../tests/support/texts";
import { ConsentCertificateView } from "~/components/consent/certificate-view";
import { applyMailgunEvent } from "../newsletter/mailgun-events.server";
import { recordDeliveryStatus } from "../sending/delivery-status.server";
import { handleInboundSms } from "../subscription/inbound-sms.server";
import { subscribeToNewsletter } from "../subscription/newsletter-sign-up.server";
import { optInToSms } from "../subscription/sms-opt-in.server";
import { smsDisclosureText } from "~/lib/consent-texts";
import { helpReply, stopConfirmation } from "~/lib/sms-keywords";
import { buildCertificate, signCertificate } from "./certificate.server";
import { headMessage, sealConsentChain, signConsentChainHead } from "./chain.server";
import { consentPublicKey, consentSigner } from "./signing.server";

const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const };
const SITE = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };
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

  it("has HELP, STOP and START as events, each with the text sent in answer and its delivery as the provider reported it", async () => {
    const { db } = database;
    const result = await optInToSms(
      db,
      { firstName: "Molly", lastName: "Pitcher", phone: "(212) 456-7002", smsConsent: true, termsConsent: true, source: "opt-in", evidence: NO_EVIDENCE },
      SETTINGS,
    );
    expect(result).toMatchObject({ ok: true });
    const from = "+12124567002";
    const sids = { help: `SM${"a".repeat(32)}`, stop: `SM${"b".repeat(32)}`, start: `SM${"c".repeat(32)}`, secondStop: `SM${"d".repeat(32)}`, again: `SM${"e".repeat(32)}` };
    await handleInboundSms(db, { messageSid: sids.help, from, body: "help" }, SITE);
    await handleInboundSms(db, { messageSid: sids.stop, from, body: "Stop" }, SITE);
    // A second STOP from a number already out, and one Twilio answered itself: events without a reply.
    await handleInboundSms(db, { messageSid: sids.secondStop, from, body: "STOP" }, SITE);
    await handleInboundSms(db, { messageSid: sids.start, from, body: "START" }, SITE);
    await handleInboundSms(db, { messageSid: sids.again, from, body: "HELP", optOutType: "HELP" }, SITE);

    // The engine sends them (provider ids SM-test-<row id>); the provider then reports on two of them.
    expect((await sendQueuedTexts(db)).filter((text) => text.to === from)).toHaveLength(4);
    const ledger = await db.select().from(campaignRecipients).where(eq(campaignRecipients.address, from));
    const idOf = (kind: string) => `SM-test-${ledger.find((row) => row.kind === kind)!.id}`;
    await recordDeliveryStatus(db, { messageSid: idOf("stop_confirmation"), status: "delivered" });
    await recordDeliveryStatus(db, { messageSid: idOf("help"), status: "undelivered", errorCode: "30003" });

    const [subscriber] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, from));
    const certificate = (await buildCertificate(db, subscriber!.id, signer))!;
    expect(certificate.events.map((event) => [event.action, event.inbound.sid, event.texts.map((text) => text.kind)])).toEqual([
      ["opt_in", null, ["welcome"]],
      ["help", sids.help, ["help"]],
      ["opt_out", sids.stop, ["stop_confirmation"]],
      ["opt_out", sids.secondStop, []],
      ["start", sids.start, ["start_confirmation"]],
      ["help", sids.again, []],
    ]);
    const [, help, stop, , start] = certificate.events;
    expect(help!.texts[0]).toMatchObject({ body: helpReply(SITE), status: "sent", providerStatus: "undelivered", error: "Twilio error 30003", providerId: idOf("help") });
    expect(stop!.texts[0]).toMatchObject({ body: stopConfirmation("Patriot Investor"), status: "sent", providerStatus: "delivered", providerId: idOf("stop_confirmation") });
    expect(stop!.texts[0]!.sentAt).toEqual(expect.any(String));
    expect(start!.texts[0]).toMatchObject({ kind: "start_confirmation", status: "sent", providerStatus: "queued" });
    expect(help).toMatchObject({ grants: false, inbound: { body: "help" }, emailReport: null });

    // The page says the same in words.
    const html = renderToStaticMarkup(createElement(ConsentCertificateView, { certificate }));
    expect(html).toContain("reply to HELP");
    expect(html).toContain("the provider’s last report: undelivered (Twilio error 30003)");
    expect(html).toContain("opt-out confirmation");
    expect(html).toContain("the provider’s last report: delivered");
    expect(html).toContain("reply to START");
    expect(html).toContain("No text was sent from this number in answer");
  });

  it("has a newsletter subscriber's hard bounce, spam complaint and unsubscribe at the provider, with the provider's time and report", async () => {
    const { db } = database;
    const email = "lucy.knox@example.com";
    await subscribeToNewsletter(
      db,
      { firstName: "Lucy", lastName: "Knox", email, phone: "", smsConsent: false, termsConsent: true, evidence: NO_EVIDENCE },
      { ...SETTINGS, siteUrl: "https://news.example" },
    );
    const bouncedAt = Date.UTC(2026, 10, 20, 14, 3, 7, 250) / 1000;
    await applyMailgunEvent(db, {
      id: "mg-bounce-1",
      event: "failed",
      severity: "permanent",
      recipient: email,
      reason: "bounce",
      timestamp: bouncedAt,
      "delivery-status": { code: 550, message: "5.1.1 The email account that you tried to reach does not exist.", description: "" },
      message: { headers: { "message-id": "<nl-1-2@news.example>" } },
    });
    // A complaint after the bounce changes no status (suppressed already) but is still the person's act.
    await applyMailgunEvent(db, { id: "mg-complaint-1", event: "complained", recipient: email, timestamp: bouncedAt + 60 });
    await applyMailgunEvent(db, { id: "mg-unsub-1", event: "unsubscribed", recipient: email });
    // A redelivery and a temporary failure add nothing.
    await applyMailgunEvent(db, { id: "mg-complaint-1", event: "complained", recipient: email, timestamp: bouncedAt + 60 });
    await applyMailgunEvent(db, { id: "mg-soft-1", event: "failed", severity: "temporary", recipient: email });

    const [subscriber] = await db.select().from(subscribers).where(and(eq(subscribers.channel, "email"), eq(subscribers.email, email)));
    expect(subscriber!.status).toBe("bounced");
    const certificate = (await buildCertificate(db, subscriber!.id, signer))!;
    expect(certificate.events.map((event) => event.action)).toEqual(["email_subscribe", "email_bounce", "email_complaint", "email_unsubscribe"]);
    const [subscribe, bounce, complaint, unsubscribe] = certificate.events;
    expect(subscribe!.emailReport).toBeNull();
    expect(bounce!.emailReport).toEqual({
      provider: "mailgun",
      eventId: "mg-bounce-1",
      event: "failed",
      severity: "permanent",
      at: "2026-11-20T14:03:07.250Z",
      reason: "bounce",
      code: 550,
      message: "5.1.1 The email account that you tried to reach does not exist.",
      description: "",
      messageId: "<nl-1-2@news.example>",
    });
    expect(complaint!.emailReport).toMatchObject({ eventId: "mg-complaint-1", event: "complained", at: "2026-11-20T14:04:07.250Z" });
    expect(unsubscribe!.emailReport).toMatchObject({ eventId: "mg-unsub-1", event: "unsubscribed", at: null });
    for (const event of [bounce, complaint, unsubscribe]) {
      expect(event!.occurredAt).toEqual(expect.any(String));
      expect(event!.texts).toEqual([]);
    }

    const html = renderToStaticMarkup(createElement(ConsentCertificateView, { certificate }));
    expect(html).toContain("E-mail bounced");
    expect(html).toContain("Spam complaint");
    expect(html).toContain(
      "Mailgun: failed (permanent); at 2026-11-20 14:03:07.250 UTC (the provider’s time); 550 5.1.1 The email account that you tried to reach does not exist.; reason: bounce; message &lt;nl-1-2@news.example&gt;; event id mg-bounce-1",
    );
    expect(html).toContain("Mailgun: complained; at 2026-11-20 14:04:07.250 UTC");
  });

  it("says a conversion postback was not sent because the browser sent Global Privacy Control (decision 153)", async () => {
    const { db } = database;
    const postbackUrl = "https://track.example/postback?cid={clickId}&event={event}";
    const signUp = (phone: string, clickId: string, gpc: boolean) =>
      optInToSms(
        db,
        { firstName: "Thomas", lastName: "Paine", phone, clickId, smsConsent: true, termsConsent: true, source: "opt-in", evidence: NO_EVIDENCE, gpc },
        { ...SETTINGS, postbackUrl, postbackAdPlatform: true },
      );
    const withheld = await signUp("(212) 456-7081", "click-gpc-cert", true);
    const plain = await signUp("(212) 456-7082", "click-plain-cert", false);
    if (!withheld.ok || !plain.ok) throw new Error("opt-in refused");

    const certificate = (await buildCertificate(db, withheld.subscriberId, signer))!;
    expect(certificate.postbacks).toEqual([expect.objectContaining({ event: "opt_in", status: "skipped", skipReason: "gpc", sentAt: null })]);
    const html = renderToStaticMarkup(createElement(ConsentCertificateView, { certificate }));
    expect(html).toContain("Conversion postbacks");
    expect(html).toContain(
      "The conversion postback was not sent: the person’s browser sent Global Privacy Control (Sec-GPC: 1) with the sign-up, and the postback is marked as feeding an ad platform.",
    );

    const other = (await buildCertificate(db, plain.subscriberId, signer))!;
    expect(other.postbacks).toEqual([expect.objectContaining({ status: "queued", skipReason: null })]);
    const otherHtml = renderToStaticMarkup(createElement(ConsentCertificateView, { certificate: other }));
    expect(otherHtml).toContain("queued, not sent yet");
    expect(otherHtml).not.toContain("Global Privacy Control");
  });

  it("answers null for an unknown subscriber", async () => {
    expect(await buildCertificate(database.db, "00000000-0000-4000-8000-000000000000", signer)).toBeNull();
  });
});
