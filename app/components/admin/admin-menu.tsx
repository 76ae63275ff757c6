import { Link, useLocation } from "react-router";
import { currentAdminEntry, type AdminMenu as Menu } from "~/config/admin-nav";
import { cn } from "~/lib/cn";

function MenuLink({ to, label, current }: { to: string; label: string; current: string | null }) {
  const active = to === current;
  return (
    <Link
      to={to}
      aria-current={active ? "page" : undefined}
      className={cn(
        "block rounded-md px-3 py-1 text-sm font-semibold",
        active ? "bg-primary text-primary-foreground" : "text-primary hover:bg-muted",
      )}
    >
      {label}
    </Link>
  );
}

/** The groups as labelled lists; `idPrefix` keeps the label ids unique (the menu is drawn twice). */
function MenuGroups({ menu, current, idPrefix }: { menu: Menu; current: string | null; idPrefix: string }) {
  return (
    <div className="space-y-4">
      {menu.home ? <MenuLink to={menu.home.to} label={menu.home.label} current={current} /> : null}
      {menu.groups.map((group) => (
        <div key={group.id}>
          <p id={`${idPrefix}-${group.id}`} className="px-3 pb-1 text-xs font-bold uppercase tracking-wider text-muted-foreground">
            {group.label}
          </p>
          <ul aria-labelledby={`${idPrefix}-${group.id}`} className="space-y-0.5">
            {group.items.map((item) => (
              <li key={item.to}>
                <MenuLink to={item.to} label={item.label} current={current} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

/**
 * The admin menu without JavaScript: a side menu on wide screens, one disclosure (<details>)
 * on narrow ones, whose summary names the current page. CSS shows one of the two; the hidden one
 * is display:none, so neither assistive technology nor the keyboard meets it.
 */
export function AdminMenu({ menu }: { menu: Menu }) {
  const { pathname } = useLocation();
  const current = currentAdminEntry(menu, pathname);
  const currentLabel = [menu.home, ...menu.groups.flatMap((group) => group.items)].find((item) => item?.to === current)?.label;
  return (
    <>
      {/* Sticky below the sticky top bar: it stays in view on long pages, and no link slides under the bar. */}
      <nav
        aria-label="Admin"
        className="hidden lg:sticky lg:top-20 lg:block lg:max-h-[calc(100vh-6rem)] lg:self-start lg:overflow-y-auto print:hidden"
        data-testid="admin-side-menu"
      >
        <MenuGroups menu={menu} current={current} idPrefix="admin-menu-side" />
      </nav>
      <nav aria-label="Admin" className="lg:hidden print:hidden" data-testid="admin-menu-disclosure">
        {/* Keyed by the page: after a client-side navigation the menu starts closed again. */}
        <details key={pathname} className="group rounded-lg border border-border">
          <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-4 py-2 font-semibold text-primary [&::-webkit-details-marker]:hidden">
            <span>
              Admin menu
              {currentLabel ? <span className="font-normal text-muted-foreground">: {currentLabel}</span> : null}
            </span>
            <span aria-hidden="true" className="text-muted-foreground transition-transform group-open:rotate-180">
              ▾
            </span>
          </summary>
          <div className="border-t border-border p-3">
            <MenuGroups menu={menu} current={current} idPrefix="admin-menu-narrow" />
          </div>
        </details>
      </nav>
    </>
  );
}
