import { useEffect, useState } from "react";
import { data, Form, redirect, useRevalidator } from "react-router";
import type { Route } from "./+types/admin-import-run";
import { requireAdmin } from "~/auth/guards.server";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { ARTICLE_CATEGORIES } from "~/config/categories";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { IMPORT_PAGE_TEXTS as T } from "~/lib/import-texts";
import type { Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { summaryLines } from "~/services/import/import-report";
import { importQueued } from "~/services/import/import-worker.server";
import { mappingFromForm } from "~/services/import/mapping-form";
import { cancelRun, confirmRun, countReportLines, getRun, reportLinesOf } from "~/services/import/runs.server";

/** Lines of the report shown on the page; the CSV has them all. */
const SHOWN_LINES = 100;

function runIdOf(params: { id?: string }) {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw data(T.notFound, { status: 404 });
  return id;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = await getDb();
  const run = await getRun(db, runIdOf(params));
  if (!run) throw data(T.notFound, { status: 404 });
  const phase = run.status === "reviewing" || run.status === "uploaded" || run.status === "cancelled" ? ("dry-run" as const) : ("import" as const);
  const [lines, lineCount] = await Promise.all([reportLinesOf(db, run.id, phase, { limit: SHOWN_LINES, offset: 0 }), countReportLines(db, run.id, phase)]);
  return {
    run: {
      id: run.id,
      kind: run.kind,
      fileName: run.fileName,
      status: run.status,
      itemsDone: run.itemsDone,
      itemsTotal: run.itemsTotal,
      created: run.created,
      updated: run.updated,
      unchanged: run.unchanged,
      keptEdited: run.keptEdited,
      skipped: run.skipped,
      error: run.error,
      options: run.options,
    },
    summary: run.dryRun ? summaryLines(run.dryRun, run.kind === "ghost" ? "Ghost export" : "WordPress export") : null,
    categories: run.dryRun?.categories ?? [],
    phase,
    lines: lines.map((line) => ({ id: line.id, item: line.item, oldUrl: line.oldUrl, outcome: line.outcome, reason: line.reason })),
    lineCount,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  const id = runIdOf(params);
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const db = await getDb();
  const fail = (description: string, status = 400) => data<{ notice: Notice }>({ notice: { title: T.notStarted, description, variant: "error" } }, { status });
  if (body.form.intent === "cancel") {
    if (!(await cancelRun(db, id, user.email))) return fail(T.wrongState, 409);
    throw redirect("/admin/import", 303);
  }
  const run = await getRun(db, id);
  if (!run) return fail(T.notFound, 404);
  const mapping = mappingFromForm(body.form, run.dryRun?.categories ?? []);
  if (!mapping.ok) return fail(mapping.message);
  const confirmed = await confirmRun(db, id, mapping.options, user.email);
  if (!confirmed.ok) return confirmed.problem === "unmapped" ? fail(T.unmapped(confirmed.unmapped ?? [])) : fail(confirmed.problem === "not_found" ? T.notFound : T.wrongState, confirmed.problem === "not_found" ? 404 : 409);
  importQueued();
  throw redirect(`/admin/import/${id}`, 303);
}

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, { title: T.title, description: T.intro, path: `/admin/import/${params.id}`, noindex: true });

type Progress = { status: string; itemsDone: number; itemsTotal: number };
const WORKING = new Set(["uploaded", "queued", "running"]);

/** While the job works, its progress is read every second; the page's data once it is over. */
function useRunProgress(run: Progress & { id: number }): Progress {
  const revalidator = useRevalidator();
  const [progress, setProgress] = useState<Progress>(run);
  const [seen, setSeen] = useState(run);
  if (seen !== run) {
    setSeen(run);
    setProgress(run);
  }
  const working = WORKING.has(progress.status);
  useEffect(() => {
    if (!working) return;
    let stopped = false;
    const timer = setInterval(async () => {
      const response = await fetch(`/admin/import/${run.id}/progress.json`, { headers: { Accept: "application/json" } }).catch(() => null);
      if (stopped || !response?.ok) return;
      const next = (await response.json()) as Progress;
      if (stopped) return;
      setProgress(next);
      if (!WORKING.has(next.status)) void revalidator.revalidate();
    }, 1_000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [run.id, working, revalidator]);
  return progress;
}

const selectClass = "block w-full rounded-md border border-input bg-background px-3 py-2 text-base";

export default function AdminImportRun({ loaderData, actionData }: Route.ComponentProps) {
  const { run, summary, categories, lines, lineCount, phase } = loaderData;
  const progress = useRunProgress(run);
  const percent = progress.itemsTotal > 0 ? Math.min(100, Math.round((progress.itemsDone / progress.itemsTotal) * 100)) : 0;
  return (
    <section aria-labelledby="import-run-heading" className="space-y-6">
      <h1 id="import-run-heading" className="text-3xl font-extrabold text-primary">
        {run.fileName}
      </h1>
      <p className="text-muted-foreground" data-testid="import-status">
        {run.kind === "ghost" ? "Ghost" : "WordPress"} · {T.status[progress.status] ?? progress.status}
      </p>
      {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} /> : null}
      {progress.status === "uploaded" ? (
        <Card className="p-6">
          <p aria-live="polite">{T.reading}</p>
          <a href={`/admin/import/${run.id}`} className="mt-2 inline-block underline">
            {T.refresh}
          </a>
        </Card>
      ) : null}
      {summary ? (
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">{T.dryRunHeading}</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
            {summary.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </Card>
      ) : null}
      {run.status === "reviewing" ? (
        <Card className="max-w-3xl p-6">
          <h2 className="text-lg font-bold text-primary">{T.mappingHeading}</h2>
          <p className="mt-1 text-sm text-muted-foreground">{T.mappingIntro}</p>
          <Form method="post" className="mt-4 space-y-4">
            {categories.map((category, index) => (
              <div key={category.slug || "none"}>
                <label htmlFor={`map-${index}`} className="mb-1 block text-sm font-semibold">
                  {category.name} ({category.posts.toLocaleString("en-US")} {category.posts === 1 ? "post" : "posts"})
                </label>
                <select id={`map-${index}`} name={`map:${category.slug}`} defaultValue={run.options.categories[category.slug] ?? ""} className={selectClass}>
                  <option value="">{T.toDefault}</option>
                  {ARTICLE_CATEGORIES.map((ours) => (
                    <option key={ours.slug} value={ours.name}>
                      {ours.name}
                    </option>
                  ))}
                </select>
              </div>
            ))}
            <div>
              <label htmlFor="default-category" className="mb-1 block text-sm font-semibold">
                {T.defaultLabel}
              </label>
              <select id="default-category" name="defaultCategory" defaultValue={run.options.defaultCategory || ARTICLE_CATEGORIES[0].name} className={selectClass}>
                {ARTICLE_CATEGORIES.map((ours) => (
                  <option key={ours.slug} value={ours.name}>
                    {ours.name}
                  </option>
                ))}
              </select>
            </div>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="overwriteEdited" value="yes" /> {T.overwriteLabel}
            </label>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" name="intent" value="confirm">
                {T.start}
              </Button>
              <Button type="submit" name="intent" value="cancel" variant="outline">
                {T.cancel}
              </Button>
            </div>
          </Form>
        </Card>
      ) : null}
      {progress.status === "queued" || progress.status === "running" ? (
        <Card className="p-6">
          <label htmlFor="import-progress" className="block text-sm font-semibold">
            {T.progressLabel(progress.itemsDone, progress.itemsTotal)}
          </label>
          <progress id="import-progress" max={100} value={percent} className="mt-2 h-3 w-full">
            {percent}%
          </progress>
          <p className="mt-1 text-sm text-muted-foreground" aria-live="polite">
            {percent}% · <a href={`/admin/import/${run.id}`} className="underline">{T.refresh}</a>
          </p>
        </Card>
      ) : null}
      {run.status === "done" ? (
        <p role="status" className="text-sm" data-testid="import-done">
          {T.counts(run)}
        </p>
      ) : null}
      {run.status === "failed" ? (
        <p role="alert" className="text-sm text-destructive">
          {run.error}
        </p>
      ) : null}
      {lineCount > 0 ? (
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">{phase === "dry-run" ? T.dryRunReportHeading(lineCount) : T.reportHeading(lineCount)}</h2>
          <p className="mt-1 text-sm">
            <a href={`/admin/import/${run.id}/report.csv?phase=${phase}`} className="underline">
              {T.reportCsv}
            </a>
            {lineCount > lines.length ? ` ${T.reportShown(lines.length, lineCount)}` : null}
          </p>
          <div className="mt-4 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b">
                  <th scope="col" className="py-2 pr-4">{T.reportColumns.item}</th>
                  <th scope="col" className="py-2 pr-4">{T.reportColumns.oldUrl}</th>
                  <th scope="col" className="py-2 pr-4">{T.reportColumns.outcome}</th>
                  <th scope="col" className="py-2">{T.reportColumns.reason}</th>
                </tr>
              </thead>
              <tbody>
                {lines.map((line) => (
                  <tr key={line.id} className="border-b align-top last:border-0">
                    <td className="py-2 pr-4">{line.item}</td>
                    <td className="break-all py-2 pr-4">{line.oldUrl}</td>
                    <td className="py-2 pr-4">{line.outcome}</td>
                    <td className="py-2">{line.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
    </section>
  );
}
