import { describe, expect, it } from "vitest";
import { authLogSink } from "./auth-logger.server";

function recorder() {
  const lines: { level: string; entry: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (entry: Record<string, unknown>, message: string) => lines.push({ level, entry, message });
  return { lines, logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } as never };
}

describe("authLogSink", () => {
  it("writes a refused origin as a warning and its trustedOrigins hint as debug", () => {
    const { lines, logger } = recorder();
    const log = authLogSink(logger);
    log("error", "Invalid origin: https://evil.example");
    log("info", "If it's a valid URL, please add https://evil.example to trustedOrigins in your auth config\n", "Current list of trustedOrigins: x");
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ["warn", "Invalid origin: https://evil.example"],
      ["debug", "If it's a valid URL, please add https://evil.example to trustedOrigins in your auth config"],
    ]);
    expect(lines[1]!.entry.details).toEqual(["Current list of trustedOrigins: x"]);
  });

  it("keeps other errors as errors, with the error object for pino's serializer", () => {
    const { lines, logger } = recorder();
    const failure = new Error("connection refused");
    authLogSink(logger)("error", "Failed to create session", failure);
    expect(lines).toEqual([{ level: "error", entry: { source: "better-auth", err: failure }, message: "Failed to create session" }]);
  });
});
