import { NavLink, Outlet, isRouteErrorResponse, useRouteError } from "react-router";
import type { Route } from "./+types/admin-layout";
import { requireEditor } from "~/auth/guards.server";
import { ADMIN_ROLE } from "~/auth/auth.server";
import { cn } from "~/lib/cn";

export async function loader({ request }: Route.LoaderArgs) {
  // Editors reach the editorial desk; every other admin page checks requireAdmin itself.
  const user = await requireEditor(request, { allowWithout2fa: true });
  return { email: user.email, isAdmin: user.role === ADMIN_ROLE };
}

// Signed-in pages are never cached by a browser or a CDN.
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

const ADMIN_NAV = [
  { to: "/admin", label: "Dashboard" },
  { to: "/admin/sms", label: "Welcome SMS" },
  { to: "/admin/alerts", label: "Alerts" },
  { to: "/admin/subscribers", label: "Subscribers" },
  { to: "/admin/newsletter", label: "Newsletter" },
  { to: "/admin/articles", label: "Articles", editor: true },
  { to: "/admin/authors", label: "Authors", editor: true },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/inbox", label: "Inbox" },
  { to: "/admin/dnc", label: "Do-Not-Call" },
  { to: "/admin/security", label: "Security" },
] as const;

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <div className="border-b border-border pb-4">
        <p className="text-sm text-muted-foreground">
          Signed in as <strong className="text-foreground">{loaderData.email}</strong>
        </p>
      </div>
      <nav aria-label="Admin" className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {ADMIN_NAV.filter((item) => loaderData.isAdmin || ("editor" in item && item.editor)).map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.to !== "/admin/articles" && item.to !== "/admin/authors"}
                className={({ isActive }) =>
                  cn("inline-block rounded-md px-3 py-2 text-sm font-semibold", isActive ? "bg-primary text-primary-foreground" : "text-primary hover:bg-muted")
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8">
        <Outlet />
      </div>
    </div>
  );
}

/** A signed-in reader gets a clear 403 page (anonymous visitors were redirected to /auth). */
export function ErrorBoundary() {
  const error = useRouteError();
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-accent">{forbidden ? 403 : 500}</p>
      <h1 className="mt-4 text-3xl font-extrabold text-primary">{forbidden ? "Access denied" : "Something went wrong"}</h1>
      <p className="mt-3 text-muted-foreground">
        {forbidden
          ? "Your account does not have access to the admin area. Ask an administrator if you need it."
          : "We could not load this page. Please try again in a moment."}
      </p>
    </section>
  );
}
