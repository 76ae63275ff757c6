import { z } from "zod";
import { providerRequest } from "./provider-http.server";

/**
 * The Reassigned Numbers Database's query interface (decision 071). The FCC's administrator
 * publishes the three answers and the "number + date" question; the wire format below (one batch
 * POST, an API key header, these field names) is assumed, since the subscriber documentation is
 * not public. It lives in this module only, so the real names are a one-file change.
 */
export type RndQuery = { phone: string; date: string };
export type RndResult = RndQuery & { answer: "yes" | "no" | "no_data" };

export type RndApi = { query(items: RndQuery[]): Promise<RndResult[]> };

/** The most numbers one request asks about. */
export const RND_BATCH = 100;

const ResponseSchema = z.object({
  results: z.array(
    z.object({
      phoneNumber: z.string().regex(/^[2-9][0-9]{9}$/),
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      result: z.enum(["yes", "no", "no data"]),
    }),
  ),
});

export class RndUnavailableError extends Error {
  override name = "RndUnavailableError";
}

export function createRndApi(settings: { url: string; apiKey: string; timeoutMs?: number }): RndApi {
  const endpoint = new URL("queries", settings.url.endsWith("/") ? settings.url : `${settings.url}/`).toString();
  return {
    async query(items) {
      const results: RndResult[] = [];
      for (let start = 0; start < items.length; start += RND_BATCH) {
        const batch = items.slice(start, start + RND_BATCH);
        let response;
        try {
          response = await providerRequest(endpoint, {
            method: "POST",
            headers: { "Content-Type": "application/json", Accept: "application/json", "X-Api-Key": settings.apiKey },
            body: JSON.stringify({ queries: batch.map((item) => ({ phoneNumber: item.phone, date: item.date })) }),
            timeoutMs: settings.timeoutMs ?? 10_000,
          });
        } catch (error) {
          throw new RndUnavailableError(`RND query failed: ${(error as Error).message}`);
        }
        if (response.status !== 200) throw new RndUnavailableError(`RND query answered ${response.status}`);
        const parsed = ResponseSchema.safeParse(response.body);
        if (!parsed.success) throw new RndUnavailableError("RND query answered in an unexpected shape");
        // Only answers to what was asked count: anything else in the reply is ignored.
        const asked = new Set(batch.map((item) => `${item.phone} ${item.date}`));
        for (const row of parsed.data.results) {
          if (!asked.has(`${row.phoneNumber} ${row.date}`)) continue;
          results.push({
            phone: row.phoneNumber,
            date: row.date,
            answer: row.result === "no data" ? "no_data" : row.result,
          });
        }
      }
      return results;
    },
  };
}
