import type { Route } from "./+types/home";
import { withActionRetryAfter } from "~/http/route-headers";
import { HomePage } from "~/components/home/home-page";
import { JsonLd } from "~/components/site/json-ld";
import { useSiteConfig } from "~/root";
import { loadHomeContent } from "~/content/home.server";
import { ensurePublishedContent } from "~/content/published-content.server";
import { pageMeta } from "~/lib/route-meta";
import { homeJsonLd, HOME_SEO } from "~/components/home/home-seo";
import { newsletterAction } from "~/http/newsletter.server";
import { OPT_IN_ERROR } from "~/lib/notice-fallbacks";
import { keepDataAfterPostToSameUrl } from "~/lib/revalidate";

export async function loader() {
  await ensurePublishedContent();
  return loadHomeContent();
}

/** The newsletter form posts here from every page that shows it. */
export function action({ request }: Route.ActionArgs) {
  return newsletterAction(request);
}

/** A lost connection shows a notice instead of an error page. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch {
    return { form: "newsletter" as const, ok: false, notice: OPT_IN_ERROR };
  }
}

export const shouldRevalidate = keepDataAfterPostToSameUrl;

// A limited post (429) says when to try again.
export const headers: Route.HeadersFunction = (args) => withActionRetryAfter(args);

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { ...HOME_SEO, path: "/home" });

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  const site = useSiteConfig();
  return (
    <>
      <JsonLd data={homeJsonLd(site)} />
      <HomePage site={site} latest={loaderData.latest} newsletterResult={actionData} />
    </>
  );
}
