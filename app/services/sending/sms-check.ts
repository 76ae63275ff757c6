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
 * list, the federal list under the DNC policy, the frequency cap, then quiet hours in every zone of
 * the area code. Pure: the same facts, policy and clock always give the same answer.
 */
export function checkSmsSend(facts: SmsRecipientFacts, policy: SmsPolicy, now: Date): SendDecision {
  if (facts.subscriberStatus !== "active") return { action: "skip", reason: facts.subscriberStatus === "opted_out" ? "opted_out" : "not_active" };
  if (facts.onInternalDnc) return { action: "skip", reason: "internal_dnc" };
  if (facts.onFederalDnc && policy.dncPolicy === "refuse") return { action: "skip", reason: "federal_dnc" };
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
