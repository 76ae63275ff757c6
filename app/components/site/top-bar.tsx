import { useRef } from "react";
import { Link, NavLink } from "react-router";
import { Menu, X } from "lucide";
import { Icon } from "~/components/ui/icon";
import { PRIMARY_NAV, SUBSCRIBE_HREF } from "~/config/site";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { BrandMark } from "./brand-mark";
import { AccountLinks, useViewer } from "./account-links";
import { SearchForm } from "~/components/blog/search-form";

const navLinkClass =
  (size: "bar" | "menu") =>
  ({ isActive }: { isActive: boolean }) =>
    cn(
      "rounded px-3 font-bold tracking-widest",
      size === "bar" ? "py-2 text-sm" : "block py-3 text-base",
      isActive ? "text-gold-soft underline decoration-2 underline-offset-8" : "text-primary-foreground hover:text-gold-soft",
    );

/**
 * Where the bar switches from the menu button to the full row: a signed-in person's row carries
 * Account, Admin and Sign Out too, so it needs a wider screen (decision 102). Whole class names,
 * so Tailwind finds them.
 */
const BAR_LAYOUT = {
  visitor: { row: "lg:flex", menu: "lg:hidden" },
  signedIn: { row: "xl:flex", menu: "xl:hidden" },
} as const;

export function TopBar({ siteName }: { siteName: string }) {
  const layout = BAR_LAYOUT[useViewer() ? "signedIn" : "visitor"];
  // A <details> menu opens and closes without JavaScript; with JavaScript it also closes when a
  // link is chosen (client navigation keeps the page, so it would otherwise stay open).
  const menuRef = useRef<HTMLDetailsElement>(null);
  const closeMenu = () => {
    if (menuRef.current) menuRef.current.open = false;
  };

  return (
    <header className="sticky top-0 z-40 bg-primary text-primary-foreground shadow-md">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-extrabold tracking-tight">
          <BrandMark />
          <span>{siteName}</span>
        </Link>
        <nav aria-label="Main" className={cn("hidden items-center gap-1", layout.row)}>
          {PRIMARY_NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className={navLinkClass("bar")} prefetch="intent">
              {item.label}
            </NavLink>
          ))}
          <Link to={SUBSCRIBE_HREF} className={cn(buttonVariants({ size: "sm" }), "ml-3 tracking-widest")}>
            SUBSCRIBE
          </Link>
          <AccountLinks layout="bar" />
        </nav>
        <SearchForm id="top-search" tone="bar" iconButton className={cn("hidden w-56 shrink-0", layout.row)} />
        <details ref={menuRef} className={cn("group", layout.menu)} data-testid="mobile-menu">
          <summary
            className="flex h-11 w-11 cursor-pointer list-none items-center justify-center rounded-md hover:bg-primary-soft"
            aria-label="Menu"
          >
            <Icon node={Menu} className="h-6 w-6 group-open:hidden" />
            <Icon node={X} className="hidden h-6 w-6 group-open:block" />
          </summary>
          <nav
            aria-label="Mobile"
            className="absolute inset-x-0 top-16 border-t border-primary-soft bg-primary px-4 pb-6 pt-2 shadow-lg"
          >
            <SearchForm id="menu-search" tone="bar" className="py-3" />
            <ul className="flex flex-col">
              {PRIMARY_NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} className={navLinkClass("menu")} onClick={closeMenu}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
              <li className="pt-3">
                <Link
                  to={SUBSCRIBE_HREF}
                  onClick={closeMenu}
                  className={cn(buttonVariants(), "w-full tracking-widest")}
                >
                  SUBSCRIBE
                </Link>
              </li>
              <AccountLinks layout="menu" onNavigate={closeMenu} />
            </ul>
          </nav>
        </details>
      </div>
    </header>
  );
}
