import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin-article";
import { requireEditor } from "~/auth/guards.server";
import { authSecret } from "~/auth/secret.server";
import { ArticleForm, type ArticleFormValues } from "~/components/admin/articles/article-form";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormParamsOrAnswer } from "~/http/body.server";
import { ARTICLE_FORM_LIMIT, articleFailure, articleInput, autosaveResponse, expectedVersion, scheduleTime } from "~/http/article-admin.server";
import { getEnv } from "~/http/env.server";
import { ARTICLE_NOTICES, articleNotice } from "~/lib/notices";
import { ARTICLE_STATUS_LABEL } from "~/lib/article-texts";
import { pageMeta } from "~/lib/route-meta";
import { contentSettled } from "~/services/content/changes.server";
import { formatInZone } from "~/lib/zoned-time";
import {
  getArticleById,
  listRevisions,
  publishArticle,
  restoreRevision,
  saveArticle,
  scheduleArticle,
  unpublishArticle,
} from "~/services/content/articles.server";
import { listAuthors } from "~/services/content/authors.server";
import { markFeatured } from "~/services/content/featured.server";
import { PREVIEW_LINK_DAYS, signPreviewToken } from "~/services/content/preview-token.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireEditor(request);
  if (!UUID.test(params.id)) throw data(null, { status: 404 });
  const db = await getDb();
  const article = await getArticleById(db, params.id);
  if (!article) throw data(null, { status: 404 });
  const [authors, revisions] = await Promise.all([listAuthors(db), listRevisions(db, article.id)]);
  const env = getEnv();
  const preview = signPreviewToken(authSecret(env), article.id);
  return {
    article: {
      id: article.id,
      slug: article.slug,
      status: article.status,
      version: article.version,
      featured: article.featured,
      publishAt: article.publishAt ? formatInZone(article.publishAt, "America/New_York") : null,
      slugLocked: article.firstPublishedAt !== null,
    },
    values: {
      title: article.title,
      slug: article.slug,
      excerpt: article.excerpt,
      body: article.body,
      category: article.category,
      image: article.image,
      imageAlt: article.imageAlt,
      authorId: article.authorId,
      seoTitle: article.seoTitle ?? "",
      seoDescription: article.seoDescription ?? "",
      sponsored: article.sponsored,
      sponsorName: article.sponsorName ?? "",
      featured: article.featured,
    } satisfies ArticleFormValues,
    authors: authors.map((author) => ({ id: author.id, name: author.name })),
    revisions: revisions.map((revision) => ({ ...revision, createdAt: formatInZone(revision.createdAt, "America/New_York") })),
    previewUrl: `${env.SITE_URL}/preview/articles/${article.id}?token=${preview.token}`,
    previewDays: PREVIEW_LINK_DAYS,
    notice: articleNotice(new URL(request.url).searchParams.get("done")),
  };
}

/**
 * One action per button (intent). `autosave` answers JSON (autosaveResponse) for a fetcher; the
 * same answer as plain JSON for any client is `POST /admin/articles/:id/autosave`.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireEditor(request);
  if (!UUID.test(params.id)) throw data(null, { status: 404 });
  const body = await readFormParamsOrAnswer(request, ARTICLE_FORM_LIMIT);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const intent = form.get("intent") ?? "";
  const db = await getDb();
  const id = params.id;
  const done = (key: keyof typeof ARTICLE_NOTICES) => redirect(`/admin/articles/${id}?done=${key}`);

  if (intent === "unpublish") {
    const result = await unpublishArticle(db, { id, actor: user.email });
    if (!result.ok) return articleFailure(result);
    await contentSettled();
    throw done("unpublished");
  }
  if (intent === "feature") {
    const result = await markFeatured(db, { id, actor: user.email });
    if (!result.ok) return articleFailure(result.code === "not_found" ? { ok: false, code: "not_found" } : { ok: false, code: "wrong_state", status: result.status });
    await contentSettled();
    throw done("featured");
  }
  if (intent === "autosave") return autosaveResponse(db, id, form, user.email);
  const version = expectedVersion(form);
  if (version === null) return data({ notice: ARTICLE_NOTICES.stale }, { status: 400 });
  if (intent === "restore") {
    const revisionId = Number(form.get("revisionId"));
    if (!Number.isSafeInteger(revisionId)) return articleFailure({ ok: false, code: "not_found" });
    const result = await restoreRevision(db, { id, revisionId, expectedVersion: version, actor: user.email });
    if (!result.ok) return articleFailure(result);
    throw done("restored");
  }

  const input = articleInput(form);
  const edit = { id, input, expectedVersion: version, actor: user.email };
  switch (intent) {
    case "save": {
      const result = await saveArticle(db, edit);
      if (!result.ok) return articleFailure(result, input);
      throw done("saved");
    }
    case "publish": {
      const before = await getArticleById(db, id);
      const result = await publishArticle(db, edit);
      if (!result.ok) return articleFailure(result, input);
      await contentSettled();
      throw done(before?.status === "published" ? "updated" : "published");
    }
    case "schedule": {
      const when = scheduleTime(form);
      if ("error" in when) return articleFailure({ ok: false, code: "invalid", errors: { publishAt: when.error } }, input);
      const result = await scheduleArticle(db, { ...edit, at: when.at });
      if (!result.ok) return articleFailure(result, input);
      throw done("scheduled");
    }
    default:
      return data({ notice: ARTICLE_NOTICES.wrongState }, { status: 400 });
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, { title: loaderData ? `Edit: ${loaderData.values.title}` : "Article", description: "Edit an article.", path: "/admin/articles", noindex: true });

export default function AdminArticle({ loaderData, actionData }: Route.ComponentProps) {
  const { article, authors, revisions, previewUrl, previewDays, notice } = loaderData;
  const failed = actionData && "notice" in actionData ? actionData : null;
  const values = { ...loaderData.values, ...(failed && "values" in failed ? (failed.values as Partial<ArticleFormValues>) : {}) };
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm">
            <Link to="/admin/articles" className="font-semibold text-primary hover:underline">
              All articles
            </Link>
          </p>
          <h1 className="mt-1 text-3xl font-extrabold text-primary">{loaderData.values.title}</h1>
          <p className="mt-1 text-sm text-muted-foreground" data-testid="article-status">
            {ARTICLE_STATUS_LABEL[article.status]}
            {article.publishAt ? ` · ${article.status === "scheduled" ? "goes live" : "published"} ${article.publishAt}` : ""}
            {article.featured && article.status === "published" ? " · Featured" : ""}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {article.status === "published" ? (
            <a href={`/articles/${article.slug}`} className="font-semibold text-primary underline">
              View the live page
            </a>
          ) : null}
        </div>
      </div>
      {failed ? <NoticeBanner notice={failed.notice} /> : notice ? <NoticeBanner notice={notice} /> : null}
      <div className="grid gap-8 lg:grid-cols-3">
        <Card className="p-6 lg:col-span-2">
          <ArticleForm
            key={`${article.version}-${JSON.stringify(values).length}`}
            values={values}
            errors={failed && "errors" in failed ? failed.errors : undefined}
            authors={authors}
            version={article.version}
            status={article.status}
            slugLocked={article.slugLocked}
          />
        </Card>
        <div className="space-y-6">
          <Card className="space-y-3 p-6">
            <h2 className="text-lg font-bold text-primary">Preview</h2>
            <p className="text-sm text-muted-foreground">Anyone with this link sees the saved working copy for {previewDays} days; search engines do not index it.</p>
            <a href={previewUrl} className="break-all text-sm font-semibold text-primary underline" data-testid="preview-link">
              Open the preview
            </a>
          </Card>
          {article.status !== "draft" ? (
            <Card className="space-y-3 p-6">
              <h2 className="text-lg font-bold text-primary">{article.status === "published" ? "Take offline" : "Cancel the schedule"}</h2>
              <Form method="post">
                <Button type="submit" name="intent" value="unpublish" variant="outline">
                  Unpublish
                </Button>
              </Form>
              {article.status === "published" && !article.featured ? (
                <Form method="post">
                  <Button type="submit" name="intent" value="feature" variant="outline">
                    Feature on the blog
                  </Button>
                </Form>
              ) : null}
            </Card>
          ) : null}
          <Card className="p-6">
            <h2 className="text-lg font-bold text-primary">Revisions</h2>
            <ol className="mt-3 space-y-3" data-testid="revisions">
              {revisions.map((revision) => (
                <li key={revision.id} className="flex items-start justify-between gap-3 text-sm">
                  <span>
                    <span className="font-semibold capitalize">{revision.reason}</span> · {revision.createdAt}
                    <br />
                    <span className="text-muted-foreground">
                      {revision.title} {revision.createdBy ? `(${revision.createdBy})` : ""}
                    </span>
                  </span>
                  <Form method="post">
                    <input type="hidden" name="expectedVersion" value={article.version} />
                    <input type="hidden" name="revisionId" value={revision.id} />
                    <Button type="submit" name="intent" value="restore" variant="ghost" size="sm" aria-label={`Restore the ${revision.reason} revision of ${revision.createdAt}`}>
                      Restore
                    </Button>
                  </Form>
                </li>
              ))}
            </ol>
          </Card>
        </div>
      </div>
    </div>
  );
}
