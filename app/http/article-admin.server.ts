import { data } from "react-router";
import type { Db } from "~/db/client.server";
import { autosaveArticle, createDraft, type ArticleFailure } from "~/services/content/articles.server";
import { ARTICLE_NOTICES, type Notice } from "~/lib/notices";
import { zonedTimeToUtc } from "~/lib/zoned-time";
import { ARTICLE_FIELD_MESSAGES } from "~/lib/article-texts";

/** Articles are long: a larger limit than the 16 KB of ordinary forms. */
export const ARTICLE_FORM_LIMIT = 512 * 1024;

const TEXT_FIELDS = ["title", "slug", "excerpt", "body", "category", "image", "imageAlt", "authorId", "seoTitle", "seoDescription", "sponsorName"] as const;

/** The article fields of a posted form, typed for the content service (checkboxes as booleans). */
export function articleInput(form: URLSearchParams) {
  const input: Record<string, string | boolean> = {};
  for (const name of TEXT_FIELDS) input[name] = form.get(name) ?? "";
  input.sponsored = form.get("sponsored") === "on" || form.get("sponsored") === "true";
  input.featured = form.get("featured") === "on" || form.get("featured") === "true";
  return input;
}

export function expectedVersion(form: URLSearchParams) {
  const value = Number(form.get("expectedVersion"));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The schedule's instant from the datetime-local value and the zone, or the field message. */
export function scheduleTime(form: URLSearchParams): { at: Date } | { error: string } {
  const local = form.get("publishAt") ?? "";
  const zone = form.get("zone") ?? "";
  const at = local ? zonedTimeToUtc(local, zone) : null;
  return at ? { at } : { error: ARTICLE_FIELD_MESSAGES.scheduleInvalid };
}

export type ArticleActionData = { notice: Notice; errors?: Record<string, string>; values?: Record<string, string | boolean> };

/** A refused change as the form's answer: the notice, the field messages and what was typed. */
export function articleFailure(result: ArticleFailure, values?: Record<string, string | boolean>) {
  switch (result.code) {
    case "invalid":
      return data<ArticleActionData>({ notice: ARTICLE_NOTICES.invalid, errors: result.errors, values }, { status: 400 });
    case "stale":
      return data<ArticleActionData>({ notice: ARTICLE_NOTICES.stale, values }, { status: 409 });
    case "wrong_state":
      return data<ArticleActionData>({ notice: ARTICLE_NOTICES.wrongState, values }, { status: 409 });
    case "not_found":
      return data<ArticleActionData>({ notice: ARTICLE_NOTICES.notFound }, { status: 404 });
  }
}

/**
 * The autosave answer, as JSON: `{ ok: true, version, savedAt }`; 409 `{ ok: false, code: "stale",
 * version }` when another tab saved since; 400 `{ ok: false, code: "invalid", errors }`.
 */
export async function autosaveResponse(db: Db, id: string, form: URLSearchParams, actor: string) {
  const version = expectedVersion(form);
  if (version === null) return Response.json({ ok: false, code: "invalid", errors: { expectedVersion: "Missing version." } }, { status: 400 });
  const result = await autosaveArticle(db, { id, input: articleInput(form), expectedVersion: version, actor });
  if (result.ok) return Response.json({ ok: true, version: result.version, savedAt: result.savedAt.toISOString() });
  if (result.code === "stale") return Response.json({ ok: false, code: "stale", version: result.version }, { status: 409 });
  if (result.code === "invalid") return Response.json({ ok: false, code: "invalid", errors: result.errors }, { status: 400 });
  return Response.json({ ok: false, code: result.code }, { status: result.code === "not_found" ? 404 : 409 });
}

/**
 * The first autosave of a new article creates its draft (a revision and an audit entry, as Save
 * draft does): 201 `{ ok: true, id, version, savedAt }`, after which the editor saves to the
 * article's own address; 400 `{ ok: false, code: "invalid", errors }` while the draft cannot exist
 * yet (no title or slug, a slug in use).
 */
export async function newArticleAutosaveResponse(db: Db, form: URLSearchParams, actor: string) {
  const savedAt = new Date();
  const created = await createDraft(db, { input: articleInput(form), actor, now: savedAt });
  if (created.ok) return Response.json({ ok: true, id: created.article.id, version: created.article.version, savedAt: savedAt.toISOString() }, { status: 201 });
  if (created.code === "invalid") return Response.json({ ok: false, code: "invalid", errors: created.errors }, { status: 400 });
  return Response.json({ ok: false, code: created.code }, { status: 409 });
}
