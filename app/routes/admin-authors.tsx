import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/admin-authors";
import { requireEditor } from "~/auth/guards.server";
import { AuthorForm, type AuthorFormValues } from "~/components/admin/articles/author-form";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { ARTICLE_NOTICES, articleNotice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { createAuthor, listAuthors } from "~/services/content/authors.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireEditor(request);
  const authors = await listAuthors(await getDb());
  return {
    authors: authors.map((author) => ({ id: author.id, name: author.name, slug: author.slug, credentials: author.credentials })),
    notice: articleNotice(new URL(request.url).searchParams.get("done")),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireEditor(request);
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const result = await createAuthor(await getDb(), { input: body.form, actor: user.email });
  if (!result.ok) return data({ notice: ARTICLE_NOTICES.authorInvalid, errors: result.code === "invalid" ? result.errors : {}, values: body.form }, { status: 400 });
  throw redirect(`/admin/authors/${result.author.id}?done=authorCreated`);
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Authors", description: "Author profiles.", path: "/admin/authors", noindex: true });

const EMPTY: AuthorFormValues = { name: "", slug: "", bio: "", credentials: "", photo: "", links: "" };

export default function AdminAuthors({ loaderData, actionData }: Route.ComponentProps) {
  const failed = actionData && "notice" in actionData ? actionData : undefined;
  const values = { ...EMPTY, ...(failed?.values as Partial<AuthorFormValues> | undefined) };
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-extrabold text-primary">Authors</h1>
      {failed ? <NoticeBanner notice={failed.notice} /> : loaderData.notice ? <NoticeBanner notice={loaderData.notice} /> : null}
      <div className="grid gap-8 lg:grid-cols-2">
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">Profiles</h2>
          <ul className="mt-3 space-y-2">
            {loaderData.authors.map((author) => (
              <li key={author.id}>
                <Link to={`/admin/authors/${author.id}`} className="font-semibold text-primary hover:underline">
                  {author.name}
                </Link>{" "}
                <span className="text-sm text-muted-foreground">/authors/{author.slug}</span>
              </li>
            ))}
          </ul>
        </Card>
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">New author</h2>
          <div className="mt-4">
            <AuthorForm key={JSON.stringify(values)} values={values} errors={failed?.errors} submitLabel="Create author" />
          </div>
        </Card>
      </div>
    </div>
  );
}
