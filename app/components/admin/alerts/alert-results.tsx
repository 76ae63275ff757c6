import { useEffect } from "react";
import { Form, useRevalidator } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import type { AlertResultsData } from "~/routes/admin-alert";
import { CLICK_FIGURES } from "~/lib/click-texts";
import { MachineFetches } from "../machine-fetches";
import { SendRate } from "../send-rate";
import { usd } from "./alert-format";

const STATUS_LABEL: Record<string, string> = {
  scheduled: "Scheduled",
  sending: "Sending",
  paused: "Paused",
  completed: "Completed",
  cancelled: "Cancelled",
};

export function AlertResults({ data: loaderData, banner }: { data: AlertResultsData; banner: React.ReactNode }) {
  const { campaign, results } = loaderData;
  const revalidator = useRevalidator();
  const live = campaign.status === "sending" || campaign.status === "scheduled";
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [live, revalidator]);
  const done = results.planned - results.queued - results.waiting - results.sending;
  const percent = results.planned ? Math.round((done / results.planned) * 100) : campaign.status === "completed" ? 100 : 0;
  const stats: [string, string | number, string][] = [
    ["Planned", results.planned, "planned"],
    ["Sent", results.sent, "sent"],
    ["Delivered", results.delivered, "delivered"],
    ["Failed", results.failed, "failed"],
    ["Skipped", results.skipped, "skipped"],
    ["Waiting for allowed hours", results.waiting, "waiting"],
    ["Opt-outs within 7 days", results.optOuts, "opt-outs"],
    [CLICK_FIGURES.clicks.label, results.clicks, "clicks"],
    [CLICK_FIGURES.uniqueClickers.label, results.uniqueClickers, "clickers"],
    [CLICK_FIGURES.machineFetches.label, results.machineFetches, "machine-fetches"],
    ["Cost", usd(results.cost), "cost"],
  ];
  const controls: { intent: string; label: string; show: boolean }[] = [
    { intent: "pause", label: "Pause", show: campaign.status === "sending" },
    { intent: "resume", label: "Resume", show: campaign.status === "paused" },
    { intent: "unschedule", label: "Back to draft", show: campaign.status === "scheduled" },
    { intent: "cancel", label: "Cancel alert", show: ["scheduled", "sending", "paused"].includes(campaign.status) },
  ];
  return (
    <section aria-labelledby="results-heading" className="space-y-6">
      {banner}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="results-heading" className="text-3xl font-extrabold text-primary">
            Alert: {campaign.name}
          </h1>
          <p className="mt-2 text-muted-foreground">
            <a href="/admin/alerts" className="underline">
              All alerts
            </a>{" "}
            · <span data-testid="campaign-status">{STATUS_LABEL[campaign.status] ?? campaign.status}</span>
            {campaign.scheduled ? ` · starts ${campaign.scheduled}` : ""}
          </p>
        </div>
        <a href={`/admin/alerts/${campaign.id}/recipients.csv`} className={buttonVariants({ variant: "navy", size: "sm" })} download>
          Export CSV
        </a>
      </div>
      <Card className="p-6">
        <div className="flex items-center justify-between text-sm">
          <span id="progress-label">Progress</span>
          <SendRate rate={results.rate} sending={campaign.status === "sending"} unit="texts" />
        </div>
        <div className="mt-2 h-3 w-full rounded bg-muted" role="progressbar" aria-labelledby="progress-label" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
          <div className="h-3 rounded bg-accent" style={{ width: `${percent}%` }} />
        </div>
        <dl className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-5">
          {stats.map(([label, value, id]) => (
            <div key={id}>
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="text-xl font-bold" data-testid={`stat-${id}`}>
                {typeof value === "number" ? value.toLocaleString("en-US") : value}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-sm text-muted-foreground">
          {CLICK_FIGURES.clicks.label}: {CLICK_FIGURES.clicks.counts}.
        </p>
        <div className="mt-4">
          <MachineFetches counts={results} />
        </div>
      </Card>
      <div className="grid gap-6 md:grid-cols-2">
        <ReasonList title="Failed, by reason" rows={results.failedReasons} />
        <ReasonList title="Skipped, by reason" rows={results.skippedReasons} />
      </div>
      <Card className="p-6">
        <h2 className="text-lg font-bold text-primary">Message as sent</h2>
        <p className="mt-2 whitespace-pre-wrap font-mono text-sm">{campaign.sendBody ?? campaign.body}</p>
      </Card>
      {controls.some((control) => control.show) ? (
        <div className="flex flex-wrap gap-3">
          {controls
            .filter((control) => control.show)
            .map((control) => (
              <Form method="post" key={control.intent}>
                <input type="hidden" name="intent" value={control.intent} />
                <Button type="submit" variant={control.intent === "cancel" ? "outline" : "navy"}>
                  {control.label}
                </Button>
              </Form>
            ))}
        </div>
      ) : null}
    </section>
  );
}

function ReasonList({ title, rows }: { title: string; rows: { reason: string; label: string; count: number }[] }) {
  return (
    <Card className="p-6">
      <h2 className="text-lg font-bold text-primary">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">None.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm">
          {rows.map((row) => (
            <li key={row.reason} className="flex justify-between gap-4">
              <span>{row.label}</span>
              <strong>{row.count.toLocaleString("en-US")}</strong>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
