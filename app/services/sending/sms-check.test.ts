import { describe, expect, it } from "vitest";
import { KNOWN_STATES, npasMatching, regionOfNpa } from "./npa-regions";
import { nextAllowedTime, recipientLocation } from "./quiet-hours";
import { checkSmsSend, type SmsPolicy, type SmsRecipientFacts } from "./sms-check";

const policy: SmsPolicy = { dncPolicy: "refuse", frequencyCap: 3, expiresAt: null };
const facts = (phone: string, extra: Partial<SmsRecipientFacts> = {}): SmsRecipientFacts => ({
  phone,
  subscriberStatus: "active",
  onInternalDnc: false,
  onFederalDnc: false,
  recentMarketingSends: [],
  ...extra,
});
const at = (iso: string) => new Date(iso);
const decide = (phone: string, iso: string, extra: Partial<SmsRecipientFacts> = {}, over: Partial<SmsPolicy> = {}) =>
  checkSmsSend(facts(phone, extra), { ...policy, ...over }, at(iso));

// 2026-11-23 is a Monday; Eastern is UTC-5, Central -6, Mountain -7, Pacific -8 in November.
describe("quiet hours by area code", () => {
  it("federal 08:00-21:00 in the four zones of the contiguous US", () => {
    expect(decide("+12125550123", "2026-11-23T12:59:00Z")).toEqual({ action: "wait", until: at("2026-11-23T13:00:00Z") }); // NY 07:59
    expect(decide("+12125550123", "2026-11-23T13:00:00Z")).toEqual({ action: "send" });
    expect(decide("+12125550123", "2026-11-24T01:59:00Z")).toEqual({ action: "send" }); // NY 20:59
    expect(decide("+12125550123", "2026-11-24T02:00:00Z")).toEqual({ action: "wait", until: at("2026-11-24T13:00:00Z") });
    expect(decide("+13125550123", "2026-11-23T13:30:00Z")).toEqual({ action: "wait", until: at("2026-11-23T14:00:00Z") }); // Chicago 07:30
    expect(decide("+13035550123", "2026-11-23T14:30:00Z")).toEqual({ action: "wait", until: at("2026-11-23T15:00:00Z") }); // Denver 07:30
    expect(decide("+13035550123", "2026-11-23T15:00:00Z")).toEqual({ action: "send" });
    expect(decide("+12135550123", "2026-11-24T04:59:00Z")).toEqual({ action: "send" }); // Los Angeles 20:59
    expect(decide("+12135550123", "2026-11-24T05:00:00Z")).toEqual({ action: "wait", until: at("2026-11-24T16:00:00Z") });
  });

  it("Florida, Oklahoma, Maryland and Washington stop at 20:00", () => {
    expect(decide("+13055550123", "2026-11-24T00:59:00Z")).toEqual({ action: "send" }); // Miami 19:59
    expect(decide("+13055550123", "2026-11-24T01:00:00Z")).toEqual({ action: "wait", until: at("2026-11-24T13:00:00Z") });
    expect(decide("+14055550123", "2026-11-24T02:00:00Z").action).toBe("wait"); // Oklahoma City 20:00
    expect(decide("+14105550123", "2026-11-24T01:00:00Z").action).toBe("wait"); // Baltimore 20:00
    expect(decide("+12065550123", "2026-11-24T04:00:00Z").action).toBe("wait"); // Seattle 20:00
    expect(decide("+12065550123", "2026-11-24T03:59:00Z").action).toBe("send");
  });

  it("Connecticut 09:00-20:00; Texas 09:00 on weekdays and noon on Sunday", () => {
    expect(decide("+18605550123", "2026-11-23T13:30:00Z")).toEqual({ action: "wait", until: at("2026-11-23T14:00:00Z") }); // Hartford 08:30
    expect(decide("+18605550123", "2026-11-24T01:00:00Z").action).toBe("wait"); // 20:00
    expect(decide("+15125550123", "2026-11-23T14:59:00Z")).toEqual({ action: "wait", until: at("2026-11-23T15:00:00Z") }); // Austin Mon 08:59
    expect(decide("+15125550123", "2026-11-22T17:30:00Z")).toEqual({ action: "wait", until: at("2026-11-22T18:00:00Z") }); // Sun 11:30
    expect(decide("+15125550123", "2026-11-22T18:00:00Z")).toEqual({ action: "send" }); // Sun 12:00
    expect(decide("+15125550123", "2026-11-24T02:59:00Z")).toEqual({ action: "send" }); // Mon 20:59
  });

  it("an area code spanning two zones must be inside the window in both", () => {
    // 850: Tallahassee (Eastern) and Pensacola (Central), Florida hours.
    expect(decide("+18505550123", "2026-11-23T13:30:00Z")).toEqual({ action: "wait", until: at("2026-11-23T14:00:00Z") });
    expect(decide("+18505550123", "2026-11-24T00:59:00Z")).toEqual({ action: "send" }); // 19:59 Eastern
    expect(decide("+18505550123", "2026-11-24T01:00:00Z")).toEqual({ action: "wait", until: at("2026-11-24T14:00:00Z") });
    // 208: Idaho, Mountain and Pacific.
    expect(decide("+12085550123", "2026-11-23T15:30:00Z")).toEqual({ action: "wait", until: at("2026-11-23T16:00:00Z") });
  });

  it("an unknown area code gets 09:00-20:00 (Sunday from noon) across the contiguous zones", () => {
    expect(recipientLocation("+15215550123").state).toBeNull();
    expect(decide("+15215550123", "2026-11-23T16:30:00Z")).toEqual({ action: "wait", until: at("2026-11-23T17:00:00Z") }); // 09:00 Pacific
    expect(decide("+15215550123", "2026-11-22T19:00:00Z")).toEqual({ action: "wait", until: at("2026-11-22T20:00:00Z") }); // Sun noon Pacific
    expect(decide("+15215550123", "2026-11-24T00:59:00Z")).toEqual({ action: "send" });
    expect(decide("+15215550123", "2026-11-24T01:00:00Z").action).toBe("wait"); // 20:00 Eastern
  });

  it("follows daylight saving time", () => {
    // 2026-03-08 is the spring-forward Sunday: New York is UTC-4 from 07:00 UTC.
    expect(nextAllowedTime(at("2026-03-08T11:30:00Z"), recipientLocation("+12125550123"))).toEqual(at("2026-03-08T12:00:00Z"));
  });
});

describe("the send gate", () => {
  it("can judge quiet hours at a shifted clock (tests only), answering in real time", () => {
    // 02:00 UTC is 21:00 in New York; shifted by 15 hours it is 12:00 there.
    expect(decide("+12125550123", "2026-11-24T02:00:00Z", {}, { quietHoursOffsetMs: 15 * 3_600_000 })).toEqual({ action: "send" });
    // 12:00 UTC shifted by -5 hours is 02:00 in New York: wait until 13:00 UTC shifted, 18:00 real.
    expect(decide("+12125550123", "2026-11-23T12:00:00Z", {}, { quietHoursOffsetMs: -5 * 3_600_000 })).toEqual({ action: "wait", until: at("2026-11-23T18:00:00Z") });
  });

  const noon = "2026-11-23T17:00:00Z";
  it("skips people who are not active, opted out or on our list", () => {
    expect(decide("+12125550123", noon, { subscriberStatus: "opted_out" })).toEqual({ action: "skip", reason: "opted_out" });
    expect(decide("+12125550123", noon, { subscriberStatus: "pending_confirmation" })).toEqual({ action: "skip", reason: "not_active" });
    expect(decide("+12125550123", noon, { subscriberStatus: null })).toEqual({ action: "skip", reason: "not_active" });
    expect(decide("+12125550123", noon, { onInternalDnc: true })).toEqual({ action: "skip", reason: "internal_dnc" });
  });

  it("applies the federal list only under DNC_POLICY=refuse", () => {
    expect(decide("+12125550123", noon, { onFederalDnc: true })).toEqual({ action: "skip", reason: "federal_dnc" });
    expect(decide("+12125550123", noon, { onFederalDnc: true }, { dncPolicy: "allow_with_consent" })).toEqual({ action: "send" });
    expect(decide("+12125550123", noon, { onFederalDnc: true, onInternalDnc: true }, { dncPolicy: "allow_with_consent" }).action).toBe("skip");
  });

  it("skips the fourth marketing text in a rolling 24 hours", () => {
    const sends = (...iso: string[]) => ({ recentMarketingSends: iso.map(at) });
    expect(decide("+12125550123", noon, sends("2026-11-23T10:00:00Z", "2026-11-23T14:00:00Z", "2026-11-23T16:59:00Z"))).toEqual({ action: "skip", reason: "frequency_cap" });
    expect(decide("+12125550123", noon, sends("2026-11-22T17:00:00Z", "2026-11-23T14:00:00Z", "2026-11-23T16:59:00Z"))).toEqual({ action: "send" });
  });

  it("drops a stale alert instead of sending it late", () => {
    expect(decide("+12125550123", noon, {}, { expiresAt: at("2026-11-23T16:00:00Z") })).toEqual({ action: "skip", reason: "expired" });
    // 22:00 in New York: the window opens at 08:00, after the alert expires.
    expect(decide("+12125550123", "2026-11-24T03:00:00Z", {}, { expiresAt: at("2026-11-24T06:00:00Z") })).toEqual({ action: "skip", reason: "expired" });
  });
});

describe("the area-code table", () => {
  it("knows the 50 states and DC, with valid time zones", () => {
    expect(KNOWN_STATES).toHaveLength(51);
    for (const npa of ["212", "305", "405", "410", "206", "860", "512", "808", "907"]) expect(regionOfNpa(npa)).not.toBeNull();
    expect(regionOfNpa("305")).toEqual({ state: "FL", zones: ["America/New_York"] });
    expect(regionOfNpa("850")!.zones).toEqual(["America/Chicago", "America/New_York"]);
    expect(regionOfNpa("915")).toEqual({ state: "TX", zones: ["America/Denver"] });
    expect(regionOfNpa("800")).toBeNull();
    for (const npa of npasMatching({})) {
      expect(npa).toMatch(/^[2-9][0-9]{2}$/);
      for (const zone of regionOfNpa(npa)!.zones) expect(() => new Intl.DateTimeFormat("en-US", { timeZone: zone })).not.toThrow();
    }
  });

  it("selects area codes by state and by zone group", () => {
    expect(npasMatching({ states: ["CT"] }).sort()).toEqual(["203", "475", "860", "959"]);
    expect(npasMatching({ zones: ["hawaii"] })).toEqual(["808"]);
    const floridaCentral = npasMatching({ states: ["FL"], zones: ["central"] });
    expect(floridaCentral).toContain("850");
    expect(floridaCentral).not.toContain("305");
  });
});
