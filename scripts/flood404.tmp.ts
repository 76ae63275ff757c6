import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createPostgresDatabase } from "../tests/support/test-db";
import { startSite } from "../tests/system/support/site";
const database = await createPostgresDatabase();
const site = await startSite({ DATABASE_URL: database.url, MAIN_DOMAINS: "127.0.0.1", LOG_LEVEL: "error" }, { readyTimeoutMs: 120_000 });
void site.exited.then((code) => console.log("SITE EXITED", code, new Date().toISOString()));
const kid = readFileSync(`/proc/${site.child.pid}/task/${site.child.pid}/children`, "utf8").trim();
const rss = () => { try { return Math.round(Number(readFileSync(`/proc/${kid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1]) / 1024); } catch { return "gone"; } };
console.log("ready rss", rss());
const path = process.argv[2] ?? "/about";
const second = process.argv[3] ?? "/no-such-page/";
for (const p of [path, second]) {
  const w = spawn("wrk", ["-t", "2", "-c", "50", "-d", "10s", "-H", "Accept-Encoding: gzip", `${site.url}${p}`]);
  let out = ""; w.stdout.on("data", (d) => (out += d));
  const timer = setInterval(() => process.stdout.write(`${rss()} `), 1000);
  await new Promise((r) => w.on("exit", r));
  clearInterval(timer);
  console.log(`\n${p}:`, out.split("\n").filter((l) => /Requests\/sec|Non-2xx/.test(l)).join(" | "));
  for (let i = 0; i < 6; i++) { await new Promise((r) => setTimeout(r, 1000)); process.stdout.write(`${rss()} `); }
  console.log();
}
await site.stop();
await database.drop();
process.exit(0);
