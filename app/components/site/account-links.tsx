import { Form, NavLink, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { cn } from "~/lib/cn";

/** The signed-in person, as the root loader found them (null when anonymous or in an error page). */
export function useViewer() {
  return useRouteLoaderData<typeof rootLoader>("root")?.viewer ?? null;
}

const linkClass =
  (layout: "bar" | "menu") =>
  ({ isActive }: { isActive: boolean }) =>
    cn(
      "rounded px-3 font-bold tracking-widest",
      layout === "bar" ? "py-2 text-sm" : "block py-3 text-base",
      isActive ? "text-gold-soft underline decoration-2 underline-offset-8" : "text-primary-foreground hover:text-gold-soft",
    );

/**
 * Header entries of a signed-in person: Account, Admin for staff, and Sign Out (a plain form
 * post, so it works on pages without JavaScript). Nothing for anonymous visitors.
 *
 * Sign Out always loads a new document, also with JavaScript: nothing the signed-in session
 * loaded stays in the page's memory, and the post does not depend on the client router first
 * discovering the sign-out route (a discovery that fails sends the browser to the route with a
 * GET, which sign-out refuses).
 */
export function AccountLinks({ layout, onNavigate }: { layout: "bar" | "menu"; onNavigate?: () => void }) {
  const viewer = useViewer();
  if (!viewer) return null;
  // A <div> (styled `contents`) in the bar: the sign-out <form> may not sit inside a <span>.
  const Item = layout === "menu" ? "li" : "div";
  return (
    <>
      <Item className={layout === "bar" ? "contents" : undefined}>
        <NavLink to="/account" className={linkClass(layout)} onClick={onNavigate}>
          Account
        </NavLink>
      </Item>
      {viewer.staff ? (
        <Item className={layout === "bar" ? "contents" : undefined}>
          <NavLink to="/admin" className={linkClass(layout)} onClick={onNavigate}>
            Admin
          </NavLink>
        </Item>
      ) : null}
      <Item className={layout === "bar" ? "contents" : undefined}>
        <Form method="post" action="/auth/sign-out" reloadDocument className={layout === "bar" ? "inline" : "py-1"}>
          <button
            type="submit"
            className={cn(
              "rounded border border-primary-foreground/60 px-3 font-bold tracking-widest text-primary-foreground hover:border-gold-soft hover:text-gold-soft",
              layout === "bar" ? "ml-1 py-1.5 text-sm" : "my-2 py-2 text-base",
            )}
          >
            Sign Out
          </button>
        </Form>
      </Item>
    </>
  );
}
