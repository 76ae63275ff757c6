import { useEffect } from "react";
import { useRevalidator } from "react-router";
import type { NewsletterResults } from "~/services/newsletter/results.server";
import { CLICK_FIGURES } from "~/lib/click-texts";
import { MachineFetches } from "./machine-fetches";
import { SendRate } from "./send-rate";

/** Each figure with its one definition, shown under the figures. */
const FIGURES: { key: keyof NewsletterResults; label: string; counts: string }[] = [
  { key: "planned", label: "Planned", counts: "copies planned: the confirmed subscribers when the issue started" },
  { key: "sent", label: "Sent", counts: "copies the mail server accepted" },
  { key: "failed", label: "Failed", counts: "copies that did not go out: refused by the mail server (hard bounces included), or given up after retries" },
  { key: "skipped", label: "Skipped", counts: "copies not sent because the person left or was suppressed before their copy" },
  { key: "bounced", label: "Bounced", counts: "addresses whose mailbox does not exist: refused when sending (also under Failed), or reported by the provider within 7 days of their copy" },
  { key: "complained", label: "Complained", counts: "people who reported their copy as spam within 7 days" },
  { key: "unsubscribed", label: "Unsubscribed", counts: "people who unsubscribed within 7 days of their copy" },
  { key: "clicks", ...CLICK_FIGURES.clicks },
  { key: "uniqueClickers", ...CLICK_FIGURES.uniqueClickers },
  { key: "machineFetches", ...CLICK_FIGURES.machineFetches },
];

/** The figures of one issue; while it sends, the page refreshes them every few seconds. */
export function NewsletterResultsPanel({ results, live }: { results: NewsletterResults; live: boolean }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [live, revalidator]);
  const done = results.sent + results.failed + results.skipped + results.cancelled;
  return (
    <div className="space-y-4">
      <div>
        <div className="flex justify-between text-sm">
          <label htmlFor="newsletter-progress">Progress</label>
          <span data-testid="newsletter-progress-text">
            {done.toLocaleString("en-US")} of {results.planned.toLocaleString("en-US")}
          </span>
        </div>
        <div className="mt-1 text-sm text-muted-foreground">
          <SendRate rate={results.rate} sending={live} unit="e-mails" />
        </div>
        <progress id="newsletter-progress" className="mt-1 h-3 w-full" max={Math.max(1, results.planned)} value={done} />
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {FIGURES.map(({ key, label }) => (
          <div key={key} className="rounded-md border border-border p-3">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-2xl font-extrabold" data-testid={`result-${key}`}>
              {Number(results[key]).toLocaleString("en-US")}
            </dd>
          </div>
        ))}
      </dl>
      <details className="text-sm">
        <summary className="cursor-pointer font-semibold">What each figure counts</summary>
        <dl className="mt-2 space-y-1">
          {FIGURES.map(({ key, label, counts }) => (
            <div key={key}>
              <dt className="inline font-semibold">{label}: </dt>
              <dd className="inline">{counts}.</dd>
            </div>
          ))}
        </dl>
      </details>
      <MachineFetches counts={results} />
      {[...results.failedReasons, ...results.skippedReasons].length > 0 ? (
        <ul className="list-disc pl-5 text-sm">
          {[...results.failedReasons, ...results.skippedReasons].map((reason) => (
            <li key={reason.reason}>
              {reason.label}: {reason.count.toLocaleString("en-US")}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
