import { useEffect } from "react";
import { useLocation } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { ARTICLE_TEXTS } from "~/lib/article-texts";

export const NOT_FOUND_HEADING = "Oops! Page not found";

/** 404, or 410 for an article that was public and has been removed (decision 050). */
export function NotFoundView({ status = 404 }: { status?: 404 | 410 }) {
  const removed = status === 410;
  const location = useLocation();
  useEffect(() => {
    console.warn(`${status}: no page at`, location.pathname);
  }, [location.pathname, status]);
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-accent">{status}</p>
      <h1 className="mt-4 text-3xl font-extrabold text-primary">{removed ? ARTICLE_TEXTS.removedTitle : NOT_FOUND_HEADING}</h1>
      <p className="mt-3 text-muted-foreground">{removed ? ARTICLE_TEXTS.removedDescription : "The page you were looking for does not exist or has moved."}</p>
      <ButtonLink to="/" className="mt-8">
        Return to Home
      </ButtonLink>
    </section>
  );
}
