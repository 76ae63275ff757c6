import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { refuseUniqueViolation } from "~/db/unique-violation";
import { consentEvents, subscribers } from "~/db/schema";
import { checkUsMobile } from "~/lib/phone";
import { classifyInbound, helpReply, stopConfirmation, type InboundIntent } from "~/lib/sms-keywords";
import { addInternalDnc, removeInternalDnc } from "../dnc/dnc.server";
import { enqueueSms } from "../sending/outbox.server";
import { nudgeTexts } from "../sending/signal.server";
import { getWelcomeConfig } from "./sms-config.server";
import { isConfirmReply } from "./double-opt-in.server";
import { enqueuePostback, nudgePostbacks, postbackRow } from "./conversion-postback.server";
import { signUpSentGpc } from "./attribution.server";

export type InboundSms = {
  messageSid: string;
  from: string;
  body: string;
  /** Set by Twilio Advanced Opt-Out when Twilio itself matched (and answered) a keyword. */
  optOutType?: string | null;
};

export type InboundSite = { name: string; email: string; phone: string };

/** `confirm` and `decline` are the answers to a pending double opt-in. */
export type InboundResult = { intent: InboundIntent | "confirm" | "decline"; changed: boolean; replied: boolean };

export type InboundOptions = {
  postbackUrl?: string | null;
  /** CONVERSION_POSTBACK_AD_PLATFORM (absent: yes): no postback for a sign-up that sent GPC (decision 153). */
  postbackAdPlatform?: boolean;
  now?: () => Date;
};

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

async function subscriberFor(tx: Tx, e164: string, status: "opted_out" | "active") {
  const existing = () =>
    tx
      .select({ id: subscribers.id, status: subscribers.status })
      .from(subscribers)
      .where(and(eq(subscribers.channel, "sms"), eq(subscribers.phoneE164, e164)))
      .for("update");
  const [found] = await existing();
  if (found) return found;
  // A text from a number we never had still leaves evidence (and, for STOP, a suppression). Two
  // texts from it handled at once (two processes) both get here: the second waits for the first's
  // row and then takes it, as if it had been found.
  const [created] = await tx
    .insert(subscribers)
    .values({ channel: "sms", phoneE164: e164, firstName: "", lastName: "", status, source: "sms-keyword" })
    .onConflictDoNothing({ target: subscribers.phoneE164, where: sql`${subscribers.channel} = 'sms'` })
    .returning({ id: subscribers.id, status: subscribers.status });
  if (created) return { ...created, status: "new" as const };
  const [other] = await existing();
  return other!;
}

/** Records an inbound text's consent event; its id links the reply to it (decision 125). */
async function insertEvent(
  tx: Tx,
  event: { subscriberId: string; action: "opt_out" | "start" | "help" | "doi_confirmed" | "doi_declined"; inboundMessageSid: string; inboundBody: string; phoneE164: string },
) {
  const [row] = await tx
    .insert(consentEvents)
    .values({ ...event, channel: "sms", source: "sms" })
    .returning({ id: consentEvents.id });
  return row!.id;
}

/**
 * STOP (and any reasonable opt-out wording) suppresses the number at once with a single
 * confirmation; HELP answers with brand, contact, frequency, rates and STOP; START opts back in.
 * Each is a consent event (HELP too, from a number we have), and its reply is linked to it. The
 * inbound MessageSid keys every reply, so a webhook Twilio delivers twice changes and sends
 * nothing twice.
 */
export async function handleInboundSms(db: Db, message: InboundSms, site: InboundSite, options: InboundOptions = {}): Promise<InboundResult> {
  const intent = classifyInbound(message.body);
  // START and UNSTOP are consent by text too (COMPLIANCE.md 1.7): from a pending number they confirm like Y.
  const confirmWord = isConfirmReply(message.body) || intent === "start";
  const phone = checkUsMobile(message.from);
  if (!phone.ok || (intent === "other" && !confirmWord)) return { intent, changed: false, replied: false };
  // When Twilio matched the keyword it has already replied; a second reply would break the one-confirmation rule.
  const twilioReplied = Boolean(message.optOutType);
  const inbound = { inboundMessageSid: message.messageSid, inboundBody: message.body.slice(0, 1600), phoneE164: phone.e164 };

  // The same message delivered twice at once (Twilio retries; two processes) passes the "seen"
  // check twice: the second meets the inbound SID's unique index and answers as the check would.
  const unchanged = { changed: false, replied: false };
  const result = await refuseUniqueViolation(
    () =>
      db.transaction(async (tx) => {
        const [seen] = await tx
          .select({ id: consentEvents.id })
          .from(consentEvents)
          .where(eq(consentEvents.inboundMessageSid, message.messageSid))
          .limit(1);
        if (seen) return { changed: false, replied: false };

        if (confirmWord || intent === "stop") {
          const answered = await answerDoubleOptIn(tx, { confirm: confirmWord, e164: phone.e164, national: phone.national, inbound, twilioReplied, site, options });
          if (answered) return answered;
        }
        // A "Y" from a number with no pending double opt-in is not a keyword: left for review.
        if (intent === "other") return { changed: false, replied: false };

        if (intent === "help") {
          // HELP changes nothing but is the person's own act: on their certificate with its reply.
          // A number we never had gets the answer and no subscriber row (nothing to certify).
          const [subscriber] = await tx
            .select({ id: subscribers.id })
            .from(subscribers)
            .where(and(eq(subscribers.channel, "sms"), eq(subscribers.phoneE164, phone.e164)));
          const event = subscriber ? await insertEvent(tx, { subscriberId: subscriber.id, action: "help", ...inbound }) : null;
          const queued = twilioReplied
            ? null
            : await enqueueSms(tx, {
                toPhone: phone.e164,
                body: helpReply(site),
                kind: "help",
                dedupeKey: `help:${message.messageSid}`,
                subscriberId: subscriber?.id ?? null,
                consentEventId: event,
              });
          return { changed: false, replied: Boolean(queued) };
        }

        if (intent === "stop") {
          const subscriber = await subscriberFor(tx, phone.e164, "opted_out");
          const alreadyOut = subscriber.status === "opted_out";
          if (subscriber.status !== "new" && !alreadyOut) {
            await tx.update(subscribers).set({ status: "opted_out", updatedAt: sql`now()` }).where(eq(subscribers.id, subscriber.id));
          }
          await addInternalDnc(tx, phone.national);
          const event = await insertEvent(tx, { subscriberId: subscriber.id, action: "opt_out", ...inbound });
          const queued =
            alreadyOut || twilioReplied
              ? null
              : await enqueueSms(tx, {
                  toPhone: phone.e164,
                  body: stopConfirmation(site.name),
                  kind: "stop_confirmation",
                  dedupeKey: `stop:${message.messageSid}`,
                  subscriberId: subscriber.id,
                  consentEventId: event,
                });
          return { changed: !alreadyOut, replied: Boolean(queued) };
        }

        const subscriber = await subscriberFor(tx, phone.e164, "active");
        const wasActive = subscriber.status === "active";
        if (!wasActive) {
          await tx.update(subscribers).set({ status: "active", updatedAt: sql`now()` }).where(eq(subscribers.id, subscriber.id));
        }
        await removeInternalDnc(tx, phone.national);
        const event = await insertEvent(tx, { subscriberId: subscriber.id, action: "start", ...inbound });
        const welcome = await getWelcomeConfig(tx);
        const queued =
          wasActive || twilioReplied
            ? null
            : await enqueueSms(tx, {
                toPhone: phone.e164,
                body: welcome.welcomeMessage,
                kind: "start_confirmation",
                dedupeKey: `start:${message.messageSid}`,
                subscriberId: subscriber.id,
                consentEventId: event,
              });
        return { changed: !wasActive, replied: Boolean(queued) };
      }),
    "consent_events_inbound_sid",
    () => unchanged,
  );

  if (result.replied) nudgeTexts();
  if ("postback" in result && result.postback) nudgePostbacks();
  const answer = "answer" in result ? result.answer : intent;
  return { intent: answer, changed: result.changed, replied: result.replied };
}

/**
 * The reply to a pending double opt-in (COMPLIANCE.md 1.4): Y or YES confirms (evidence with the
 * inbound SID and body, then the welcome and the conversion postback); N, NO or any opt-out
 * wording declines it, which is an opt-out. Null when the number has no pending opt-in.
 */
async function answerDoubleOptIn(
  tx: Tx,
  reply: {
    confirm: boolean;
    e164: string;
    national: string;
    inbound: { inboundMessageSid: string; inboundBody: string; phoneE164: string };
    twilioReplied: boolean;
    site: InboundSite;
    options: InboundOptions;
  },
) {
  const [pending] = await tx
    .select({ id: subscribers.id, clickId: subscribers.clickId })
    .from(subscribers)
    .where(and(eq(subscribers.channel, "sms"), eq(subscribers.phoneE164, reply.e164), eq(subscribers.status, "pending")))
    .for("update");
  if (!pending) return null;
  const { inbound, twilioReplied } = reply;

  if (reply.confirm) {
    await tx.update(subscribers).set({ status: "active", confirmBy: null, updatedAt: sql`now()` }).where(eq(subscribers.id, pending.id));
    const event = await insertEvent(tx, { subscriberId: pending.id, action: "doi_confirmed", ...inbound });
    // A YES that Twilio matched (OptOutType=START) was already answered by Twilio's opt-in reply.
    const queued = twilioReplied
      ? null
      : await enqueueSms(tx, {
          toPhone: reply.e164,
          body: (await getWelcomeConfig(tx)).welcomeMessage,
          kind: "welcome",
          dedupeKey: `welcome:${inbound.inboundMessageSid}`,
          subscriberId: pending.id,
          consentEventId: event,
        });
    const at = reply.options.now?.() ?? new Date();
    // The conversion is now, but the browser's Global Privacy Control was sent with the sign-up.
    const gpc = pending.clickId && reply.options.postbackUrl ? await signUpSentGpc(tx, pending.id, "sms") : false;
    const row = postbackRow(reply.options.postbackUrl, { clickId: pending.clickId, event: "doi_confirmed", at, gpc }, reply.options.postbackAdPlatform ?? true);
    const postback = await enqueuePostback(tx, pending.id, row);
    return { answer: "confirm" as const, changed: true, replied: Boolean(queued), postback };
  }

  await tx.update(subscribers).set({ status: "declined", confirmBy: null, updatedAt: sql`now()` }).where(eq(subscribers.id, pending.id));
  await addInternalDnc(tx, reply.national);
  const event = await insertEvent(tx, { subscriberId: pending.id, action: "doi_declined", ...inbound });
  const queued = twilioReplied
    ? null
    : await enqueueSms(tx, {
        toPhone: reply.e164,
        body: stopConfirmation(reply.site.name),
        kind: "stop_confirmation",
        dedupeKey: `stop:${inbound.inboundMessageSid}`,
        subscriberId: pending.id,
        consentEventId: event,
      });
  return { answer: "decline" as const, changed: true, replied: Boolean(queued), postback: false };
}
