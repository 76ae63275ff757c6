import { describe, expect, it } from "vitest";
import { NOTICES } from "~/lib/notices";
import { optInOutcome, smsOptInSettings } from "./opt-in.server";
import { parseEnv } from "./env.server";

describe("the opt-in answer", () => {
  it("keeps the original shape for a single opt-in", () => {
    const result = optInOutcome({ ok: true, subscriberId: "s", created: true, pending: false });
    expect(result.status).toBe(200);
    expect(result.answer).toEqual({ success: true, dnc: false, error: null });
    expect(result.actionData.notice).toEqual(NOTICES.optInSuccess);
  });

  it("adds pending: true and asks the person to check the phone under double opt-in", () => {
    const result = optInOutcome({ ok: true, subscriberId: "s", created: true, pending: true });
    expect(result.status).toBe(200);
    expect(result.answer).toEqual({ success: true, dnc: false, error: null, pending: true });
    expect(result.actionData).toMatchObject({ success: true, pending: true, notice: { title: "Check Your Phone to Confirm" } });
    expect(result.actionData.notice.description).toContain("Reply Y");
  });

  it("passes the double opt-in and postback settings to the service", () => {
    const template = "https://t.example/p?cid={clickId}";
    expect(smsOptInSettings(parseEnv({ SMS_DOUBLE_OPT_IN: "true", CONVERSION_POSTBACK_URL: template }))).toMatchObject({
      doubleOptIn: true,
      postbackUrl: template,
      dncPolicy: "refuse",
    });
  });
});
