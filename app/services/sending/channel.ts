import type { Db } from "~/db/client.server";
import type { SEND_KINDS } from "~/db/schema";
import type { SendResult, SentLookup } from "../providers/sms-transport.server";

export type SendKind = (typeof SEND_KINDS)[number];

/** A ledger row claimed for sending, with what every channel needs. */
export type ClaimedRecipient = {
  id: number;
  /** Null for a text of its own (a welcome, a reply to STOP/HELP/START, a code, a test; decision 068). */
  campaignId: string | null;
  /** Null for a text with no subscriber behind it (a test text, a phone code). */
  subscriberId: string | null;
  /** `campaign`, or the kind of a text of its own: it decides the consent gate and the priority. */
  kind: SendKind;
  address: string;
  attempts: number;
  body: string;
  expiresAt: Date | null;
  /** When this claim (or the interrupted one, for in-doubt rows) took the row. */
  lockedAt: Date;
};

/** `wait` puts the row back in the queue until then (reason `quiet_hours` unless another is given). */
export type ChannelDecision = { action: "send" } | { action: "wait"; until: Date; reason?: string } | { action: "skip"; reason: string };

/**
 * Thrown by a channel's `prepare` when a campaign must not start: it stays scheduled, the engine
 * logs the reason once and tries again on later passes.
 */
export class CampaignHeld extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = "CampaignHeld";
  }
}

/**
 * What differs between SMS and e-mail; the engine (ledger, pacing, retries, in-doubt rows,
 * results) is the same. `decide` reads the facts the channel's pure check needs in one query and
 * applies it.
 */
export type SendChannel = {
  name: "sms" | "email";
  /** Token-bucket key and rate (messages per second) of the sender. */
  rateKey: string;
  ratePerSecond: number;
  /**
   * `sendingNow` counts, per subscriber, the campaign messages of this process still waiting for
   * the provider's answer (the window of sends in flight): they count toward a frequency cap
   * although the ledger does not say `sent` yet.
   */
  decide(db: Db, rows: ClaimedRecipient[], now: Date, sendingNow?: ReadonlyMap<string, number>): Promise<Map<number, ChannelDecision>>;
  send(row: ClaimedRecipient): Promise<SendResult>;
  /** Asks the provider whether it already has this message; without it an interrupted send is failed, never repeated. */
  lookup?(row: ClaimedRecipient, since: Date): Promise<SentLookup>;
  /** The provider says the person unsubscribed (SMS 21610): opt them out everywhere. */
  optOut(db: Db, row: ClaimedRecipient, evidence: string): Promise<void>;
  segments(body: string): number;
  /** The failure reason recorded when the provider's answer opts the person out (default carrier_opt_out). */
  optOutReason?: string;
  /**
   * The message as it will be sent, made once when the campaign starts (inside its planning
   * transaction). Without it every URL of the body becomes a short link. Throws CampaignHeld
   * when the campaign cannot start yet.
   */
  prepare?(tx: Db, campaign: { id: string; body: string }): Promise<string>;
};
