import { parsePhoneNumberFromString } from "libphonenumber-js/max";

export type PhoneCheck =
  | { ok: true; e164: string; national: string }
  | { ok: false; code: PhoneProblem; message: string };

export type PhoneProblem =
  | "invalid"
  | "extension"
  | "not_us"
  | "toll_free"
  | "premium"
  | "non_geographic"
  | "service_code"
  | "fictional";

const MESSAGES: Record<PhoneProblem, string> = {
  invalid: "Please enter a valid 10-digit US mobile phone number.",
  extension: "Please enter a mobile number without an extension.",
  not_us: "Market alerts are available for US mobile numbers only.",
  toll_free: "Toll-free numbers cannot receive text alerts. Please enter a US mobile number.",
  premium: "Premium-rate numbers cannot receive text alerts. Please enter a US mobile number.",
  non_geographic: "That number is not a personal mobile number. Please enter a US mobile number.",
  service_code: "That is not a valid phone number: its exchange is a service code such as 411 or 911.",
  fictional: "555 numbers are reserved and cannot receive text messages. Please enter your mobile number.",
};

const TOLL_FREE = /^8(00|33|44|55|66|77|88|22|80|81|82|83|84|85|86|87|89)$/;
const PERSONAL_OR_SPECIAL = /^(5\d\d|600|700|710)$/;

function problem(code: PhoneProblem): PhoneCheck {
  return { ok: false, code, message: MESSAGES[code] };
}

/**
 * Parses what a person typed into a US mobile number in E.164, applying the NANP rules that
 * libphonenumber does not: no 555 exchange, no N11 exchange, no toll-free, premium, personal or
 * non-geographic area codes, US only, no extension.
 */
export function checkUsMobile(input: string): PhoneCheck {
  const parsed = parsePhoneNumberFromString(input.trim(), "US");
  if (!parsed) return problem("invalid");
  if (parsed.ext) return problem("extension");
  if (parsed.countryCallingCode !== "1") return problem("not_us");
  const national = parsed.nationalNumber;
  if (!/^[2-9]\d{2}[2-9]\d{6}$/.test(national)) return problem("invalid");
  const npa = national.slice(0, 3);
  const nxx = national.slice(3, 6);
  if (TOLL_FREE.test(npa)) return problem("toll_free");
  if (npa === "900" || npa === "976") return problem("premium");
  if (PERSONAL_OR_SPECIAL.test(npa)) return problem("non_geographic");
  if (/^[2-9]11$/.test(nxx)) return problem("service_code");
  if (nxx === "555") return problem("fictional");
  if (parsed.country !== "US") return problem("not_us");
  if (!parsed.isValid()) return problem("invalid");
  return { ok: true, e164: parsed.number, national };
}
