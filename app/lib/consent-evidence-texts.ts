/** Words of the admin's consent-evidence pages (decision 069). */
export const CONSENT_CHAIN_TEXTS = {
  title: "Consent Evidence",
  description: "The consent records' hash chain and its signed head.",
  intro:
    "Every consent event (opt-in, confirmation, STOP, HELP, START, bounce) is sealed into a hash chain within seconds of being recorded: each row’s hash covers the event and the row before it. The chain’s newest row is signed with a key kept outside the database, so a record edited, deleted or re-ordered afterwards, even with the chain recomputed, is found by the check below or by npm run consent:verify.",
  verify: "Check the Chain Now",
  okTitle: "The Chain Matches",
  failedTitle: "The Chain Does Not Match",
  okDescription: (checked: number, pending: number, heads: number, pages: number) =>
    `All ${checked.toLocaleString("en-US")} sealed consent events match their hashes, in order, and the chain holds all ${heads.toLocaleString("en-US")} signed heads; ${pages.toLocaleString("en-US")} kept form pages match their SHA-256.${pending > 0 ? ` ${pending.toLocaleString("en-US")} more events are queued for sealing.` : ""}`,
  noHead: "No head signed yet: the chain is signed within a minute of its first event.",
  currentKey: "This server’s key",
  retiredKeys: "Retired keys",
  noRetiredKeys: "None: set CONSENT_RETIRED_PUBLIC_KEYS to the old public key when the signing key changes, so heads signed with it still verify.",
  headSignedWith: (status: "current" | "retired", keyId: string) => `The head is signed with ${status === "current" ? "this server’s key" : "the retired key"} ${keyId}.`,
  headKeyStatus: (status: "current" | "retired" | null) => (status === "current" ? "this server’s key" : status === "retired" ? "a retired key" : "not verified by a configured key"),
  witness: "Witness file",
  witnessDescription: (path: string) => `Every signed head is also appended to ${path}, outside the database; the check reads it whole.`,
  witnessLastMatching: (seq: number | null, signedAt: string | null) =>
    seq === null ? "No witnessed head yet." : `Newest witnessed head the chain holds: seq ${seq.toLocaleString("en-US")}, signed ${signedAt}.`,
  witnessMail: (to: string | null) => (to ? `The day’s head is mailed to ${to} (CONSENT_WITNESS_EMAIL).` : "No compliance address set (CONSENT_WITNESS_EMAIL): the day’s head is not mailed."),
  brokenTitle: "The Consent Chain No Longer Holds a Signed Head",
  brokenDescription: (detail: string, since: string | null) =>
    `${detail}. No new head is signed until this is resolved${since ? ` (seen ${since.slice(0, 19).replace("T", " ")} UTC)` : ""}: restore the database from a backup, or, once the cause is known, record it with npm run consent:verify -- --acknowledge "what happened".`,
  acknowledgedTitle: "Acknowledged Breaks",
  acknowledged: (at: string, actor: string, reason: string, brokenSeq: number | null, resumeSeq: number) =>
    `${at.slice(0, 19).replace("T", " ")} UTC by ${actor}: ${reason} (heads signed before it no longer match${brokenSeq === null ? "" : `, the newest at seq ${brokenSeq}`}; signing resumed from seq ${resumeSeq}).`,
} as const;

/** A share link lives at most this long: it cannot be withdrawn before it expires (decision 070). */
export const SHARE_MAX_DAYS = 30;

/** Words of the consent certificate page (decision 070). */
export const CERTIFICATE_TEXTS = {
  title: "Consent Certificate",
  description: "What this person agreed to, when, and how, from the append-only consent record.",
  intro:
    "Every consent event recorded for this person, oldest first, as stored when it happened: the exact disclosure shown with its version and SHA-256, both boxes, the request’s details, the Do-Not-Call check and the texts sent. Each event’s place in the signed hash chain shows the record was not edited afterwards.",
  grants: "Grants consent",
  confirms: "Confirms the number is the person’s",
  signed: "covered by the signed head",
  headKey: "Head signed with (Ed25519)",
  headKeyUnverified: "no configured key verifies this head’s signature",
  certificateKey: "Certificate signed with (Ed25519)",
  notYetSigned: "not yet covered by a signed head (signed within a minute)",
  notYetSealed: "queued for the chain (sealed within seconds)",
  disclosure: "Disclosure shown",
  terms: "Terms box text",
  textsSent: "Texts this event sent",
  textsAnswered: "Texts sent in answer",
  noReply:
    "No text was sent from this number in answer: the number had already opted out (or was already subscribed), or the provider’s own keyword handling (Twilio Advanced Opt-Out) answered it.",
  textKinds: {
    welcome: "welcome text",
    doi_request: "request to reply Y",
    help: "reply to HELP",
    stop_confirmation: "opt-out confirmation",
    start_confirmation: "reply to START",
  } as Record<string, string>,
  /** A text's delivery as the ledger and the provider's last report have it (decision 125). */
  textDelivery: (text: { status: string; reason: string | null; providerId: string | null; providerStatus: string | null; error: string | null; sentAt: string | null; createdAt: string }) => {
    const utc = (iso: string) => iso.replace("T", " ").replace("Z", " UTC");
    const error = text.error ? ` (${text.error})` : "";
    if (text.status === "queued") return `queued ${utc(text.createdAt)}, not sent yet`;
    if (text.status === "sending") return `queued ${utc(text.createdAt)}, being sent`;
    if (text.status === "sent") {
      const report = text.providerStatus ? `the provider’s last report: ${text.providerStatus}${error}` : "no report from the provider yet";
      return `sent ${text.sentAt ? utc(text.sentAt) : "(time not recorded)"}${text.providerId ? `, provider id ${text.providerId}` : ""}; ${report}`;
    }
    return `not sent: ${text.status}${text.reason ? `, ${text.reason}` : ""}${error}`;
  },
  emailReport: "Provider’s report",
  /** A bounce, complaint or unsubscribe as the mail provider (or the receiving server) reported it (decision 125). */
  emailReportText: (report: {
    provider: string;
    eventId: string | null;
    event: string;
    severity: string | null;
    at: string | null;
    reason: string | null;
    code: number | null;
    message: string | null;
    description: string | null;
    messageId: string | null;
  }) => {
    const who = report.provider === "smtp" ? "The receiving mail server refused the copy as it was sent" : `${report.provider === "mailgun" ? "Mailgun" : report.provider}: ${report.event}${report.severity ? ` (${report.severity})` : ""}`;
    const parts = [
      report.at ? `at ${report.at.replace("T", " ").replace("Z", " UTC")} (the provider’s time)` : null,
      [report.code, report.message, report.description].filter((part) => part !== null && part !== "").join(" ") || null,
      report.reason ? `reason: ${report.reason}` : null,
      report.messageId ? `message ${report.messageId}` : null,
      report.eventId ? `event id ${report.eventId}` : null,
    ].filter(Boolean);
    return parts.length ? `${who}; ${parts.join("; ")}` : who;
  },
  download: "Download the signed certificate (JSON)",
  noEvents: "No consent events are recorded for this subscriber.",
  onTheForm: "On the form",
  formAsServed: "Form as served",
  formNotKept: "not kept (this form was not served from a kept page)",
  formDocument: (documentSha256: string, pageSha256: string | null) =>
    `page SHA-256 ${pageSha256 ?? "(cannot be rebuilt here)"}; kept document SHA-256 ${documentSha256} (the opt-in page’s with the landing address’s values written in; any other page’s, such as the home page’s, as it is)`,
  pageNote: "Page address",
  pageCut: (chars: number, now: boolean) =>
    `This address is exactly ${chars.toLocaleString("en-US")} characters long, ${now ? "the most this site keeps" : "where this site once cut page addresses"}: it may have been cut there, and the form page was rebuilt from the address as kept.`,
  pageOriginOnly:
    "The browser sent only the site’s address, as browsers do for an address over 4,096 characters: if the person arrived with a longer one, the form page was rebuilt without the values that address carried (a name, a phone number, a click id).",
  viewForm: "View the form as served",
  formAltered: (documentSha256: string, actualSha256: string) =>
    `The kept page filed under SHA-256 ${documentSha256} now hashes to ${actualSha256}: its bytes were changed after it was kept, so it is not shown as the page the person saw.`,
  formAlteredShort: "ALTERED: the kept page’s bytes no longer match the SHA-256 it is filed under, so it is not shown",
  noInteraction: "No record from the page: its JavaScript did not run (or the request came from the API).",
  formServed: "Form page shown (server)",
  formServedAt: (servedAt: string, occurredAt: string) =>
    `${servedAt.replace("T", " ").replace("Z", " UTC")}; the form came back ${((Date.parse(occurredAt) - Date.parse(servedAt)) / 1000).toFixed(1)} s later (both the server’s clock)`,
  formServedUnknown: "not known (no valid cookie from the form’s image came back with it: the API, images off or cookies refused)",
  rndHeading: "Reassigned Numbers Database answers",
  rndTable: "Table of the answers",
  rndIntro:
    "Whether the FCC’s Reassigned Numbers Database reported this number permanently disconnected on or after the date asked about (yes), not (no), or had no record (no data). Newest first.",
  rndAnswers: { yes: "yes: disconnected since that date", no: "no: not disconnected", no_data: "no data" },
  shareIntro: "Share this certificate with a lawyer or a lead buyer: the link opens it without an account until it expires. It cannot be withdrawn earlier.",
  shareDays: "Valid for days",
  shareButton: "Create Share Link",
  shareDaysInvalid: "Choose between 1 and 30 days.",
  shareReady: (expiresAt: string) => `Link valid until ${expiresAt.slice(0, 16).replace("T", " ")} UTC:`,
  sharedUntil: (expiresAt: string) => `Shared by the publisher; this link works until ${expiresAt.slice(0, 16).replace("T", " ")} UTC.`,
  shareExpired: "This certificate link has expired. Ask the publisher for a new one.",
  shareInvalid: "This certificate link is not valid.",
  actions: {
    opt_in: "SMS opt-in",
    doi_confirmed: "Confirmed by text (Y)",
    doi_declined: "Declined by text",
    doi_expired: "Confirmation expired",
    opt_out: "Opt-out",
    start: "Opted back in (START)",
    help: "HELP",
    refused_dnc: "Refused: Do-Not-Call",
    email_subscribe: "Newsletter sign-up",
    email_confirm: "Newsletter confirmed",
    email_unsubscribe: "Newsletter unsubscribe",
    email_resubscribe: "Newsletter re-subscribed",
    email_bounce: "E-mail bounced",
    email_complaint: "Spam complaint",
    email_import: "Imported newsletter subscriber",
    rnd_lapsed: "Consent lapsed: number reassigned (RND)",
    phone_confirmed: "Number confirmed by its holder (code, account page)",
  },
} as const;
