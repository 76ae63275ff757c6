import { describe, expect, it } from "vitest";
import { startJobLoop } from "./job-loop.server";

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const record = (level: string) => (_entry: Record<string, unknown>, message: string) => void lines.push({ level, message });
  return { lines, logger: { info: record("info"), warn: record("warn"), error: record("error") } };
}

describe("job loop", () => {
  it("reports a lost database once as a warning, and once when it is back", async () => {
    const { lines, logger } = recordingLogger();
    let polls = 0;
    const loop = startJobLoop({
      name: "test",
      pollMs: 5,
      logger,
      drain: async () => {
        polls++;
        if (polls <= 4) throw refused();
        return 0;
      },
    });
    await expect.poll(() => polls, { timeout: 2_000 }).toBeGreaterThan(6);
    await loop.stop();
    expect(lines).toEqual([
      { level: "warn", message: "database unavailable; the job waits for it" },
      { level: "info", message: "database reachable again" },
    ]);
  });

  it("logs any other failure as an error on every poll", async () => {
    const { lines, logger } = recordingLogger();
    let polls = 0;
    const loop = startJobLoop({
      name: "test",
      pollMs: 5,
      logger,
      drain: async () => {
        polls++;
        throw new TypeError("a bug");
      },
    });
    await expect.poll(() => polls, { timeout: 2_000 }).toBeGreaterThan(2);
    await loop.stop();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((line) => line.level === "error")).toBe(true);
  });
});
