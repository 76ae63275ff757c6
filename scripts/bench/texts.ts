// npm run bench:texts — every text through the one send engine (decision 068), on PostgreSQL:
//   A. 1,000 opt-ins in a burst at SMS_MPS=20 while an alert to 200 people is sending: the
//      welcomes' rate, the latency of STOP replies sent into the backlog, and the rate of all
//      texts together (one shared rate, not two).
//   B. An alert to 600 people at SMS_MPS=20 with a provider that answers 1 request in 50 after
//      10 s (its timeout) and the rest in 30 ms: the rate held while the slow ones wait.
// The provider is an in-process stand-in that answers after a delay (30 ms as measured against
// Twilio); the time of each request is taken when the engine makes it. Environment: OPTINS,
// ALERT_A, ALERT_B, SMS_MPS. Prints Markdown for docs/benchmarks.md. Run it under
// `flock /tmp/heavy.lock`: the numbers are rates, and a busy machine lowers them.
import { sql } from "drizzle-orm";
import { openDatabase, type Db } from "~/db/client.server";
import type { SmsTransport } from "~/services/providers/sms-transport.server";
import { startCampaignSender, windowFor } from "~/services/sending/engine.server";
import { createSmsChannel } from "~/services/sending/sms-channel.server";
import { handleInboundSms } from "~/services/subscription/inbound-sms.server";
import { optInToSms } from "~/services/subscription/sms-opt-in.server";
import { createPostgresDatabase, NO_EVIDENCE } from "../../tests/support/test-db";

const MPS = Number(process.env.SMS_MPS ?? 20);
const OPTINS = Number(process.env.OPTINS ?? 1000);
const ALERT_A = Number(process.env.ALERT_A ?? 200);
const ALERT_B = Number(process.env.ALERT_B ?? 600);
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const site = { name: "Patriot Investor", email: "info@example.com", phone: "1-800-555-0199" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Quiet hours judged at 13:00 in New York whatever the hour the bench runs. */
function middayOffset() {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 18) - now.getTime();
}

type Request = { to: string; body: string; at: number };

function standIn(delayMs: (n: number) => number) {
  const requests: Request[] = [];
  let n = 0;
  const transport: SmsTransport = {
    name: "twilio",
    async send(message) {
      requests.push({ to: message.to, body: message.body, at: performance.now() });
      await sleep(delayMs(n++));
      return { ok: true, providerId: `SM${message.id}`, providerStatus: "queued" };
    },
    async lookup() {
      return { found: false };
    },
  };
  return { transport, requests };
}

async function seedAlert(db: Db, count: number, npaLine: number, clickId: string) {
  await db.execute(sql.raw(`
    INSERT INTO subscribers (channel, phone_e164, first_name, last_name, status, source, click_id)
    SELECT 'sms', '+1312' || (${npaLine} + g)::text, 'B', 'M', 'active', 'opt-in', '${clickId}'
    FROM generate_series(1, ${count}) g`));
  await db.execute(
    sql`INSERT INTO campaigns (channel, name, body, audience, status, scheduled_at) VALUES ('sms', ${clickId}, 'Patriot Investor: gold alert. Reply STOP to opt out', ${JSON.stringify({ clickId })}, 'scheduled', now())`,
  );
}

/** Requests per second between the first and the last of `list` (the first second's burst included). */
const rateOf = (list: Request[]) => (list.length < 2 ? 0 : (list.length - 1) / ((list.at(-1)!.at - list[0]!.at) / 1000));

async function withDatabase<T>(work: (db: Db) => Promise<T>) {
  const database = await createPostgresDatabase();
  const handle = await openDatabase({ url: database.url });
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
    await database.drop();
  }
}

async function burst() {
  return withDatabase(async (db) => {
    await seedAlert(db, ALERT_A, 5_000_000, "bench-a");
    const { transport, requests } = standIn(() => 30);
    const channel = createSmsChannel({ transport, ratePerSecond: MPS, dncPolicy: "allow_with_consent", quietHoursOffsetMs: middayOffset() });
    const sender = startCampaignSender({ db, channel, logger: quiet, siteUrl: "https://www.example.com", dncPolicy: "allow_with_consent", pollMs: 1000 });
    const started = performance.now();
    // The ad burst: every opt-in at once, 50 requests at a time (the site's pool has 10 connections).
    const phones = Array.from({ length: OPTINS }, (_, i) => `+1212${4_000_000 + i}`);
    for (let i = 0; i < phones.length; i += 50) {
      await Promise.all(
        phones.slice(i, i + 50).map((phone) =>
          optInToSms(db, { firstName: "A", lastName: "B", phone, smsConsent: true, termsConsent: true, source: "opt-in", evidence: NO_EVIDENCE }, { siteName: site.name, dncPolicy: "allow_with_consent" }),
        ),
      );
    }
    const optInsDone = (performance.now() - started) / 1000;
    // STOPs into the backlog: six people who just opted in, 5 s apart.
    const stops: { phone: string; at: number }[] = [];
    for (let i = 0; i < 6; i++) {
      await sleep(5_000);
      const phone = phones[100 + i * 50]!;
      stops.push({ phone, at: performance.now() });
      await handleInboundSms(db, { messageSid: `SMstop${i}`, from: phone, body: "STOP" }, site);
    }
    for (let i = 0; i < 600; i++) {
      const left = await db.execute<{ n: number | string }>(
        sql`SELECT count(*)::int AS n FROM campaign_recipients WHERE state IN ('queued', 'sending') OR EXISTS (SELECT 1 FROM campaigns WHERE status <> 'completed')`,
      );
      if (Number(left.rows[0]!.n) === 0) break;
      await sleep(500);
    }
    await sender.stop();
    const stopReply = /unsubscribed/;
    // Only welcomes and STOP replies go to the opt-ins' 212 numbers; the alert's are 312.
    const welcomes = requests.filter((r) => r.to.startsWith("+1212") && !stopReply.test(r.body));
    const alert = requests.filter((r) => r.to.startsWith("+1312"));
    const replies = stops.map((stop) => {
      const reply = requests.find((r) => r.to === stop.phone && stopReply.test(r.body));
      return reply ? (reply.at - stop.at) / 1000 : Number.NaN;
    });
    // While welcomes were still waiting: every text sent from the number in that time.
    const lastWelcome = welcomes.at(-1)!.at;
    const whileBacklog = requests.filter((r) => r.at <= lastWelcome);
    return {
      optInsDone,
      welcomes: welcomes.length,
      welcomeRate: rateOf(welcomes),
      alert: alert.length,
      alertDuringWelcomes: alert.filter((r) => r.at <= lastWelcome).length,
      totalRateDuringBacklog: rateOf(whileBacklog),
      totalRate: rateOf(requests),
      replies,
    };
  });
}

async function slowAnswers() {
  return withDatabase(async (db) => {
    await seedAlert(db, ALERT_B, 6_000_000, "bench-b");
    const { transport, requests } = standIn((n) => (n % 50 === 25 ? 10_000 : 30));
    const channel = createSmsChannel({ transport, ratePerSecond: MPS, dncPolicy: "allow_with_consent", quietHoursOffsetMs: middayOffset() });
    const sender = startCampaignSender({ db, channel, logger: quiet, siteUrl: "https://www.example.com", dncPolicy: "allow_with_consent", pollMs: 1000 });
    // Until the alert is completed (it is planned on the sender's first pass).
    for (let i = 0; i < 1200; i++) {
      const done = await db.execute<{ n: number | string }>(sql`SELECT count(*)::int AS n FROM campaigns WHERE status = 'completed'`);
      if (Number(done.rows[0]!.n) === 1) break;
      await sleep(250);
    }
    await sender.stop();
    // Gaps: the longest time between two requests.
    let longestGap = 0;
    for (let i = 1; i < requests.length; i++) longestGap = Math.max(longestGap, requests[i]!.at - requests[i - 1]!.at);
    return { requests: requests.length, slow: Math.floor((requests.length + 24) / 50), rate: rateOf(requests), longestGapMs: longestGap };
  });
}

// ONLY=a or ONLY=b runs one part; the other's row then reads zero.
const only = process.env.ONLY;
const empty = { optInsDone: 0, welcomes: 0, welcomeRate: 0, alert: 0, alertDuringWelcomes: 0, totalRateDuringBacklog: 0, totalRate: 0, replies: [] as number[] };
const a = only === "b" ? empty : await burst();
const b = only === "a" ? { requests: 0, slow: 0, rate: 0, longestGapMs: 0 } : await slowAnswers();
const f = (value: number, digits = 1) => value.toFixed(digits);
console.log(`### Texts through the send engine (SMS_MPS=${MPS}, window ${windowFor(MPS)})

| Measure | Result | Target |
|---|---|---|
| ${OPTINS} opt-ins in a burst (service calls, 50 at a time) | done in ${f(a.optInsDone)} s | |
| Welcome texts sent | ${a.welcomes}, at ${f(a.welcomeRate, 2)} per second | ${MPS} ± 5% |
| STOP replies sent into the welcome backlog (6) | ${a.replies.map((s) => f(s, 2)).join(", ")} s after the STOP | < 2 s |
| Alert to ${ALERT_A} people started at the same time | ${a.alert} sent, ${a.alertDuringWelcomes} of them while welcomes waited | |
| All texts while welcomes waited | ${f(a.totalRateDuringBacklog, 2)} per second | ${MPS} (shared, not doubled) |
| All texts over the whole run | ${f(a.totalRate, 2)} per second | ${MPS} |
| Alert to ${ALERT_B} people, 1 answer in 50 after 10 s | ${b.requests} requests (${b.slow} slow) at ${f(b.rate, 2)} per second; longest gap ${Math.round(b.longestGapMs)} ms | ${MPS} ± 10% |
`);
process.exit(0);
