import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import type { ArticleTeaser } from "~/content/teasers";
import { formatLongDate } from "~/lib/dates";
import { ArticleImage, SponsoredLabel } from "~/components/articles/article-image";

type ArticleCardProps = {
  article: ArticleTeaser;
  /** Blog grid links open in a new tab (spec); home teasers stay in the tab. */
  newTab?: boolean;
  headingLevel?: "h2" | "h3";
};

export function ArticleCard({ article, newTab = false, headingLevel: Heading = "h3" }: ArticleCardProps) {
  const target = newTab ? { target: "_blank", rel: "noopener" } : {};
  return (
    <Card className="flex flex-col overflow-hidden">
      <ArticleImage src={article.image} alt="" sizes="(min-width: 1280px) 400px, (min-width: 768px) 50vw, 100vw" className="aspect-video w-full object-cover" />
      <div className="flex flex-1 flex-col p-5">
        {article.sponsored ? <SponsoredLabel sponsorName={article.sponsorName} className="mb-2 text-muted-foreground" /> : null}
        <p className="text-xs font-bold uppercase tracking-widest text-accent-strong">{article.category}</p>
        <Heading className="mt-2 text-xl font-extrabold leading-snug text-primary">
          <Link to={`/articles/${article.slug}`} className="hover:underline" {...target}>
            {article.title}
            {newTab ? <span className="sr-only"> (opens in a new tab)</span> : null}
          </Link>
        </Heading>
        <p className="mt-2 flex-1 text-sm leading-relaxed text-muted-foreground">{article.excerpt}</p>
        <p className="mt-4 text-xs text-muted-foreground">
          <span>{article.author}</span> · <time dateTime={article.date}>{formatLongDate(article.date)}</time> ·{" "}
          {article.readingMinutes} min read
        </p>
      </div>
    </Card>
  );
}
