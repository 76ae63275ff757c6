// npm run bench:alerts — market alerts: planning 250,000 recipients (consent 60 days old, each with
// a Reassigned Numbers Database answer to check) on PostgreSQL and PGlite (time and
// memory growth of this process, which holds PGlite), pacing at SMS_MPS=50 over 60 s with two
// senders sharing the rate, and the public pages' throughput while a 250,000 alert sends vs idle.
// Run it under `flock /tmp/heavy.lock`. Prints Markdown for docs/benchmarks.md.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { createTwilioTransport } from "~/services/providers/sms-transport.server";
import { drainCampaigns, startDueCampaigns } from "~/services/sending/engine.server";
import { createSmsChannel } from "~/services/sending/sms-channel.server";
import { createPostgresDatabase } from "../../tests/support/test-db";
import { minutesToSendingHours } from "../../tests/support/e2e-env";
import { startTwilioStandIn } from "../../tests/support/twilio-stand-in";

const RECIPIENTS = Number(process.env.RECIPIENTS ?? 250_000);
const PACING_SECONDS = Number(process.env.PACING_SECONDS ?? 60);
const THROUGHPUT_DURATION = process.env.DURATION ?? "10s";
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const SITE_URL = process.env.SITE_URL ?? "http://localhost:3000";
const TWILIO = { accountSid: `AC${"be0c".repeat(8)}`, authToken: "bench-auth-token-0123456789", from: "+18005550150" };
const mb = (bytes: number) => Math.round(bytes / 1048576);

/**
 * Subscribers whose consent is 60 days old, each with a fresh Reassigned Numbers Database "no"
 * for the consent date: every text goes through the RND check (decision 071), as with the defaults.
 */
async function seed(handle: DatabaseHandle) {
  await handle.db.execute(sql.raw(`
    INSERT INTO subscribers (channel, phone_e164, first_name, last_name, status, source, click_id, created_at)
    SELECT 'sms', '+1' || (ARRAY['212', '312', '303', '213', '305', '512', '860', '808'])[1 + g % 8] || (2000000 + g)::text, 'B', 'M', 'active', 'opt-in', 'bench', now() - interval '60 days'
    FROM generate_series(1, ${RECIPIENTS}) g`));
  await handle.db.execute(sql.raw(`
    INSERT INTO rnd_answers (phone, asked_date, answer, source, file_name)
    SELECT substr(phone_e164, 3), (created_at AT TIME ZONE 'UTC')::date, 'no', 'file', 'bench.csv' FROM subscribers WHERE click_id = 'bench'`));
  const result = await handle.db.execute<{ id: string }>(
    sql`INSERT INTO campaigns (channel, name, body, audience, status, scheduled_at) VALUES ('sms', 'Bench', 'Patriot Investor bench alert https://example.com/markets Reply STOP to opt out', '{}', 'scheduled', now()) RETURNING id`,
  );
  return result.rows[0]!.id;
}

/** Plans the campaign the way the engine does and measures time and this process's memory. */
async function measurePlanning(handle: DatabaseHandle) {
  await seed(handle);
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const channel = createSmsChannel({ transport: { name: "log", send: async () => ({ ok: true, providerId: "SMbench", providerStatus: "queued" }) }, ratePerSecond: 1, dncPolicy: "refuse" });
  await startDueCampaigns({ db: handle.db, channel, siteUrl: SITE_URL, dncPolicy: "refuse", logger: quiet }, new Date());
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const planned = await handle.db.execute<{ n: number | string }>(sql`SELECT count(*)::int AS n FROM campaign_recipients`);
  return { seconds, planned: Number(planned.rows[0]!.n), growthMb: mb(peak - before), rssMb: mb(peak) };
}

/** Asynchronous on purpose: the Twilio stand-in lives in this process and must keep answering. */
async function wrk(url: string, script?: string, scriptArgs: string[] = []) {
  const args = ["-t2", "-c20", `-d${THROUGHPUT_DURATION}`, "--latency", ...(script ? ["-s", script] : []), url, ...(scriptArgs.length > 0 ? ["--", ...scriptArgs] : [])];
  const { stdout: out } = await promisify(execFile)("wrk", args, { encoding: "utf8" });
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0), p99: /\s99%\s+(\S+)/.exec(out)?.[1] ?? "?" };
}

const rows: string[] = [];
console.log(`# Market-alert benchmark ${new Date().toISOString()}, node ${process.version}, ${RECIPIENTS.toLocaleString("en-US")} recipients`);

// 1. Planning on both databases.
const postgres = await createPostgresDatabase();
const pgHandle = await openDatabase({ url: postgres.url });
const pgPlan = await measurePlanning(pgHandle);
rows.push(`| PostgreSQL | ${pgPlan.planned.toLocaleString("en-US")} | ${pgPlan.seconds.toFixed(2)} | ${pgPlan.growthMb} | ${pgPlan.rssMb} |`);
const dataDir = mkdtempSync(path.join(tmpdir(), "bench-alerts-"));
const pgliteHandle = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
const glPlan = await measurePlanning(pgliteHandle);
rows.push(`| PGlite | ${glPlan.planned.toLocaleString("en-US")} | ${glPlan.seconds.toFixed(2)} | ${glPlan.growthMb} | ${glPlan.rssMb} |`);
await pgliteHandle.close();
rmSync(dataDir, { recursive: true, force: true });
console.log("\n## Planning (one INSERT … SELECT)\n\n| database | planned | seconds | RSS growth MB (this process) | peak RSS MB |\n|---|---|---|---|---|");
console.log(rows.join("\n"));

// 2. Pacing: two senders (as two processes would) share SMS_MPS=50 through the database bucket.
const twilio = await startTwilioStandIn({ accountSid: TWILIO.accountSid, authToken: TWILIO.authToken });
const transport = createTwilioTransport({ accountSid: TWILIO.accountSid, authToken: TWILIO.authToken, from: TWILIO.from, apiBase: twilio.url });
const channel = () => createSmsChannel({ transport, ratePerSecond: 50, dncPolicy: "refuse", quietHoursOffsetMs: minutesToSendingHours() * 60_000 });
let stop = false;
const started = Date.now();
await Promise.all(
  [0, 1].map(() =>
    drainCampaigns({ db: pgHandle.db, channel: channel(), logger: quiet, siteUrl: SITE_URL, dncPolicy: "refuse" }, () => stop || Date.now() - started > (PACING_SECONDS + 5) * 1000),
  ),
);
stop = true;
const windowStart = started + 5_000;
const inWindow = twilio.sent.filter((message) => message.acceptedAt >= windowStart && message.acceptedAt < windowStart + PACING_SECONDS * 1000).length;
const rate = inWindow / PACING_SECONDS;
console.log(`\n## Pacing\n\nSMS_MPS=50, two senders on one PostgreSQL database, the Twilio stand-in: ${inWindow} texts accepted in ${PACING_SECONDS} s after a 5 s start = **${rate.toFixed(2)} per second** (${(((rate - 50) / 50) * 100).toFixed(1)}% from 50).`);
await twilio.close();

// 3. Public pages and the opt-in while the rest of the 250,000 alert sends, vs the same server idle.
const standIn = await startTwilioStandIn({ accountSid: TWILIO.accountSid, authToken: TWILIO.authToken });
const port = 3300;
// SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server (Node refuses it in NODE_OPTIONS).
const server = spawn(process.execPath, [...(process.env.SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []), "server.mjs"], {
  stdio: ["ignore", openSync("/tmp/bench-alerts-server.log", "w"), "inherit"],
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: postgres.url,
    AUTH_SECRET: `bench-only-secret-${Date.now()}-0123456789abcdef`,
    LOG_LEVEL: "warn",
    TRUST_PROXY: "1",
    SMS_MPS: process.env.SENDING_MPS ?? "100",
    TWILIO_ACCOUNT_SID: TWILIO.accountSid,
    TWILIO_AUTH_TOKEN: TWILIO.authToken,
    TWILIO_FROM: TWILIO.from,
    TWILIO_API_BASE: standIn.url,
    SEND_TEST_QUIET_HOURS_OFFSET_MINUTES: String(minutesToSendingHours()),
  },
});
const base = `http://127.0.0.1:${port}`;
let exited = false;
server.once("exit", () => (exited = true));
for (let i = 0; ; i++) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (exited || i > 120) throw new Error(`the server on port ${port} did not start (is the port taken?)`);
  if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) break;
}
/** CPU seconds the server process used so far (Linux /proc, 100 ticks a second). */
const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
/** The server's own CPU for sending alone, without wrk: 10 s sending vs 10 s paused. */
async function cpuShare(status: string) {
  await setStatus(status);
  const cpu = cpuSeconds();
  const at = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  return (cpuSeconds() - cpu) / ((Date.now() - at) / 1000);
}
/**
 * CPU seconds so far: the server, PostgreSQL's processes, this process (it holds the Twilio stand-in),
 * and wrk (a finished child of this process: its time is in this process's children's time).
 */
function cpuByGroup() {
  const groups: Record<string, number> = { server: 0, "postgres (queries)": 0, "postgres (autovacuum)": 0, "postgres (other background)": 0, "Twilio stand-in (this process)": 0, wrk: 0 };
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
    const own = (fields[11]! + fields[12]!) / 100;
    if (Number(pid) === server.pid) groups.server! += own;
    else if (name === "postgres") groups[postgresGroup(pid)]! += own;
    else if (Number(pid) === process.pid) {
      groups["Twilio stand-in (this process)"]! += own;
      groups.wrk! += (fields[13]! + fields[14]!) / 100;
    }
  }
  return groups;
}
/** A PostgreSQL process by its title: a connection's queries, autovacuum, or the rest (WAL writer, checkpointer...). */
function postgresGroup(pid: string) {
  let title: string;
  try {
    title = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "postgres (other background)";
  }
  if (title.includes("autovacuum")) return "postgres (autovacuum)";
  return /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]/.test(title) ? "postgres (queries)" : "postgres (other background)";
}
/** Runs `work` and answers the share of a core each group used meanwhile (wrk's own CPU counted at its exit). */
async function cpuDuring<T>(work: () => Promise<T>) {
  const before = cpuByGroup();
  const at = Date.now();
  const result = await work();
  const after = cpuByGroup();
  const seconds = (Date.now() - at) / 1000;
  const shares = Object.fromEntries(Object.keys(after).map((group) => [group, (after[group]! - (before[group] ?? 0)) / seconds]));
  return { result, shares };
}
const setStatus = (status: string) => pgHandle.db.execute(sql`UPDATE campaigns SET status = ${status}`);
/**
 * Waits until every welcome text of the opt-ins so far is sent: the send engine sends them right
 * after each opt-in (at SMS_MPS), and a backlog left by one run would otherwise land in the next
 * measurement.
 */
async function welcomesSent() {
  for (let i = 0; i < 600; i++) {
    const left = await pgHandle.db.execute<{ n: number | string }>(sql`SELECT count(*)::int AS n FROM campaign_recipients WHERE campaign_id IS NULL AND state IN ('queued', 'sending')`);
    if (Number(left.rows[0]!.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("welcome texts still queued after 5 minutes");
}
// Every opt-in run signs up new numbers (a repeated number takes a cheaper path).
let optInRun = 0;
const optIn = () => wrk(base, "scripts/bench/optin.lua", [String(++optInRun * 200_000)]);
const REPS = Number(process.env.REPS ?? 2);
const idleCpu = await cpuShare("paused");
const sendingCpu = await cpuShare("sending");
await setStatus("paused");
// Warm-up of both paths (JIT, connection pool, caches), not measured.
await wrk(`${base}/about`);
await optIn();
await welcomesSent();
type Run = { rps: number; p99: string };
const runs: { idleAbout: Run; busyAbout: Run; idleOptin: Run; busyOptin: Run }[] = [];
let aboutShares: { idle: Record<string, number>; busy: Record<string, number> } | undefined;
let sendSeconds = 0;
let alertsSent = 0;
// Welcome texts of the opt-ins go to the stand-in too: count only the alert.
const alertBody = (body: string) => body.startsWith("Patriot Investor bench alert");
const alertCount = () => standIn.sent.filter((m) => alertBody(m.body)).length;
/** Runs `work` with the alert sending, counting the texts it sent meanwhile; pauses it after. */
async function whileSending<T>(work: () => Promise<T>) {
  await setStatus("sending");
  // The sender polls each second: measure from its first text on, not from the status change.
  const resumed = alertCount();
  for (let i = 0; i < 50 && alertCount() === resumed; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const before = alertCount();
  const at = Date.now();
  const result = await work();
  sendSeconds += (Date.now() - at) / 1000;
  alertsSent += alertCount() - before;
  await setStatus("paused");
  return result;
}
// Idle and sending side by side, alternating, each run starting with no welcome text pending.
for (let rep = 0; rep < REPS; rep++) {
  const idleAbout = await cpuDuring(() => wrk(`${base}/about`));
  const busyAbout = await whileSending(() => cpuDuring(() => wrk(`${base}/about`)));
  aboutShares ??= { idle: idleAbout.shares, busy: busyAbout.shares };
  const idleOptin = await optIn();
  await welcomesSent();
  const busyOptin = await whileSending(optIn);
  await welcomesSent();
  runs.push({ idleAbout: idleAbout.result, busyAbout: busyAbout.result, idleOptin, busyOptin });
}
const sendRate = alertsSent / sendSeconds;
const change = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)}%`;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const row = (label: string, idle: Run[], busy: Run[]) =>
  `| ${label} | ${idle.map((r) => r.rps.toFixed(0)).join(", ")} | ${busy.map((r) => r.rps.toFixed(0)).join(", ")} | ${change(mean(idle.map((r) => r.rps)), mean(busy.map((r) => r.rps)))} | ${idle.map((r) => r.p99).join(", ")} | ${busy.map((r) => r.p99).join(", ")} |`;
console.log(
  `\n## Public pages while an alert sends\n\nOne server process on PostgreSQL, SMS_MPS=${process.env.SENDING_MPS ?? "100"} (measured ${sendRate.toFixed(1)} texts/s during the sending runs), wrk -t2 -c20 -d${THROUGHPUT_DURATION}; ${REPS} pairs, idle (alert paused) and sending alternating, each opt-in run with new numbers and no welcome text pending at its start. Change of the mean:\n\n| workload | idle req/s | sending req/s | change | idle p99 | sending p99 |\n|---|---|---|---|---|---|\n` +
    row("GET /about (prerendered)", runs.map((r) => r.idleAbout), runs.map((r) => r.busyAbout)) +
    "\n" +
    row("POST /api/phone-optin", runs.map((r) => r.idleOptin), runs.map((r) => r.busyOptin)),
);
const idleAbout = { shares: aboutShares!.idle };
const busyAbout = { shares: aboutShares!.busy };
console.log(
  `\nWhere the CPU went during the /about runs (share of one core; the machine has ${availableParallelism()}):\n\n| process | idle | sending |\n|---|---|---|\n` +
    Object.keys(busyAbout.shares)
      .map((group) => `| ${group} | ${(idleAbout.shares[group]! * 100).toFixed(1)}% | ${(busyAbout.shares[group]! * 100).toFixed(1)}% |`)
      .join("\n"),
);
console.log(`\nServer process CPU without load: ${(idleCpu * 100).toFixed(1)}% of a core paused, ${(sendingCpu * 100).toFixed(1)}% of a core sending.`);
server.kill("SIGTERM");
await new Promise((resolve) => server.once("exit", resolve));
await standIn.close();
await pgHandle.close();
await postgres.drop();
