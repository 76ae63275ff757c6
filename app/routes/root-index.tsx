import type { Route } from "./+types/root-index";
import { lazy, Suspense } from "react";
import { homeJsonLd, HOME_SEO } from "~/components/home/home-seo";
import { OPT_IN_SEO } from "~/components/opt-in/opt-in-seo";
import { JsonLd } from "~/components/site/json-ld";
import { SiteChrome } from "~/components/site/site-chrome";
import { isMainDomain } from "~/config/site";
import { loadHomeContent } from "~/content/home.server";
import { ensurePublishedContent } from "~/content/published-content.server";
import { getEnv } from "~/http/env.server";
import { pageMeta } from "~/lib/route-meta";
import { useSiteConfig } from "~/root";

// Each host needs only one of the two pages: load just that one.
const HomePage = lazy(() => import("~/components/home/home-page").then((m) => ({ default: m.HomePage })));
const OptInPage = lazy(() => import("~/components/opt-in/opt-in-page").then((m) => ({ default: m.OptInPage })));

/** The host decides on the server: main domains get the home page, any other host the opt-in page. */
export async function loader({ request }: Route.LoaderArgs) {
  if (isMainDomain(request.headers.get("host"), getEnv().MAIN_DOMAINS)) {
    await ensurePublishedContent();
    return { variant: "home" as const, ...loadHomeContent() };
  }
  return { variant: "opt-in" as const };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData?.variant === "opt-in"
    ? pageMeta(matches, { ...OPT_IN_SEO, path: "/opt-in" })
    : pageMeta(matches, { ...HOME_SEO, path: "/" });

export default function RootIndex({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  if (loaderData.variant === "opt-in") {
    return (
      <Suspense fallback={null}>
        <OptInPage site={site} />
      </Suspense>
    );
  }
  return (
    <SiteChrome>
      <JsonLd data={homeJsonLd(site)} />
      <Suspense fallback={null}>
        <HomePage site={site} latest={loaderData.latest} />
      </Suspense>
    </SiteChrome>
  );
}
