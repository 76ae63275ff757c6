import { createServer, type Server } from "node:http";

export type PostbackCall = { clickId: string; event: string; timestamp: string; key: string; status: number; /** When it arrived (ms since the epoch). */ at: number };

/**
 * A stand-in for an ad network's postback endpoint on 127.0.0.1: it refuses the first
 * `refuseEach` calls of every conversion (idempotency key) with 503, then accepts, and, like the
 * real ones, counts a repeated key (a retry after a crash) once. `accepted` holds the first
 * accepted call per key.
 */
export async function startPostbackStandIn(options: { refuseEach?: number } = {}) {
  const calls: PostbackCall[] = [];
  const accepted = new Map<string, PostbackCall>();
  const refused = new Map<string, number>();

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const key = String(req.headers["idempotency-key"] ?? url.searchParams.get("id") ?? "");
    const call = {
      clickId: url.searchParams.get("cid") ?? "",
      event: url.searchParams.get("event") ?? "",
      timestamp: url.searchParams.get("ts") ?? "",
      key,
      status: 200,
      at: Date.now(),
    };
    if (url.pathname !== "/postback" || !key || !call.clickId) call.status = 400;
    else if ((refused.get(key) ?? 0) < (options.refuseEach ?? 0)) {
      refused.set(key, (refused.get(key) ?? 0) + 1);
      call.status = 503;
    } else if (!accepted.has(key)) accepted.set(key, call);
    calls.push(call);
    res.writeHead(call.status, { "Content-Type": "text/plain" });
    res.end(call.status === 200 ? "ok" : "refused");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    template: `http://127.0.0.1:${port}/postback?cid={clickId}&event={event}&ts={timestamp}&id={id}`,
    calls,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
