import { data, Form, Link } from "react-router";
import type { Route } from "./+types/admin-analytics";
import { ADMIN_ROLE } from "~/auth/auth.server";
import { requireEditor } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { pageMeta } from "~/lib/route-meta";
import { ANALYTICS_TEXTS as T } from "~/lib/analytics-texts";
import { analyticsFigures } from "~/services/analytics/figures.server";
import type { FigureLink } from "~/services/analytics/figure-links";
import { LEAD_KEY_COLUMNS, OFFER_TABLES, SIGN_UP_FIGURE_COLUMNS, SIGN_UP_TABLES, type ReportTable } from "~/services/analytics/report-tables";
import { AnalyticsChart } from "~/components/admin/analytics-chart";
import { AnalyticsLive } from "~/components/admin/analytics-live";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireEditor(request);
  const admin = user.role === ADMIN_ROLE;
  const result = await analyticsFigures(await getDb(), new URL(request.url).searchParams, { admin, timeZone: getEnv().ANALYTICS_TIME_ZONE, flushSeconds: getEnv().ANALYTICS_FLUSH_SECONDS });
  if (!result.ok) throw data({ message: `${T.badRange}: ${result.error}` }, { status: 400 });
  return result.figures;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: T.title, description: T.description, path: "/admin/analytics", noindex: true });

const number = new Intl.NumberFormat("en-US");

export default function AdminAnalytics({ loaderData }: Route.ComponentProps) {
  const { range, tables } = loaderData;
  const query = `from=${range.from}&to=${range.to}`;
  return (
    <section aria-labelledby="analytics-heading">
      <h1 id="analytics-heading" className="text-3xl font-extrabold text-primary">
        {T.title}
      </h1>
      <p className="mt-2 text-muted-foreground">{T.intro}</p>
      <AnalyticsLive initial={loaderData.live} reloadHref={`/admin/analytics?${query}#analytics-live-heading`} />
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <fieldset className="flex flex-wrap items-end gap-3">
          <legend className="sr-only">{T.range.legend}</legend>
          <label className="text-sm font-semibold">
            {T.range.from}
            <input type="date" name="from" defaultValue={range.from} className="mt-1 block rounded-md border border-input bg-background px-3 py-2" />
          </label>
          <label className="text-sm font-semibold">
            {T.range.to}
            <input type="date" name="to" defaultValue={range.to} className="mt-1 block rounded-md border border-input bg-background px-3 py-2" />
          </label>
        </fieldset>
        <button type="submit" className="rounded-md bg-primary px-4 py-2 font-semibold text-primary-foreground">
          {T.range.submit}
        </button>
      </Form>
      <dl className="mt-6 grid gap-4 sm:grid-cols-2">
        <div className="rounded-lg border border-border p-4">
          <dt className="text-sm font-semibold text-muted-foreground">{T.views}</dt>
          <dd className="mt-1 text-3xl font-extrabold text-primary" data-testid="analytics-views">
            {number.format(loaderData.views)}
          </dd>
          <dd className="mt-1 text-sm text-muted-foreground" data-testid="analytics-views-previous">
            {T.previous(loaderData.previous.views, loaderData.views, loaderData.previous.range.from, loaderData.previous.range.to)}
          </dd>
        </div>
        <div className="rounded-lg border border-border p-4">
          <dt className="text-sm font-semibold text-muted-foreground">{T.averageDailyVisitors}</dt>
          <dd className="mt-1 text-3xl font-extrabold text-primary" data-testid="analytics-visitors">
            {number.format(loaderData.averageDailyVisitors)}
          </dd>
          <dd className="mt-1 text-sm text-muted-foreground" data-testid="analytics-visitors-previous">
            {T.previous(loaderData.previous.averageDailyVisitors, loaderData.averageDailyVisitors, loaderData.previous.range.from, loaderData.previous.range.to)}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-sm text-muted-foreground">{T.visitorsNote}</p>
      {loaderData.admin ? <p className="mt-1 text-sm text-muted-foreground">{T.humansBeside(loaderData.views, loaderData.excluded)}</p> : null}
      <AnalyticsChart days={loaderData.days} />
      <p className="mt-4 rounded-md border border-border bg-muted p-3 text-sm" data-testid="analytics-not-seen">
        {T.notSeen}
      </p>
      <div className="mt-6 grid gap-8 lg:grid-cols-2">
        {tables
          .filter(({ table }) => !SIGN_UP_TABLES.has(table) && !OFFER_TABLES.has(table) && table !== "leads" && table !== "linkClicks")
          .map(({ table, columns, rows }) => (
            <FiguresTable key={table} table={table} columns={columns} rows={rows} csv={`/admin/analytics.csv?table=${table}&${query}`} />
          ))}
      </div>
      <div className="mt-10">
        <h2 id="analytics-sign-ups" className="text-2xl font-bold text-primary">
          {T.signUpsHeading}
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">{T.signUpsNote}</p>
        <div className="mt-4 grid gap-8">
          {tables
            .filter(({ table }) => SIGN_UP_TABLES.has(table))
            .map(({ table, columns, rows, links }) => (
              <FiguresTable key={table} table={table} columns={columns} rows={rows} links={links} csv={`/admin/analytics.csv?table=${table}&${query}`} />
            ))}
        </div>
      </div>
      {loaderData.admin ? (
        <div className="mt-10">
          <h2 id="analytics-offer" className="text-2xl font-bold text-primary">
            {T.offerHeading}
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">{T.offerNote}</p>
          <div className="mt-4 grid gap-8 lg:grid-cols-2">
            {tables
              .filter(({ table }) => OFFER_TABLES.has(table))
              .map(({ table, columns, rows }) => (
                <FiguresTable key={table} table={table} columns={columns} rows={rows} csv={`/admin/analytics.csv?table=${table}&${query}`} />
              ))}
          </div>
        </div>
      ) : null}
      {tables
        .filter(({ table }) => table === "linkClicks")
        .map(({ table, columns, rows }) => (
          <div key={table} className="mt-10">
            <h2 id="analytics-link-clicks" className="text-2xl font-bold text-primary">
              {T.linkClicksHeading}
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">{T.linkClicksNote}</p>
            <div className="mt-4">
              <FiguresTable table={table} columns={columns} rows={rows} csv={`/admin/analytics.csv?table=${table}&${query}`} />
            </div>
          </div>
        ))}
      {tables
        .filter(({ table }) => table === "leads")
        .map(({ table, columns, rows, links }) => (
          <div key={table} className="mt-10">
            <h2 id="analytics-leads" className="text-2xl font-bold text-primary">
              {T.leadsHeading}
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">{T.leadsNote}</p>
            <p className="mt-2 text-sm">
              <Link to={`/admin/analytics/costs?${query}`} className="font-semibold underline">
                {T.leads.costs}
              </Link>
            </p>
            <div className="mt-4">
              <FiguresTable table={table} columns={columns} rows={rows} links={links} csv={`/admin/analytics.csv?table=${table}&${query}`} />
            </div>
          </div>
        ))}
    </section>
  );
}

/** Figures are right-aligned, their headers with them. */
function numericColumn(table: ReportTable, index: number, count: number) {
  if (SIGN_UP_TABLES.has(table)) return index >= count - SIGN_UP_FIGURE_COLUMNS;
  if (table === "offerClicksBySource" || table === "offerClicksBySubId") return index >= count - 2;
  if (table === "leads") return index >= LEAD_KEY_COLUMNS;
  if (table === "linkClicks") return index >= 2;
  return index === count - 1 || ((table === "pages" || table === "days") && index > 0);
}

function FiguresTable({ table, columns, rows, links, csv }: { table: ReportTable; columns: readonly string[]; rows: (string | number)[][]; links?: (FigureLink | null)[][]; csv: string }) {
  const caption = T.tables[table].caption;
  return (
    <div className="overflow-x-auto" data-testid={`analytics-${table}`}>
      <table className="w-full text-left text-sm">
        <caption className="pb-2 text-left text-lg font-bold text-primary">
          {caption}{" "}
          <Link to={csv} reloadDocument className="ml-2 text-sm font-semibold underline" aria-label={`${caption}: ${T.csv}`}>
            {T.csv}
          </Link>
        </caption>
        <thead>
          <tr className="border-b border-border">
            {columns.map((column, index) => (
              <th key={column} scope="col" className={numericColumn(table, index, columns.length) ? "py-2 pr-2 text-right" : "py-2 pr-2"}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="py-2 text-muted-foreground">
                {T.none}
              </td>
            </tr>
          ) : (
            rows.map((row, rowIndex) => (
              <tr key={rowIndex} className="border-t border-border">
                {row.map((cell, index) => {
                  const text = typeof cell === "number" ? number.format(cell) : cell;
                  // A count of sign-ups opens the list it counts (decision 157); its name says so, starting with the number shown.
                  const link = links?.[rowIndex]?.[index];
                  return (
                    <td key={index} className={typeof cell === "number" || numericColumn(table, index, row.length) ? "py-1 pr-2 text-right tabular-nums" : "py-1 pr-2 break-all"}>
                      {link ? (
                        <Link to={link.href} aria-label={link.label} className="font-semibold underline">
                          {text}
                        </Link>
                      ) : (
                        text
                      )}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
