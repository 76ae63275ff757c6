import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KEEP_ALIVE_TIMEOUT_MS } from "./timeouts";

describe("keep-alive between the proxy and the app", () => {
  it("the shipped nginx lets an idle upstream connection go before the app closes it", () => {
    const template = readFileSync("deploy/nginx/patriot-investor.conf.template", "utf8");
    // The block runs to the first line that is only "}" (its server list is a ${...} setting).
    const upstream = /upstream patriot_app \{\n([\s\S]*?)\n\}/.exec(template)?.[1] ?? "";
    const seconds = Number(/keepalive_timeout (\d+)s;/.exec(upstream)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(seconds * 1000);
  });
});
