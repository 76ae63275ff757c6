/** Words of the admin's consent-evidence pages (decision 069). */
export const CONSENT_CHAIN_TEXTS = {
  title: "Consent Evidence",
  description: "The consent records' hash chain and its signed head.",
  intro:
    "Every consent event (opt-in, confirmation, STOP, HELP, START, bounce) is sealed into a hash chain within seconds of being recorded: each row's hash covers the event and the row before it. The chain's newest row is signed with a key kept outside the database, so a record edited, deleted or re-ordered afterwards, even with the chain recomputed, is found by the check below or by npm run consent:verify.",
  verify: "Check the Chain Now",
  okTitle: "The Chain Matches",
  failedTitle: "The Chain Does Not Match",
  okDescription: (checked: number, pending: number) =>
    `All ${checked.toLocaleString("en-US")} sealed consent events match their hashes, in order, up to the signed head.${pending > 0 ? ` ${pending.toLocaleString("en-US")} more are queued for sealing.` : ""}`,
  noHead: "No head signed yet: the chain is signed within a minute of its first event.",
} as const;
