import { describe, expect, it } from "vitest";
import { globalPrivacyControl, requestGpc } from "./request.server";

describe("globalPrivacyControl (decision 153)", () => {
  it("is on only for Sec-GPC: 1, the one value the specification defines", () => {
    const gpcFor = (value: string | undefined) =>
      globalPrivacyControl((name) => (name === "sec-gpc" ? value : undefined));
    expect(gpcFor("1")).toBe(true);
    expect(gpcFor(" 1 ")).toBe(true);
    for (const value of [undefined, "", "0", "true", "yes", "1, 1"]) expect(gpcFor(value), String(value)).toBe(false);
  });

  it("reads the header of a Request whatever its case", () => {
    expect(requestGpc(new Request("http://localhost/opt-in", { headers: { "Sec-GPC": "1" } }))).toBe(true);
    expect(requestGpc(new Request("http://localhost/opt-in"))).toBe(false);
  });
});
