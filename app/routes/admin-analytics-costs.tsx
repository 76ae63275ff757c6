import { data, Form, Link } from "react-router";
import type { Route } from "./+types/admin-analytics-costs";
import { requireAdmin } from "~/auth/guards.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { getEnv } from "~/http/env.server";
import { readTextUpload } from "~/http/text-upload.server";
import { AD_COST_TEXTS as T } from "~/lib/ad-cost-texts";
import type { Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { COST_CSV_COLUMNS, formatCents, readCost } from "~/services/analytics/ad-costs";
import { parseCostCsv, type CostRefusal } from "~/services/analytics/ad-cost-csv.server";
import { deleteCost, listCosts, setCosts } from "~/services/analytics/ad-costs.server";
import { LEAD_SUB_ID } from "~/services/analytics/lead-gen";
import { parseRange } from "~/services/analytics/reports.server";
import { createSiteClock } from "~/services/analytics/site-clock";

/** Cost files are days × sources × campaigns: a few hundred KB at most. */
const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
const SHOWN_REFUSALS = 500;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const today = createSiteClock(getEnv().ANALYTICS_TIME_ZONE)().day;
  const parsed = parseRange(new URL(request.url).searchParams, today);
  if (!parsed.ok) throw data({ message: parsed.error }, { status: 400 });
  const costs = await listCosts(await getDb(), parsed.range);
  return {
    today,
    range: parsed.range,
    subParam: LEAD_SUB_ID,
    columns: COST_CSV_COLUMNS,
    costs: costs.map((cost) => ({ ...cost, amount: formatCents(cost.amountCents) })),
    total: formatCents(costs.reduce((sum, cost) => sum + cost.amountCents, 0)),
  };
}

type Answer = { notice: Notice; refused?: CostRefusal[]; refusedCount?: number };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  const db = await getDb();
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const upload = await readTextUpload(request, IMPORT_MAX_BYTES, "Choose a CSV file.");
    if (!upload.ok) return data<Answer>({ notice: T.notices.notImported(upload.message) }, { status: upload.status });
    const parsed = parseCostCsv(upload.text);
    if (!parsed.ok) return data<Answer>({ notice: T.notices.notImported(parsed.message) }, { status: 400 });
    if (parsed.refused.length > 0) {
      return data<Answer>(
        { notice: T.notices.notImported(T.notices.linesRefused(parsed.refused.length)), refused: parsed.refused.slice(0, SHOWN_REFUSALS), refusedCount: parsed.refused.length },
        { status: 400 },
      );
    }
    const { changed } = await setCosts(db, parsed.entries, user.email, "ad_cost.import");
    return data<Answer>({ notice: T.notices.imported(parsed.entries.length, changed) });
  }
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  if (form.intent === "delete") {
    const key = readCost({ ...form, amount: "0" });
    if (!key.ok) return data<Answer>({ notice: T.notices.refused(key.reason) }, { status: 400 });
    const removed = await deleteCost(db, key.entry, user.email);
    return data<Answer>({ notice: removed ? T.notices.removed : T.notices.notFound }, { status: removed ? 200 : 404 });
  }
  const read = readCost(form);
  if (!read.ok) return data<Answer>({ notice: T.notices.refused(read.reason) }, { status: 400 });
  const { changed } = await setCosts(db, [read.entry], user.email);
  return data<Answer>({ notice: changed ? T.notices.saved(formatCents(read.entry.amountCents), read.entry.source, read.entry.day) : T.notices.unchanged });
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: T.title, description: T.description, path: "/admin/analytics/costs", noindex: true });

export default function AdminAnalyticsCosts({ loaderData, actionData }: Route.ComponentProps) {
  const { range, costs } = loaderData;
  const answer = actionData && "notice" in actionData ? actionData : undefined;
  return (
    <section aria-labelledby="costs-heading" className="space-y-8">
      <p>
        <Link to={`/admin/analytics?from=${range.from}&to=${range.to}`} className="text-sm font-semibold text-primary underline">
          {T.back}
        </Link>
      </p>
      <h1 id="costs-heading" className="text-3xl font-extrabold text-primary">
        {T.title}
      </h1>
      <p className="max-w-3xl text-muted-foreground">{T.intro}</p>
      {answer ? <NoticeBanner notice={answer.notice} /> : null}
      {answer?.refused && answer.refused.length > 0 ? (
        <Card className="p-6" data-testid="costs-refused">
          <h2 className="text-lg font-bold text-primary">{T.refusedHeading(answer.refusedCount ?? answer.refused.length)}</h2>
          <div className="mt-4 overflow-x-auto" role="region" aria-label={T.refusedHeading(answer.refusedCount ?? answer.refused.length)} tabIndex={0}>
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-border">
                  {T.refusedColumns.map((column) => (
                    <th key={column} scope="col" className="py-2 pr-2">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {answer.refused.map((refusal) => (
                  <tr key={refusal.line} className="border-t border-border">
                    <td className="py-1 pr-2 tabular-nums">{refusal.line}</td>
                    <td className="py-1 pr-2">{refusal.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-6">
          <Form method="post" className="space-y-4">
            <fieldset className="space-y-4">
              <legend className="text-lg font-bold text-primary">{T.form.legend}</legend>
              <Field label={T.form.day} name="day" type="date" required defaultValue={loaderData.today} />
              <Field label={T.form.source} name="source" required maxLength={100} autoComplete="off" />
              <Field label={T.form.campaign} name="campaign" maxLength={100} autoComplete="off" />
              <Field label={T.form.subId(loaderData.subParam)} name="subId" maxLength={100} autoComplete="off" />
              <Field label={T.form.amount} name="amount" required inputMode="decimal" pattern="\$?\s*[0-9,]+(\.[0-9]{1,2})?" autoComplete="off" />
            </fieldset>
            <Button type="submit" name="intent" value="set">
              {T.form.submit}
            </Button>
          </Form>
        </Card>
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">{T.importHeading}</h2>
          <p className="mt-2 text-sm text-muted-foreground">{T.importIntro(loaderData.columns.join(", "))}</p>
          <Form method="post" encType="multipart/form-data" className="mt-4 space-y-4">
            <div>
              <label htmlFor="costs-file" className="mb-1.5 block text-sm font-semibold">
                {T.file}
              </label>
              <input id="costs-file" name="file" type="file" accept=".csv,text/csv" required className="block w-full text-sm" />
            </div>
            <Button type="submit">{T.importSubmit}</Button>
          </Form>
        </Card>
      </div>
      <div className="overflow-x-auto" data-testid="costs-list">
        <table className="w-full text-left text-sm">
          <caption className="pb-2 text-left text-lg font-bold text-primary">{T.listHeading(range.from, range.to)}</caption>
          <thead>
            <tr className="border-b border-border">
              {T.columns.map((column, index) => (
                <th key={index} scope="col" className={index === 4 ? "py-2 pr-2 text-right" : "py-2 pr-2"}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {costs.length === 0 ? (
              <tr>
                <td colSpan={T.columns.length} className="py-2 text-muted-foreground">
                  {T.none}
                </td>
              </tr>
            ) : (
              costs.map((cost) => (
                <tr key={`${cost.day}|${cost.source}|${cost.campaign}|${cost.subId}`} className="border-t border-border">
                  <td className="py-1 pr-2">{cost.day}</td>
                  <td className="py-1 pr-2 break-all">{cost.source}</td>
                  <td className="py-1 pr-2 break-all">{cost.campaign}</td>
                  <td className="py-1 pr-2 break-all">{cost.subId}</td>
                  <td className="py-1 pr-2 text-right tabular-nums">{cost.amount}</td>
                  <td className="py-1 pr-2">
                    <Form method="post">
                      <input type="hidden" name="day" value={cost.day} />
                      <input type="hidden" name="source" value={cost.source} />
                      <input type="hidden" name="campaign" value={cost.campaign} />
                      <input type="hidden" name="subId" value={cost.subId} />
                      <button type="submit" name="intent" value="delete" className="text-sm font-semibold underline" aria-label={T.removeLabel(cost.day, cost.source)}>
                        {T.remove}
                      </button>
                    </Form>
                  </td>
                </tr>
              ))
            )}
          </tbody>
          {costs.length > 0 ? (
            <tfoot>
              <tr className="border-t-2 border-border font-semibold">
                <th scope="row" colSpan={4} className="py-1 pr-2">
                  {T.total}
                </th>
                <td className="py-1 pr-2 text-right tabular-nums">{loaderData.total}</td>
                <td />
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>
    </section>
  );
}
