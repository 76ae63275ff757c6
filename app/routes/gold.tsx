import { Link } from "react-router";
import { BookOpen, CircleCheck, ShieldAlert, TrendingDown } from "lucide";
import { Icon } from "~/components/ui/icon";
import type { Route } from "./+types/gold";
import { AccountLinks } from "~/components/site/account-links";
import { BrandMark } from "~/components/site/brand-mark";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { pageMeta } from "~/lib/route-meta";
import { useSiteConfig } from "~/root";
import type { RouteHandle } from "~/root";
import { OFFER_PATH } from "~/lib/offer-link";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Free Retirement Wealth Guide (Advertisement)",
    description:
      "Advertisement: request a free guide on protecting retirement savings with physical gold and silver from our sponsor.",
    path: "/gold",
    image: "/images/gold-guide.svg",
  });

const GOLD_NAV = [
  { to: "/home", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/blog", label: "Blog" },
  { to: "/contact", label: "Contact" },
] as const;

const GUIDE_CONTENTS = [
  "How inflation quietly shrinks the buying power of a retirement account",
  "Why central banks keep adding gold to their reserves",
  "How a self-directed precious metals IRA works and what it costs",
  "The difference between bullion and collectible coins, and the markups to avoid",
  "Questions to ask any dealer before you buy",
] as const;

/**
 * Sponsor links: new tab, and marked as paid so search engines do not pass ranking to them. They
 * lead through our own redirect, which counts the click and fills the sponsor's address from the
 * visit (decision 152): the link sends its Referer (this page and its query) to us alone, and the
 * redirect sends none on to the sponsor, as `noreferrer` did.
 */
function OfferLink({ className, children }: { className?: string; children: React.ReactNode }) {
  return (
    <a href={OFFER_PATH} target="_blank" rel="sponsored noopener" className={className}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

export default function Gold() {
  const site = useSiteConfig();
  const cta = buttonVariants({ variant: "gold", size: "lg" });
  return (
    <div className="flex min-h-screen flex-col">
      <header className="bg-primary text-primary-foreground">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-4">
          <Link to="/home" className="flex items-center gap-2 text-lg font-extrabold">
            <BrandMark />
            {site.name}
          </Link>
          <nav aria-label="Main" className="flex flex-wrap items-center gap-x-5 gap-y-2">
            <ul className="flex gap-5 text-sm font-semibold">
              {GOLD_NAV.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} className="hover:text-gold-soft hover:underline">
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
            {/* A signed-in person's Account and Sign Out, as on every page (rendered per request, decision 036). */}
            <AccountLinks layout="bar" />
          </nav>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <section className="bg-muted">
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 md:grid-cols-2">
            <div>
              <p className="inline-block rounded border border-muted-foreground px-2 py-0.5 text-xs font-bold uppercase tracking-widest text-muted-foreground">
                Advertisement
              </p>
              <h1 className="mt-4 text-4xl font-extrabold leading-tight text-primary md:text-5xl">
                Get Your Free Retirement Wealth Guide
              </h1>
              <p className="mt-5 text-lg text-muted-foreground">
                Learn how thousands of Americans are using physical gold and silver to help protect their retirement
                savings from inflation, market crashes and a weakening dollar. The guide is free and there is no
                obligation.
              </p>
              <OfferLink className={cn(cta, "mt-8")}>
                Claim My Free Guide
              </OfferLink>
            </div>
            <OfferLink className="block">
              <img
                src="/images/gold-guide.svg"
                alt="The free retirement wealth guide beside gold bars and a gold coin"
                width={1200}
                height={675}
                fetchPriority="high"
                loading="eager"
                decoding="async"
                className="w-full rounded-lg shadow-xl"
              />
            </OfferLink>
          </div>
        </section>

        <section className="py-14" aria-labelledby="inside-heading">
          <div className="mx-auto max-w-4xl px-4">
            <h2 id="inside-heading" className="flex items-center gap-3 text-3xl font-extrabold text-primary">
              <Icon node={BookOpen} className="h-8 w-8 text-accent" /> What’s Inside the Guide
            </h2>
            <ul className="mt-6 space-y-3">
              {GUIDE_CONTENTS.map((item) => (
                <li key={item} className="flex gap-3 text-lg">
                  <Icon node={CircleCheck} className="mt-1 h-5 w-5 shrink-0 text-success" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section className="bg-primary py-14 text-white" aria-labelledby="why-heading">
          <div className="mx-auto grid max-w-4xl gap-8 px-4 md:grid-cols-2">
            <div>
              <Icon node={TrendingDown} className="h-10 w-10 text-gold" />
              <h2 id="why-heading" className="mt-3 text-2xl font-extrabold">
                Why Retirees Are Paying Attention
              </h2>
              <p className="mt-3 text-on-primary-muted">
                Every dollar saved for retirement buys less when prices rise. Gold has served as a store of value for
                thousands of years, and many investors hold a small share of their savings in precious metals as
                insurance against the unexpected.
              </p>
            </div>
            <div>
              <Icon node={ShieldAlert} className="h-10 w-10 text-gold" />
              <h2 className="mt-3 text-2xl font-extrabold">Know the Risks Too</h2>
              <p className="mt-3 text-on-primary-muted">
                Precious metal prices rise and fall, dealers charge premiums, and metals pay no interest or dividends.
                Read the guide, compare the costs and talk to a licensed professional before you decide.
              </p>
            </div>
          </div>
          <div className="mt-10 text-center">
            <OfferLink className={cta}>
              Send Me the Free Guide
            </OfferLink>
          </div>
        </section>

        <section className="py-10">
          <p className="mx-auto max-w-4xl px-4 text-sm leading-relaxed text-muted-foreground">
            <strong>Advertising disclosure:</strong> This page is a paid advertisement. {site.name} may be compensated
            when you request the guide or do business with the sponsor. The sponsor’s offer is governed by its own
            terms and privacy policy. This page is educational and is not personalized investment advice; precious
            metals carry risk, including the loss of principal.
          </p>
        </section>
      </main>
      <footer className="bg-primary text-sm text-on-primary-muted">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-6">
          <p>
            &copy; {site.year} {site.name}
          </p>
          <nav aria-label="Legal">
            <ul className="flex gap-5">
              <li>
                <Link to="/terms" className="underline hover:text-white">
                  Terms of Service
                </Link>
              </li>
              <li>
                <Link to="/privacy" className="underline hover:text-white">
                  Privacy Policy
                </Link>
              </li>
            </ul>
          </nav>
        </div>
      </footer>
    </div>
  );
}
