/**
 * "Recent changes" on the staff home in words: who did what to whom or to which article
 * (decision 101). One phrasing per audit action; `{subject}` marks where the changed thing (a
 * link) goes. A new action needs one line in AUDIT_PHRASES (app/lib/audit-texts.test.ts checks
 * every action the code writes has one).
 */

/** The thing a change was made to, as the staff home names and links it. */
export type AuditSubject = { noun: string; name?: string; href?: string };

type Value = Record<string, unknown> | string | null;
type Change = { before: Value; after: Value };
type Phrase = (change: Change) => string;

const number = new Intl.NumberFormat("en-US");

const field = (value: Value, key: string): unknown => (value && typeof value === "object" ? value[key] : undefined);
const text = (value: unknown) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");
const count = (value: unknown, one: string, many: string) => {
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) return many;
  return `${number.format(n)} ${n === 1 ? one : many}`;
};

/** "+12124563210" -> "(212) 456-3210"; anything else as it is. */
export function formatStoredPhone(value: unknown) {
  const raw = text(value);
  const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(raw);
  return us ? `(${us[1]}) ${us[2]}-${us[3]}` : raw;
}

/** An instant written by the code (ISO 8601) as staff read it, US Eastern time. */
export function formatChangeTime(value: unknown) {
  const at = new Date(text(value));
  if (Number.isNaN(at.getTime())) return "";
  return new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(at);
}

const at = (value: unknown) => {
  const when = formatChangeTime(value);
  return when ? ` for ${when}` : "";
};
const fromFile = (value: Value) => (text(field(value, "file")) ? ` from ${text(field(value, "file"))}` : "");
const roleName = (value: unknown) => (text(value) ? text(value) : "reader");

export const AUDIT_PHRASES: Record<string, Phrase> = {
  // Articles (app/services/content/articles.server.ts, featured.server.ts, import.server.ts)
  "article.created": () => "started {subject} as a draft",
  "article.saved": () => "saved the draft of {subject}",
  "article.published": () => "published {subject}",
  "article.updated": () => "published changes to {subject}",
  "article.scheduled": ({ after }) => `scheduled {subject}${at(field(after, "publishAt"))}`,
  "article.published_on_schedule": () => "published {subject} as scheduled",
  "article.unpublished": () => "unpublished {subject}",
  "article.restored": () => "restored an earlier version of {subject}",
  "article.featured": () => "featured {subject}",
  "article.imported": () => "imported {subject}",
  "article.import_updated": () => "updated {subject} from a newer export of its old site",
  // Authors and images
  "author.created": () => "added {subject}",
  "author.updated": () => "updated the profile of {subject}",
  "media.upload": () => "uploaded {subject}",
  "author.imported": () => "imported {subject} from an old site",
  // Moving a WordPress or Ghost site in (app/services/import/, decision 159)
  "import.uploaded": () => "uploaded {subject} for its dry run",
  "import.started": () => "started {subject}",
  "import.confirmed": () => "confirmed the categories and started {subject}",
  "import.cancelled": () => "cancelled {subject}",
  // Old addresses answering 301 (app/services/redirects/redirects.server.ts, decision 160)
  "redirect.saved": ({ before, after }) =>
    `sent ${text(field(after, "path"))} on to ${text(field(after, "target"))} in {subject}${before ? ` (it went to ${text(field(before, "target"))})` : ""}`,
  "redirect.deleted": ({ before }) => `removed ${text(field(before, "path"))} from {subject}`,
  "redirect.imported": ({ after }) => `added ${count(field(after, "written"), "old address", "old addresses")} to {subject}`,
  // Market alerts and newsletter sends (app/services/sending/)
  "campaign.draft_created": () => "drafted {subject}",
  "campaign.draft_saved": () => "edited the draft of {subject}",
  "campaign.send_now": () => "started sending {subject}",
  "campaign.scheduled": ({ after }) => `scheduled {subject}${at(field(after, "scheduledAt"))}`,
  "campaign.pause": () => "paused {subject}",
  "campaign.resume": () => "resumed {subject}",
  "campaign.cancel": () => "cancelled {subject}",
  "campaign.unschedule": () => "took {subject} off the schedule",
  "campaign.test_sent": ({ after }) => `texted a test of {subject} to ${formatStoredPhone(field(after, "to"))}`,
  "campaign.started": ({ after }) => `began sending {subject} to ${count(field(after, "planned"), "recipient", "recipients")}`,
  "campaign.completed": () => "finished sending {subject}",
  // Newsletter issues and the subscriber list
  "newsletter.create": () => "drafted {subject}",
  "newsletter.update": () => "edited {subject}",
  "newsletter.schedule": ({ after }) => `scheduled {subject}${at(field(after, "at"))}`,
  "newsletter.send_now": () => "started sending {subject}",
  "newsletter.cancel": () => "cancelled {subject}",
  "newsletter.test_send": ({ after }) => `sent a test of {subject} to ${text(after)}`,
  "newsletter.import": ({ after }) => `imported ${count(field(after, "imported"), "subscriber", "subscribers")} into {subject}${fromFile(after)}`,
  // The welcome text
  "welcome_message.update": () => "changed {subject}",
  "welcome_message.conflict": () => "tried to change {subject} after someone else had changed it (not saved)",
  // Do-Not-Call list and reassigned numbers
  "dnc.add": ({ after }) => `added ${formatStoredPhone(after)} to {subject}`,
  "dnc.remove": ({ after }) => `removed ${formatStoredPhone(after)} from {subject}`,
  "dnc.upload_add": ({ after }) => `added ${count(field(after, "changed"), "number", "numbers")} to {subject}${fromFile(after)}`,
  "dnc.upload_remove": ({ after }) => `removed ${count(field(after, "changed"), "number", "numbers")} from {subject}${fromFile(after)}`,
  // Ad costs (app/services/analytics/ad-costs.server.ts, decision 155)
  "ad_cost.set": ({ before, after }) => costChange("entered", before, after),
  "ad_cost.import": ({ before, after }) => costChange("imported", before, after),
  "ad_cost.delete": ({ before }) => `removed the cost of ${costKey(before)} (${dollars(before)}) from {subject}`,
  // Consent evidence (app/services/consent/chain.server.ts, decision 081)
  "consent.chain_break_acknowledged": ({ after }) => `acknowledged a break in {subject}${text(field(after, "reason")) ? ` (“${text(field(after, "reason"))}”)` : ""}`,
  "rnd.import": ({ after }) => `recorded ${count(field(after, "recorded"), "answer", "answers")} in {subject}${fromFile(after)}`,
  // A db:export file loaded into a new database (app/db/transfer.server.ts)
  "database.import": ({ after }) => `loaded ${count(field(after, "rows"), "row", "rows")} into {subject}${fromFile(after)}`,
  // Accounts
  "user.create_admin": () => "created the admin account {subject}",
  "user.promote": () => "made {subject} an admin",
  "user.role": ({ before, after }) => `changed the role of {subject} from ${roleName(field(before, "role"))} to ${roleName(field(after, "role"))}`,
};

/** An ad cost's key as staff read it: "newsmax / fall / sub1 A-7 on 2026-11-20". */
function costKey(value: Value) {
  const parts = [text(field(value, "source")), text(field(value, "campaign")), text(field(value, "subId")) ? `sub-id ${text(field(value, "subId"))}` : ""].filter(Boolean);
  return `${parts.join(" / ")} on ${text(field(value, "day"))}`;
}

/** The stored amount ("120.50", whole cents written out) in dollars. */
const dollars = (value: Value) => `$${text(field(value, "amount"))}`;

function costChange(verb: string, before: Value, after: Value) {
  return `${verb} ${dollars(after)} for ${costKey(after)} in {subject}${before ? ` (was ${dollars(before)})` : ""}`;
}

/** Who made a change: a person's e-mail address, or the part of the site that acted on its own. */
const ACTORS: Record<string, string> = {
  system: "The site",
  import: "The article import",
  setup: "The setup page",
};

/**
 * The actor of a change made with `npm run <command>` (`dnc:import`, `db:import`, `admin:create`):
 * the command and the system user who ran it, e.g. `dnc:import (command line, ops)`.
 */
export function commandLineActor(command: string, user: string) {
  return user ? `${command} (command line, ${user})` : `${command} (command line)`;
}

export function describeActor(actor: string | null) {
  if (!actor) return "Someone";
  if (ACTORS[actor]) return ACTORS[actor];
  const command = /^([a-z]+:[a-z-]+)(?: \(command line(?:, (.+))?\))?$/.exec(actor);
  if (command) return `The ${command[1]} command${command[2] ? ` (run by ${command[2]})` : ""}`;
  return actor;
}

function parse(value: string | null): Value {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : typeof parsed === "string" ? parsed : value;
  } catch {
    return value;
  }
}

export type AuditEntry = { actor: string | null; action: string; before: string | null; after: string | null };

/** A change as words around its subject: `${actor} ${lead}<subject>${tail}`. */
export type DescribedChange = { actor: string; lead: string; subject: AuditSubject; tail: string };

export function describeChange(entry: AuditEntry, subject: AuditSubject): DescribedChange {
  const phrase = AUDIT_PHRASES[entry.action];
  // An action without a phrasing still says what happened, in the words the code stored.
  const words = phrase ? phrase({ before: parse(entry.before), after: parse(entry.after) }) : `${entry.action.replace(/[._]/g, " ")} on {subject}`;
  const [lead = "", tail = ""] = words.split("{subject}");
  return { actor: describeActor(entry.actor), lead, subject, tail };
}
