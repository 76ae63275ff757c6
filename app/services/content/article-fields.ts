import { z } from "zod";
import { CATEGORY_NAMES } from "~/config/categories";
import { ARTICLE_FIELD_MESSAGES as M } from "~/lib/article-texts";

/**
 * The rules of an article's fields, shared by the admin form and the content service. They are
 * the frontmatter rules of app/content/article-schema.ts, plus the fields the desk adds. A draft
 * may be incomplete (title and slug only); publishing or scheduling needs the whole set.
 */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** `/images/…` (files of the site) or an upload reference `/media/<uuid>/<width>x<height>`. */
export const IMAGE_PATTERN = /^(\/images\/[\w./-]+\.(svg|webp|avif|png|jpg)|\/media\/[0-9a-f-]{36}\/\d{1,5}x\d{1,5})$/;

const trimmed = z.string().trim();
const optionalText = (max: number, message: string) =>
  trimmed.max(max, message).transform((value) => (value === "" ? null : value));

const SlugSchema = trimmed.min(1, M.slugRequired).max(100, M.slugTooLong).regex(SLUG_PATTERN, M.slugFormat);
const TitleSchema = trimmed.min(10, M.titleLength).max(120, M.titleLength);

/** Every field the editor writes, loosely typed as it comes from a form (strings, checkbox "on"). */
export const ArticleFormSchema = z.object({
  slug: SlugSchema,
  title: TitleSchema,
  excerpt: trimmed.default(""),
  body: z.string().default(""),
  category: trimmed.default(""),
  image: trimmed.default(""),
  imageAlt: trimmed.default(""),
  authorId: trimmed.min(1, M.authorRequired).uuid(M.authorRequired),
  seoTitle: optionalText(70, M.seoTitleLength).default(""),
  seoDescription: optionalText(170, M.seoDescriptionLength).default(""),
  sponsored: z.boolean().default(false),
  sponsorName: optionalText(120, M.sponsorNameLength).default(""),
  featured: z.boolean().default(false),
});

export type ArticleFields = z.output<typeof ArticleFormSchema>;
export type ArticleFieldErrors = Partial<Record<keyof ArticleFields | "publishAt", string>>;

/** What publishing needs beyond a draft: each problem is a message on its field. */
const CompleteSchema = z.object({
  excerpt: z.string().min(40, M.excerptLength).max(300, M.excerptLength),
  body: z.string().refine((value) => value.trim().length > 0, M.bodyRequired),
  category: z.enum(CATEGORY_NAMES, { error: M.categoryRequired }),
  image: z.string().regex(IMAGE_PATTERN, M.imageFormat),
  imageAlt: z.string().min(10, M.imageAltLength),
});

function fieldErrors(error: z.ZodError): ArticleFieldErrors {
  const errors: ArticleFieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path[0] as keyof ArticleFields | undefined;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

export type FieldsResult = { ok: true; fields: ArticleFields } | { ok: false; code: "invalid"; errors: ArticleFieldErrors };

/** A draft: title, slug and author are enough. */
export function parseDraftFields(input: unknown): FieldsResult {
  const parsed = ArticleFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, code: "invalid", errors: fieldErrors(parsed.error) };
  const fields = parsed.data;
  if (fields.category && !(CATEGORY_NAMES as readonly string[]).includes(fields.category)) {
    return { ok: false, code: "invalid", errors: { category: M.categoryRequired } };
  }
  return { ok: true, fields };
}

/** Everything readers will see must be there and right. */
export function parseCompleteFields(input: unknown): FieldsResult {
  const draft = parseDraftFields(input);
  const parsed = CompleteSchema.safeParse(draft.ok ? draft.fields : input);
  const errors: ArticleFieldErrors = { ...(draft.ok ? {} : draft.errors), ...(parsed.success ? {} : fieldErrors(parsed.error)) };
  if (draft.ok && draft.fields.sponsored && !draft.fields.sponsorName) errors.sponsorName = M.sponsorNameRequired;
  if (!draft.ok || Object.keys(errors).length > 0) return { ok: false, code: "invalid", errors };
  return draft;
}
