import { Link } from "react-router";
import { Award, BellRing, Eye, Flag, HeartHandshake, Landmark, ShieldCheck, Target, TrendingUp } from "lucide";
import { Icon } from "~/components/ui/icon";
import { ArticleCard } from "~/components/blog/article-card";
import { lazy, Suspense } from "react";
import type { NewsletterActionData } from "~/components/site/newsletter-section";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { POSTS_PER_WEEK, SUBSCRIBE_HREF, SUBSCRIBER_CLAIM, type PublicSiteConfig } from "~/config/site";
import type { ArticleTeaser } from "~/content/teasers";

// Below the fold: its code loads right after the page, not with it (the HTML is complete either way).
const NewsletterSection = lazy(() =>
  import("~/components/site/newsletter-section").then((module) => ({ default: module.NewsletterSection })),
);

const WHY_US = [
  {
    icon: ShieldCheck,
    title: "Conservative Principles",
    text: "Sound money, limited government and personal responsibility guide every analysis we publish.",
  },
  {
    icon: TrendingUp,
    title: "Clear Market Analysis",
    text: `${POSTS_PER_WEEK} new posts every week that explain what the markets are doing and why it matters to your savings.`,
  },
  {
    icon: BellRing,
    title: "Timely SMS Alerts",
    text: "Breaking market alerts sent straight to your phone when the news moves markets, with no noise in between.",
  },
  {
    icon: Landmark,
    title: "Trusted by Patriots",
    text: `More than ${SUBSCRIBER_CLAIM} subscribers rely on our plain-spoken, independent insight.`,
  },
] as const;

const PILLARS = [
  {
    icon: Target,
    title: "Our Mission",
    text: "To give everyday Americans the knowledge they need to protect and grow the wealth they have worked for, without Wall Street jargon or political spin.",
  },
  {
    icon: Eye,
    title: "Our Vision",
    text: "A nation of financially independent families who understand sound money, own productive assets and pass on both their wealth and their values.",
  },
  {
    icon: HeartHandshake,
    title: "Our Commitment",
    text: "Honest, educational content that puts your interests first. We tell you what we think, show our reasoning and never promise easy riches.",
  },
] as const;

export function HomePage({
  site,
  latest,
  newsletterResult,
}: {
  site: PublicSiteConfig;
  latest: ArticleTeaser[];
  newsletterResult?: NewsletterActionData;
}) {
  return (
    <>
      <div className="bg-gold-soft text-gold-foreground">
        <p className="mx-auto max-w-7xl px-4 py-2 text-center text-sm">
          <strong>Disclaimer:</strong> Educational content only. Not personalized investment advice. Investing involves
          risk of loss.{" "}
          <Link to="/disclaimer" className="font-semibold underline">
            Read our full disclaimer
          </Link>
          .
        </p>
      </div>

      <section className="relative overflow-hidden bg-primary text-white" aria-labelledby="hero-heading">
        <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-14 md:grid-cols-2 md:py-20">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-primary-soft px-3 py-1 text-xs font-bold uppercase tracking-widest text-gold-soft">
              <Icon node={Flag} className="h-4 w-4" /> America First Investing
            </p>
            <h1 id="hero-heading" className="mt-5 text-4xl font-extrabold leading-tight md:text-5xl">
              Protect Your Wealth. Defend Your Future.
            </h1>
            <p className="mt-5 text-lg text-on-primary-muted">
              {site.name} delivers conservative market insight on stocks, bonds, precious metals and retirement for
              Americans who believe in sound money, hard work and financial independence.
            </p>
            <div className="mt-8 flex flex-wrap gap-4">
              <ButtonLink to={SUBSCRIBE_HREF} size="lg">
                GET STARTED
              </ButtonLink>
              <ButtonLink to="/about" size="lg" variant="outlineLight">
                Learn More<span className="sr-only"> about {site.name}</span>
              </ButtonLink>
            </div>
          </div>
          <img
            src="/images/hero-home.svg"
            alt="Stars and stripes behind a rising market chart and a city skyline"
            width={1200}
            height={675}
            fetchPriority="high"
            loading="eager"
            decoding="async"
            className="w-full rounded-lg shadow-2xl"
          />
        </div>
      </section>

      <section className="py-16" aria-labelledby="why-heading">
        <div className="mx-auto max-w-7xl px-4">
          <h2 id="why-heading" className="text-center text-3xl font-extrabold text-primary">
            Why Investors Choose {site.name}
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {WHY_US.map(({ icon, title, text }) => (
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

      <section className="bg-muted py-16" aria-labelledby="mission-heading">
        <div className="mx-auto max-w-7xl px-4">
          <h2 id="mission-heading" className="text-center text-3xl font-extrabold text-primary">
            What We Stand For
          </h2>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {PILLARS.map(({ icon, title, text }) => (
              <Card key={title} className="p-6 text-center">
                <Icon node={icon} className="mx-auto h-10 w-10 text-gold-foreground" />
                <h3 className="mt-4 text-xl font-bold text-primary">{title}</h3>
                <p className="mt-2 leading-relaxed text-muted-foreground">{text}</p>
              </Card>
            ))}
          </div>
        </div>
      </section>

      <section className="py-16" aria-labelledby="insights-heading">
        <div className="mx-auto max-w-7xl px-4">
          <div className="flex items-center justify-center gap-2 text-accent">
            <Icon node={Award} className="h-5 w-5" />
            <p className="text-sm font-bold uppercase tracking-widest">Fresh analysis</p>
          </div>
          <h2 id="insights-heading" className="mt-2 text-center text-3xl font-extrabold text-primary">
            Latest Market Insights
          </h2>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {latest.map((article) => (
              <ArticleCard key={article.slug} article={article} />
            ))}
          </div>
          <div className="mt-10 text-center">
            <ButtonLink to="/blog" variant="navy" size="lg">
              View All Articles
            </ButtonLink>
          </div>
        </div>
      </section>

      <Suspense fallback={null}>
        <NewsletterSection siteName={site.name} serverResult={newsletterResult} />
      </Suspense>
    </>
  );
}
