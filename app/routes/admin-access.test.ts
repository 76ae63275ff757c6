import path from "node:path";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { outcome, SITE, useStaffSessions } from "../../tests/support/staff-session";

type RouteEntry = { path?: string; file: string; index?: boolean; children?: RouteEntry[] };
type RouteModule = { loader?: (args: unknown) => Promise<unknown>; action?: (args: unknown) => Promise<unknown> };

/** Every route of app/routes.ts under /admin, with its full path (layouts add none). */
function adminRoutes(entries: RouteEntry[], parent = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const full = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, "/") : parent;
    const own = full === "/admin" || full.startsWith("/admin/") ? [{ path: full, file: entry.file }] : [];
    return [...own, ...adminRoutes(entry.children ?? [], full)];
  });
}

/**
 * What an editor may use: the admin layout, the staff home (which sends an editor to the desk),
 * their own two-factor page, images, the article desk, the content figures of analytics
 * (decision 146) and the old addresses' redirects (decision 160). Everything else is for admins only.
 */
const EDITOR_FILES = new Set(["routes/admin-layout.tsx", "routes/admin-dashboard.tsx", "routes/admin-security.tsx", "routes/admin-media.tsx", "routes/admin-articles-preview.ts", "routes/admin-analytics.tsx", "routes/admin-analytics-csv.ts", "routes/admin-analytics-json.ts", "routes/admin-analytics-live.ts", "routes/admin-redirects.tsx", "routes/admin-redirects-csv.ts"]);
const forEditors = (file: string) => EDITOR_FILES.has(file) || /^routes\/admin-(articles?|authors?)[-.]/.test(file);

const ALL = adminRoutes(routes as RouteEntry[]);
// The layout has no path of its own; it wraps every /admin page.
const LAYOUT = { path: "/admin", file: "routes/admin-layout.tsx" };

function concrete(routePath: string) {
  return routePath.replace(/:[a-zA-Z]+/g, "00000000-0000-4000-8000-000000000000").replace(/\/\*$/, "/x");
}

async function moduleOf(file: string): Promise<RouteModule> {
  return (await import(/* @vite-ignore */ path.resolve("app", file))) as RouteModule;
}

function args(routePath: string, cookie: string, method: "GET" | "POST") {
  const url = `${SITE}${concrete(routePath)}`;
  const init: RequestInit =
    method === "GET"
      ? { headers: { cookie } }
      : { method, headers: { cookie, Origin: SITE, "Content-Type": "application/x-www-form-urlencoded" }, body: "intent=save" };
  return { request: new Request(url, init), params: { id: "00000000-0000-4000-8000-000000000000" }, context: {} };
}

describe("who reaches which admin route (the whole route table)", () => {
  const sessions = useStaffSessions("pglite");

  it("finds the admin routes in app/routes.ts", () => {
    expect(ALL.length).toBeGreaterThan(15);
    expect(ALL.map((route) => route.path)).toContain("/admin/people");
    expect(ALL.filter((route) => !forEditors(route.file)).length).toBeGreaterThan(12);
  });

  it("an editor gets 403 from the loader and the action of every admin-only route", async () => {
    const cookie = await sessions.signedIn("editor");
    const checked: string[] = [];
    for (const route of ALL.filter((entry) => !forEditors(entry.file))) {
      const module = await moduleOf(route.file);
      expect(module.loader ?? module.action, route.file).toBeDefined();
      if (module.loader) expect(await outcome(() => module.loader!(args(route.path, cookie, "GET"))), `GET ${route.path}`).toBe(403);
      if (module.action) expect(await outcome(() => module.action!(args(route.path, cookie, "POST"))), `POST ${route.path}`).toBe(403);
      checked.push(route.path);
    }
    expect(checked).toEqual(expect.arrayContaining(["/admin/sms", "/admin/people", "/admin/subscribers.csv", "/admin/dnc/uploads/:id", "/admin/alerts/reach"]));
  }, 30_000); // imports every admin route module (transformed on first import)

  it("an editor is let into the desk's routes, and the staff home sends them to the articles", async () => {
    const cookie = await sessions.signedIn("editor");
    for (const route of [LAYOUT, ...ALL.filter((entry) => forEditors(entry.file))]) {
      const module = await moduleOf(route.file);
      if (module.loader) expect(await outcome(() => module.loader!(args(route.path, cookie, "GET"))), `GET ${route.path}`).not.toBe(403);
    }
    const dashboard = await moduleOf("routes/admin-dashboard.tsx");
    const thrown = await dashboard.loader!(args("/admin", cookie, "GET")).catch((value: unknown) => value);
    expect(thrown instanceof Response && thrown.headers.get("Location")).toBe("/admin/articles");
  });

  it("a reader gets 403 everywhere under /admin, the desk included; an admin is let in everywhere", async () => {
    const reader = await sessions.signedIn("reader");
    const admin = await sessions.signedIn("admin");
    for (const route of [LAYOUT, ...ALL]) {
      const module = await moduleOf(route.file);
      if (module.loader) {
        expect(await outcome(() => module.loader!(args(route.path, reader, "GET"))), `reader GET ${route.path}`).toBe(403);
        expect(await outcome(() => module.loader!(args(route.path, admin, "GET"))), `admin GET ${route.path}`).not.toBe(403);
      }
      if (module.action) expect(await outcome(() => module.action!(args(route.path, reader, "POST"))), `reader POST ${route.path}`).toBe(403);
    }
  });
});
