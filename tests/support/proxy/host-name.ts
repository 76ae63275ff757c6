import { lookup } from "node:dns/promises";
import { appendFileSync, readFileSync } from "node:fs";

/**
 * Makes the tests' public host name resolve to this machine for Node (the test runner's HTTP
 * client, the readiness check). Chromium gets a resolver rule instead (playwright.config.ts), so
 * nothing else on the machine needs it; Node has no such switch and reads /etc/hosts. The name is
 * in the reserved .test domain, so the line can never shadow a real site. Without write access the
 * run stops and says which line to add.
 */
export async function ensureHostResolves(host: string) {
  if (await resolvesToLoopback(host)) return;
  const line = `127.0.0.1 ${host}`;
  try {
    const hosts = readFileSync("/etc/hosts", "utf8");
    appendFileSync("/etc/hosts", `${hosts.endsWith("\n") ? "" : "\n"}${line}\n`);
  } catch {
    throw new Error(`The browser tests need ${host} to resolve to this machine: add "${line}" to /etc/hosts.`);
  }
  if (!(await resolvesToLoopback(host))) throw new Error(`${host} still does not resolve to 127.0.0.1 after adding "${line}" to /etc/hosts.`);
}

async function resolvesToLoopback(host: string) {
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.some((entry) => entry.address === "127.0.0.1");
  } catch {
    return false;
  }
}
