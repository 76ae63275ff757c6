import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { csvField, subscribersCsvStream } from "./csv-export.server";

describe("csvField", () => {
  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ['=HYPERLINK("http://evil.example")', `"'=HYPERLINK(""http://evil.example"")"`],
    ["+1 212", "'+1 212"],
    ["-5", "'-5"],
    ["@SUM(A1)", "'@SUM(A1)"],
    [null, ""],
  ])("%j -> %j", (value, expected) => expect(csvField(value)).toBe(expected));
});

describe.each(DB_KINDS)("the subscriber CSV export on %s", (kind) => {
  const database = useTestDatabase(kind);
  beforeAll(async () => {
    await database.db.execute(sql`
      INSERT INTO subscribers (channel, phone_e164, first_name, last_name, status, source, created_at)
      SELECT 'sms', '+1212' || lpad(i::text, 7, '0'), 'First' || i, 'Last', 'active', 'opt-in', now() - (i || ' seconds')::interval
      FROM generate_series(2000000, 2249999) AS i`);
  }, 120_000);

  it("streams 250,000 rows, each once, without holding them all", async () => {
    const reader = subscribersCsvStream(database.db).getReader();
    const decoder = new TextDecoder();
    let lines = 0;
    let chunks = 0;
    let largestChunk = 0;
    const seen = new Set<string>();
    const heapBefore = process.memoryUsage().heapUsed;
    let peakHeap = heapBefore;
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      largestChunk = Math.max(largestChunk, value.byteLength);
      const text = rest + decoder.decode(value, { stream: true });
      const parts = text.split("\r\n");
      rest = parts.pop() ?? "";
      for (const line of parts) {
        lines++;
        if (lines > 1) seen.add(line.split(",")[6]!);
      }
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
    expect(lines).toBe(250_001);
    expect(seen.size).toBe(250_000);
    expect(chunks).toBeGreaterThan(100);
    // Each chunk is one batch of 2,000 rows, far from the ~25 MB of the whole export.
    expect(largestChunk).toBeLessThan(400_000);
    expect(peakHeap - heapBefore).toBeLessThan(200 * 1024 * 1024);
  }, 180_000);
});
