import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { consentEvents, subscribers } from "~/db/schema";
import { emailReportBody } from "../consent/email-report";
import type { SentLookup } from "../providers/sms-transport.server";
import { CampaignHeld, type ChannelDecision, type ClaimedRecipient, type SendChannel } from "../sending/channel";
import { shortCodeFor } from "../sending/links.server";
import { replaceUrls, withCopyMarker } from "~/lib/short-links";
import { personalize, type RenderedIssue } from "./issue-email.server";
import { getIssue, recipientLinks, renderIssueFor, type DigestSource, type IssueSettings } from "./issues.server";
import type { NewsletterMailer } from "./mailer.server";

/** What a newsletter campaign sends: rendered once when it starts (send_body), with the postal address it carries. */
type PreparedIssue = RenderedIssue & { subject: string; postalAddress?: string };

/** CAN-SPAM: every copy carries the sender's postal address; one rendered without it never goes. */
const carriesPostalAddress = (issue: PreparedIssue) => Boolean(issue.postalAddress) && issue.text.includes(issue.postalAddress!) && issue.html.includes(issue.postalAddress!);
const POSTAL_ADDRESS_RECHECK_MS = 60_000;
export const POSTAL_ADDRESS_HOLD = "postal_address_missing";

/** The provider's event log, asked about a copy whose send was interrupted (Mailgun's Events API). */
export type EmailEventLookup = (messageId: string) => Promise<SentLookup>;

export function mailgunEventLookup(options: { apiBase: string; domain: string; apiKey: string }): EmailEventLookup {
  return async (messageId) => {
    try {
      const url = `${options.apiBase.replace(/\/$/, "")}/v3/${encodeURIComponent(options.domain)}/events?message-id=${encodeURIComponent(messageId.replace(/[<>]/g, ""))}`;
      const response = await fetch(url, { headers: { Authorization: `Basic ${Buffer.from(`api:${options.apiKey}`).toString("base64")}` }, signal: AbortSignal.timeout(10_000) });
      if (!response.ok) return { found: null, error: `events API answered ${response.status}` };
      const body = (await response.json()) as { items?: { event?: string }[] };
      const accepted = (body.items ?? []).some((item) => item.event === "accepted" || item.event === "delivered");
      return accepted ? { found: true, providerId: messageId, providerStatus: "accepted" } : { found: false };
    } catch (error) {
      return { found: null, error: (error as Error).message };
    }
  };
}

const HREF_PATTERN = /href="(https?:\/\/[^"]+)"/g;

/** Every link of the issue through our short links (clicks counted per issue); images stay direct. */
async function shortenLinks(tx: Db, campaignId: string, rendered: RenderedIssue, siteUrl: string): Promise<RenderedIssue> {
  const hrefs = [...new Set([...rendered.html.matchAll(HREF_PATTERN)].map((match) => match[1]!.replaceAll("&amp;", "&")))];
  const codes = new Map<string, string>();
  for (const url of hrefs) {
    if (url.startsWith(`${siteUrl}/l/`) || url.startsWith(`${siteUrl}/newsletter/`)) continue;
    codes.set(url, `${siteUrl}/l/${await shortCodeFor(tx, campaignId, url)}`);
  }
  // Each link is replaced where it stands, once: no replacement is searched again.
  const html = rendered.html.replace(HREF_PATTERN, (attribute, href: string) => {
    const short = codes.get(href.replaceAll("&amp;", "&"));
    return short ? `href="${short}"` : attribute;
  });
  const text = replaceUrls(rendered.text, (url) => codes.get(url) ?? url);
  return { html, text };
}

const messageIdFor = (row: Pick<ClaimedRecipient, "campaignId" | "id">, siteUrl: string) => `<nl-${row.campaignId}-${row.id}@${new URL(siteUrl).hostname}>`;

/**
 * The newsletter as a channel of the send engine: the engine plans, paces, retries, settles
 * interrupted sends and counts results; this module prepares the issue once, checks each address
 * right before its copy (still confirmed, not unsubscribed, not suppressed) and sends the copy
 * with its own unsubscribe links over the pooled SMTP connection.
 */
/** Every e-mail row belongs to a campaign: texts of their own (no campaign) are SMS only. */
const campaignOfRow = (row: ClaimedRecipient) => row.campaignId ?? "";

export function createEmailChannel(options: {
  mailer: NewsletterMailer;
  ratePerSecond: number;
  settings: IssueSettings;
  known: () => readonly DigestSource[];
  unsubscribeMailbox: string;
  lookup?: EmailEventLookup;
}): SendChannel {
  const { settings } = options;
  const prepared = new Map<string, PreparedIssue>();
  const tokens = new Map<number, string>();
  const issueOf = (row: ClaimedRecipient) => {
    let issue = prepared.get(campaignOfRow(row));
    if (!issue) {
      issue = JSON.parse(row.body) as PreparedIssue;
      prepared.set(campaignOfRow(row), issue);
    }
    return issue;
  };
  async function prepareIssue(tx: Db, campaign: { id: string; body: string }) {
    // Checked where the issue is rendered: without the address no copy can be made, so the issue
    // stays scheduled (shown as held on its page) and starts on the first pass after it is set.
    if (!settings.postalAddress) throw new CampaignHeld(POSTAL_ADDRESS_HOLD, "newsletter held: SITE_POSTAL_ADDRESS is not set, and every copy must carry the sender's postal address (CAN-SPAM)");
    const issue = await getIssue(tx, Number(campaign.body));
    if (!issue) throw new Error(`campaign ${campaign.id} names no newsletter issue`);
    const rendered = await shortenLinks(tx, campaign.id, await renderIssueFor(issue, options.known(), settings), settings.siteUrl);
    return JSON.stringify({ subject: issue.subject, postalAddress: settings.postalAddress, ...rendered } satisfies PreparedIssue);
  }
  /** An issue started without the address (before this check existed) is rendered again once the address is set. */
  async function renderAgainWithAddress(db: Db, campaignId: string) {
    if (!settings.postalAddress) return false;
    const [campaign] = (await db.execute<{ body: string }>(sql`SELECT body FROM campaigns WHERE id = ${campaignId}`)).rows;
    if (!campaign) return false;
    const body = await prepareIssue(db, { id: campaignId, body: String(campaign.body) });
    await db.execute(sql`UPDATE campaigns SET send_body = ${body}, updated_at = clock_timestamp() WHERE id = ${campaignId}`);
    prepared.set(campaignId, JSON.parse(body) as PreparedIssue);
    return true;
  }
  return {
    name: "email",
    rateKey: "email",
    ratePerSecond: options.ratePerSecond,
    segments: () => 1,
    optOutReason: "mailbox_rejected",

    prepare: prepareIssue,

    async decide(db, rows, now) {
      // Checked again where each copy is sent: a copy without the postal address waits, never goes.
      const unaddressed = new Set<string>();
      for (const row of rows) if (!carriesPostalAddress(issueOf(row))) unaddressed.add(campaignOfRow(row));
      for (const campaignId of unaddressed) if (await renderAgainWithAddress(db, campaignId)) unaddressed.delete(campaignId);
      const campaignOf = new Map(rows.map((row) => [row.id, row.campaignId]));
      const ids = rows.map((row) => row.id).join(",");
      const result = await db.execute<{ id: number | string; status: string | null; email_token: string | null }>(sql`
        SELECT r.id, s.status, s.email_token FROM campaign_recipients r LEFT JOIN subscribers s ON s.id = r.subscriber_id
        WHERE r.id = ANY(string_to_array(${ids}, ',')::bigint[])`);
      const decisions = new Map<number, ChannelDecision>();
      for (const fact of result.rows) {
        const id = Number(fact.id);
        if (unaddressed.has(campaignOf.get(id)!)) {
          decisions.set(id, { action: "wait", until: new Date(now.getTime() + POSTAL_ADDRESS_RECHECK_MS), reason: POSTAL_ADDRESS_HOLD });
        } else if (fact.status === "active" && fact.email_token) {
          tokens.set(id, fact.email_token);
          decisions.set(id, { action: "send" });
        } else {
          decisions.set(id, { action: "skip", reason: fact.status === "bounced" || fact.status === "complained" ? "suppressed" : fact.status === "unsubscribed" ? "unsubscribed" : "not_active" });
        }
      }
      return decisions;
    },

    async send(row) {
      const issue = issueOf(row);
      const token = tokens.get(row.id);
      tokens.delete(row.id);
      if (!token) return { ok: false, retryable: true, error: "the recipient was not checked before sending" };
      const { links, headers } = recipientLinks(settings.siteUrl, token, options.unsubscribeMailbox);
      const personal = personalize(issue, links);
      // Each link names its copy: a click seconds after the copy went out is a scanner's (decision 151).
      const copy = { html: withCopyMarker(personal.html, settings.siteUrl, row.id), text: withCopyMarker(personal.text, settings.siteUrl, row.id) };
      const result = await options.mailer.send({ to: row.address, subject: issue.subject, text: copy.text, html: copy.html, headers, messageId: messageIdFor(row, settings.siteUrl) });
      if (result.ok) return { ok: true, providerId: result.providerId, providerStatus: "accepted" };
      return { ok: false, retryable: !result.permanent, optedOut: result.mailboxRejected, error: result.error };
    },

    ...(options.lookup
      ? { lookup: (row: ClaimedRecipient) => options.lookup!(messageIdFor(row, settings.siteUrl)) }
      : {}),

    /** The receiving server says the mailbox does not exist: a hard bounce, never mailed again. */
    async optOut(db, row, evidence) {
      await db.transaction(async (tx) => {
        const [subscriber] = await tx
          .update(subscribers)
          .set({ status: "bounced", updatedAt: sql`now()` })
          .where(sql`${subscribers.id} = ${row.subscriberId} AND ${subscribers.status} IN ('active', 'pending', 'unsubscribed', 'expired')`)
          .returning({ id: subscribers.id });
        if (!subscriber) return;
        const report = emailReportBody({ provider: "smtp", eventId: null, event: "rejected", severity: "permanent", at: null, reason: null, code: null, message: evidence, description: null, messageId: messageIdFor(row, settings.siteUrl) });
        await tx.insert(consentEvents).values({ subscriberId: subscriber.id, channel: "email", action: "email_bounce", email: row.address, source: "smtp", inboundBody: report });
      });
    },
  };
}
