import { Link, useLocation } from "react-router";
import { Mail, MapPin, Phone } from "lucide";
import { Icon } from "~/components/ui/icon";
import { FOOTER_LEGAL_LINKS, FOOTER_QUICK_LINKS, SITE_TAGLINE, type PublicSiteConfig } from "~/config/site";
import { BrandMark } from "./brand-mark";
import { ImportantDisclosure } from "./important-disclosure";
import { useViewer } from "./account-links";
import { signInHref } from "~/lib/return-path";

export function telHref(phone: string) {
  return `tel:${phone.replace(/[^0-9+]/g, "")}`;
}

export function Footer({ site }: { site: PublicSiteConfig }) {
  const viewer = useViewer();
  // Rendered with the page (also the prerendered and live pages): Sign In leads back here.
  const { pathname } = useLocation();
  return (
    <footer className="bg-primary text-primary-foreground" aria-labelledby="footer-heading">
      <h2 id="footer-heading" className="sr-only">
        Site footer
      </h2>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 md:grid-cols-3">
        <div>
          <p className="flex items-center gap-2 text-lg font-extrabold">
            <BrandMark />
            {site.name}
          </p>
          <p className="mt-3 text-sm text-on-primary-muted">{SITE_TAGLINE}.</p>
          <h3 className="mt-6 text-sm font-bold uppercase tracking-widest text-gold-soft">Contact</h3>
          <ul className="mt-3 space-y-2 text-sm">
            <li className="flex items-center gap-2">
              <Icon node={Mail} className="h-4 w-4 shrink-0" />
              <span>
                General info:{" "}
                <a className="underline underline-offset-2 hover:text-gold-soft" href={`mailto:${site.email}`}>
                  {site.email}
                </a>
              </span>
            </li>
            <li className="flex items-center gap-2">
              <Icon node={Phone} className="h-4 w-4 shrink-0" />
              <span>
                Toll-free:{" "}
                <a className="underline underline-offset-2 hover:text-gold-soft" href={telHref(site.phone)}>
                  {site.phone}
                </a>
              </span>
            </li>
            <li className="flex items-center gap-2">
              <Icon node={MapPin} className="h-4 w-4 shrink-0" />
              <span>United States</span>
            </li>
          </ul>
        </div>
        <nav aria-labelledby="footer-quick-links">
          <h3 id="footer-quick-links" className="text-sm font-bold uppercase tracking-widest text-gold-soft">
            Quick Links
          </h3>
          <ul className="mt-3 space-y-2 text-sm">
            {FOOTER_QUICK_LINKS.map((link) => (
              <li key={link.label}>
                <Link className="hover:text-gold-soft hover:underline" to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              {viewer ? (
                <Link className="hover:text-gold-soft hover:underline" to="/account">
                  Your Account
                </Link>
              ) : (
                <Link className="hover:text-gold-soft hover:underline" to={signInHref(pathname)}>
                  Sign In
                </Link>
              )}
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h3 id="footer-legal" className="text-sm font-bold uppercase tracking-widest text-gold-soft">
            Legal
          </h3>
          <ul className="mt-3 space-y-2 text-sm">
            {FOOTER_LEGAL_LINKS.map((link) => (
              <li key={link.label}>
                <Link className="hover:text-gold-soft hover:underline" to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-primary-soft">
        <div className="mx-auto max-w-7xl space-y-4 px-4 py-8 text-xs leading-relaxed text-on-primary-muted">
          <ImportantDisclosure siteName={site.name} />
          <p>
            &copy; {site.year} {site.name}. All rights reserved.
          </p>
        </div>
      </div>
    </footer>
  );
}
