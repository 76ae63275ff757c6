import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/admin-redirects";
import { requireEditor } from "~/auth/guards.server";
import { Pager } from "~/components/admin/pager";
import { Field } from "~/components/forms/field";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { pageParam } from "~/http/page-param";
import type { Notice } from "~/lib/notices";
import { REDIRECT_NOTICES as N, REDIRECT_TEXTS as T } from "~/lib/redirect-texts";
import { pageMeta } from "~/lib/route-meta";
import { formatInZone } from "~/lib/zoned-time";
import { contentSettled } from "~/services/content/changes.server";
import { deleteRedirect, getRedirect, listRedirects, normalizeOldPath, REDIRECTS_PAGE_SIZE, upsertRedirects } from "~/services/redirects/redirects.server";

const DONE: Record<string, Notice> = { saved: N.saved, deleted: N.deleted };

export async function loader({ request }: Route.LoaderArgs) {
  await requireEditor(request);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").slice(0, 200);
  const page = pageParam(request);
  const list = await listRedirects(await getDb(), { q, page });
  return {
    q,
    page,
    pages: Math.max(1, Math.ceil(list.total / REDIRECTS_PAGE_SIZE)),
    total: list.total,
    rows: list.rows.map((row) => ({ path: row.path, target: row.target, origin: row.origin, updatedBy: row.updatedBy, updatedAt: formatInZone(row.updatedAt, "America/New_York") })),
    notice: DONE[params.get("done") ?? ""] ?? null,
  };
}

type ActionData = { notice: Notice; values?: { path: string; target: string } };

/** Back to the list, searched for the address just changed, so the editor sees the row. */
const backTo = (path: string | null, done: string) => `/admin/redirects?${new URLSearchParams(path ? { q: path, done } : { done })}`;

export async function action({ request }: Route.ActionArgs) {
  const user = await requireEditor(request);
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const db = await getDb();
  const path = String(form.path ?? "");
  if (form.intent === "delete") {
    if (!(await deleteRedirect(db, path, user.email))) return data<ActionData>({ notice: N.notFound }, { status: 404 });
    await contentSettled();
    throw redirect(backTo(null, "deleted"));
  }
  // "save" changes where an existing row goes; "add" (the default) adds or replaces one.
  if (form.intent === "save" && !(await getRedirect(db, path))) return data<ActionData>({ notice: N.notFound }, { status: 404 });
  const target = String(form.target ?? "");
  const result = await upsertRedirects(db, [{ path, target }], { origin: "admin", actor: user.email });
  if (result.written === 0) {
    const reason = result.refused[0]?.reason ?? "";
    return data<ActionData>({ notice: N.refused(reason), values: { path, target } }, { status: 400 });
  }
  // This process serves the new address before the editor's next page (the others within moments).
  await contentSettled();
  throw redirect(backTo(normalizeOldPath(path), "saved"));
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: T.title, description: T.description, path: "/admin/redirects", noindex: true });

const inputClass = "block w-full rounded-md border border-input bg-background px-3 py-2 text-base";

function originText(origin: string) {
  if (origin === "admin") return T.originAdmin;
  return origin.startsWith("import:") ? `${T.originImport} ${origin.slice("import:".length)}` : origin;
}

export default function AdminRedirects({ loaderData, actionData }: Route.ComponentProps) {
  const { q, rows, page, pages, total, notice } = loaderData;
  const failed = actionData && "notice" in actionData ? (actionData as ActionData) : undefined;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-extrabold text-primary">{T.title}</h1>
        <a href="/admin/redirects.csv" className={buttonVariants({ variant: "outline", size: "sm" })} download>
          {T.exportLink}
        </a>
      </div>
      <p className="max-w-3xl text-sm text-muted-foreground">{T.intro}</p>
      {failed ? <NoticeBanner notice={failed.notice} /> : notice ? <NoticeBanner notice={notice} /> : null}
      <Card className="max-w-3xl p-6">
        <h2 className="text-lg font-bold text-primary">{T.addHeading}</h2>
        <Form method="post" className="mt-4 grid gap-4 md:grid-cols-2" key={JSON.stringify(failed?.values ?? null)}>
          <input type="hidden" name="intent" value="add" />
          <Field label={T.pathLabel} name="path" required placeholder={T.pathHint} defaultValue={failed?.values?.path ?? ""} autoComplete="off" />
          <Field label={T.targetLabel} name="target" required placeholder={T.targetHint} defaultValue={failed?.values?.target ?? ""} autoComplete="off" />
          <div>
            <Button type="submit">{T.addButton}</Button>
          </div>
        </Form>
      </Card>
      <Card className="p-4">
        <Form method="get" className="flex flex-wrap items-end gap-4" role="search" aria-label={T.searchLabel}>
          <div className="min-w-64 flex-1">
            <label htmlFor="redirects-q" className="mb-1 block text-sm font-semibold">
              {T.searchLabel}
            </label>
            <input id="redirects-q" type="search" name="q" defaultValue={q} className={inputClass} />
          </div>
          <button type="submit" className={buttonVariants({ variant: "outline" })}>
            {T.searchButton}
          </button>
        </Form>
      </Card>
      <table className="stack-table w-full text-left text-sm" data-testid="redirect-list">
        <caption className="sr-only">{T.tableCaption}</caption>
        <thead>
          <tr className="border-b border-border">
            <th scope="col" className="py-2 pr-4">{T.columns.path}</th>
            <th scope="col" className="py-2 pr-4">{T.columns.target}</th>
            <th scope="col" className="py-2 pr-4">{T.columns.origin}</th>
            <th scope="col" className="py-2 pr-4">{T.columns.updated}</th>
            <th scope="col" className="py-2 pr-4">{T.columns.actions}</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={5} className="py-4 text-muted-foreground">
                {T.empty}
              </td>
            </tr>
          ) : (
            rows.map((row, index) => (
              <tr key={row.path} className="border-b border-border align-top">
                <td data-label={T.columns.path} className="py-2 pr-4 break-all font-mono text-xs">{row.path}</td>
                <td data-label={T.columns.target} className="py-2 pr-4 break-all font-mono text-xs">
                  <a href={row.target} className="text-primary hover:underline">
                    {row.target}
                  </a>
                </td>
                <td data-label={T.columns.origin} className="py-2 pr-4">{originText(row.origin)}</td>
                <td data-label={T.columns.updated} className="py-2 pr-4">
                  {row.updatedAt}
                  {row.updatedBy ? <span className="block text-xs text-muted-foreground">{row.updatedBy}</span> : null}
                </td>
                <td data-label={T.columns.actions} className="py-2 pr-4">
                  <div className="flex flex-wrap items-center gap-2">
                    <Form method="post" className="flex items-center gap-2">
                      <input type="hidden" name="intent" value="save" />
                      <input type="hidden" name="path" value={row.path} />
                      <label htmlFor={`redirect-target-${index}`} className="sr-only">
                        {T.editTargetLabel(row.path)}
                      </label>
                      <input id={`redirect-target-${index}`} name="target" defaultValue={row.target} required className={`${inputClass} min-w-48 py-1 text-sm`} autoComplete="off" />
                      <Button type="submit" size="sm" variant="outline">
                        {T.saveButton}
                      </Button>
                    </Form>
                    <Form method="post">
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="path" value={row.path} />
                      <Button type="submit" size="sm" variant="outline" aria-label={`${T.deleteButton} ${row.path}`}>
                        {T.deleteButton}
                      </Button>
                    </Form>
                  </div>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <p className="text-sm text-muted-foreground">{T.total(total)}</p>
      <Pager page={page} pages={pages} params={q ? { q } : {}} />
    </div>
  );
}
