/**
 * Classifies an inbound text (COMPLIANCE.md 1.5-1.7). Opt-outs are read generously: the FCC's
 * 2025 rule accepts any reasonable wording, and missed plain-language opt-outs are where the
 * lawsuits are.
 */
export type InboundIntent = "stop" | "help" | "start" | "other";

const STOP_WORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT", "REMOVE", "ARRET", "UNSUB"];
const STOP_PHRASES = [
  "STOP ALL",
  "OPT OUT",
  "REMOVE ME",
  "TAKE ME OFF",
  "DONT TEXT",
  "DO NOT TEXT",
  "DONT MESSAGE",
  "DO NOT MESSAGE",
  "DO NOT CONTACT",
  "DONT CONTACT",
  "NO MORE",
  "LEAVE ME ALONE",
  "WRONG NUMBER",
  "NOT INTERESTED",
  "CEASE",
  "DESIST",
  "EXIT",
  "STOP TEXTING",
  "STOP MESSAGING",
  "DO NOT WISH",
  "DONT WISH",
  "DO NOT WANT",
  "DONT WANT",
  "NO LONGER",
  "UNSUBSCRIBE ME",
];
const BARE_NO = ["NO", "N", "NOPE", "S"];
const HELP_WORDS = ["HELP", "INFO"];
const START_WORDS = ["START", "UNSTOP", "YES"];

function normalize(body: string) {
  return body
    .toUpperCase()
    .replace(/[’'`]/g, "")
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();
}

export function classifyInbound(body: string): InboundIntent {
  const text = normalize(body);
  if (!text) return "other";
  const compact = text.replace(/ /g, "");
  if (STOP_WORDS.includes(compact) || STOP_WORDS.includes(text)) return "stop";
  if (HELP_WORDS.includes(text)) return "help";
  if (START_WORDS.includes(text)) return "start";
  if (BARE_NO.includes(text)) return "stop";
  const tokens = text.split(" ");
  if (tokens.some((token) => STOP_WORDS.includes(token))) return "stop";
  const spaced = ` ${text} `;
  if (STOP_PHRASES.some((phrase) => spaced.includes(` ${phrase} `))) return "stop";
  return "other";
}

// The replies below are text messages: they stay in GSM-7, straight apostrophes and quotes
// included (a curly one switches the whole text to UCS-2, 70 characters a segment; decision 147).
export function helpReply(site: { name: string; email: string; phone: string }) {
  return `${site.name} Alerts: Help at ${site.email} or ${site.phone}. Up to 3 msgs/day. Msg&data rates may apply. Reply STOP to cancel.`;
}

export function stopConfirmation(siteName: string) {
  return `${siteName}: You are unsubscribed and will get no more messages. Reply START to resubscribe.`;
}
