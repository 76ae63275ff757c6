import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createRecorder, SEP } from "~/services/analytics/recorder";
import { createViewCounter } from "./analytics";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const request = (url: string, { method = "GET", headers = {} as Record<string, string>, socket = "10.0.0.2" } = {}) =>
  ({ method, url, headers: { host: "patriotinvestor.example", "user-agent": CHROME, "accept-language": "en", "sec-fetch-mode": "navigate", ...headers }, socket: { remoteAddress: socket } }) as unknown as IncomingMessage;

function counter(trustedHops = 0) {
  const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 60, ownHosts: ["patriotinvestor.example"] });
  return { recorder, count: createViewCounter(recorder, trustedHops)! };
}

describe("the view counter of the server", () => {
  it("is absent when analytics is off", () => {
    expect(createViewCounter(undefined, 0)).toBeUndefined();
  });

  it("counts a page answered 200 or 304 and nothing else: HEAD, errors, assets, admin", () => {
    const { recorder, count } = counter();
    count(request("/about"), 200, "text/html; charset=utf-8");
    count(request("/about"), 304, "text/html; charset=utf-8");
    count(request("/about", { method: "HEAD" }), 200, "text/html; charset=utf-8");
    count(request("/missing"), 404, "text/html; charset=utf-8");
    count(request("/assets/app.js"), 200, "text/javascript");
    count(request("/admin/subscribers"), 200, "text/html; charset=utf-8");
    const counts = recorder.take();
    expect([...counts.views.values()]).toEqual([2]);
    expect(counts.excluded.size).toBe(0);
  });

  it("takes the client's network from the socket, or from the trusted proxies only", () => {
    const direct = counter(0);
    direct.count(request("/", { headers: { "x-forwarded-for": "203.0.113.5" } }), 200, "text/html");
    expect([...direct.recorder.take().visitors.keys()][0]!.split(SEP)[1]).toBe("10.0.0");
    const proxied = counter(1);
    proxied.count(request("/", { headers: { "x-forwarded-for": "198.51.100.7, 203.0.113.5" } }), 200, "text/html");
    expect([...proxied.recorder.take().visitors.keys()][0]!.split(SEP)[1]).toBe("203.0.113");
  });
});
