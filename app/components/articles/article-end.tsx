import { BellRing, Mail } from "lucide";
import { Icon } from "~/components/ui/icon";
import { Link } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import type { ArticleTeaser } from "~/content/teasers";
import { ARTICLE_TEXTS } from "~/lib/article-texts";
import { formatLongDate } from "~/lib/dates";
import { ArticleImage, SponsoredLabel } from "./article-image";

/**
 * Under every article: where to sign up and what to read next. Plain links, so the prerendered
 * article keeps shipping no JavaScript; the forms themselves live on /home and /opt-in.
 */
export function ArticleEnd({ related }: { related: ArticleTeaser[] }) {
  return (
    <>
      <section aria-labelledby="subscribe-heading" className="mt-12 rounded-lg bg-primary p-6 text-white md:p-8" data-testid="article-subscribe">
        <h2 id="subscribe-heading" className="text-2xl font-extrabold">
          {ARTICLE_TEXTS.endSubscribeHeading}
        </h2>
        <p className="mt-2 text-on-primary-muted">{ARTICLE_TEXTS.endSubscribeText}</p>
        <div className="mt-5 flex flex-col gap-3 sm:flex-row">
          <ButtonLink to="/home#newsletter" variant="gold">
            <Icon node={Mail} className="h-5 w-5" /> {ARTICLE_TEXTS.endNewsletterButton}
          </ButtonLink>
          <ButtonLink to="/opt-in" variant="outlineLight">
            <Icon node={BellRing} className="h-5 w-5" /> {ARTICLE_TEXTS.endAlertsButton}
          </ButtonLink>
        </div>
      </section>
      {related.length > 0 ? (
        <section aria-labelledby="related-heading" className="mt-12" data-testid="related-articles">
          <h2 id="related-heading" className="text-2xl font-extrabold text-primary">
            {ARTICLE_TEXTS.keepReading}
          </h2>
          <ul className="mt-5 grid gap-6 sm:grid-cols-3">
            {related.map((article) => (
              <li key={article.slug} className="flex flex-col overflow-hidden rounded-lg border border-border bg-card">
                <ArticleImage src={article.image} alt="" sizes="(min-width: 640px) 250px, 100vw" className="aspect-video w-full object-cover" />
                <div className="flex flex-1 flex-col p-4">
                  {article.sponsored ? <SponsoredLabel sponsorName={article.sponsorName} className="mb-2 text-muted-foreground" /> : null}
                  <p className="text-xs font-bold uppercase tracking-widest text-accent-strong">{article.category}</p>
                  <h3 className="mt-1 font-sans text-base font-extrabold leading-snug text-primary">
                    <Link to={`/articles/${article.slug}`} className="hover:underline">
                      {article.title}
                    </Link>
                  </h3>
                  <p className="mt-auto pt-2 text-xs text-muted-foreground">
                    <time dateTime={article.date}>{formatLongDate(article.date)}</time> · {article.readingMinutes} min read
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
