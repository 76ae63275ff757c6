import { data, Form } from "react-router";
import { Pager } from "~/components/admin/pager";
import { z } from "zod";
import type { Route } from "./+types/admin-people";
import { requireAdmin } from "~/auth/guards.server";
import { buttonVariants } from "~/components/ui/button";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { pageParam } from "~/http/page-param";
import { PEOPLE_NOTICES, type Notice } from "~/lib/notices";
import { ROLE_LABELS, ROLES } from "~/lib/roles";
import { pageMeta } from "~/lib/route-meta";
import { changeRole, listPeople, PEOPLE_PAGE_SIZE } from "~/services/admin/people.server";

export async function loader({ request }: Route.LoaderArgs) {
  const me = await requireAdmin(request);
  const search = new URL(request.url).searchParams.get("q")?.slice(0, 100) ?? "";
  const page = pageParam(request);
  const list = await listPeople(await getDb(), { search, page });
  return {
    me: me.id,
    search,
    page,
    pages: Math.max(1, Math.ceil(list.total / PEOPLE_PAGE_SIZE)),
    total: list.total,
    rows: list.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}

const ChangeRoleSchema = z.object({ userId: z.string().min(1).max(100), role: z.string().max(20) });

const CODE_STATUS = { last_admin: 409, unchanged: 200, not_found: 404, invalid_role: 400 } as const;
const CODE_NOTICE = { last_admin: "lastAdmin", unchanged: "unchanged", not_found: "notFound", invalid_role: "invalid" } as const;

export async function action({ request }: Route.ActionArgs) {
  const me = await requireAdmin(request);
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const parsed = ChangeRoleSchema.safeParse(body.form);
  if (!parsed.success) return data<{ notice: Notice }>({ notice: PEOPLE_NOTICES.invalid }, { status: 400 });
  const result = await changeRole(await getDb(), { ...parsed.data, actor: me.email });
  if (!result.ok) return data<{ notice: Notice }>({ notice: PEOPLE_NOTICES[CODE_NOTICE[result.code]] }, { status: CODE_STATUS[result.code] });
  return data<{ notice: Notice }>({
    notice: { ...PEOPLE_NOTICES.changed, description: `${result.email} is now ${ROLE_LABELS[result.after].toLowerCase()}. ${PEOPLE_NOTICES.changed.description}` },
  });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "People", description: "Accounts and their roles.", path: "/admin/people", noindex: true });

export default function AdminPeople({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, search, page, pages, total, me } = loaderData;
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  return (
    <section aria-labelledby="people-heading" className="space-y-6">
      <h1 id="people-heading" className="text-3xl font-extrabold text-primary">
        People
      </h1>
      <p className="max-w-2xl text-sm text-muted-foreground">
        Readers read. Editors write, schedule and publish articles and upload images. Admins also manage people, subscribers and messages.
      </p>
      {notice ? <NoticeBanner notice={notice} /> : null}
      <Form method="get" className="flex gap-2" role="search">
        <label htmlFor="q" className="sr-only">
          Search accounts by e-mail
        </label>
        <input id="q" name="q" type="search" defaultValue={search} placeholder="E-mail contains…" className="w-full max-w-md rounded-md border border-input px-3 py-2" />
        <button type="submit" className={buttonVariants({ size: "sm" })}>
          Search
        </button>
      </Form>
      <h2 className="text-xl font-bold text-primary">Accounts ({total})</h2>
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Accounts table">
        <table className="stack-table w-full text-sm">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th className="py-2 pr-3">E-mail</th>
              <th className="pr-3">Name</th>
              <th className="pr-3">Role</th>
              <th className="pr-3">Created</th>
              <th className="pr-3">Two-factor</th>
              <th>Change role</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className="border-t border-border">
                <td data-label="E-mail" className="py-2 pr-3 break-all">
                  {row.email}
                  {row.id === me ? <span className="ml-1 text-xs text-muted-foreground">(you)</span> : null}
                </td>
                <td data-label="Name" className="pr-3">{row.name}</td>
                <td data-label="Role" className="pr-3 font-semibold">{ROLE_LABELS[row.role]}</td>
                <td data-label="Created" className="pr-3">{row.createdAt.slice(0, 10)}</td>
                <td data-label="Two-factor" className="pr-3">{row.twoFactorEnabled ? "on" : "off"}</td>
                <td data-label="Change role">
                  <Form method="post" className="flex items-center gap-2">
                    <input type="hidden" name="userId" value={row.id} />
                    <label htmlFor={`role-${row.id}`} className="sr-only">
                      Role of {row.email}
                    </label>
                    <select id={`role-${row.id}`} name="role" defaultValue={row.role} className="rounded-md border border-input bg-background px-2 py-1.5">
                      {ROLES.map((role) => (
                        <option key={role} value={role}>
                          {ROLE_LABELS[role]}
                        </option>
                      ))}
                    </select>
                    <button type="submit" className={buttonVariants({ size: "sm", variant: "navy" })} aria-label={`Change the role of ${row.email}`}>
                      Change
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} pages={pages} params={search ? { q: search } : {}} />
    </section>
  );
}
