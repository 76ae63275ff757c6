import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import appCss from "./styles/app.css?url";
import { getPublicSiteConfig } from "./http/site.server";
import { SiteChrome } from "./components/site/site-chrome";
import { errorHeading } from "./components/site/error-heading";
import { Toaster } from "./components/ui/toaster";
import type { PublicSiteConfig } from "./config/site";
import { urlNotice } from "./lib/notices";
import { ARTICLE_TEXTS } from "./lib/article-texts";
import { NavigationSpinner } from "./components/ui/navigation-spinner";
import { lazy, Suspense, useEffect } from "react";
import { keepDataAfterPostToSameUrl } from "~/lib/revalidate";
import { getViewer } from "~/auth/viewer.server";

// Only error pages need these: loaded on demand, not with every page.
const NotFoundView = lazy(() => import("./components/site/not-found-view").then((m) => ({ default: m.NotFoundView })));
// Only after a redirect that carries a notice (sign-in, sign-out...).
const UrlNotice = lazy(() => import("./components/site/url-notice").then((m) => ({ default: m.UrlNotice })));
const ErrorView = lazy(() => import("./components/site/error-view").then((m) => ({ default: m.ErrorView })));

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appCss },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  return {
    site: getPublicSiteConfig(),
    // A notice key after a redirect (?notice=signedIn): keys from the catalogue only, never text.
    notice: urlNotice(new URL(request.url).searchParams.get("notice")),
    // Null for every anonymous request, prerendering included (no session cookie, no query).
    viewer: await getViewer(request),
  };
}

export const shouldRevalidate = keepDataAfterPostToSameUrl;

export type RouteHandle = {
  /** false: the page is complete as HTML and ships no JavaScript at all. */
  hydrate?: boolean;
};

function useShipsJavaScript() {
  const matches = useMatches();
  // An error page always hydrates: the not-found view logs the path to the browser console.
  const error = useRouteError();
  if (error) return true;
  return !matches.some((match) => (match.handle as RouteHandle | undefined)?.hydrate === false);
}

export function useSiteConfig(): PublicSiteConfig {
  const data = useRouteLoaderData<typeof loader>("root");
  if (!data) throw new Error("The root loader did not run");
  return data.site;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const shipsJavaScript = useShipsJavaScript();
  return (
    <html lang="en-US">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b2545" />
        <Meta />
        {data ? (
          <link rel="alternate" type="application/rss+xml" title={`${data.site.name} Market Insights`} href="/rss.xml" />
        ) : null}
        <Links />
      </head>
      <body>
        <a href="#main" className="skip-link">
          Skip to main content
        </a>
        {data?.notice ? (
          <Suspense fallback={null}>
            <UrlNotice notice={data.notice} />
          </Suspense>
        ) : null}
        {children}
        {shipsJavaScript ? (
          <>
            <Toaster />
            <NavigationSpinner />
            <ScrollRestoration />
            <Scripts />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  // Marks the document once React has taken over (hydration starts after the load event).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const isNotFound = status === 404 || status === 410;
  return (
    <SiteChrome>
      {/* The route's meta is not rendered for an error its loader threw: the page still needs a title. */}
      <title>{status === 410 ? ARTICLE_TEXTS.removedTitle : status === 404 ? "Page Not Found" : errorHeading(status)}</title>
      <Suspense fallback={null}>{isNotFound ? <NotFoundView status={status === 410 ? 410 : 404} /> : <ErrorView error={error} />}</Suspense>
    </SiteChrome>
  );
}
