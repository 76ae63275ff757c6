/**
 * Subscriber lists as other platforms export them, read as this site's columns (issue 35, item 8):
 * Ghost's members CSV, the WordPress newsletter plugins' exports (MailPoet, The Newsletter Plugin,
 * Mailchimp for WP and the like name their columns in words) and this site's own export. Columns
 * with no place here are named, never guessed at; phone numbers are never imported, because a
 * text needs consent evidence an export does not carry (COMPLIANCE.md).
 */

export type OurColumn = "email" | "first_name" | "last_name" | "status" | "source" | "subscribed_at" | "confirmed_at";

export type SubscriberCsvFormat = {
  name: "this site’s export" | "Ghost members" | "a newsletter plugin’s export";
  /** For each column of the file, ours or null (not carried over). */
  columns: (OurColumn | "name" | "ghost_subscribed" | "deleted_at" | null)[];
  ignored: string[];
  phoneColumns: string[];
};

const ALIASES: Record<string, OurColumn> = {
  email: "email",
  "e-mail": "email",
  email_address: "email",
  "email address": "email",
  user_email: "email",
  subscriber_email: "email",
  first_name: "first_name",
  firstname: "first_name",
  "first name": "first_name",
  last_name: "last_name",
  lastname: "last_name",
  "last name": "last_name",
  status: "status",
  subscription_status: "status",
  "subscription status": "status",
  subscribed_at: "subscribed_at",
  created_at: "subscribed_at",
  "created at": "subscribed_at",
  "subscribed at": "subscribed_at",
  date_subscribed: "subscribed_at",
  confirmed_at: "confirmed_at",
  "confirmed at": "confirmed_at",
  source: "source",
};

const PHONE = /^(phone|mobile|cell|tel|telephone|phone_number|phone number|mobile_number|sms|sms_number)$/;
const GHOST_HEADER = ["id", "email", "name", "subscribed_to_emails"];

/** The file's format from its first line, or null when it has no e-mail column at all. */
export function recognizeSubscriberCsv(header: readonly string[]): SubscriberCsvFormat | null {
  const names = header.map((name) => name.trim().toLowerCase());
  const ghost = GHOST_HEADER.every((name) => names.includes(name));
  const columns: SubscriberCsvFormat["columns"] = [];
  const ignored: string[] = [];
  const phoneColumns: string[] = [];
  for (const name of names) {
    if (ghost && name === "name") columns.push("name");
    else if (ghost && name === "subscribed_to_emails") columns.push("ghost_subscribed");
    else if (ghost && name === "deleted_at") columns.push("deleted_at");
    else if (ghost && name === "source") columns.push(null);
    else if (ALIASES[name]) columns.push(ALIASES[name]!);
    else {
      columns.push(null);
      if (PHONE.test(name)) phoneColumns.push(name);
      else if (name) ignored.push(name);
    }
  }
  if (!columns.includes("email")) return null;
  const ours = names.every((name) => !name || (["email", "first_name", "last_name", "status", "source", "subscribed_at", "confirmed_at"] as const).includes(name as OurColumn));
  return { name: ghost ? "Ghost members" : ours ? "this site’s export" : "a newsletter plugin’s export", columns, ignored, phoneColumns };
}

/** Statuses of the plugins in this site's words; an unknown one is passed on (and refused with the list). */
export function ourStatus(value: string): string {
  const status = value.trim().toLowerCase();
  if (["subscribed", "active", "confirmed", "true", "yes"].includes(status)) return "active";
  if (["unconfirmed", "pending", "not confirmed", "waiting"].includes(status)) return "pending";
  if (["unsubscribed", "inactive", "false", "no"].includes(status)) return "unsubscribed";
  if (["bounced", "hard bounce"].includes(status)) return "bounced";
  if (["complained", "spam", "spam complaint"].includes(status)) return "complained";
  return status;
}

/** "2024-01-15 10:00:00" (the plugins' MySQL times, in UTC) as ISO 8601; anything else as it is. */
function isoTime(value: string) {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/.exec(value.trim());
  return match ? `${match[1]}T${match[2]}${match[3] ?? ":00"}Z` : value;
}

/** One row of the file as this site's columns, or why it is left out. */
export function rowAsOurs(format: SubscriberCsvFormat, values: readonly string[]): { row: Partial<Record<OurColumn, string>> } | { skip: string } {
  const row: Partial<Record<OurColumn, string>> = {};
  for (const [index, column] of format.columns.entries()) {
    const value = values[index] ?? "";
    if (!column) continue;
    if (column === "deleted_at") {
      if (value.trim()) return { skip: "deleted in Ghost" };
    } else if (column === "name") {
      const [first, ...rest] = value.trim().split(/\s+/);
      row.first_name = first ?? "";
      row.last_name = rest.join(" ");
    } else if (column === "ghost_subscribed") row.status = ourStatus(value);
    else if (column === "status") row.status = format.name === "this site’s export" ? value : ourStatus(value);
    else if (column === "subscribed_at" || column === "confirmed_at") row[column] = isoTime(value);
    else row[column] = value;
  }
  return { row };
}
