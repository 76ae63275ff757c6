/** Public, isomorphic site constants. Contact details and the brand name come from configuration. */

export type PublicSiteConfig = {
  name: string;
  url: string;
  email: string;
  phone: string;
  offerUrl: string;
  year: number;
};

export const SITE_TAGLINE = "Conservative market insight for American investors";
export const SITE_DESCRIPTION =
  "Educational market analysis on stocks, bonds, precious metals and retirement for American retail investors who value sound money, self-reliance and long-term thinking.";
export const FOUNDED_YEAR = 2018;
export const POSTS_PER_WEEK = "3-4";
export const SUBSCRIBER_CLAIM = "250,000";
export const LEGAL_UPDATED = "2025-01-01";
export const REPLY_PROMISE = "We reply within 24 hours on business days.";
export const OPT_IN_REDIRECT_MS = 1500;

export const PRIMARY_NAV = [
  { to: "/home", label: "HOME" },
  { to: "/about", label: "ABOUT" },
  { to: "/blog", label: "BLOG" },
  { to: "/contact", label: "CONTACT" },
] as const;

/** SUBSCRIBE takes the visitor to the newsletter sign-up form. */
export const SUBSCRIBE_HREF = "/home#newsletter";

export const FOOTER_QUICK_LINKS = [
  { to: "/about", label: "About Us" },
  { to: "/blog", label: "Market Insights" },
  { to: "/contact", label: "Contact" },
  { to: "/disclaimer", label: "Investment Disclaimer" },
] as const;

export const FOOTER_LEGAL_LINKS = [
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/terms", label: "Terms of Service" },
  { to: "/disclaimer", label: "Disclaimer" },
] as const;

/** True when `host` (a Host header, possibly with a port) is one of the main domains or its www. twin. */
export function isMainDomain(host: string | null | undefined, mainDomains: readonly string[]) {
  if (!host) return false;
  const hostname = host.trim().toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  const bare = hostname.startsWith("www.") ? hostname.slice(4) : hostname;
  return mainDomains.includes(bare);
}

/** Replaces {{siteName}}-style placeholders in content files with configured values. */
export function fillPlaceholders(text: string, site: PublicSiteConfig) {
  const values: Record<string, string> = {
    siteName: site.name,
    siteEmail: site.email,
    sitePhone: site.phone,
    siteUrl: site.url,
  };
  return text.replace(/\{\{(\w+)\}\}/g, (match, key: string) => values[key] ?? match);
}
