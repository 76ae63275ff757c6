import type { RndVerdict } from "../consent/rnd-check";
import { insideWindow, nextAllowedTime, recipientLocation } from "./quiet-hours";
import type { SkipReason } from "./reasons";

/** What is known about one SMS recipient right before the send (read in one query). */
export type SmsRecipientFacts = {
  phone: string;
  subscriberStatus: string | null;
  onInternalDnc: boolean;
  onFederalDnc: boolean;
  /** When this person was last sent marketing texts (the most recent few are enough). */
  recentMarketingSends: Date[];
  /** The Reassigned Numbers Database rule for this consent (decision 071); absent: not checked. */
  rnd?: RndVerdict;
};

export type SmsPolicy = {
  dncPolicy: "refuse" | "allow_with_consent";
  /** Marketing texts per rolling 24 h we disclosed (and the FL/OK/MD cap): 3. */
  frequencyCap: number;
  /** Past this instant the alert is stale: dropped, not sent late. */
  expiresAt: Date | null;
  /** Tests only: quiet hours are judged this much later than `now` (so a test can run at any hour). */
  quietHoursOffsetMs?: number;
};

export type SendDecision = { action: "send" } | { action: "wait"; until: Date } | { action: "skip"; reason: SkipReason };

export const FREQUENCY_CAP_PER_24H = 3;
const DAY_MS = 86_400_000;

/**
 * The SMS send gate for a marketing text, in the order of COMPLIANCE.md §7: consent, our opt-out
 * list, the federal list under the DNC policy, the Reassigned Numbers Database, the frequency cap, then quiet hours in every zone of
 * the area code. Pure: the same facts, policy and clock always give the same answer.
 */
export function checkSmsSend(facts: SmsRecipientFacts, policy: SmsPolicy, now: Date): SendDecision {
  if (facts.subscriberStatus !== "active") return { action: "skip", reason: facts.subscriberStatus === "opted_out" ? "opted_out" : "not_active" };
  if (facts.onInternalDnc) return { action: "skip", reason: "internal_dnc" };
  if (facts.onFederalDnc && policy.dncPolicy === "refuse") return { action: "skip", reason: "federal_dnc" };
  if (facts.rnd?.action === "skip") return { action: "skip", reason: facts.rnd.reason };
  if (policy.expiresAt && now >= policy.expiresAt) return { action: "skip", reason: "expired" };
  const inLastDay = facts.recentMarketingSends.filter((sentAt) => now.getTime() - sentAt.getTime() < DAY_MS).length;
  if (inLastDay >= policy.frequencyCap) return { action: "skip", reason: "frequency_cap" };
  const location = recipientLocation(facts.phone);
  const offset = policy.quietHoursOffsetMs ?? 0;
  if (insideWindow(new Date(now.getTime() + offset), location)) return { action: "send" };
  const until = new Date(nextAllowedTime(new Date(now.getTime() + offset), location).getTime() - offset);
  if (policy.expiresAt && until >= policy.expiresAt) return { action: "skip", reason: "expired" };
  return { action: "wait", until };
}

/** The kinds of text sent to one person for a reason of their own (decision 068). */
export type TextKind = "stop_confirmation" | "help" | "verification_code" | "test" | "welcome" | "start_confirmation" | "doi_request";

/**
 * The gate for a text of its own, right before it goes (the old outbox's rule, kept): the replies
 * to STOP and HELP always go, STOP's even after the opt-out; a test text and a phone code need no
 * subscriber but not a number on our opt-out list; the request for a "Y" only while the double
 * opt-in waits for it; a welcome or START's confirmation only to an active subscriber. These
 * answer a person's own action, so quiet hours and the marketing frequency cap do not apply to
 * them (COMPLIANCE.md product decision 4), and they do not count toward the cap.
 */
export function checkTextSend(kind: TextKind, facts: Pick<SmsRecipientFacts, "subscriberStatus" | "onInternalDnc"> & { hasSubscriber: boolean }): SendDecision {
  if (kind === "stop_confirmation" || kind === "help") return { action: "send" };
  if (facts.onInternalDnc) return { action: "skip", reason: "internal_dnc" };
  if (kind === "test" || kind === "verification_code") return { action: "send" };
  if (!facts.hasSubscriber) return { action: "skip", reason: "no_consent" };
  if (kind === "doi_request") return facts.subscriberStatus === "pending" ? { action: "send" } : { action: "skip", reason: facts.subscriberStatus === "opted_out" ? "opted_out" : "not_pending" };
  if (facts.subscriberStatus !== "active") return { action: "skip", reason: facts.subscriberStatus === "opted_out" ? "opted_out" : "not_active" };
  return { action: "send" };
}
