/** Why a recipient was not sent a campaign message: stable codes stored in the ledger. */
export const SKIP_REASONS = {
  opted_out: "Opted out",
  not_active: "No longer an active subscriber",
  internal_dnc: "On our opt-out list",
  federal_dnc: "On the federal Do-Not-Call list (DNC_POLICY=refuse)",
  frequency_cap: "Frequency cap (3 marketing texts in 24 hours)",
  expired: "Alert expired before the person’s sending window opened",
  unsubscribed: "Unsubscribed from the newsletter before the issue reached them",
  suppressed: "Address suppressed (hard bounce or spam complaint)",
  no_consent: "No subscriber consent on record",
  not_pending: "The double opt-in was no longer waiting for the answer",
  rnd_reassigned: "Number disconnected since the consent (Reassigned Numbers Database): consent lapsed",
  rnd_no_data: "No data in the Reassigned Numbers Database for this number (RND_NO_DATA=skip)",
  rnd_no_answer: "No recent Reassigned Numbers Database answer for consent older than RND_CHECK_AFTER_DAYS",
} as const;

export type SkipReason = keyof typeof SKIP_REASONS;

export const FAILURE_REASONS = {
  provider_error: "Refused by the provider",
  carrier_opt_out: "Unsubscribed at the carrier (opted out)",
  mailbox_rejected: "The receiving server refused the address (hard bounce)",
  retries_exhausted: "Provider unavailable after every retry",
  in_doubt: "Interrupted mid-send and the provider could not be asked",
  cancelled: "Campaign cancelled",
} as const;

export type FailureReason = keyof typeof FAILURE_REASONS;

/** Why a queued message waits (it goes later). */
export const WAIT_REASONS = {
  quiet_hours: "Waiting for quiet hours to end",
  postal_address_missing: "Held until the sender’s postal address is set (SITE_POSTAL_ADDRESS)",
  rnd_unavailable: "Waiting for the Reassigned Numbers Database to answer",
} as const;

export function reasonLabel(code: string | null) {
  if (!code) return "";
  return (SKIP_REASONS as Record<string, string>)[code] ?? (FAILURE_REASONS as Record<string, string>)[code] ?? (WAIT_REASONS as Record<string, string>)[code] ?? code;
}
