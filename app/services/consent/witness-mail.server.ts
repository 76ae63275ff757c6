import type { JobLogger } from "~/services/job-loop.server";
import type { EmailTransport } from "~/services/providers/email.server";
import type { ChainProblem } from "./chain.server";
import type { ConsentPublicKey, ConsentSigner } from "./signing.server";
import { headMessage } from "./chain-messages";
import type { ConsentWitness, WitnessedHead } from "./witness.server";

/**
 * The second witness (decision 081): once a day the newest signed head is mailed to a compliance
 * address (CONSENT_WITNESS_EMAIL), straight through the mail transport and not the database's
 * outbox, so the database's holder can neither stop nor alter it. The mailbox keeps what the
 * database held each day, timed by the mail servers it passes; a break is mailed at once.
 */
export type WitnessMail = { to: string; transport: EmailTransport; siteName: string; publicKey: string };

type MailState = { mailedDay: string | null; failingSince: string | null };
const states = new Map<string, MailState>();

function stateOf(witness: ConsentWitness) {
  let state = states.get(witness.path);
  if (!state) states.set(witness.path, (state = { mailedDay: null, failingSince: null }));
  return state;
}

/** The text of the day's mail: everything needed to check the head later, with the public key alone. */
export function dailyHeadMail(mail: WitnessMail, head: WitnessedHead, day: string) {
  return {
    to: mail.to,
    kind: "notice" as const,
    subject: `${mail.siteName} consent record, ${day}: signed head at seq ${head.seq}`,
    text: [
      `The consent record of ${mail.siteName} held ${head.seq.toLocaleString("en-US")} sealed events on ${day}.`,
      "Keep this mail: it is a copy of the record’s signed head outside the database.",
      "",
      `Sequence number: ${head.seq}`,
      `Head hash (SHA-256): ${head.hash}`,
      `Signed at: ${head.signedAt}`,
      `Key id: ${head.keyId}`,
      `Public key (Ed25519, raw, base64): ${mail.publicKey}`,
      `Signature (base64): ${head.signature}`,
      `Signed message: ${JSON.stringify(headMessage(head.seq, head.hash, head.signedAt))}`,
      "",
      `To check that the record still holds this head: npm run consent:verify -- --expect ${head.seq}:${head.hash}`,
    ].join("\n"),
  };
}

/**
 * Mails the newest witnessed head once a day (UTC) per witness file; a day already mailed (this
 * process, or another sharing the file) is not mailed again. A failed send is retried at the next
 * poll and logged once.
 */
export async function mailDailyHead(
  mail: WitnessMail,
  witness: ConsentWitness,
  signer: ConsentSigner,
  retiredKeys: readonly ConsentPublicKey[],
  logger: JobLogger,
  now = new Date(),
) {
  const state = stateOf(witness);
  const day = now.toISOString().slice(0, 10);
  if (state.mailedDay === day) return false;
  const entries = witness.tail(1024 * 1024);
  if (entries.some((entry) => entry.kind === "mailed" && entry.day === day)) {
    state.mailedDay = day;
    return false;
  }
  const head = entries.findLast(
    (entry): entry is WitnessedHead =>
      entry.kind === "head" &&
      [signer, ...retiredKeys].some(
        (key) =>
          key.keyId === entry.keyId && key.verify(headMessage(entry.seq, entry.hash, entry.signedAt), entry.signature),
      ),
  );
  if (!head) return false;
  const sent = await mail.transport.send(dailyHeadMail(mail, head, day));
  if (!sent.ok) {
    if (!state.failingSince)
      logger.warn(
        { job: "consent-chain", to: mail.to, err: sent.error },
        "could not mail the consent chain's head to the compliance address; retrying",
      );
    state.failingSince ??= now.toISOString();
    return false;
  }
  witness.append({ kind: "mailed", day, seq: head.seq, to: mail.to, at: now.toISOString() });
  state.mailedDay = day;
  state.failingSince = null;
  return true;
}

/** Tells the compliance address at once that the chain no longer holds a signed head. */
export async function mailChainBroken(mail: WitnessMail, problem: ChainProblem, logger: JobLogger) {
  const sent = await mail.transport.send({
    to: mail.to,
    kind: "notice",
    subject: `${mail.siteName} consent record: a signed head no longer matches`,
    text: [
      `The consent record of ${mail.siteName} no longer holds a head it signed, and no new head is signed until this is resolved.`,
      "",
      problem.detail,
      "",
      "Keep this mail with the daily ones. Check the record with npm run consent:verify; the admin’s Consent page shows the same.",
    ].join("\n"),
  });
  if (!sent.ok)
    logger.warn(
      { job: "consent-chain", to: mail.to, err: sent.error },
      "could not mail the consent chain's break to the compliance address",
    );
}
