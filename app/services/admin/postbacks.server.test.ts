import { describe, expect, it } from "vitest";
import { describePostback, type PostbackState } from "./postbacks.server";

const state = (overrides: Partial<PostbackState>): PostbackState => ({
  status: "queued",
  skipReason: null,
  event: "opt_in",
  attempts: 0,
  responseStatus: null,
  error: null,
  nextAttemptAt: "2026-11-23T10:15:30.000Z",
  sentAt: null,
  ...overrides,
});

describe("describePostback", () => {
  it("says in one line what happened to the conversion call", () => {
    expect(describePostback(undefined)).toBe("none");
    expect(describePostback(state({}))).toBe("queued");
    expect(describePostback(state({ attempts: 2, error: "HTTP 503" }))).toBe("retrying at 10:15:30 UTC (2 tries, last: HTTP 503)");
    expect(describePostback(state({ status: "sent", attempts: 1 }))).toBe("sent (1 try)");
    expect(describePostback(state({ status: "failed", attempts: 1, error: "HTTP 404" }))).toBe("failed after 1 try: HTTP 404");
    expect(describePostback(state({ status: "skipped", skipReason: "gpc" }))).toBe("not sent: Global Privacy Control (Sec-GPC: 1), the postback feeds an ad platform");
  });
});
