import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { consentEvents, conversionPostbacks, subscribers } from "~/db/schema";
import { recipientLocation } from "~/services/sending/quiet-hours";
import { eventProof, headSigningKey, latestSignedHead, type EventProof } from "./chain.server";
import type { ConsentPublicKey, ConsentSigner } from "./signing.server";
import type { Interaction } from "~/lib/interaction";
import { parseInteraction } from "~/lib/interaction.server";
import { rebuildServedPage } from "./served-page.server";
import { pageAddressNote } from "./page-address";
import { getEnv } from "~/http/env.server";
import { rndAnswersFor } from "./rnd.server";
import { textsOfConsentEvents, type ConsentText } from "./event-texts.server";
import { parseEmailReport, type EmailReport } from "./email-report";

/** Consent events that grant or confirm consent: each gets a certificate section of its own. */
export const GRANTING_ACTIONS = new Set(["opt_in", "doi_confirmed", "email_confirm", "start", "email_resubscribe"]);
/** Events that confirm who holds the number the consent is for (a code texted to it, entered on the account page). */
export const CONFIRMING_ACTIONS = new Set(["phone_confirmed"]);

export type CertificateEvent = {
  id: number;
  action: string;
  grants: boolean;
  confirms: boolean;
  channel: string;
  occurredAt: string;
  /** The person's local time, from the area code's zone (first zone when it spans several). */
  localTime: string | null;
  localZone: string | null;
  phoneE164: string | null;
  phoneRaw: string | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  consentText: string | null;
  consentVersion: string | null;
  consentTextSha256: string | null;
  termsText: string | null;
  termsVersion: string | null;
  smsCheckbox: boolean | null;
  termsCheckbox: boolean | null;
  /** What the person did on the form where its JavaScript ran (decision 077); null otherwise. */
  interaction: Interaction | null;
  /**
   * The page the form was served in (decision 079): the kept document's SHA-256 and, rebuilt
   * with the landing URL's values, the SHA-256 of the page exactly as sent (null where this
   * process cannot rebuild it). Null for forms not served from a kept document.
   */
  servedPage: { documentSha256: string; pageSha256: string | null; altered: boolean } | null;
  /** When the server sent the form's page, from the signed cookie that came back with it (decision 080). */
  formServedAt: string | null;
  ip: string | null;
  userAgent: string | null;
  acceptLanguage: string | null;
  pageUrl: string | null;
  /**
   * When the page address may not be the whole one the person arrived with (decision 127): `cut`,
   * the length it may have been cut at; "origin-only", a landing host's bare origin, as a browser
   * sends for an address over 4,096 characters. Null otherwise.
   */
  pageUrlNote: { cut: number } | "origin-only" | null;
  referrer: string | null;
  clickId: string | null;
  source: string | null;
  dnc: { policy: string | null; result: string | null; dataDate: string | null };
  inbound: { sid: string | null; body: string | null };
  /**
   * A newsletter event the mail provider reported (hard bounce, spam complaint, unsubscribe at
   * the provider) or a copy the receiving server refused: its report as recorded (decision 125).
   */
  emailReport: EmailReport | null;
  /** The texts the event caused (welcome, "Reply Y" request, the reply to STOP, HELP, START or Y), with their delivery. */
  texts: ConsentText[];
  chain: { seq: number; prevHash: string; hash: string; sealedAt: string } | null;
  /** The event's link to a signed head, checkable with this document alone (scripts/verify-consent-certificate.mjs, decision 081). */
  proof: EventProof | null;
};

export type Certificate = {
  format: "patriot-investor-consent-certificate";
  version: 1;
  issuedAt: string;
  subscriber: {
    id: string;
    channel: string;
    status: string;
    phoneE164: string | null;
    email: string | null;
    firstName: string | null;
    lastName: string | null;
    createdAt: string;
  };
  events: CertificateEvent[];
  /**
   * The conversion postbacks of this subscription, oldest first: sent, waiting, failed, or
   * `skipped` with its reason (`gpc`: the browser sent Global Privacy Control and the postback
   * feeds an ad platform, decision 153). Empty when none was due (no click id, none configured).
   */
  postbacks: { event: string; status: string; skipReason: string | null; occurredAt: string; sentAt: string | null }[];
  /** SMS: the Reassigned Numbers Database's answers about the number, newest first (decision 071). */
  rnd: {
    askedDate: string;
    answer: "yes" | "no" | "no_data";
    source: string;
    fileName: string | null;
    answeredAt: string;
  }[];
  /**
   * The newest signed head of the chain; an event with seq at or below it is covered by its
   * signature. `publicKey` is the configured key that signature checks out with (the current one,
   * or a retired one after a rotation; raw, base64), null when none does.
   */
  chainHead: {
    seq: number;
    hash: string;
    signedAt: string;
    keyId: string;
    publicKey: string | null;
    signature: string;
  } | null;
  signingKey: { keyId: string; algorithm: "Ed25519"; publicKey: string };
};

/** The kept page on the certificate: its hash when rebuilt, and never a hash of bytes changed since they were kept (decision 081). */
function servedPageOf(documentSha256: string, page: Awaited<ReturnType<typeof rebuildServedPage>>) {
  if (page?.altered) return { documentSha256, pageSha256: null, altered: true };
  return { documentSha256, pageSha256: page?.pageSha256 ?? null, altered: false };
}

function localTimeOf(instant: Date, phone: string | null) {
  if (!phone) return { localTime: null, localZone: null };
  const zone = recipientLocation(phone).zones[0] ?? null;
  if (!zone) return { localTime: null, localZone: null };
  const text = new Intl.DateTimeFormat("en-US", { timeZone: zone, dateStyle: "medium", timeStyle: "long" }).format(
    instant,
  );
  return { localTime: text, localZone: zone };
}

/**
 * Everything the record holds about one person's consent, in time order, with each event's place
 * in the chain. `retiredKeys` (CONSENT_RETIRED_PUBLIC_KEYS) check a head signed before a rotation.
 */
export async function buildCertificate(
  db: Db,
  subscriberId: string,
  signer: ConsentSigner,
  retiredKeys: readonly ConsentPublicKey[] = [],
  now = new Date(),
): Promise<Certificate | null> {
  const [subscriber] = await db.select().from(subscribers).where(eq(subscribers.id, subscriberId));
  if (!subscriber) return null;
  const events = await db
    .select()
    .from(consentEvents)
    .where(eq(consentEvents.subscriberId, subscriberId))
    .orderBy(asc(consentEvents.occurredAt), asc(consentEvents.id));
  const links = await db.execute<{
    seq: unknown;
    event_id: unknown;
    prev_hash: string;
    hash: string;
    sealed_at: unknown;
  }>(sql`
    SELECT c.seq, c.event_id, c.prev_hash, c.hash, c.sealed_at FROM consent_chain c
    JOIN consent_events e ON e.id = c.event_id WHERE e.subscriber_id = ${subscriberId}`);
  const chainOf = new Map(
    links.rows.map((row) => [
      toNumber(row.event_id),
      {
        seq: toNumber(row.seq),
        prevHash: row.prev_hash,
        hash: row.hash,
        sealedAt: new Date(String(row.sealed_at)).toISOString(),
      },
    ]),
  );
  const textsOf = await textsOfConsentEvents(
    db,
    events.filter((event) => event.channel === "sms").map((event) => event.id),
  );
  const postbacks = await db
    .select({
      event: conversionPostbacks.event,
      status: conversionPostbacks.status,
      skipReason: conversionPostbacks.skipReason,
      occurredAt: conversionPostbacks.occurredAt,
      sentAt: conversionPostbacks.sentAt,
    })
    .from(conversionPostbacks)
    .where(eq(conversionPostbacks.subscriberId, subscriberId))
    .orderBy(asc(conversionPostbacks.id));
  const head = await latestSignedHead(db);
  const phone = subscriber.phoneE164;
  return {
    format: "patriot-investor-consent-certificate",
    version: 1,
    issuedAt: now.toISOString(),
    subscriber: {
      id: subscriber.id,
      channel: subscriber.channel,
      status: subscriber.status,
      phoneE164: subscriber.phoneE164,
      email: subscriber.email,
      firstName: subscriber.firstName,
      lastName: subscriber.lastName,
      createdAt: subscriber.createdAt.toISOString(),
    },
    events: await Promise.all(
      events.map(async (event) => ({
        id: event.id,
        action: event.action,
        grants: GRANTING_ACTIONS.has(event.action),
        confirms: CONFIRMING_ACTIONS.has(event.action),
        channel: event.channel,
        occurredAt: event.occurredAt.toISOString(),
        ...localTimeOf(event.occurredAt, event.phoneE164 ?? phone),
        phoneE164: event.phoneE164,
        phoneRaw: event.phoneRaw,
        email: event.email,
        firstName: event.firstName,
        lastName: event.lastName,
        consentText: event.consentText,
        consentVersion: event.consentVersion,
        consentTextSha256: event.consentTextSha256,
        termsText: event.termsText,
        termsVersion: event.termsVersion,
        smsCheckbox: event.smsCheckbox,
        termsCheckbox: event.termsCheckbox,
        interaction: parseInteraction(event.interaction),
        servedPage: event.servedPageSha256
          ? servedPageOf(event.servedPageSha256, await rebuildServedPage(db, event.servedPageSha256, event.pageUrl))
          : null,
        formServedAt: event.formServedAt?.toISOString() ?? null,
        ip: event.ip,
        userAgent: event.userAgent,
        acceptLanguage: event.acceptLanguage,
        pageUrl: event.pageUrl,
        pageUrlNote: pageAddressNote(event.pageUrl, event.servedPageSha256 !== null, getEnv().MAIN_DOMAINS),
        referrer: event.referrer,
        clickId: event.clickId,
        source: event.source,
        dnc: { policy: event.dncPolicy, result: event.dncResult, dataDate: event.dncDataDate },
        inbound: { sid: event.inboundMessageSid, body: event.inboundBody },
        emailReport: parseEmailReport(event),
        texts: textsOf.get(event.id) ?? [],
        chain: chainOf.get(event.id) ?? null,
        proof: chainOf.has(event.id)
          ? await eventProof(db, { seq: chainOf.get(event.id)!.seq, eventId: event.id }, signer, retiredKeys)
          : null,
      })),
    ),
    postbacks: postbacks.map((postback) => ({
      event: postback.event,
      // A call being sent is, for the reader, one not yet sent.
      status: postback.status === "sending" ? "queued" : postback.status,
      skipReason: postback.skipReason,
      occurredAt: postback.occurredAt.toISOString(),
      sentAt: postback.sentAt?.toISOString() ?? null,
    })),
    rnd: phone
      ? (await rndAnswersFor(db, phone.slice(2))).map((answer) => ({
          ...answer,
          answeredAt: answer.answeredAt.toISOString(),
        }))
      : [],
    chainHead: head
      ? {
          seq: head.seq,
          hash: head.hash,
          signedAt: head.signedAt.toISOString(),
          keyId: head.keyId,
          // The configured key, never the head row's own public_key: the database is what the signature vouches for.
          publicKey: headSigningKey(head, signer, retiredKeys)?.publicKey ?? null,
          signature: head.signature,
        }
      : null,
    signingKey: { keyId: signer.keyId, algorithm: "Ed25519", publicKey: signer.publicKey },
  };
}

/**
 * The certificate as a signed JSON document: `certificate` as sent, and an Ed25519 signature over
 * its exact UTF-8 text (`JSON.stringify(certificate)`), checkable with the public key inside it
 * and the one at /admin/consent.
 */
export function signCertificate(certificate: Certificate, signer: ConsentSigner) {
  const payload = JSON.stringify(certificate);
  return `{"certificate":${payload},"signature":{"algorithm":"Ed25519","keyId":"${signer.keyId}","over":"the UTF-8 text of the certificate value exactly as it appears here","value":"${signer.sign(payload)}"}}`;
}
