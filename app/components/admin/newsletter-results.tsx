import { useEffect } from "react";
import { useRevalidator } from "react-router";
import type { NewsletterResults } from "~/services/newsletter/results.server";

const FIGURES: { key: keyof NewsletterResults; label: string }[] = [
  { key: "planned", label: "Planned" },
  { key: "sent", label: "Sent" },
  { key: "failed", label: "Failed" },
  { key: "skipped", label: "Skipped" },
  { key: "bounced", label: "Bounced" },
  { key: "complained", label: "Complained" },
  { key: "unsubscribed", label: "Unsubscribed" },
  { key: "clicks", label: "Clicks" },
  { key: "uniqueClickers", label: "Unique clickers" },
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
            {live ? ` · ${results.currentRate} per second` : ""}
          </span>
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
