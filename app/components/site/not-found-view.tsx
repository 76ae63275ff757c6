import { useEffect } from "react";
import { useLocation } from "react-router";
import { ButtonLink } from "~/components/ui/button";

export const NOT_FOUND_HEADING = "Oops! Page not found";

export function NotFoundView() {
  const location = useLocation();
  useEffect(() => {
    console.warn("404: no page at", location.pathname);
  }, [location.pathname]);
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-accent">404</p>
      <h1 className="mt-4 text-3xl font-extrabold text-primary">{NOT_FOUND_HEADING}</h1>
      <p className="mt-3 text-muted-foreground">The page you were looking for does not exist or has moved.</p>
      <ButtonLink to="/" className="mt-8">
        Return to Home
      </ButtonLink>
    </section>
  );
}
