/**
 * The Reassigned Numbers Database rule for a campaign text (decision 071), pure: consent older than
 * `checkAfterDays` needs an RND answer for a date on or after the consent date. A "yes" (the number
 * was permanently disconnected since) ends the consent whatever the answer's age; a "no" counts
 * while it is at most `answerMaxAgeDays` old; "no data" follows `noData`.
 */
export type RndAnswer = { askedDate: string; answer: "yes" | "no" | "no_data"; answeredAt: Date };

export type RndPolicy = {
  checkAfterDays: number;
  answerMaxAgeDays: number;
  /** "skip": no safe harbor without an answer, so no text (the default); "send": text anyway. */
  noData: "skip" | "send";
};

/** The defaults of RND_CHECK_AFTER_DAYS, RND_ANSWER_MAX_AGE_DAYS and RND_NO_DATA. */
export const DEFAULT_RND_POLICY: RndPolicy = { checkAfterDays: 30, answerMaxAgeDays: 31, noData: "skip" };

export type RndVerdict =
  | { action: "send"; basis: "recent_consent" | "rnd_no" | "rnd_no_data_sent" }
  | { action: "skip"; reason: "rnd_reassigned" | "rnd_no_data" | "rnd_no_answer" };

const DAY_MS = 86_400_000;

/** The consent date as the RND is asked about it: the UTC calendar day. */
export function consentDate(consentAt: Date) {
  return consentAt.toISOString().slice(0, 10);
}

/** Whether this consent needs an answer at all, and if so which answers speak to it. */
function relevant(consentAt: Date, answers: RndAnswer[]) {
  const since = consentDate(consentAt);
  return answers
    .filter((answer) => answer.askedDate >= since)
    .sort((a, b) => b.answeredAt.getTime() - a.answeredAt.getTime());
}

export function rndVerdict(consentAt: Date | null, answers: RndAnswer[], policy: RndPolicy, now: Date): RndVerdict {
  // No consent date means no consent on record: the subscriber gate refuses that already.
  if (!consentAt || now.getTime() - consentAt.getTime() < policy.checkAfterDays * DAY_MS)
    return { action: "send", basis: "recent_consent" };
  const forThisConsent = relevant(consentAt, answers);
  if (forThisConsent.some((answer) => answer.answer === "yes")) return { action: "skip", reason: "rnd_reassigned" };
  const fresh = forThisConsent.filter(
    (answer) => now.getTime() - answer.answeredAt.getTime() <= policy.answerMaxAgeDays * DAY_MS,
  );
  const newest = fresh[0];
  if (!newest) return { action: "skip", reason: "rnd_no_answer" };
  if (newest.answer === "no") return { action: "send", basis: "rnd_no" };
  return policy.noData === "send"
    ? { action: "send", basis: "rnd_no_data_sent" }
    : { action: "skip", reason: "rnd_no_data" };
}

/** True when asking the RND now could change the verdict: there is no fresh answer for this consent. */
export function needsRndAnswer(consentAt: Date | null, answers: RndAnswer[], policy: RndPolicy, now: Date) {
  const verdict = rndVerdict(consentAt, answers, policy, now);
  return verdict.action === "skip" && verdict.reason === "rnd_no_answer";
}
