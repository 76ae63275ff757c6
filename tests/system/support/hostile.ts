import fc from "fast-check";
import webhooks from "twilio/lib/webhooks/webhooks.js";
import { mobileNumber } from "./traffic";

/** Strings that have broken web apps: SQL injection, markup, encodings, control characters. */
export const SQL_INJECTION = ["' OR '1'='1", "'; DROP TABLE subscribers;--", "1) UNION SELECT NULL--", "\\'", "%27", "$$", "\\\\", "$1", "E'\\x00'"];
export const MARKUP = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</textarea><svg onload=alert(1)>", "javascript:alert(1)", "{{constructor.constructor('alert(1)')()}}"];
export const ODD = ["", " ", "\t\r\n", "\u0000", "a\u0000b", "%00", "\u202eevil", "😀🇺🇸", "Ω≈ç√", "\uFEFF", "null", "undefined", "true", "[]", "{}", "__proto__", "constructor", "on", "yes", "0"];

const validPhone = fc.nat(1_000_000).map((n) => mobileNumber(n));
const validName = fc.constantFrom("Abigail", "John", "Mercy", "O'Brien", "Anne-Marie", "José");

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SQL_INJECTION, ...MARKUP, ...ODD) },
  { weight: 1, arbitrary: fc.integer({ min: 40, max: 6000 }).map((n) => "x".repeat(n)) },
  { weight: 2, arbitrary: fc.emailAddress() },
  { weight: 2, arbitrary: validPhone },
);

/** A JSON field value of any type, mostly text. */
export const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.object({ maxDepth: 1 }) },
);

/** A field that is usually valid and sometimes hostile, so fuzzed requests also reach storage. */
export const usually = <T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<unknown> = hostileText) =>
  fc.oneof({ weight: 3, arbitrary: valid as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: hostile });

export const VALID = {
  phone: validPhone,
  name: validName,
  // Plain addresses every validator accepts; fc.emailAddress() (in hostileText) covers the exotic ones.
  email: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/), fc.constantFrom("example.com", "mail.example.org", "patriots.example")).map(([local, domain]) => `${local}@${domain}`),
  password: fc.constantFrom("Minute-Man-1775", "Valley-Forge-1777!", "short", "password", "Yorktown-1781"),
  checkbox: fc.constant("on"),
};

export type FuzzRequest = { path: string; headers: Record<string, string>; body: string };

/** Content types: the right one most of the time, otherwise a wrong or broken one. */
export const contentType = (right: string) =>
  fc.oneof(
    { weight: 9, arbitrary: fc.constant(right) },
    { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/xml", "multipart/form-data; boundary=zz", "application/json; charset=utf-16", "", "application/x-www-form-urlencoded", "application/json") },
  );

/** A form body from a record of fields, plus sometimes unknown fields or raw garbage. */
export function formBody(fields: Record<string, fc.Arbitrary<unknown>>) {
  const encode = ([known, extra]: [unknown, Record<string, string>]) => new URLSearchParams({ ...extra, ...(known as Record<string, string>) }).toString();
  return fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.record(fields), fc.dictionary(fc.string({ maxLength: 8 }), hostileText, { maxKeys: 1 })).map(encode) },
    { weight: 3, arbitrary: fc.tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(fc.string({ maxLength: 8 }), hostileText, { maxKeys: 2 })).map(encode) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
  );
}

/** A JSON body from a record of fields, plus sometimes any JSON value or text that is not JSON. */
export function jsonBody(fields: Record<string, fc.Arbitrary<unknown>>) {
  return fc.oneof(
    { weight: 5, arbitrary: fc.record(fields).map((value) => JSON.stringify(value)) },
    { weight: 3, arbitrary: fc.record(fields, { requiredKeys: [] }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
  );
}

/** Signs a Twilio webhook body the way Twilio does, so fuzzed texts reach the handler. */
export function twilioSignature(authToken: string, url: string, body: string) {
  const params = Object.fromEntries(new URLSearchParams(body));
  return webhooks.getExpectedTwilioSignature(authToken, url, params);
}
