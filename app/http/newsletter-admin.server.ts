import { getArticles } from "~/content/index";
import { fieldErrors } from "~/lib/forms";
import { IssueDraftSchema, type DigestSource, type IssueDraft, type IssueSettings } from "~/services/newsletter/issues.server";
import { getEnv } from "./env.server";

/** The articles a digest can pick from: the content index, newest first. */
export function digestSources(): DigestSource[] {
  return getArticles().map((article) => ({ slug: article.slug, title: article.title, excerpt: article.excerpt, image: article.image, imageAlt: article.imageAlt, category: article.category }));
}

export function digestChoices() {
  return getArticles().map((article) => ({ slug: article.slug, title: article.title, date: article.date, category: article.category }));
}

export function issueSettings(): IssueSettings {
  const env = getEnv();
  return { siteName: env.SITE_NAME, siteUrl: env.SITE_URL, postalAddress: env.SITE_POSTAL_ADDRESS };
}

/** Where the mailto half of List-Unsubscribe goes: the site's inbox, read by staff. */
export function unsubscribeMailbox() {
  return getEnv().SITE_EMAIL;
}

type DraftField = keyof IssueDraft;

/** The compose form as posted (checkboxes repeat `articleSlugs`). */
export function parseIssueForm(form: URLSearchParams): { ok: true; draft: IssueDraft } | { ok: false; errors: Partial<Record<DraftField, string>>; values: Record<DraftField, unknown> } {
  const values = {
    subject: String(form.get("subject") ?? ""),
    previewText: String(form.get("previewText") ?? ""),
    introMarkdown: String(form.get("introMarkdown") ?? ""),
    articleSlugs: form.getAll("articleSlugs").map(String),
  };
  const parsed = IssueDraftSchema.safeParse(values);
  if (parsed.success) return { ok: true, draft: parsed.data };
  return { ok: false, errors: fieldErrors<DraftField>(parsed.error), values };
}
