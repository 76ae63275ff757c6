CREATE TABLE "published_articles" (
	"article_id" uuid PRIMARY KEY NOT NULL,
	"revision_id" bigint NOT NULL,
	"slug" text NOT NULL,
	"featured" boolean NOT NULL,
	"publish_at" timestamp with time zone NOT NULL,
	"content_updated_at" timestamp with time zone NOT NULL,
	"title" text NOT NULL,
	"excerpt" text NOT NULL,
	"category" text NOT NULL,
	"image" text NOT NULL,
	"image_alt" text NOT NULL,
	"author_id" uuid NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"sponsored" boolean NOT NULL,
	"sponsor_name" text,
	"word_count" integer NOT NULL,
	"search" "tsvector" NOT NULL,
	"search_head" "tsvector" NOT NULL
);
--> statement-breakpoint
DROP INDEX "article_revisions_search_idx";--> statement-breakpoint
ALTER TABLE "published_articles" ADD CONSTRAINT "published_articles_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "published_articles_search_idx" ON "published_articles" USING gin ("search");--> statement-breakpoint
CREATE INDEX "published_articles_publish_idx" ON "published_articles" USING btree ("publish_at","slug");--> statement-breakpoint
ALTER TABLE "article_revisions" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "article_revisions" DROP COLUMN "search_head";--> statement-breakpoint
-- One source for an article's published row (decision 078): written from its live revision while
-- it is published, removed otherwise. Called by the trigger below and by db:import's rebuild. The
-- word count is countWords of app/content/registry.ts in SQL (its \s spelled out as JavaScript's),
-- held to it by published-articles.server.test.ts.
CREATE FUNCTION published_articles_refresh(target uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM published_articles WHERE article_id = target;
  INSERT INTO published_articles (article_id, revision_id, slug, featured, publish_at, content_updated_at, title, excerpt, category, image, image_alt,
    author_id, seo_title, seo_description, sponsored, sponsor_name, word_count, search, search_head)
  SELECT a.id, r.id, a.slug, a.featured, a.publish_at, coalesce(a.content_updated_at, a.publish_at),
    coalesce(r.content->>'title', ''), coalesce(r.content->>'excerpt', ''), coalesce(r.content->>'category', ''), coalesce(r.content->>'image', ''),
    coalesce(r.content->>'imageAlt', ''), (r.content->>'authorId')::uuid, r.content->>'seoTitle', r.content->>'seoDescription',
    coalesce((r.content->>'sponsored')::boolean, false), r.content->>'sponsorName',
    (SELECT count(*) FROM regexp_split_to_table(regexp_replace(coalesce(r.content->>'body', ''), '[#>*_`|\[\]()-]', ' ', 'g'),
      '[ \t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+') AS word WHERE word ~ '[A-Za-z0-9]'),
    setweight(to_tsvector('english', coalesce(r.content->>'title', '')), 'A') || setweight(to_tsvector('english', coalesce(r.content->>'excerpt', '')), 'B') || setweight(to_tsvector('english', coalesce(r.content->>'body', '')), 'C'),
    setweight(to_tsvector('english', coalesce(r.content->>'title', '')), 'A') || setweight(to_tsvector('english', coalesce(r.content->>'excerpt', '')), 'B')
  FROM articles a JOIN article_revisions r ON r.id = a.live_revision_id
  WHERE a.id = target AND a.status = 'published' AND a.publish_at IS NOT NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION published_articles_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only the columns the row reads: a save of the working copy costs nothing here.
  IF TG_OP = 'UPDATE' AND NEW.status IS NOT DISTINCT FROM OLD.status AND NEW.live_revision_id IS NOT DISTINCT FROM OLD.live_revision_id
    AND NEW.slug IS NOT DISTINCT FROM OLD.slug AND NEW.publish_at IS NOT DISTINCT FROM OLD.publish_at
    AND NEW.content_updated_at IS NOT DISTINCT FROM OLD.content_updated_at AND NEW.featured IS NOT DISTINCT FROM OLD.featured THEN
    RETURN NULL;
  END IF;
  PERFORM published_articles_refresh(NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER published_articles_sync
  AFTER INSERT OR UPDATE OF status, live_revision_id, slug, publish_at, content_updated_at, featured ON articles
  FOR EACH ROW EXECUTE FUNCTION published_articles_sync();--> statement-breakpoint
SELECT published_articles_refresh(id) FROM articles WHERE status = 'published';
