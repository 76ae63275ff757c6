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
  | "fictional"
  | "area_code"
  | "exchange";

const MESSAGES: Record<Exclude<PhoneProblem, "area_code" | "exchange">, string> = {
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

function problem(code: Exclude<PhoneProblem, "area_code" | "exchange">): PhoneCheck {
  return { ok: false, code, message: MESSAGES[code] };
}

/**
 * Ten digits that cannot be a US number, explained: a person who sees ten digits cannot act on
 * "enter a valid 10-digit number" (e.g. area code 555 from an ad's test link).
 */
function tenDigitProblem(input: string): PhoneCheck | null {
  const trimmed = input.trim();
  if (trimmed.startsWith("+") && !trimmed.startsWith("+1")) return null;
  let digits = trimmed.replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  if (digits.length !== 10) return null;
  const npa = digits.slice(0, 3);
  const nxx = digits.slice(3, 6);
  const area = (message: string): PhoneCheck => ({ ok: false, code: "area_code", message });
  if (/^[01]/.test(npa)) return area(`US area codes never start with ${npa[0]}, so ${npa} cannot be an area code. Please check the first three digits.`);
  if (/^[2-9]11$/.test(npa)) return area(`${npa} is a service code (like 411 or 911), not an area code. Please check the first three digits.`);
  if (npa === "555") return { ok: false, code: "fictional", message: "Area code 555 is reserved for examples and tests and cannot receive text messages. Please enter your own mobile number." };
  if (/^[01]/.test(nxx)) {
    return { ok: false, code: "exchange", message: `In a US number the three digits after the area code never start with ${nxx[0]}. Please check the number.` };
  }
  return null;
}

/** Well-formed ten digits that libphonenumber does not know: an area code not in service. */
function unassignedAreaCode(input: string): PhoneCheck | null {
  let digits = input.replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  if (digits.length !== 10) return null;
  return { ok: false, code: "area_code", message: `Area code ${digits.slice(0, 3)} is not in use in the US or Canada. Please check the first three digits.` };
}

/**
 * Parses what a person typed into a US mobile number in E.164, applying the NANP rules that
 * libphonenumber does not: no 555 exchange, no N11 exchange, no toll-free, premium, personal or
 * non-geographic area codes, US only, no extension.
 */
export function checkUsMobile(input: string): PhoneCheck {
  const impossible = tenDigitProblem(input);
  if (impossible) return impossible;
  const parsed = parsePhoneNumberFromString(input.trim(), "US");
  if (!parsed) return unassignedAreaCode(input) ?? problem("invalid");
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
  if (!parsed.isValid()) return unassignedAreaCode(input) ?? problem("invalid");
  return { ok: true, e164: parsed.number, national };
}
