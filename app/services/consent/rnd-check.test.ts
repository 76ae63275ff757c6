import { describe, expect, it } from "vitest";
import { DEFAULT_RND_POLICY, needsRndAnswer, rndVerdict, type RndAnswer } from "./rnd-check";

const now = new Date("2026-11-25T15:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
const answer = (askedDate: string, value: RndAnswer["answer"], answeredDaysAgo: number): RndAnswer => ({
  askedDate,
  answer: value,
  answeredAt: daysAgo(answeredDaysAgo),
});
const consentAt = new Date("2026-08-01T18:30:00Z"); // 116 days before now

describe("the Reassigned Numbers Database rule", () => {
  it("asks nothing of consent younger than RND_CHECK_AFTER_DAYS", () => {
    expect(rndVerdict(daysAgo(29), [], DEFAULT_RND_POLICY, now)).toEqual({ action: "send", basis: "recent_consent" });
    expect(rndVerdict(daysAgo(31), [], DEFAULT_RND_POLICY, now)).toEqual({ action: "skip", reason: "rnd_no_answer" });
    expect(needsRndAnswer(daysAgo(31), [], DEFAULT_RND_POLICY, now)).toBe(true);
  });

  it("sends on a fresh 'no' for the consent date or later, and not on a stale one", () => {
    expect(rndVerdict(consentAt, [answer("2026-08-01", "no", 3)], DEFAULT_RND_POLICY, now)).toEqual({
      action: "send",
      basis: "rnd_no",
    });
    expect(rndVerdict(consentAt, [answer("2026-08-01", "no", 32)], DEFAULT_RND_POLICY, now)).toEqual({
      action: "skip",
      reason: "rnd_no_answer",
    });
    expect(
      rndVerdict(consentAt, [answer("2026-08-01", "no", 32)], { ...DEFAULT_RND_POLICY, answerMaxAgeDays: 60 }, now),
    ).toMatchObject({ action: "send" });
  });

  it("does not count an answer about a date before the consent", () => {
    expect(rndVerdict(consentAt, [answer("2026-07-31", "no", 1)], DEFAULT_RND_POLICY, now)).toEqual({
      action: "skip",
      reason: "rnd_no_answer",
    });
    // A "yes" about an earlier date says the number was disconnected before this person's consent: not theirs to lose.
    expect(
      rndVerdict(consentAt, [answer("2026-07-31", "yes", 1), answer("2026-08-01", "no", 1)], DEFAULT_RND_POLICY, now),
    ).toMatchObject({ action: "send" });
  });

  it("a 'yes' since the consent ends it, however old the answer and whatever came after", () => {
    const answers = [answer("2026-08-01", "yes", 200), answer("2026-08-01", "no", 1)];
    expect(rndVerdict(consentAt, answers, DEFAULT_RND_POLICY, now)).toEqual({
      action: "skip",
      reason: "rnd_reassigned",
    });
    expect(needsRndAnswer(consentAt, answers, DEFAULT_RND_POLICY, now)).toBe(false);
  });

  it("'no data' follows RND_NO_DATA", () => {
    const answers = [answer("2026-08-01", "no_data", 2)];
    expect(rndVerdict(consentAt, answers, DEFAULT_RND_POLICY, now)).toEqual({ action: "skip", reason: "rnd_no_data" });
    expect(rndVerdict(consentAt, answers, { ...DEFAULT_RND_POLICY, noData: "send" }, now)).toEqual({
      action: "send",
      basis: "rnd_no_data_sent",
    });
    // The newest fresh answer decides between "no data" and "no".
    expect(rndVerdict(consentAt, [...answers, answer("2026-08-01", "no", 1)], DEFAULT_RND_POLICY, now)).toMatchObject({
      action: "send",
      basis: "rnd_no",
    });
  });
});
