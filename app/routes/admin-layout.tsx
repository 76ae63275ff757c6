import { Outlet, isRouteErrorResponse, useRouteError } from "react-router";
import { AdminMenu } from "~/components/admin/admin-menu";
import { errorHeading } from "~/components/site/error-heading";
import type { Route } from "./+types/admin-layout";
import { requireEditor } from "~/auth/guards.server";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { adminMenuFor } from "~/config/admin-nav";
import { CONSENT_CHAIN_TEXTS as CHAIN_TEXTS } from "~/lib/consent-evidence-texts";
import { consentChainIntegrity } from "~/services/consent/chain.server";
import { ROLE_LABELS, isRole } from "~/lib/roles";

/** Editors and admins enter; each admin-only page checks requireAdmin in its own loader and action. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireEditor(request, { allowWithout2fa: true });
  const admin = user.role === "admin";
  // A consent chain that no longer holds a signed head is every admin's business, on every page (decision 081).
  const integrity = consentChainIntegrity();
  const chainBroken = admin && integrity.state === "broken" && integrity.problem ? { detail: integrity.problem.detail, since: integrity.since } : null;
  return { email: user.email, role: isRole(user.role) ? ROLE_LABELS[user.role] : "", menu: adminMenuFor(admin), chainBroken };
}

// Signed-in pages are never cached by a browser or a CDN.
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <div className="border-b border-border pb-4 print:hidden">
        <p className="text-sm text-muted-foreground">
          Signed in as <strong className="text-foreground">{loaderData.email}</strong>
          {loaderData.role ? <> ({loaderData.role})</> : null}
        </p>
      </div>
      <div className="mt-4 lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-8 print:block">
        <AdminMenu menu={loaderData.menu} />
        <div className="mt-6 min-w-0 lg:mt-0">
          {loaderData.chainBroken ? (
            <div className="mb-6 print:hidden" data-testid="chain-broken">
              <NoticeBanner
                notice={{ title: CHAIN_TEXTS.brokenTitle, description: CHAIN_TEXTS.brokenDescription(loaderData.chainBroken.detail, loaderData.chainBroken.since), variant: "error" }}
              />
            </div>
          ) : null}
          <Outlet />
        </div>
      </div>
    </div>
  );
}

/** A signed-in reader gets a clear 403 page (anonymous visitors were redirected to /auth). */
export function ErrorBoundary() {
  const error = useRouteError();
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  const reason = forbidden && typeof (error.data as { message?: unknown } | null)?.message === "string" ? (error.data as { message: string }).message : null;
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <title>{errorHeading(forbidden ? 403 : 500)}</title>
      <p className="text-6xl font-extrabold text-accent">{forbidden ? 403 : 500}</p>
      <h1 className="mt-4 text-3xl font-extrabold text-primary">{errorHeading(forbidden ? 403 : 500)}</h1>
      <p className="mt-3 text-muted-foreground">
        {forbidden
          ? (reason ?? "Your account does not have access to the admin area.") + " Ask an administrator if you need it."
          : "We could not load this page. Please try again in a moment."}
      </p>
    </section>
  );
}
