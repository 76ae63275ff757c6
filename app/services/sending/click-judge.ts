import { judgeUserAgent } from "../analytics/user-agent";

/**
 * Why a request for a short link was not a person tapping it. Mail security gateways open every
 * link of a message as it arrives (to check where it leads), link-preview fetchers open it when a
 * text arrives, and both would otherwise pass for readers (decision 151).
 */
export const MACHINE_CLICK_REASONS = [
  "head",
  "no-user-agent",
  "link-preview",
  "mail-scanner",
  "headless",
  "bot-list",
  "not-a-browser",
  "missing-headers",
  "soon-after-delivery",
] as const;
export type MachineClickReason = (typeof MACHINE_CLICK_REASONS)[number];

/**
 * Security gateways that name themselves (many borrow a browser's name instead: the delivery-time
 * and fetch-metadata rules catch those).
 */
const MAIL_SCANNER =
  /barracuda|mimecast|proofpoint|urldefense|ms-office|microsoft office|safelinks|safe links|trendmicro|trend micro|symantec|messagelabs|sophos|zscaler|forcepoint|ironport|cisco|fireeye|trellix|checkpoint|check point|avanan|abnormal security|vadesecure|vade secure|hornetsecurity|spamtitan|libraesva|yahoomailproxy|googleimageproxy/i;

/** A person cannot have read a message and chosen a link this soon after it was handed over. */
export const SOON_AFTER_DELIVERY_SECONDS = 30;

export type ClickRequest = {
  method: string;
  userAgent: string | undefined;
  /**
   * `Sec-Fetch-Mode: navigate` was sent: every current browser says so when a link is opened (a
   * script's `fetch` says `cors`, most programs send nothing).
   */
  navigation: boolean;
  /** An Accept-Language header was sent (every browser sends one). */
  acceptLanguage: boolean;
  /** Seconds from the copy's send to this request, when the link names its copy (e-mail). */
  secondsSinceSent?: number | null;
};

/** null for a person's click; otherwise the first reason it was a machine's. */
export function judgeClick(click: ClickRequest): MachineClickReason | null {
  if (click.method === "HEAD") return "head";
  const userAgent = click.userAgent ?? "";
  if (MAIL_SCANNER.test(userAgent)) return "mail-scanner";
  const verdict = judgeUserAgent(userAgent);
  if (verdict.reason) return verdict.reason;
  if (!click.acceptLanguage || (verdict.sendsFetchMetadata && !click.navigation)) return "missing-headers";
  if (click.secondsSinceSent != null && click.secondsSinceSent >= 0 && click.secondsSinceSent < SOON_AFTER_DELIVERY_SECONDS) return "soon-after-delivery";
  return null;
}
