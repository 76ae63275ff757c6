import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/admin-author";
import { requireEditor } from "~/auth/guards.server";
import { AuthorForm, type AuthorFormValues } from "~/components/admin/articles/author-form";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { ARTICLE_NOTICES, articleNotice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { contentSettled } from "~/services/content/changes.server";
import { formatLinks, getAuthor, updateAuthor } from "~/services/content/authors.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireEditor(request);
  const author = UUID.test(params.id) ? await getAuthor(await getDb(), params.id) : null;
  if (!author) throw data(null, { status: 404 });
  return {
    values: { name: author.name, slug: author.slug, bio: author.bio, credentials: author.credentials, photo: author.photo ?? "", links: formatLinks(author.links) } satisfies AuthorFormValues,
    notice: articleNotice(new URL(request.url).searchParams.get("done")),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireEditor(request);
  if (!UUID.test(params.id)) throw data(null, { status: 404 });
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const result = await updateAuthor(await getDb(), { id: params.id, input: body.form, actor: user.email });
  if (!result.ok) {
    if (result.code === "not_found") throw data(null, { status: 404 });
    return data({ notice: ARTICLE_NOTICES.authorInvalid, errors: result.errors, values: body.form }, { status: 400 });
  }
  await contentSettled();
  throw redirect(`/admin/authors/${params.id}?done=authorSaved`);
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, { title: loaderData ? `Author: ${loaderData.values.name}` : "Author", description: "Edit an author profile.", path: "/admin/authors", noindex: true });

export default function AdminAuthor({ loaderData, actionData }: Route.ComponentProps) {
  const failed = actionData && "notice" in actionData ? actionData : undefined;
  const values = { ...loaderData.values, ...(failed?.values as Partial<AuthorFormValues> | undefined) };
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/admin/authors" className="font-semibold text-primary hover:underline">
          All authors
        </Link>
      </p>
      <h1 className="text-3xl font-extrabold text-primary">{loaderData.values.name}</h1>
      {failed ? <NoticeBanner notice={failed.notice} /> : loaderData.notice ? <NoticeBanner notice={loaderData.notice} /> : null}
      <Card className="max-w-2xl p-6">
        <AuthorForm key={JSON.stringify(values)} values={values} errors={failed?.errors} submitLabel="Save profile" />
      </Card>
    </div>
  );
}
