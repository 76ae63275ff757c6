import { ChartColumn, Coins, Landmark, PiggyBank, Scale, ShieldCheck, Users, Flag } from "lucide";
import { Icon } from "~/components/ui/icon";
import type { Route } from "./+types/about";
import { JsonLd } from "~/components/site/json-ld";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FOUNDED_YEAR, POSTS_PER_WEEK, SUBSCRIBE_HREF, SUBSCRIBER_CLAIM } from "~/config/site";
import { pageMeta } from "~/lib/route-meta";
import { breadcrumbJsonLd } from "~/lib/seo";
import { useSiteConfig } from "~/root";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "About Us",
    description: `Founded in ${FOUNDED_YEAR}, we publish conservative, educational market insight for American retail investors who value sound money and self-reliance.`,
    path: "/about",
    image: "/images/about-story.svg",
  });

const CORE_VALUES = [
  { icon: Flag, title: "Patriotism", text: "We believe in America, her free markets and the promise that hard work builds a better life." },
  { icon: ShieldCheck, title: "Integrity", text: "We say what we think, show how we got there and correct ourselves in public when we are wrong." },
  { icon: Scale, title: "Independence", text: "No Wall Street firm or political party tells us what to write. Our loyalty is to our readers." },
  { icon: Users, title: "Education", text: "We explain instead of sell, so you can make your own decisions with a clear head." },
] as const;

const EXPERTISE = [
  { icon: ChartColumn, title: "Market Analysis", text: "Stocks, the Federal Reserve and the economy, explained in plain English with the long view in mind." },
  { icon: Coins, title: "Precious Metals", text: "Gold and silver as money, as insurance and as a hedge against the slow erosion of the dollar." },
  { icon: PiggyBank, title: "Retirement Planning", text: "Protecting 401(k)s and IRAs from inflation, fees and the next downturn, so your nest egg lasts." },
] as const;

export default function About() {
  const site = useSiteConfig();
  return (
    <>
      <JsonLd data={breadcrumbJsonLd(site, [{ name: "About", path: "/about" }])} />
      <section className="bg-primary py-16 text-white">
        <div className="mx-auto max-w-4xl px-4 text-center">
          <h1 className="text-4xl font-extrabold md:text-5xl">About {site.name}</h1>
          <p className="mt-5 text-lg text-on-primary-muted">
            Our mission is to help everyday Americans protect and grow their wealth with honest, conservative and
            educational market insight: no jargon, no hype and no political spin.
          </p>
        </div>
      </section>

      <section className="py-16" aria-labelledby="values-heading">
        <div className="mx-auto max-w-7xl px-4">
          <h2 id="values-heading" className="text-center text-3xl font-extrabold text-primary">
            Our Core Values
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {CORE_VALUES.map(({ icon, title, text }) => (
              <li key={title}>
                <Card className="h-full p-6">
                  <Icon node={icon} className="h-10 w-10 text-accent" />
                  <h3 className="mt-4 text-lg font-bold text-primary">{title}</h3>
                  <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
                </Card>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="bg-muted py-16" aria-labelledby="story-heading">
        <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 md:grid-cols-2">
          <div>
            <h2 id="story-heading" className="text-3xl font-extrabold text-primary">
              Our Story
            </h2>
            <p className="mt-4 leading-relaxed text-muted-foreground">
              {site.name} was founded in {FOUNDED_YEAR} by a small group of investors and writers who were tired of
              financial news that talked down to ordinary Americans, or talked past them. We saw families working hard,
              saving diligently and still watching inflation, fees and bad advice eat away at their future.
            </p>
            <p className="mt-4 leading-relaxed text-muted-foreground">
              So we started writing the analysis we wanted to read ourselves: plain-spoken, grounded in conservative
              principles and focused on what protects a family’s savings over decades, not days. Today we publish{" "}
              {POSTS_PER_WEEK} posts every week and more than {SUBSCRIBER_CLAIM} subscribers read our work.
            </p>
          </div>
          <img
            src="/images/about-story.svg"
            alt="A desk with a newspaper, a cup of coffee and a market chart on a screen"
            width={1200}
            height={675}
            loading="lazy"
            decoding="async"
            className="w-full rounded-lg shadow-lg"
          />
        </div>
      </section>

      <section className="py-16" aria-labelledby="expertise-heading">
        <div className="mx-auto max-w-7xl px-4">
          <h2 id="expertise-heading" className="text-center text-3xl font-extrabold text-primary">
            Our Expertise
          </h2>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {EXPERTISE.map(({ icon, title, text }) => (
              <Card key={title} className="p-6">
                <Icon node={icon} className="h-10 w-10 text-accent" />
                <h3 className="mt-4 text-xl font-bold text-primary">{title}</h3>
                <p className="mt-2 leading-relaxed text-muted-foreground">{text}</p>
              </Card>
            ))}
          </div>
        </div>
      </section>

      <section className="bg-accent py-16 text-center text-white" aria-labelledby="movement-heading">
        <div className="mx-auto max-w-3xl px-4">
          <Icon node={Landmark} className="mx-auto h-12 w-12" />
          <h2 id="movement-heading" className="mt-4 text-3xl font-extrabold">
            Join the Movement
          </h2>
          <p className="mt-4 text-lg">
            Stand with {SUBSCRIBER_CLAIM}+ Americans who are taking responsibility for their financial future. Get our
            newsletter and breaking market alerts, free.
          </p>
          <ButtonLink to={SUBSCRIBE_HREF} variant="navy" size="lg" className="mt-8">
            Subscribe Now
          </ButtonLink>
        </div>
      </section>
    </>
  );
}
