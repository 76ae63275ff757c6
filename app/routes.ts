import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  // "/" is home on the main domains and the opt-in page on every other host.
  index("routes/root-index.tsx"),
  route("opt-in", "routes/opt-in.tsx"),
  route("gold", "routes/gold.tsx"),
  layout("routes/site-layout.tsx", [
    route("home", "routes/home.tsx"),
    route("about", "routes/about.tsx"),
    route("blog", "routes/blog.tsx"),
    route("contact", "routes/contact.tsx"),
    route("privacy", "routes/legal.tsx", { id: "legal-privacy" }),
    route("terms", "routes/legal.tsx", { id: "legal-terms" }),
    route("disclaimer", "routes/legal.tsx", { id: "legal-disclaimer" }),
    route("articles/:slug", "routes/article.tsx"),
    route("auth", "routes/auth.tsx"),
    route("admin/sms", "routes/admin-sms.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
  route("api/phone-optin", "routes/api.phone-optin.ts"),
  route("api/sms/inbound", "routes/api.sms.inbound.ts"),
  route("api/sms/status", "routes/api.sms.status.ts"),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  route("rss.xml", "routes/rss[.]xml.ts"),
] satisfies RouteConfig;
