import { data, Form, Link } from "react-router";
import { Pager } from "~/components/admin/pager";
import type { Route } from "./+types/admin-subscribers";
import { requireAdmin } from "~/auth/guards.server";
import { pageParam } from "~/http/page-param";
import { OptInChart } from "~/components/admin/opt-in-chart";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { getDb } from "~/db/database.server";
import { CERTIFICATE_TEXTS } from "~/lib/consent-evidence-texts";
import { pageMeta } from "~/lib/route-meta";
import { consentHistory, listSubscribers, optInsPerDay, PAGE_SIZE, subscriberCounts } from "~/services/admin/reports.server";
import { describePostback, postbackStates } from "~/services/admin/postbacks.server";
import { listSignUps } from "~/services/admin/sign-up-list.server";
import { getEnv } from "~/http/env.server";
import { SIGN_UP_FILTER_TEXTS as F } from "~/lib/sign-up-filter-texts";
import { isFiltered, signUpFilterParams } from "~/services/analytics/sign-up-filter";
import { parseSignUpFilter } from "~/services/analytics/sign-up-filter.server";
import { createSiteClock } from "~/services/analytics/site-clock";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const search = url.searchParams.get("q")?.slice(0, 100) ?? "";
  const page = pageParam(request);
  const selected = url.searchParams.get("id");
  const timeZone = getEnv().ANALYTICS_TIME_ZONE;
  // The sign-ups a figure of /admin/analytics counts (decision 157); a bad filter is refused, never widened.
  const parsed = parseSignUpFilter(url.searchParams, createSiteClock(timeZone)().day);
  const filter = parsed.ok ? parsed.filter : {};
  const filtered = parsed.ok && isFiltered(filter);
  const db = await getDb();
  const [counts, perDay, list, history] = await Promise.all([
    subscriberCounts(db),
    optInsPerDay(db, 90),
    !parsed.ok
      ? Promise.resolve({ rows: [], total: 0 })
      : filtered
        ? listSignUps(db, filter, { search, page, timeZone, now: new Date() })
        : listSubscribers(db, { search, page }).then((found) => ({ ...found, rows: found.rows.map((row) => ({ ...row, signUpId: null, signedUpAt: null })) })),
    selected && /^[0-9a-f-]{36}$/.test(selected) ? consentHistory(db, selected) : Promise.resolve(null),
  ]);
  const postbacks = await postbackStates(db, [...new Set(list.rows.map((row) => row.id))]);
  return data(
    {
      counts,
      perDay,
      search,
      page,
      filter,
      filterParams: signUpFilterParams(filter),
      filtered,
      filterError: parsed.ok ? null : parsed.error,
      pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
      total: list.total,
      rows: list.rows.map((row) => ({
        ...row,
        key: row.signUpId === null ? row.id : `sign-up-${row.signUpId}`,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        signedUpAt: row.signedUpAt?.toISOString() ?? null,
        confirmBy: row.confirmBy?.toISOString() ?? null,
        postback: describePostback(postbacks.get(row.id)),
      })),
      selected,
      history: history?.map((event) => ({ ...event, occurredAt: event.occurredAt.toISOString() })) ?? null,
    },
    { status: parsed.ok ? 200 : 400 },
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Subscribers", description: "Subscribers and consent records.", path: "/admin/subscribers", noindex: true });

export default function AdminSubscribers({ loaderData }: Route.ComponentProps) {
  const { counts, perDay, rows, search, page, pages, total, history, selected, filter, filterParams, filtered, filterError } = loaderData;
  const kept = { ...filterParams, ...(search ? { q: search } : {}) };
  const clear = search ? `/admin/subscribers?${new URLSearchParams({ q: search })}` : "/admin/subscribers";
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-extrabold text-primary">Subscribers</h1>
        <a href={filtered ? `/admin/subscribers.csv?${new URLSearchParams(filterParams)}` : "/admin/subscribers.csv"} className={buttonVariants({ variant: "navy", size: "sm" })} download>
          {filtered ? F.exportFiltered : "Export CSV"}
        </a>
      </div>
      <Card className="p-6">
        <h2 className="text-lg font-bold text-primary">By status and source</h2>
        <table className="mt-3 w-full text-sm">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th className="py-1">Channel</th>
              <th>Status</th>
              <th>Source</th>
              <th className="text-right">Count</th>
            </tr>
          </thead>
          <tbody>
            {counts.map((row) => (
              <tr key={`${row.channel}-${row.status}-${row.source}`} className="border-t border-border">
                <td className="py-1">{row.channel}</td>
                <td>{row.status}</td>
                <td>{row.source}</td>
                <td className="text-right font-semibold">{row.n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card className="p-6">
        <OptInChart days={perDay} />
      </Card>
      <section aria-labelledby="list-heading">
        <h2 id="list-heading" className="text-xl font-bold text-primary">
          {filtered ? F.heading(total) : `All subscribers (${total})`}
        </h2>
        {filterError ? (
          <div role="alert" className="mt-3 rounded-md border border-destructive p-3 text-sm" data-testid="sign-up-filter-error">
            <p className="font-semibold">{F.refused}</p>
            <p>{filterError}</p>
            <Link to={clear} className="font-semibold underline">
              {F.clear}
            </Link>
          </div>
        ) : null}
        {filtered ? (
          <div className="mt-3 rounded-md border border-border bg-muted p-3 text-sm" data-testid="sign-up-filter">
            <p>
              {F.showing(filter)}{" "}
              <Link to={clear} className="font-semibold underline">
                {F.clear}
              </Link>
            </p>
            <p className="mt-1 text-muted-foreground">{F.note}</p>
          </div>
        ) : null}
        <Form method="get" className="mt-3 flex gap-2" role="search">
          {Object.entries(filterParams).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <label htmlFor="q" className="sr-only">
            Search subscribers
          </label>
          <input id="q" name="q" defaultValue={search} placeholder="Name, phone, e-mail or click id" className="w-full max-w-md rounded-md border border-input px-3 py-2" />
          <button type="submit" className={buttonVariants({ size: "sm" })}>
            Search
          </button>
        </Form>
        <div className="mt-4 overflow-x-auto" tabIndex={0} role="region" aria-label="Subscribers table">
          <table className="stack-table w-full text-sm">
            <thead>
              <tr className="text-left text-muted-foreground">
                <th className="py-2 pr-3">Name</th>
                <th className="pr-3">Phone</th>
                <th className="pr-3">E-mail</th>
                <th className="pr-3">Status</th>
                <th className="pr-3">Source</th>
                <th className="pr-3">Click id</th>
                <th className="pr-3">Postback</th>
                <th className="pr-3">{filtered ? F.signedUp : "Date"}</th>
                <th>Consent</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} className="border-t border-border">
                  <td data-label="Name" className="py-2 pr-3">
                    {row.firstName} {row.lastName}
                  </td>
                  <td data-label="Phone" className="pr-3">{row.phoneE164}</td>
                  <td data-label="E-mail" className="pr-3">{row.email}</td>
                  <td data-label="Status" className="pr-3">{row.status}</td>
                  <td data-label="Source" className="pr-3">{row.source}</td>
                  <td data-label="Click id" className="pr-3">{row.clickId}</td>
                  <td data-label="Postback" className="pr-3">{row.postback}</td>
                  <td data-label={filtered ? F.signedUp : "Date"} className="pr-3">{(row.signedUpAt ?? row.createdAt).slice(0, 10)}</td>
                  <td data-label="Consent">
                    <Link to={`?${new URLSearchParams({ ...kept, page: String(page), id: row.id })}#history`} className="text-accent-strong underline">
                      History
                    </Link>{" "}
                    ·{" "}
                    <a href={`/admin/subscribers/${row.id}/consent`} className="text-accent-strong underline">
                      Certificate
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager page={page} pages={pages} params={kept} className="mt-4" />
      </section>
      {history ? (
        <section id="history" aria-labelledby="history-heading">
          <h2 id="history-heading" className="text-xl font-bold text-primary">
            Consent history
          </h2>
          <p className="text-xs text-muted-foreground">Subscriber {selected}</p>
          <ol className="mt-3 space-y-3">
            {history.map((event) => (
              <li key={event.id} className="rounded-md border border-border p-3 text-sm">
                <p className="font-semibold">
                  {event.occurredAt} · {event.action} ({event.channel}) · {event.source}
                </p>
                <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 text-muted-foreground">
                  <dt>IP</dt>
                  <dd>{event.ip}</dd>
                  <dt>User agent</dt>
                  <dd className="break-all">{event.userAgent}</dd>
                  <dt>Page</dt>
                  <dd className="break-all">{event.pageUrl}</dd>
                  <dt>Boxes</dt>
                  <dd>
                    SMS {String(event.smsCheckbox)}, terms {String(event.termsCheckbox)}
                  </dd>
                  <dt>Do-Not-Call</dt>
                  <dd>
                    {event.dncResult ?? "-"} ({event.dncPolicy ?? "-"}, data {event.dncDataDate ?? "none"})
                  </dd>
                  <dt>Text shown</dt>
                  <dd>
                    {event.consentText ?? (event.emailReport ? CERTIFICATE_TEXTS.emailReportText(event.emailReport) : event.inboundBody)}{" "}
                    <span className="text-xs">({event.consentVersion ?? event.inboundMessageSid})</span>
                  </dd>
                </dl>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}
