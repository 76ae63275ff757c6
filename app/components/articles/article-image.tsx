import { ResponsiveImage } from "~/components/media/responsive-image";
import { ARTICLE_TEXTS } from "~/lib/article-texts";
import { cn } from "~/lib/cn";

/**
 * Every image of the editorial desk (article covers, teasers, author photos) goes through this one
 * component, so the switch to responsive images of uploads is one place. `/images/…` files are
 * 1200×675 illustrations; an upload reference `/media/<id>/<width>x<height>` carries its size.
 */
export function ArticleImage({
  src,
  alt,
  sizes = "100vw",
  priority = false,
  className,
  width = 1200,
  height = 675,
}: {
  src: string;
  alt: string;
  sizes?: string;
  priority?: boolean;
  className?: string;
  width?: number;
  height?: number;
}) {
  // A draft's preview may have no image yet: nothing rather than an empty src.
  if (!src) return null;
  // An upload becomes a <picture> (AVIF, WebP, JPEG with srcset); a site file stays one <img>.
  return <ResponsiveImage src={src} alt={alt} sizes={sizes} priority={priority} className={className} width={width} height={height} />;
}

/** The FTC label of a sponsored article, before its headline (and on its teasers). */
export function SponsoredLabel({ sponsorName, className }: { sponsorName: string | null; className?: string }) {
  // The two parts wrap onto two lines in a narrow card (with no space between them they made one
  // unbreakable run, wider than a Keep reading card); the space is also what a screen reader reads.
  return (
    <p className={cn("flex flex-wrap items-center gap-x-2 gap-y-1", className)} data-testid="sponsored-label">
      <span className="rounded bg-muted px-2 py-0.5 text-xs font-bold uppercase tracking-widest text-foreground">{ARTICLE_TEXTS.advertisement}</span>
      {sponsorName ? (
        <>
          {" "}
          <span className="text-xs font-semibold">{ARTICLE_TEXTS.sponsoredBy(sponsorName)}</span>
        </>
      ) : null}
    </p>
  );
}
