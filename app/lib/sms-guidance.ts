import { SegmentedMessage } from "sms-segments-calculator";

export type SmsAnalysis = {
  characters: number;
  segments: number;
  encoding: "GSM-7" | "UCS-2";
  nonGsmCharacters: string[];
  warnings: string[];
};

/**
 * The exact segment count and encoding of a text (GSM-7 160/153, UCS-2 70/67), and the
 * guidance the spec gives but does not enforce: one segment, "Reply STOP", HELP, the brand.
 */
export function analyzeSms(text: string, brand: string): SmsAnalysis {
  const message = new SegmentedMessage(text, "auto");
  const encoding = message.encodingName === "UCS-2" ? "UCS-2" : "GSM-7";
  const nonGsmCharacters = [...new Set(message.getNonGsmCharacters() as string[])];
  const warnings: string[] = [];
  if (message.segmentsCount > 1) {
    warnings.push(`This text is ${message.segmentsCount} segments: each subscriber is billed for ${message.segmentsCount} messages. Keep it under ${encoding === "GSM-7" ? 160 : 70} characters.`);
  }
  if (encoding === "UCS-2") {
    warnings.push(`Characters outside the GSM alphabet (${nonGsmCharacters.join(" ")}) switch the whole text to UCS-2, 70 characters a segment.`);
  }
  if (!/\bstop\b/i.test(text)) warnings.push("Include an opt-out instruction such as “Reply STOP to cancel”.");
  if (!/\bhelp\b/i.test(text)) warnings.push("Mention HELP (for example “Reply HELP for help”).");
  if (!text.toLowerCase().includes(brand.toLowerCase())) warnings.push(`Name the brand (${brand}) so subscribers know who is texting.`);
  return { characters: [...text].length, segments: message.segmentsCount, encoding, nonGsmCharacters, warnings };
}
