import { Form } from "react-router";
import { CheckboxField, Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { ARTICLE_CATEGORIES } from "~/config/categories";
import { SCHEDULE_ZONES } from "~/lib/zoned-time";
import { ArticleBodyField } from "./article-body-field";

export type ArticleFormValues = {
  title: string;
  slug: string;
  excerpt: string;
  body: string;
  category: string;
  image: string;
  imageAlt: string;
  authorId: string;
  seoTitle: string;
  seoDescription: string;
  sponsored: boolean;
  sponsorName: string;
  featured: boolean;
};

export type ArticleFormErrors = Partial<Record<keyof ArticleFormValues | "publishAt", string>>;

const inputClass = "block w-full rounded-md border border-input bg-background px-3 py-2.5 text-base aria-invalid:border-destructive";

function SelectField({ id, label, name, defaultValue, error, children }: { id: string; label: string; name: string; defaultValue: string; error?: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-semibold">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className={inputClass} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
        {children}
      </select>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Every field of an article and the buttons that act on it. A plain form: it works without
 * JavaScript (each button posts its intent; the server answers with a redirect or the errors).
 */
export function ArticleForm({
  values,
  errors = {},
  authors,
  version,
  status,
  slugLocked,
}: {
  values: ArticleFormValues;
  errors?: ArticleFormErrors;
  authors: { id: string; name: string }[];
  /** Absent for a new article. */
  version?: number;
  status?: "draft" | "scheduled" | "published";
  slugLocked?: boolean;
}) {
  const isLive = status === "published";
  return (
    <Form method="post" className="space-y-5" data-testid="article-form">
      {/* Empty for a new article: its first autosave creates the draft and fills it in. Uncontrolled:
          the autosave writes each new version into it, which a re-render must not undo (a new
          version from the server remounts the form). */}
      <input type="hidden" name="expectedVersion" defaultValue={version ?? ""} />
      <Field label="Title" name="title" defaultValue={values.title} required minLength={10} maxLength={120} error={errors.title} />
      <Field
        label="Slug (the address: /articles/…)"
        name="slug"
        defaultValue={values.slug}
        required
        maxLength={100}
        pattern="[a-z0-9]+(-[a-z0-9]+)*"
        readOnly={slugLocked}
        aria-readonly={slugLocked ? true : undefined}
        error={errors.slug}
      />
      <Field label="Excerpt (40 to 300 characters)" name="excerpt" multiline rows={3} defaultValue={values.excerpt} maxLength={300} error={errors.excerpt} />
      <ArticleBodyField name="body" defaultValue={values.body} error={errors.body} isNew={version === undefined} />
      <div className="grid gap-5 md:grid-cols-2">
        <SelectField id="article-category" label="Category" name="category" defaultValue={values.category} error={errors.category}>
          {ARTICLE_CATEGORIES.map((category) => (
            <option key={category.slug} value={category.name}>
              {category.name}
            </option>
          ))}
        </SelectField>
        <SelectField id="article-author" label="Author" name="authorId" defaultValue={values.authorId} error={errors.authorId}>
          {authors.map((author) => (
            <option key={author.id} value={author.id}>
              {author.name}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="grid gap-5 md:grid-cols-2">
        <Field label="Cover image (/images/… or /media/…)" name="image" defaultValue={values.image} error={errors.image} />
        <Field label="Cover image description (alt text)" name="imageAlt" defaultValue={values.imageAlt} error={errors.imageAlt} />
      </div>
      <fieldset className="space-y-4 rounded-md border border-border p-4">
        <legend className="px-1 text-sm font-semibold">Search engines (optional)</legend>
        <Field label="SEO title (up to 70 characters)" name="seoTitle" defaultValue={values.seoTitle} maxLength={70} error={errors.seoTitle} />
        <Field label="SEO description (up to 170 characters)" name="seoDescription" multiline rows={2} defaultValue={values.seoDescription} maxLength={170} error={errors.seoDescription} />
      </fieldset>
      <fieldset className="space-y-4 rounded-md border border-border p-4">
        <legend className="px-1 text-sm font-semibold">Sponsorship and placement</legend>
        <CheckboxField name="sponsored" defaultChecked={values.sponsored}>
          Sponsored (paid) article: shows an &ldquo;Advertisement&rdquo; label and marks its links as sponsored
        </CheckboxField>
        <Field label="Sponsor’s name" name="sponsorName" defaultValue={values.sponsorName} maxLength={120} error={errors.sponsorName} />
        <CheckboxField name="featured" defaultChecked={values.featured}>
          Featured on the blog (replaces the current featured article when this one is published)
        </CheckboxField>
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" name="intent" value="save" variant="outline">
          Save draft
        </Button>
        <Button type="submit" name="intent" value="publish">
          {isLive ? "Update" : "Publish"}
        </Button>
      </div>
      {!isLive ? (
        <fieldset className="grid gap-4 rounded-md border border-border p-4 md:grid-cols-3">
          <legend className="px-1 text-sm font-semibold">Schedule</legend>
          <div>
            <label htmlFor="article-publish-at" className="mb-1.5 block text-sm font-semibold">
              Date and time
            </label>
            <input
              id="article-publish-at"
              type="datetime-local"
              name="publishAt"
              className={inputClass}
              aria-invalid={errors.publishAt ? true : undefined}
              aria-describedby={errors.publishAt ? "article-publish-at-error" : undefined}
            />
            {errors.publishAt ? (
              <p id="article-publish-at-error" className="mt-1 text-sm text-destructive">
                {errors.publishAt}
              </p>
            ) : null}
          </div>
          <SelectField id="article-zone" label="Time zone" name="zone" defaultValue="America/New_York">
            {SCHEDULE_ZONES.map((zone) => (
              <option key={zone.zone} value={zone.zone}>
                {zone.label}
              </option>
            ))}
          </SelectField>
          <div className="flex items-end">
            <Button type="submit" name="intent" value="schedule" variant="outline">
              Schedule
            </Button>
          </div>
        </fieldset>
      ) : null}
    </Form>
  );
}
