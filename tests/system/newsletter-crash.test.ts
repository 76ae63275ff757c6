import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { toNumber } from "~/db/client.server";
import { saveIssueDraft } from "~/services/newsletter/issues.server";
import { scheduleIssue } from "~/services/newsletter/schedule.server";
import { startSmtpCapture } from "../support/smtp-capture";
import { createPostgresDatabase } from "../support/test-db";
import { openSiteDatabase } from "./support/inspect";
import { freePort, startSite } from "./support/site";
import { waitFor } from "./support/traffic";

const SUBSCRIBERS = 2_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * An issue to 2,000 confirmed subscribers through a real SMTP server, the sending process killed
 * with SIGKILL twice in the middle. Copies in flight at a kill are settled by asking the
 * provider's event log (the local SMTP sink answers Mailgun's events query by Message-ID). Every
 * address gets its copy exactly once.
 */
describe("a newsletter issue across kill -9", () => {
  it("reaches every confirmed subscriber exactly once", async () => {
    const smtpPort = await freePort();
    const httpPort = await freePort();
    const sink = await startSmtpCapture({ smtpPort, httpPort });
    cleanups.push(sink.close);
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const env = {
      DATABASE_URL: database.url,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SITE_POSTAL_ADDRESS: "1776 Liberty Way, Philadelphia, PA 19106",
      NEWSLETTER_RATE: "250",
      SEND_IN_DOUBT_SECONDS: "15",
      MAILGUN_API_KEY: "key-system-test",
      MAILGUN_DOMAIN: "mg.example.com",
      MAILGUN_API_BASE: `http://127.0.0.1:${httpPort}`,
    };

    let site = await startSite(env);
    cleanups.push(() => void site.kill9());
    const handle = await openSiteDatabase({ url: database.url });
    cleanups.push(() => handle.close());
    await handle.db.execute(sql`
      INSERT INTO subscribers (channel, email, first_name, last_name, status, source, email_token, confirmed_at)
      SELECT 'email', 'reader' || n || '@example.com', 'Reader', 'No. ' || n, 'active', 'newsletter', md5(random()::text) || md5(${randomBytes(8).toString("hex")} || n), now()
      FROM generate_series(1, ${SUBSCRIBERS}) AS n`);
    const saved = await saveIssueDraft(handle.db, { draft: { subject: "Crash-proof issue", previewText: "", introMarkdown: "Hello.", articleSlugs: [] }, actor: "system-test", known: [] });
    if (!saved.ok) throw new Error(saved.code);
    expect(await scheduleIssue(handle.db, { id: saved.id, actor: "system-test", when: "now" })).toMatchObject({ ok: true });

    const delivered = () => sink.mails.filter((mail) => mail.subject === "Crash-proof issue").length;
    await waitFor("a third of the issue out", async () => delivered() >= SUBSCRIBERS / 3, 60_000);
    await site.kill9();
    site = await startSite(env);
    await waitFor("two thirds of the issue out", async () => delivered() >= (2 * SUBSCRIBERS) / 3, 60_000);
    await site.kill9();
    site = await startSite(env);
    await waitFor(
      "the issue completed",
      async () => (await handle.db.execute<{ status: string }>(sql`SELECT status FROM campaigns WHERE channel = 'email'`)).rows[0]?.status === "completed",
      90_000,
    );
    expect(await site.stop()).toBe(0);

    const copies = new Map<string, number>();
    for (const mail of sink.mails.filter((m) => m.subject === "Crash-proof issue")) {
      for (const to of mail.to) copies.set(to, (copies.get(to) ?? 0) + 1);
      expect(mail.text).toContain("1776 Liberty Way");
    }
    const twice = [...copies].filter(([, n]) => n > 1);
    expect(twice, "addresses with more than one copy").toEqual([]);
    expect(copies.size).toBe(SUBSCRIBERS);
    const ledger = await handle.db.execute<{ state: string; n: unknown }>(sql`SELECT state, count(*) AS n FROM campaign_recipients GROUP BY state`);
    expect(Object.fromEntries(ledger.rows.map((row) => [row.state, toNumber(row.n)]))).toEqual({ sent: SUBSCRIBERS });
  });
});
