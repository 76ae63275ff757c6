import type { Route } from "./+types/root-index";
import { HomePage } from "~/components/home/home-page";
import { homeJsonLd, HOME_SEO } from "~/components/home/home-seo";
import { OptInPage } from "~/components/opt-in/opt-in-page";
import { OPT_IN_SEO } from "~/components/opt-in/opt-in-seo";
import { readOptInPrefill } from "~/components/opt-in/prefill";
import { JsonLd } from "~/components/site/json-ld";
import { SiteChrome } from "~/components/site/site-chrome";
import { isMainDomain } from "~/config/site";
import { loadHomeContent } from "~/content/home.server";
import { getEnv } from "~/http/env.server";
import { pageMeta } from "~/lib/route-meta";
import { useSiteConfig } from "~/root";

/** The host decides on the server: main domains get the home page, any other host the opt-in page. */
export function loader({ request }: Route.LoaderArgs) {
  if (isMainDomain(request.headers.get("host"), getEnv().MAIN_DOMAINS)) {
    return { variant: "home" as const, ...loadHomeContent() };
  }
  return { variant: "opt-in" as const, prefill: readOptInPrefill(new URL(request.url)) };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData?.variant === "opt-in"
    ? pageMeta(matches, { ...OPT_IN_SEO, path: "/opt-in" })
    : pageMeta(matches, { ...HOME_SEO, path: "/" });

export default function RootIndex({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  if (loaderData.variant === "opt-in") return <OptInPage site={site} prefill={loaderData.prefill} />;
  return (
    <SiteChrome>
      <JsonLd data={homeJsonLd(site)} />
      <HomePage site={site} latest={loaderData.latest} />
    </SiteChrome>
  );
}
