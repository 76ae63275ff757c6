import type { SendRates } from "~/services/sending/send-rate";
import { CURRENT_RATE_WINDOW_SECONDS } from "~/services/sending/send-rate";

const perSecond = (value: number) => value.toLocaleString("en-US", { maximumFractionDigits: 1 });

export const SEND_RATE_TEXTS = {
  now: (rate: number, unit: string) => `${perSecond(rate)} ${unit}/second now`,
  nowHint: `over the last ${CURRENT_RATE_WINDOW_SECONDS} seconds`,
  average: (rate: number, unit: string) => `${perSecond(rate)} ${unit}/second on average over the whole send`,
} as const;

/**
 * A send's pace, for alerts and newsletters alike: the current rate while it sends (the last few
 * seconds), and the average over the whole send as its own figure, which stays once it has ended.
 */
export function SendRate({ rate, sending, unit }: { rate: SendRates; sending: boolean; unit: "texts" | "e-mails" }) {
  const now = sending && rate.current !== null;
  if (!now && rate.average === null) return null;
  return (
    <span className="flex flex-wrap justify-end gap-x-3">
      {now ? (
        <span data-testid="rate-now" title={SEND_RATE_TEXTS.nowHint}>
          {SEND_RATE_TEXTS.now(rate.current!, unit)}
        </span>
      ) : null}
      {rate.average !== null ? <span data-testid="rate-average">{SEND_RATE_TEXTS.average(rate.average, unit)}</span> : null}
    </span>
  );
}
