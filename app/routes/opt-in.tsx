import type { Route } from "./+types/opt-in";
import { OptInPage } from "~/components/opt-in/opt-in-page";
import { OPT_IN_SEO } from "~/components/opt-in/opt-in-seo";
import { readOptInPrefill } from "~/components/opt-in/prefill";
import { pageMeta } from "~/lib/route-meta";
import { useSiteConfig } from "~/root";

export function loader({ request }: Route.LoaderArgs) {
  return { prefill: readOptInPrefill(new URL(request.url)) };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { ...OPT_IN_SEO, path: "/opt-in" });

export default function OptIn({ loaderData }: Route.ComponentProps) {
  const site = useSiteConfig();
  return <OptInPage site={site} prefill={loaderData.prefill} />;
}
