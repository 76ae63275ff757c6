/**
 * What a form still needs before its submit button turns on, in words a person can act on. The
 * same rules as the server's (decision 007: the opt-in needs the SMS box as well as the Terms box),
 * so a button that is on never leads to "Consent Required".
 */
type Requirement = { name: string; label: string; kind: "text" | "checkbox" };

const OPT_IN: Requirement[] = [
  { name: "firstName", label: "first name", kind: "text" },
  { name: "lastName", label: "last name", kind: "text" },
  { name: "phone", label: "mobile phone", kind: "text" },
  { name: "smsConsent", label: "the SMS alerts box", kind: "checkbox" },
  { name: "termsConsent", label: "the Terms of Service box", kind: "checkbox" },
];

const NEWSLETTER: Requirement[] = [
  { name: "firstName", label: "first name", kind: "text" },
  { name: "lastName", label: "last name", kind: "text" },
  { name: "email", label: "email", kind: "text" },
  { name: "phone", label: "phone", kind: "text" },
  { name: "termsConsent", label: "the Terms of Service box", kind: "checkbox" },
];

function missing(requirements: Requirement[], data: FormData) {
  return requirements
    .filter(({ name, kind }) => (kind === "checkbox" ? data.get(name) !== "on" : String(data.get(name) ?? "").trim() === ""))
    .map(({ label }) => label);
}

export const missingForOptIn = (data: FormData) => missing(OPT_IN, data);
export const missingForNewsletter = (data: FormData) => missing(NEWSLETTER, data);

/** "Still needed: first name, mobile phone and the SMS alerts box." (empty when nothing is missing) */
export function missingHint(items: string[]) {
  if (items.length === 0) return "";
  const list = items.length === 1 ? items[0] : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
  return `Still needed: ${list}.`;
}
