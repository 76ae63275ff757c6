CREATE TABLE "article_search" (
	"article_id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"publish_at" timestamp with time zone,
	"search" "tsvector" NOT NULL,
	"search_head" "tsvector" NOT NULL
);
--> statement-breakpoint
DROP INDEX "article_revisions_search_idx";--> statement-breakpoint
ALTER TABLE "article_search" ADD CONSTRAINT "article_search_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_search_search_idx" ON "article_search" USING gin ("search");--> statement-breakpoint
ALTER TABLE "article_revisions" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "article_revisions" DROP COLUMN "search_head";--> statement-breakpoint
-- One source for an article's search row (decision 074): its live revision's words while it is
-- published, no row otherwise. Called by the trigger below and by db:import's rebuild.
CREATE FUNCTION article_search_refresh(target uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM article_search WHERE article_id = target;
  INSERT INTO article_search (article_id, slug, publish_at, search, search_head)
  SELECT a.id, a.slug, a.publish_at,
    setweight(to_tsvector('english', coalesce(r.content->>'title', '')), 'A') || setweight(to_tsvector('english', coalesce(r.content->>'excerpt', '')), 'B') || setweight(to_tsvector('english', coalesce(r.content->>'body', '')), 'C'),
    setweight(to_tsvector('english', coalesce(r.content->>'title', '')), 'A') || setweight(to_tsvector('english', coalesce(r.content->>'excerpt', '')), 'B')
  FROM articles a JOIN article_revisions r ON r.id = a.live_revision_id
  WHERE a.id = target AND a.status = 'published';
END $$;--> statement-breakpoint
CREATE FUNCTION article_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only the columns search reads: a save of the working copy costs nothing here.
  IF TG_OP = 'UPDATE' AND NEW.status IS NOT DISTINCT FROM OLD.status AND NEW.live_revision_id IS NOT DISTINCT FROM OLD.live_revision_id
    AND NEW.slug IS NOT DISTINCT FROM OLD.slug AND NEW.publish_at IS NOT DISTINCT FROM OLD.publish_at THEN
    RETURN NULL;
  END IF;
  PERFORM article_search_refresh(NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER article_search_sync
  AFTER INSERT OR UPDATE OF status, live_revision_id, slug, publish_at ON articles
  FOR EACH ROW EXECUTE FUNCTION article_search_sync();--> statement-breakpoint
SELECT article_search_refresh(id) FROM articles WHERE status = 'published';
