/**
 * What the server says when it refuses a request before any form logic runs (size, type,
 * encoding, origin) or cannot serve it (database down). One place, so the JSON endpoints, the
 * forms and the raw server answer with the same words.
 */
export const REFUSALS = {
  tooLarge: (limitBytes: number) => `The request body is larger than ${limitBytes / 1024} KB.`,
  formType: "Send the form as application/x-www-form-urlencoded.",
  jsonType: "Send the body as application/json.",
  badJson: "The body is not valid JSON.",
  badForm: "The form data could not be read. Send it again from the page.",
  nulCharacter: "The request contains a NUL character (\\u0000), which no field accepts.",
  crossSite: "This request came from another site, so it was refused. Submit the form from our own pages.",
  databaseUnavailable:
    "We can’t reach our database right now, so nothing was saved. Please try again in a minute.",
} as const;

/** Seconds a client should wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 10;

/** True when any string (or object key) inside a parsed body holds a NUL character: PostgreSQL text cannot store it. */
export function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === "object") {
    return Object.entries(value).some(([key, item]) => key.includes("\u0000") || containsNul(item));
  }
  return false;
}
