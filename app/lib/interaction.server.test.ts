import { describe, expect, it } from "vitest";
import type { Interaction } from "./interaction";
import { parseInteraction } from "./interaction.server";

const record: Interaction = {
  v: 1,
  loadedMs: 812,
  hydratedMs: 1_204,
  typingMs: { firstName: 900, lastName: 1_100, phone: 2_400 },
  tickedMs: { smsConsent: 9_850, termsConsent: 10_420 },
  submittedMs: 12_007,
};

describe("the form's interaction record", () => {
  it("is read from the form's JSON text or a JSON body's object", () => {
    expect(parseInteraction(JSON.stringify(record))).toEqual(record);
    expect(parseInteraction(record)).toEqual(record);
    expect(parseInteraction(JSON.stringify({ ...record, loadedMs: null, tickedMs: { smsConsent: null, termsConsent: 3 } }))).toMatchObject({ loadedMs: null });
  });

  it("is dropped, never refused, when it is missing, broken or holds more than durations", () => {
    for (const value of [undefined, null, "", "{", "[]", 42, JSON.stringify({ ...record, v: 2 }), "x".repeat(2_001)]) expect(parseInteraction(value)).toBeNull();
    // Keystrokes, values or any other key are not taken.
    expect(parseInteraction(JSON.stringify({ ...record, keys: "h-e-l-l-o" }))).toBeNull();
    expect(parseInteraction(JSON.stringify({ ...record, typingMs: { ...record.typingMs, phoneValue: 2125550100 } }))).toBeNull();
    // Negative, fractional or absurd times are not believed.
    expect(parseInteraction(JSON.stringify({ ...record, submittedMs: -1 }))).toBeNull();
    expect(parseInteraction(JSON.stringify({ ...record, hydratedMs: 1.5 }))).toBeNull();
    expect(parseInteraction(JSON.stringify({ ...record, submittedMs: 86_400_001 }))).toBeNull();
  });
});
