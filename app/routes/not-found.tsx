import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFoundView } from "~/components/site/not-found-view";
import { logger } from "~/http/logger.server";
import { pageMeta } from "~/lib/route-meta";

/** Any path not in the route table: a real 404 with the spec's view; the path is logged. */
export function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  logger.warn({ path: pathname }, "404: no page at this path");
  return data({ path: pathname }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: "Page Not Found",
    description: "The page you were looking for does not exist.",
    path: loaderData?.path ?? "/",
    noindex: true,
  });

export default function NotFound() {
  return <NotFoundView />;
}
