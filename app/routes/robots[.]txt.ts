import { getPublicSiteConfig } from "~/http/site.server";

export function loader() {
  const site = getPublicSiteConfig();
  // "/auth" alone would also match "/authors/…" (robots rules are prefixes): the sign-in page and
  // its sub-pages only.
  const body = ["User-agent: *", "Disallow: /admin/", "Disallow: /auth$", "Disallow: /auth?", "Disallow: /auth/", "Disallow: /api/", "", `Sitemap: ${site.url}/sitemap.xml`, ""].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
