import type { Route } from "./+types/admin-articles-preview";
import { requireEditor } from "~/auth/guards.server";
import { BodyError, readFormParams } from "~/http/body.server";
import { getPublicSiteConfig } from "~/http/site.server";
import { ARTICLE_PREVIEW_MAX_BYTES, renderArticlePreview } from "~/services/content/preview.server";

const headers = { "Cache-Control": "private, no-store" };

/** POST /admin/articles/preview (form fields `body` and, for a sponsored article, `sponsored=on`): the editor's live preview, as JSON `{ html }`. */
export async function action({ request }: Route.ActionArgs) {
  await requireEditor(request);
  let form: URLSearchParams;
  try {
    form = await readFormParams(request, ARTICLE_PREVIEW_MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyError) return Response.json({ error: error.message }, { status: error.status, headers });
    throw error;
  }
  const html = renderArticlePreview(form.get("body") ?? "", getPublicSiteConfig(), { sponsored: form.get("sponsored") === "on" });
  return Response.json({ html }, { headers });
}
