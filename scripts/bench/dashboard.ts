// npm run bench:dashboard — the staff home's queries on PostgreSQL with 250,000 subscribers and
// 1,000,000 texts (a fresh database on 127.0.0.1:5432, dropped afterwards). Prints a Markdown row.
import { sql } from "drizzle-orm";
import { openDatabase } from "~/db/client.server";
import { loadDashboard } from "~/services/admin/dashboard.server";
import { createPostgresDatabase } from "../../tests/support/test-db";

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 250_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const RUNS = 30;

const pg = await createPostgresDatabase();
const handle = await openDatabase({ url: pg.url });
const { db } = handle;
try {
  const seeding = performance.now();
  // Sign-ups spread over two years, one in ten of them opted out later; half SMS, half newsletter.
  await db.execute(sql`
    INSERT INTO subscribers (channel, phone_e164, email, first_name, last_name, status, source, created_at, updated_at)
    SELECT CASE WHEN n % 2 = 0 THEN 'sms' ELSE 'email' END,
           CASE WHEN n % 2 = 0 THEN '+1312' || lpad((2000000 + n)::text, 7, '0') END,
           CASE WHEN n % 2 = 1 THEN 'reader' || n || '@example.com' END,
           'Bench', 'Reader', CASE WHEN n % 10 = 0 THEN (CASE WHEN n % 2 = 0 THEN 'opted_out' ELSE 'unsubscribed' END) ELSE 'active' END,
           CASE WHEN n % 2 = 0 THEN 'opt-in' ELSE 'newsletter' END,
           now() - make_interval(secs => (n * 730 * 86400.0 / ${SUBSCRIBERS})), now()
    FROM generate_series(1, ${SUBSCRIBERS}) AS n`);
  await db.execute(sql`
    INSERT INTO consent_events (subscriber_id, channel, action, occurred_at)
    SELECT id, channel, CASE WHEN channel = 'sms' THEN 'opt_in' ELSE 'email_subscribe' END, created_at FROM subscribers`);
  await db.execute(sql`
    INSERT INTO consent_events (subscriber_id, channel, action, occurred_at)
    SELECT id, channel, 'opt_out', created_at + interval '3 days' FROM subscribers WHERE status <> 'active'`);
  // Texts over the last 90 days, mostly sent, some failed, a few still queued.
  await db.execute(sql`
    INSERT INTO campaign_recipients (address, body, kind, state, attempts, dedupe_key, created_at, sent_at)
    SELECT '+13125550' || lpad((n % 1000)::text, 3, '0'), 'Bench text', 'welcome',
           CASE WHEN n % 50 = 0 THEN 'failed' WHEN n % 997 = 0 THEN 'queued' ELSE 'sent' END, 1, 'bench-' || n,
           now() - make_interval(secs => (n * 90 * 86400.0 / ${MESSAGES})),
           CASE WHEN n % 50 <> 0 AND n % 997 <> 0 THEN now() - make_interval(secs => (n * 90 * 86400.0 / ${MESSAGES})) END
    FROM generate_series(1, ${MESSAGES}) AS n`);
  await db.execute(sql`
    INSERT INTO contact_messages (name, email, subject, message, created_at, read_at)
    SELECT 'Bench', 'bench@example.com', 'Question ' || n, 'Hello', now() - make_interval(hours => n), CASE WHEN n > 20 THEN now() END
    FROM generate_series(1, 5000) AS n`);
  await db.execute(sql`INSERT INTO audit_log (actor, action, entity) SELECT 'bench', 'bench.change', 'bench' FROM generate_series(1, 10000)`);
  await db.execute(sql`ANALYZE`);
  const seedSeconds = (performance.now() - seeding) / 1000;

  const times: number[] = [];
  let figures: Awaited<ReturnType<typeof loadDashboard>> | undefined;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    figures = await loadDashboard(db);
    times.push(performance.now() - started);
  }
  const first = times[0]!;
  const sorted = times.slice(1).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const worst = sorted.at(-1)!;
  console.error(JSON.stringify({ newSubscribers: figures!.newSubscribers, optOuts: figures!.optOuts, last24h: figures!.last24h, outbox: figures!.outbox, unread: figures!.unreadInbox }));
  console.log(`| PostgreSQL, ${SUBSCRIBERS.toLocaleString("en-US")} subscribers, ${MESSAGES.toLocaleString("en-US")} texts | ${first.toFixed(1)} | ${median.toFixed(1)} | ${worst.toFixed(1)} | ${seedSeconds.toFixed(0)} s |`);
} finally {
  await handle.close();
  await pg.drop();
}
