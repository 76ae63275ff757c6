/**
 * The admin menu: the staff home, then named groups of pages (decision 100). A page joins the
 * menu with one line in ADMIN_NAV naming its group; a group shows only once it has an entry the
 * person may use, so a group can be declared before its pages exist.
 */
export const ADMIN_HOME = { to: "/admin", label: "Dashboard" } as const;

export const ADMIN_NAV_GROUPS = [
  { id: "content", label: "Content" },
  { id: "audience", label: "Audience and consent" },
  { id: "sending", label: "Sending" },
  { id: "insights", label: "Analytics and imports" },
  { id: "people", label: "People and security" },
] as const;

export type AdminNavGroupId = (typeof ADMIN_NAV_GROUPS)[number]["id"];

/** `editors`: an editor sees this entry too (every other entry is for admins only). */
export type AdminNavItem = { group: AdminNavGroupId; to: string; label: string; editors?: true };

export const ADMIN_NAV: readonly AdminNavItem[] = [
  { group: "content", to: "/admin/articles", label: "Articles", editors: true },
  { group: "content", to: "/admin/authors", label: "Authors", editors: true },
  { group: "content", to: "/admin/media", label: "Images", editors: true },
  { group: "content", to: "/admin/redirects", label: "Redirects", editors: true },
  { group: "audience", to: "/admin/subscribers", label: "Subscribers" },
  { group: "audience", to: "/admin/inbox", label: "Inbox" },
  { group: "audience", to: "/admin/consent", label: "Consent Evidence" },
  { group: "audience", to: "/admin/dnc", label: "Do-Not-Call" },
  { group: "audience", to: "/admin/rnd", label: "Reassigned Numbers" },
  { group: "sending", to: "/admin/alerts", label: "Alerts" },
  { group: "sending", to: "/admin/newsletter", label: "Newsletter" },
  { group: "sending", to: "/admin/sms", label: "Welcome SMS" },
  { group: "sending", to: "/admin/messages", label: "Messages" },
  { group: "insights", to: "/admin/analytics", label: "Analytics", editors: true },
  { group: "insights", to: "/admin/analytics/costs", label: "Ad Costs" },
  { group: "insights", to: "/admin/newsletter/import", label: "Newsletter Import" },
  { group: "insights", to: "/admin/import", label: "Site Import" },
  { group: "people", to: "/admin/people", label: "People" },
  { group: "people", to: "/admin/security", label: "Security", editors: true },
];

export type AdminMenu = {
  home: { to: string; label: string } | null;
  groups: { id: AdminNavGroupId; label: string; items: { to: string; label: string }[] }[];
};

/** The menu one person sees: an editor gets the entries marked for editors and no staff home. */
export function adminMenuFor(admin: boolean): AdminMenu {
  const items = ADMIN_NAV.filter((item) => admin || item.editors);
  return {
    home: admin ? ADMIN_HOME : null,
    groups: ADMIN_NAV_GROUPS.map((group) => ({
      id: group.id,
      label: group.label,
      items: items.filter((item) => item.group === group.id).map(({ to, label }) => ({ to, label })),
    })).filter((group) => group.items.length > 0),
  };
}

/**
 * The menu entry for a path: the one whose address is the longest prefix of it, so an article's
 * editor marks Articles and /admin/newsletter/import marks its own entry, not Newsletter. The
 * staff home matches only itself.
 */
export function currentAdminEntry(menu: AdminMenu, pathname: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (menu.home && path === menu.home.to) return menu.home.to;
  let best: string | null = null;
  for (const item of menu.groups.flatMap((group) => group.items)) {
    if ((path === item.to || path.startsWith(`${item.to}/`)) && item.to.length > (best?.length ?? 0)) best = item.to;
  }
  return best;
}
