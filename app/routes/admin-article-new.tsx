import { redirect } from "react-router";
import type { Route } from "./+types/admin-article-new";
import { requireEditor } from "~/auth/guards.server";
import { ArticleForm, type ArticleFormValues } from "~/components/admin/articles/article-form";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormParamsOrAnswer } from "~/http/body.server";
import { ARTICLE_FORM_LIMIT, articleFailure, articleInput, scheduleTime } from "~/http/article-admin.server";
import { ARTICLE_NOTICES } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { contentSettled } from "~/services/content/changes.server";
import { parseCompleteFields } from "~/services/content/article-fields";
import { createDraft, publishArticle, scheduleArticle } from "~/services/content/articles.server";
import { listAuthors } from "~/services/content/authors.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireEditor(request);
  const authors = await listAuthors(await getDb());
  return { authors: authors.map((author) => ({ id: author.id, name: author.name })) };
}

/** Creates the draft; Publish and Schedule check the whole article first, so a refusal creates nothing. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireEditor(request);
  const body = await readFormParamsOrAnswer(request, ARTICLE_FORM_LIMIT);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const intent = form.get("intent") ?? "save";
  const input = articleInput(form);
  const db = await getDb();
  const when = intent === "schedule" ? scheduleTime(form) : null;
  if (intent === "publish" || intent === "schedule") {
    const complete = parseCompleteFields(input);
    const timeError = when && "error" in when ? when.error : null;
    if (!complete.ok || timeError) return articleFailure({ ok: false, code: "invalid", errors: { ...(complete.ok ? {} : complete.errors), ...(timeError ? { publishAt: timeError } : {}) } }, input);
  }
  const created = await createDraft(db, { input, actor: user.email });
  if (!created.ok) return articleFailure(created, input);
  const edit = { id: created.article.id, input, expectedVersion: created.article.version, actor: user.email };
  if (intent === "publish") {
    const published = await publishArticle(db, edit);
    if (!published.ok) return articleFailure(published, input);
    await contentSettled();
    throw redirect(`/admin/articles/${created.article.id}?done=published`);
  }
  if (when && "at" in when) {
    const scheduled = await scheduleArticle(db, { ...edit, at: when.at });
    if (!scheduled.ok) throw redirect(`/admin/articles/${created.article.id}?done=created`);
    throw redirect(`/admin/articles/${created.article.id}?done=scheduled`);
  }
  throw redirect(`/admin/articles/${created.article.id}?done=created`);
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "New Article", description: "Write a new article.", path: "/admin/articles/new", noindex: true });

const EMPTY: ArticleFormValues = { title: "", slug: "", excerpt: "", body: "", category: "Market Analysis", image: "", imageAlt: "", authorId: "", seoTitle: "", seoDescription: "", sponsored: false, sponsorName: "", featured: false };

export default function AdminArticleNew({ loaderData, actionData }: Route.ComponentProps) {
  const values = { ...EMPTY, authorId: loaderData.authors[0]?.id ?? "", ...(actionData && "values" in actionData ? (actionData.values as Partial<ArticleFormValues>) : {}) };
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-extrabold text-primary">New article</h1>
      {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} /> : null}
      {loaderData.authors.length === 0 ? <NoticeBanner notice={{ ...ARTICLE_NOTICES.invalid, description: "Create an author profile first (Authors)." }} /> : null}
      <ArticleForm key={JSON.stringify(values)} values={values} errors={actionData && "errors" in actionData ? actionData.errors : undefined} authors={loaderData.authors} />
    </div>
  );
}
