// npm run bench:newsletter — planning an issue to 250,000 confirmed subscribers (PostgreSQL and
// PGlite), and sending copies from one process to a local SMTP sink in another process.
import { fork } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, toNumber, type Db } from "~/db/client.server";
import { createEmailChannel } from "~/services/newsletter/email-channel.server";
import { saveIssueDraft } from "~/services/newsletter/issues.server";
import { createSmtpNewsletterMailer } from "~/services/newsletter/mailer.server";
import { scheduleIssue } from "~/services/newsletter/schedule.server";
import { drainCampaigns, startDueCampaigns } from "~/services/sending/engine.server";
import { createPostgresDatabase } from "../../tests/support/test-db";
import { freePort } from "../../tests/system/support/site";

const PLAN_COUNT = Number(process.env.PLAN_COUNT ?? 250_000);
const SEND_COUNT = Number(process.env.SEND_COUNT ?? 5_000);
const SITE = "https://news.example";
const SETTINGS = { siteName: "Patriot Investor", siteUrl: SITE, postalAddress: "1776 Liberty Way, Philadelphia, PA 19106" };
const KNOWN = [
  { slug: "bonds-guide", title: "Bonds: A Guide for Savers", excerpt: "What a bond is and how it pays you back, explained for savers.", image: "/images/articles/bonds-guide.svg", imageAlt: "A bond", category: "Bonds" },
  { slug: "precious-metals-guide", title: "Gold and Silver for Savers", excerpt: "Why metals hold value when money does not, and how to own them.", image: "/images/articles/precious-metals-guide.svg", imageAlt: "Gold", category: "Precious Metals" },
];
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const mb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);

async function seed(db: Db, count: number) {
  await db.execute(sql`
    INSERT INTO subscribers (channel, email, first_name, last_name, status, source, email_token, confirmed_at)
    SELECT 'email', 'reader' || n || '@example.com', 'Reader', 'Number ' || n, 'active', 'newsletter', md5(n::text) || md5('x' || n), now()
    FROM generate_series(1, ${count}) AS n`);
}

async function issueNow(db: Db) {
  const saved = await saveIssueDraft(db, { draft: { subject: "Benchmark issue", previewText: "Preview", introMarkdown: "Dear reader, **this week** in [the markets](https://news.example/blog).", articleSlugs: KNOWN.map((a) => a.slug) }, actor: "bench", known: KNOWN });
  if (!saved.ok) throw new Error(saved.code);
  await scheduleIssue(db, { id: saved.id, actor: "bench", when: "now" });
}

const rows: string[] = [];
console.log(`# Newsletter benchmark ${new Date().toISOString()}, node ${process.version}`);

// Planning: render once + one INSERT … SELECT of every confirmed subscriber into the ledger.
for (const kind of ["postgres", "pglite"] as const) {
  const pg = kind === "postgres" ? await createPostgresDatabase() : null;
  const handle = await openDatabase(pg ? { url: pg.url } : { dataDir: path.join(mkdtempSync(path.join(tmpdir(), "bench-nl-")), "pglite") });
  await seed(handle.db, PLAN_COUNT);
  await issueNow(handle.db);
  const channel = createEmailChannel({ mailer: createSmtpNewsletterMailer("smtp://127.0.0.1:9", "bench@example.com"), ratePerSecond: 1, settings: SETTINGS, known: () => KNOWN, unsubscribeMailbox: "info@news.example" });
  const before = mb();
  const started = performance.now();
  await startDueCampaigns({ db: handle.db, channel, logger: quiet, siteUrl: SITE, dncPolicy: "refuse" }, new Date());
  const seconds = (performance.now() - started) / 1000;
  const planned = toNumber((await handle.db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM campaign_recipients`)).rows[0]!.n);
  rows.push(`| plan ${PLAN_COUNT.toLocaleString("en-US")} on ${kind} | ${seconds.toFixed(2)} s | ${planned.toLocaleString("en-US")} planned | RSS ${before} → ${mb()} MB |`);
  await handle.close();
  await pg?.drop();
}

// Sending: one process, pooled SMTP (5 connections) to a sink in another process, no rate limit.
{
  const port = await freePort();
  const sink = fork(path.resolve(import.meta.dirname, "newsletter-sink.ts"), [String(port)], { execArgv: ["--import", "tsx"] });
  await new Promise((resolve) => sink.once("message", resolve));
  const pg = await createPostgresDatabase();
  const handle = await openDatabase({ url: pg.url });
  await seed(handle.db, SEND_COUNT);
  await issueNow(handle.db);
  const mailer = createSmtpNewsletterMailer(`smtp://127.0.0.1:${port}`, "bench@example.com", Number(process.env.SMTP_CONNECTIONS ?? 5));
  const channel = createEmailChannel({ mailer, ratePerSecond: 100_000, settings: SETTINGS, known: () => KNOWN, unsubscribeMailbox: "info@news.example" });
  const options = { db: handle.db, channel, logger: quiet, siteUrl: SITE, dncPolicy: "refuse" as const };
  await startDueCampaigns(options, new Date());
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await drainCampaigns(options);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  sink.send("count");
  const { received } = (await new Promise((resolve) => sink.once("message", resolve))) as { received: number };
  rows.push(
    `| send ${SEND_COUNT.toLocaleString("en-US")} over SMTP | ${seconds.toFixed(2)} s | ${Math.round(received / seconds)} messages/s (${received} received) | sender CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (${Math.round(((cpu.user + cpu.system) / 1e6 / seconds) * 100)}% of one core) |`,
  );
  mailer.close();
  sink.kill();
  await handle.close();
  await pg.drop();
}

console.log("\n| step | time | result | memory / CPU |\n|---|---|---|---|");
for (const row of rows) console.log(row);
