import { data } from "react-router";
import type { Route } from "./+types/admin-article-autosave";
import { requireEditor } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { readFormParamsOrAnswer } from "~/http/body.server";
import { ARTICLE_FORM_LIMIT, autosaveResponse, newArticleAutosaveResponse } from "~/http/article-admin.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Autosave of the working copy as a plain JSON endpoint (the editor component's fetch): the
 * article's fields as form data plus `expectedVersion`. No revision; readers see no change.
 * `/admin/articles/new/autosave` is the new article's first save: it creates the draft.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireEditor(request);
  if (params.id !== "new" && !UUID.test(params.id)) throw data(null, { status: 404 });
  const body = await readFormParamsOrAnswer(request, ARTICLE_FORM_LIMIT);
  if ("answer" in body) return body.answer;
  if (params.id === "new") return newArticleAutosaveResponse(await getDb(), body.form, user.email);
  return autosaveResponse(await getDb(), params.id, body.form, user.email);
}
