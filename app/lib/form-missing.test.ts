import { describe, expect, it } from "vitest";
import { missingForNewsletter, missingForOptIn, missingHint } from "./form-missing";
import { OptInSchema } from "./forms";

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  return data;
};

describe("what a form still needs", () => {
  it("lists every empty field and unticked box of the opt-in, the SMS box included (decision 007)", () => {
    expect(missingForOptIn(form({}))).toEqual(["first name", "last name", "mobile phone", "the SMS alerts box", "the Terms of Service box"]);
    expect(missingForOptIn(form({ firstName: "A", lastName: " ", phone: "2124567890", termsConsent: "on" }))).toEqual([
      "last name",
      "the SMS alerts box",
    ]);
    expect(missingForOptIn(form({ firstName: "A", lastName: "B", phone: "2124567890", termsConsent: "on", smsConsent: "on" }))).toEqual([]);
  });

  it("agrees with the server: whenever nothing is missing, both boxes are ticked", () => {
    const complete = form({ firstName: "A", lastName: "B", phone: "2124567890", termsConsent: "on", smsConsent: "on" });
    expect(missingForOptIn(complete)).toEqual([]);
    const parsed = OptInSchema.parse(Object.fromEntries(complete));
    expect(parsed.smsConsent && parsed.termsConsent).toBe(true);
    complete.delete("smsConsent");
    expect(missingForOptIn(complete)).toEqual(["the SMS alerts box"]);
  });

  it("the newsletter needs the Terms box but not the SMS box", () => {
    expect(missingForNewsletter(form({ firstName: "A", lastName: "B", email: "a@b.co", phone: "1" }))).toEqual(["the Terms of Service box"]);
  });

  it("says it in one sentence", () => {
    expect(missingHint([])).toBe("");
    expect(missingHint(["email"])).toBe("Still needed: email.");
    expect(missingHint(["first name", "email", "the Terms of Service box"])).toBe("Still needed: first name, email and the Terms of Service box.");
  });
});
