// npm run bench:proxy — what the TLS profile and the BREACH rule (decisions 090, 091) cost. One
// production server behind two proxies made from the shipped template: the version of BEFORE_REF
// (default: the commit before those decisions) and the current file, both inside the outer
// nginx.conf the tests use (gzip on, as in Debian's package). Per page, the bytes a browser gets
// (Accept-Encoding: gzip, deflate, br) and their encoding, public pages and signed-in ones; then
// wrk throughput of public pages through each proxy, interleaved (WRK_REPS runs, default 3).
// Needs a production build for the tests' address (SITE_URL=https://news.example.test:4173).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureHostResolves } from "../../tests/support/proxy/host-name";
import { startProxy } from "../../tests/support/proxy/start-proxy";
import { createAdmin, signIn } from "../../tests/system/support/admin-session";
import { freePort, startSite } from "../../tests/system/support/site";

const BEFORE_REF = process.env.BEFORE_REF ?? "2e1c375";
const WRK_REPS = Number(process.env.WRK_REPS ?? 3);
const HOST = "news.example.test";
const ADMIN = { email: "bench-proxy@patriotinvestor.example", password: "Brandywine-1777-Creek" };
const BROWSER = { "Accept-Encoding": "gzip, deflate, br" };
const PUBLIC_PAGES = ["/", "/blog", "/about", "/articles/bonds-guide", "/opt-in?f_name=Betsy&l_name=Ross&phone=2124561776&sub2=cl1ck-4d", "/auth"];
const SIGNED_IN_PAGES = ["/", "/account", "/admin/security", "/admin/articles"];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function get(port: number, page: string, headers: Record<string, string>, ca: Buffer) {
  return new Promise<{ status: number; encoding: string; bytes: number }>((resolve, reject) => {
    const sent = request(`https://${HOST}:${port}${page}`, { ca, headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, encoding: String(response.headers["content-encoding"] ?? "none"), bytes }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

function wrk(url: string) {
  const output = execFileSync("wrk", ["-t2", "-c50", "-d10s", "--latency", "-H", `Accept-Encoding: ${BROWSER["Accept-Encoding"]}`, url], { encoding: "utf8" });
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]), p99: /\s99%\s+(\S+)/.exec(output)?.[1] ?? "?" };
}

const dir = mkdtempSync(path.join(tmpdir(), "bench-proxy-"));
await ensureHostResolves(HOST);
createAdmin({ DATA_DIR: path.join(dir, "data") }, ADMIN);
const site = await startSite({ DATA_DIR: path.join(dir, "data"), MAIN_DOMAINS: HOST, LOG_LEVEL: "error" });
const templates = {
  before: execFileSync("git", ["show", `${BEFORE_REF}:deploy/nginx/patriot-investor.conf.template`], { encoding: "utf8" }),
  after: readFileSync("deploy/nginx/patriot-investor.conf.template", "utf8"),
};
const proxies: Record<string, { port: number; ca: Buffer; stop: () => Promise<void> }> = {};
try {
  for (const [name, siteTemplate] of Object.entries(templates)) {
    const port = await freePort();
    const ports = { https: port, http: await freePort(), internalHost: await freePort(), forwarded: await freePort() };
    const proxy = await startProxy({ dir: path.join(dir, name), host: HOST, ports, appPorts: [site.port], siteTemplate });
    proxies[name] = { port, ca: readFileSync(proxy.certificate), stop: proxy.stop };
  }
  const cookie = await signIn(site.url, ADMIN);

  console.log(`# Proxy benchmark ${new Date().toISOString()}, before = ${BEFORE_REF}, node ${process.version}\n`);
  console.log("| page | visitor | before: encoding, bytes | after: encoding, bytes |");
  console.log("|---|---|---|---|");
  const pages = [...PUBLIC_PAGES.map((page) => [page, "anonymous"] as const), ...SIGNED_IN_PAGES.map((page) => [page, "signed in"] as const)];
  for (const [page, visitor] of pages) {
    const headers = visitor === "signed in" ? { ...BROWSER, Cookie: cookie } : BROWSER;
    const cells = [];
    for (const name of ["before", "after"]) {
      const answer = await get(proxies[name]!.port, page, headers, proxies[name]!.ca);
      cells.push(`${answer.status} ${answer.encoding}, ${answer.bytes.toLocaleString("en-US")}`);
    }
    console.log(`| ${page.replace(/\?.*/, "?…")} | ${visitor} | ${cells.join(" | ")} |`);
  }

  console.log(`\nwrk -t2 -c50 -d10s -H 'Accept-Encoding: gzip, deflate, br', ${WRK_REPS} interleaved runs, median req/s (p99 of the median run)\n`);
  console.log("| page | before req/s | after req/s | after / before |");
  console.log("|---|---|---|---|");
  for (const page of ["/", "/about", "/articles/bonds-guide"]) {
    const runs: Record<string, { rps: number; p99: string }[]> = { before: [], after: [] };
    for (let rep = 0; rep < WRK_REPS; rep++) {
      for (const name of ["before", "after"]) runs[name]!.push(wrk(`https://${HOST}:${proxies[name]!.port}${page}`));
    }
    const [before, after] = ["before", "after"].map((name) => {
      const rps = median(runs[name]!.map((run) => run.rps));
      return { rps, p99: runs[name]!.find((run) => run.rps === rps)!.p99 };
    });
    console.log(`| ${page} | ${before!.rps.toFixed(0)} (${before!.p99}) | ${after!.rps.toFixed(0)} (${after!.p99}) | ${(after!.rps / before!.rps).toFixed(3)} |`);
  }
} finally {
  for (const proxy of Object.values(proxies)) await proxy.stop();
  await site.stop();
  rmSync(dir, { recursive: true, force: true });
}
