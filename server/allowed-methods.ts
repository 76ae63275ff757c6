import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

type Route = RouteObject & { hasAction: boolean };

/**
 * The methods a URL takes, from the route table of the build: GET and HEAD everywhere, POST where
 * the matched route has an action. A 405 must say so in `Allow` (RFC 9110 15.5.6), and React
 * Router's 405 answers do not.
 */
export function allowedMethods(build: ServerBuild) {
  type BuildRoute = NonNullable<ServerBuild["routes"][string]>;
  const byParent = new Map<string | undefined, BuildRoute[]>();
  for (const route of Object.values(build.routes)) {
    if (route) byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), route]);
  }
  const tree = (parentId: string | undefined): Route[] =>
    (byParent.get(parentId) ?? []).map(
      (route) =>
        ({
          id: route.id,
          path: route.path,
          index: route.index,
          caseSensitive: route.caseSensitive,
          hasAction: typeof route.module.action === "function",
          children: route.index ? undefined : tree(route.id),
        }) as Route,
    );
  const routes = tree(undefined);
  return (pathname: string) => {
    // A .data request is the same route's data (single fetch).
    const path = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const leaf = matchRoutes(routes, path)?.at(-1)?.route as Route | undefined;
    return leaf?.hasAction ? "GET, HEAD, POST" : "GET, HEAD";
  };
}
