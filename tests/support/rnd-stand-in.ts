import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for the Reassigned Numbers Database's query API on 127.0.0.1, following the
 * interface assumed in decision 071: POST /queries with an X-Api-Key header and
 * `{queries: [{phoneNumber, date}]}`, answered `{results: [{phoneNumber, date, result}]}` where
 * `result` is "yes" (permanently disconnected on or after `date`), "no" or "no data".
 * `disconnected` holds each disconnected number's disconnection date; numbers in `noData` have no
 * record. `down` makes every query answer 503.
 */
export async function startRndStandIn(options: { apiKey: string }) {
  const disconnected = new Map<string, string>();
  const noData = new Set<string>();
  const asked: { phoneNumber: string; date: string }[] = [];
  const state = { down: false };

  const server: Server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/queries") return reply(404, { error: "not found" });
    if (req.headers["x-api-key"] !== options.apiKey) return reply(401, { error: "invalid API key" });
    if (state.down) return reply(503, { error: "unavailable" });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let queries: { phoneNumber: string; date: string }[];
      try {
        queries = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { queries: typeof queries }).queries;
      } catch {
        return reply(400, { error: "invalid JSON" });
      }
      asked.push(...queries);
      reply(200, {
        results: queries.map((query) => {
          const disconnectedOn = disconnected.get(query.phoneNumber);
          const result = noData.has(query.phoneNumber)
            ? "no data"
            : disconnectedOn && disconnectedOn >= query.date
              ? "yes"
              : "no";
          return { phoneNumber: query.phoneNumber, date: query.date, result };
        }),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    disconnected,
    noData,
    asked,
    state,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
