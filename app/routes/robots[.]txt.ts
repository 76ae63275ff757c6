import { getPublicSiteConfig } from "~/http/site.server";

export function loader() {
  const site = getPublicSiteConfig();
  const body = ["User-agent: *", "Disallow: /admin/", "Disallow: /auth", "Disallow: /api/", "", `Sitemap: ${site.url}/sitemap.xml`, ""].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
