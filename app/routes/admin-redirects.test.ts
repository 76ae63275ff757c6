import { describe, expect, it } from "vitest";
import { REDIRECT_NOTICES as N, REDIRECT_REFUSALS as R } from "~/lib/redirect-texts";
import { csvValue } from "~/services/admin/csv-export.server";
import { getRedirect, upsertRedirects } from "~/services/redirects/redirects.server";
import { outcome, SITE, useStaffSessions } from "../../tests/support/staff-session";
import { action, loader } from "./admin-redirects";
import { loader as csvLoader } from "./admin-redirects-csv";

const get = (path: string, cookie: string) => ({ request: new Request(`${SITE}${path}`, { headers: { cookie } }), params: {}, context: {} }) as never;
const post = (cookie: string, fields: Record<string, string>) =>
  ({
    request: new Request(`${SITE}/admin/redirects`, { method: "POST", headers: { cookie, Origin: SITE, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) }),
    params: {},
    context: {},
  }) as never;

type Page = Awaited<ReturnType<typeof loader>>;
type Refusal = { data: { notice: { description: string }; values?: { path: string; target: string } }; init: { status: number } };

/** What an action threw: the redirect's Location. */
async function location(run: Promise<unknown>) {
  const thrown = await run.catch((value: unknown) => value);
  if (!(thrown instanceof Response)) throw new Error(`expected a redirect, got ${JSON.stringify(thrown)}`);
  expect(thrown.status).toBe(302);
  return thrown.headers.get("Location");
}

describe("/admin/redirects", () => {
  const sessions = useStaffSessions("pglite");

  it("lets an editor add, search, edit and remove a redirect with plain form posts; a reader gets 403", async () => {
    const editor = await sessions.signedIn("editor");
    expect(await location(action(post(editor, { intent: "add", path: "https://old.example/2018/03/gold-bugs/", target: "/articles/gold-bugs" })))).toBe(
      "/admin/redirects?q=%2F2018%2F03%2Fgold-bugs&done=saved",
    );
    const page = (await loader(get("/admin/redirects?q=gold-bugs&done=saved", editor))) as Page;
    expect(page.notice).toEqual(N.saved);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ path: "/2018/03/gold-bugs", target: "/articles/gold-bugs", origin: "admin", updatedBy: "editor.pglite@example.com" });

    expect(await location(action(post(editor, { intent: "save", path: "/2018/03/gold-bugs", target: "/articles/gold-bugs-2" })))).toContain("done=saved");
    expect(await getRedirect(sessions.db, "/2018/03/gold-bugs")).toMatchObject({ target: "/articles/gold-bugs-2" });

    // Refusals come back as 400 with the reason and the values typed; a missing row is a 404.
    const foreign = (await action(post(editor, { intent: "add", path: "/x", target: "https://evil.example/" }))) as unknown as Refusal;
    expect(foreign.init.status).toBe(400);
    expect(foreign.data.notice.description).toBe(R.targetNotHere);
    expect(foreign.data.values).toEqual({ path: "/x", target: "https://evil.example/" });
    const own = (await action(post(editor, { intent: "add", path: "/admin/people", target: "/articles/x" }))) as unknown as Refusal;
    expect(own.init.status).toBe(400);
    expect(own.data.notice.description).toBe(R.ownPage("/admin/people"));
    expect(await outcome(() => action(post(editor, { intent: "save", path: "/never-stored", target: "/articles/x" })))).toBe(404);
    expect(await outcome(() => action(post(editor, { intent: "delete", path: "/never-stored" })))).toBe(404);

    expect(await location(action(post(editor, { intent: "delete", path: "/2018/03/gold-bugs" })))).toBe("/admin/redirects?done=deleted");
    expect(await getRedirect(sessions.db, "/2018/03/gold-bugs")).toBeNull();

    const reader = await sessions.signedIn("reader");
    expect(await outcome(() => loader(get("/admin/redirects", reader)))).toBe(403);
    expect(await outcome(() => action(post(reader, { intent: "add", path: "/y", target: "/articles/y" })))).toBe(403);
    expect(await outcome(() => csvLoader(get("/admin/redirects.csv", reader)))).toBe(403);
  });

  it("pages the list 50 at a time and exports every row as formula-safe CSV", async () => {
    const editor = await sessions.signedIn("editor");
    const rows = Array.from({ length: 4_120 }, (_, i) => ({ path: `/old/${String(i).padStart(5, "0")}`, target: `/articles/post-${i}` }));
    expect((await upsertRedirects(sessions.db, rows, { origin: "import:run-9", actor: null })).written).toBe(rows.length);
    // Paths and targets start with "/"; who changed a row is the field a formula could hide in.
    expect((await upsertRedirects(sessions.db, [{ path: "/formula", target: "/articles/formula" }], { origin: "admin", actor: "=HYPERLINK(1)" })).written).toBe(1);
    rows.push({ path: "/formula", target: "/articles/formula" });

    const second = (await loader(get("/admin/redirects?page=2", editor))) as Page;
    expect(second.rows).toHaveLength(50);
    expect(second.pages).toBe(Math.ceil(rows.length / 50));

    const response = (await csvLoader(get("/admin/redirects.csv", editor))) as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="redirects-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("path,target,origin,updated_by,updated_at");
    expect(lines).toHaveLength(rows.length + 1);
    const formula = lines.find((line) => line.startsWith("/formula,"))!.split(",");
    expect(formula[3]).toBe("'=HYPERLINK(1)");
    expect(csvValue(formula[3]!)).toBe("=HYPERLINK(1)");
    expect(lines.find((line) => line.startsWith("/old/00007,"))).toMatch(/^\/old\/00007,\/articles\/post-7,import:run-9,,\d{4}-\d{2}-\d{2}T/);
  });
});
