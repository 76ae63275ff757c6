import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { campaignRecipients, shortLinks, subscribers } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { latestCampaignSummaries } from "../admin/dashboard.server";
import type { JobLogger } from "../job-loop.server";
import { drainCampaigns, type EngineOptions } from "../sending/engine.server";
import { createEmailChannel, type EmailEventLookup } from "./email-channel.server";
import { saveIssueDraft, type IssueSettings } from "./issues.server";
import type { NewsletterMailer, NewsletterMessage } from "./mailer.server";
import { newsletterResults } from "./results.server";
import { cancelIssue, scheduleIssue } from "./schedule.server";
import { unsubscribeByToken } from "./subscription.server";

const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };
const SITE = "https://news.example";
const SETTINGS = { siteName: "Patriot Investor", siteUrl: SITE, postalAddress: "1776 Liberty Way, Philadelphia, PA 19106" };
const KNOWN = [{ slug: "bonds-guide", title: "Bonds: A Guide for Savers", excerpt: "What a bond is and how it pays you back.", image: "/images/articles/bonds-guide.svg", imageAlt: "A bond certificate", category: "Bonds" }];
const EVIDENCE = { ip: "198.51.100.1", userAgent: "test", acceptLanguage: null, pageUrl: null, referrer: null };

function fakeMailer(behaviour: (message: NewsletterMessage) => "ok" | "temporary" | "unknown-user" = () => "ok") {
  const accepted: NewsletterMessage[] = [];
  const mailer: NewsletterMailer = {
    name: "smtp",
    async send(message) {
      const outcome = behaviour(message);
      if (outcome === "ok") {
        accepted.push(message);
        return { ok: true, providerId: message.messageId };
      }
      return outcome === "temporary"
        ? { ok: false, permanent: false, mailboxRejected: false, error: "421 4.7.0 try again later" }
        : { ok: false, permanent: true, mailboxRejected: true, error: "550 5.1.1 user unknown" };
    },
    close: () => {},
  };
  const lookup: EmailEventLookup = async (messageId) =>
    accepted.some((message) => message.messageId === messageId) ? { found: true, providerId: messageId, providerStatus: "accepted" } : { found: false };
  return { mailer, accepted, lookup };
}

async function addSubscriber(db: Db, email: string, status: "active" | "pending" | "unsubscribed" | "bounced" = "active") {
  const token = randomBytes(32).toString("base64url");
  await db.insert(subscribers).values({ channel: "email", email, firstName: "A", lastName: "B", status, source: "newsletter", emailToken: token });
  return token;
}

function engine(db: Db, mailer: NewsletterMailer, lookup?: EmailEventLookup, clock = () => new Date(), settings: IssueSettings = SETTINGS, logger: JobLogger = quietLogger): EngineOptions {
  return {
    db,
    channel: createEmailChannel({ mailer, ratePerSecond: 10_000, settings, known: () => KNOWN, unsubscribeMailbox: "info@news.example", lookup }),
    logger,
    siteUrl: SITE,
    dncPolicy: "refuse",
    clock,
    inDoubtAfterSeconds: 1,
  };
}

async function newIssue(db: Db, subject: string) {
  const saved = await saveIssueDraft(db, { draft: { subject, previewText: "Preview", introMarkdown: "Read [our guide](https://news.example/articles/bonds-guide).", articleSlugs: ["bonds-guide"] }, actor: "admin@example.com", known: KNOWN });
  if (!saved.ok) throw new Error(saved.code);
  return saved.id;
}

describe.each(DB_KINDS)("sending a newsletter issue on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("sends one copy to every confirmed subscriber, with their own unsubscribe links, and skips who left before their copy", async () => {
    const { db } = database;
    const tokens = new Map<string, string>();
    for (let i = 0; i < 12; i++) tokens.set(`reader${i}@example.com`, await addSubscriber(db, `reader${i}@example.com`));
    await addSubscriber(db, "pending@example.com", "pending");
    await addSubscriber(db, "gone@example.com", "unsubscribed");
    await addSubscriber(db, "bounced@example.com", "bounced");
    const id = await newIssue(db, "Weekly Brief");
    expect(await scheduleIssue(db, { id, actor: "admin@example.com", when: "now" })).toMatchObject({ ok: true });

    // Reader 0 unsubscribes after the issue was planned but before the copy goes: skipped.
    const { mailer, accepted } = fakeMailer();
    const options = engine(db, mailer);
    const { startDueCampaigns } = await import("../sending/engine.server");
    await startDueCampaigns(options, new Date());
    await unsubscribeByToken(db, tokens.get("reader0@example.com")!, "one-click", EVIDENCE);
    await drainCampaigns(options);

    expect(accepted.map((message) => message.to).sort()).toEqual([...tokens.keys()].filter((email) => email !== "reader0@example.com").sort());
    const copy = accepted.find((message) => message.to === "reader5@example.com")!;
    const token = tokens.get("reader5@example.com")!;
    expect(copy.headers["List-Unsubscribe"]).toContain(`${SITE}/newsletter/unsubscribe?token=${token}`);
    expect(copy.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(copy.html).toContain(`${SITE}/newsletter/preferences?token=${token}`);
    expect(copy.text).toContain("1776 Liberty Way");
    // Article links go through first-party short links; the image does not.
    const [link] = await db.select().from(shortLinks).where(eq(shortLinks.url, `${SITE}/articles/bonds-guide`));
    // The copy names itself in each short link (decision 151).
    expect(copy.html).toMatch(new RegExp(`href="${SITE}/l/${link!.code}\\?c=\\d+"`));
    expect(copy.html).toContain(`src="${SITE}/images/social/articles-bonds-guide.png"`);
    expect(new Set(accepted.map((message) => message.messageId)).size).toBe(accepted.length);

    const [row] = await db.select({ campaignId: campaignRecipients.campaignId }).from(campaignRecipients).limit(1);
    const results = await newsletterResults(db, row!.campaignId!);
    expect(results).toMatchObject({ planned: 12, sent: 11, skipped: 1, failed: 0 });
    expect(results.skippedReasons).toEqual([expect.objectContaining({ reason: "unsubscribed", count: 1 })]);
    await unsubscribeByToken(db, token, "one-click", EVIDENCE);
    expect((await newsletterResults(db, row!.campaignId!)).unsubscribed).toBe(1);
    // The staff home shows the latest newsletter with its figures, linked to the issue.
    expect(await latestCampaignSummaries(db)).toEqual([
      expect.objectContaining({ kind: "email", name: "Weekly Brief", recipients: 12, sent: 11, failed: 0, href: `/admin/newsletter/${id}` }),
    ]);
  });

  it("retries a temporary refusal, marks an unknown mailbox bounced, and settles an interrupted copy by asking the provider", async () => {
    const { db } = database;
    await db.execute(sql`DELETE FROM campaign_recipients`);
    await addSubscriber(db, "flaky@example.com");
    await addSubscriber(db, "nobody@example.com");
    await addSubscriber(db, "doubt@example.com");
    const id = await newIssue(db, "Second Issue");
    await scheduleIssue(db, { id, actor: "admin@example.com", when: "now" });
    let flakyTries = 0;
    const { mailer, accepted, lookup } = fakeMailer((message) => {
      if (message.to === "flaky@example.com" && flakyTries++ === 0) return "temporary";
      if (message.to === "nobody@example.com") return "unknown-user";
      return "ok";
    });
    let now = new Date();
    const options = engine(db, mailer, lookup, () => now);
    await drainCampaigns(options);
    // The copy to doubt@ reached the provider but the process "died" before recording it.
    await db.execute(sql`UPDATE campaign_recipients SET state = 'sending', locked_at = clock_timestamp() - interval '5 minutes', sent_at = NULL WHERE address = 'doubt@example.com'`);
    now = new Date(now.getTime() + 3600_000);
    await drainCampaigns(options);

    const states = Object.fromEntries((await db.select().from(campaignRecipients)).map((row) => [row.address, row.state]));
    expect(states).toMatchObject({ "flaky@example.com": "sent", "nobody@example.com": "failed", "doubt@example.com": "sent" });
    expect(accepted.filter((message) => message.to === "doubt@example.com")).toHaveLength(1);
    expect(accepted.filter((message) => message.to === "flaky@example.com")).toHaveLength(1);
    const [nobody] = await db.select().from(subscribers).where(eq(subscribers.email, "nobody@example.com"));
    expect(nobody!.status).toBe("bounced");
  });

  it("a cancelled issue sends nothing more; a scheduled one waits for its time", async () => {
    const { db } = database;
    await db.execute(sql`DELETE FROM campaign_recipients`);
    const id = await newIssue(db, "Later Issue");
    const now = new Date();
    const future = new Date(now.getTime() + 2 * 86_400_000);
    const local = future.toISOString().slice(0, 16);
    expect(await scheduleIssue(db, { id, actor: "admin@example.com", when: { local, zone: "UTC" } }, now)).toMatchObject({ ok: true });
    const { mailer, accepted } = fakeMailer();
    await drainCampaigns(engine(db, mailer, undefined, () => now));
    expect(accepted).toHaveLength(0);
    expect(await cancelIssue(db, { id, actor: "admin@example.com" })).toEqual({ ok: true });
    await drainCampaigns(engine(db, mailer, undefined, () => new Date(future.getTime() + 60_000)));
    expect(accepted).toHaveLength(0);
    expect(await scheduleIssue(db, { id, actor: "admin@example.com", when: "now" })).toMatchObject({ ok: false });
  });

  it("holds an issue while the server has no postal address, says so once, and sends it with the address once it is set", async () => {
    const { db } = database;
    await db.execute(sql`DELETE FROM campaign_recipients`);
    await db.execute(sql`UPDATE subscribers SET status = 'unsubscribed' WHERE channel = 'email'`);
    await addSubscriber(db, "held@example.com");
    const id = await newIssue(db, "Held Issue");
    await scheduleIssue(db, { id, actor: "admin@example.com", when: "now" });
    const { mailer, accepted } = fakeMailer();
    const warnings: { entry: Record<string, unknown>; message: string }[] = [];
    const logger = { ...quietLogger, warn: (entry: Record<string, unknown>, message: string) => void warnings.push({ entry, message }) };
    const noAddress = { ...SETTINGS, postalAddress: undefined };
    const campaignStatus = async () => (await db.execute<{ status: string }>(sql`SELECT c.status FROM campaigns c JOIN newsletter_issues i ON i.campaign_id = c.id WHERE i.id = ${id}`)).rows[0]?.status;

    await drainCampaigns(engine(db, mailer, undefined, undefined, noAddress, logger));
    await drainCampaigns(engine(db, mailer, undefined, undefined, noAddress, logger));
    expect(accepted).toHaveLength(0);
    expect(await campaignStatus()).toBe("scheduled");
    expect(warnings.filter((warning) => warning.entry.reason === "postal_address_missing")).toHaveLength(1);

    await drainCampaigns(engine(db, mailer, undefined, undefined, SETTINGS, logger));
    expect(accepted.map((message) => message.to)).toEqual(["held@example.com"]);
    expect(accepted[0]!.text).toContain(SETTINGS.postalAddress);
    expect(await campaignStatus()).toBe("completed");
  });

  it("a copy rendered without the postal address (an issue started before the check) waits, and is rendered again once the address is set", async () => {
    const { db } = database;
    await db.execute(sql`DELETE FROM campaign_recipients`);
    await db.execute(sql`UPDATE subscribers SET status = 'unsubscribed' WHERE channel = 'email'`);
    await addSubscriber(db, "legacy@example.com");
    const id = await newIssue(db, "Legacy Issue");
    await scheduleIssue(db, { id, actor: "admin@example.com", when: "now" });
    const { mailer, accepted } = fakeMailer();
    const { startDueCampaigns } = await import("../sending/engine.server");
    await startDueCampaigns(engine(db, mailer), new Date());
    // As the earlier code stored it: rendered with the placeholder, no address recorded.
    const [campaign] = (await db.execute<{ id: string; send_body: string }>(sql`SELECT c.id, c.send_body FROM campaigns c JOIN newsletter_issues i ON i.campaign_id = c.id WHERE i.id = ${id}`)).rows;
    const legacy = JSON.parse(campaign!.send_body) as { html: string; text: string; postalAddress?: string };
    delete legacy.postalAddress;
    legacy.html = legacy.html.replaceAll(SETTINGS.postalAddress, "(postal address not set: SITE_POSTAL_ADDRESS)");
    legacy.text = legacy.text.replaceAll(SETTINGS.postalAddress, "(postal address not set: SITE_POSTAL_ADDRESS)");
    await db.execute(sql`UPDATE campaigns SET send_body = ${JSON.stringify(legacy)} WHERE id = ${campaign!.id}`);

    let now = new Date();
    await drainCampaigns(engine(db, mailer, undefined, () => now, { ...SETTINGS, postalAddress: undefined }));
    expect(accepted).toHaveLength(0);
    const [waiting] = await db.select().from(campaignRecipients).where(eq(campaignRecipients.address, "legacy@example.com"));
    expect(waiting).toMatchObject({ state: "queued", reason: "postal_address_missing" });

    now = new Date(now.getTime() + 120_000);
    await drainCampaigns(engine(db, mailer, undefined, () => now, SETTINGS));
    expect(accepted.map((message) => message.to)).toEqual(["legacy@example.com"]);
    expect(accepted[0]!.text).toContain(SETTINGS.postalAddress);
    expect(accepted[0]!.html).toContain(SETTINGS.postalAddress);
  });
});
