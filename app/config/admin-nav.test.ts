import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ADMIN_NAV, ADMIN_NAV_GROUPS, adminMenuFor, currentAdminEntry } from "./admin-nav";

describe("the admin menu", () => {
  it("puts every entry in a declared group, each address once, and every address is a route", () => {
    const routes = readFileSync("app/routes.ts", "utf8");
    const groups = ADMIN_NAV_GROUPS.map((group) => group.id as string);
    expect(new Set(ADMIN_NAV.map((item) => item.to)).size).toBe(ADMIN_NAV.length);
    for (const item of ADMIN_NAV) {
      expect(groups, item.to).toContain(item.group);
      expect(routes, item.to).toContain(`route("${item.to.slice(1)}", `);
    }
  });

  it("shows an admin the staff home and the groups in order; an editor only the entries marked for editors", () => {
    const admin = adminMenuFor(true);
    expect(admin.home).toEqual({ to: "/admin", label: "Dashboard" });
    expect(admin.groups.map((group) => group.label)).toEqual(["Content", "Audience and consent", "Sending", "Analytics and imports", "People and security"]);
    expect(admin.groups.flatMap((group) => group.items)).toHaveLength(ADMIN_NAV.length);
    const editor = adminMenuFor(false);
    expect(editor.home).toBeNull();
    expect(editor.groups.map((group) => [group.label, group.items.map((item) => item.label)])).toEqual([
      ["Content", ["Articles", "Authors", "Images", "Redirects"]],
      ["Analytics and imports", ["Analytics"]],
      ["People and security", ["Security"]],
    ]);
  });

  it("marks the entry whose address is the longest prefix of the page's, and the staff home only on itself", () => {
    const menu = adminMenuFor(true);
    expect(currentAdminEntry(menu, "/admin")).toBe("/admin");
    expect(currentAdminEntry(menu, "/admin/")).toBe("/admin");
    expect(currentAdminEntry(menu, "/admin/articles/0b6f6a57-8c0e-4c55-9a8f-3c9a1f5e2b10")).toBe("/admin/articles");
    expect(currentAdminEntry(menu, "/admin/newsletter/12")).toBe("/admin/newsletter");
    expect(currentAdminEntry(menu, "/admin/newsletter/import")).toBe("/admin/newsletter/import");
    expect(currentAdminEntry(menu, "/admin/subscribers/x/consent")).toBe("/admin/subscribers");
    // A prefix of the name is not a parent.
    expect(currentAdminEntry(menu, "/admin/smsx")).toBeNull();
    expect(currentAdminEntry(adminMenuFor(false), "/admin/people")).toBeNull();
  });
});
