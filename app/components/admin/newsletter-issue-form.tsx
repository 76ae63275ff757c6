import { Form } from "react-router";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";

export type DigestChoice = { slug: string; title: string; date: string; category: string };
export type IssueFormValues = { subject: string; previewText: string; introMarkdown: string; articleSlugs: string[] };

/** Subject, preview text, Markdown introduction and the digest's articles; posts intent=save. */
export function NewsletterIssueForm({
  values,
  choices,
  errors,
  disabled,
}: {
  values: IssueFormValues;
  choices: DigestChoice[];
  errors?: Partial<Record<keyof IssueFormValues, string>>;
  disabled?: boolean;
}) {
  return (
    <Form method="post" className="space-y-4">
      <input type="hidden" name="intent" value="save" />
      <Field label="Subject" name="subject" defaultValue={values.subject} required maxLength={150} error={errors?.subject} disabled={disabled} />
      <Field
        label="Preview text (shown after the subject in the inbox)"
        name="previewText"
        defaultValue={values.previewText}
        maxLength={200}
        error={errors?.previewText}
        disabled={disabled}
      />
      <Field
        label="Introduction (Markdown)"
        name="introMarkdown"
        multiline
        rows={8}
        defaultValue={values.introMarkdown}
        error={errors?.introMarkdown}
        disabled={disabled}
      />
      <fieldset className="space-y-2" disabled={disabled}>
        <legend className="mb-1.5 text-sm font-semibold">Articles in the digest (title, image, excerpt, link)</legend>
        {errors?.articleSlugs ? <p className="text-sm text-destructive">{errors.articleSlugs}</p> : null}
        {choices.map((article) => (
          <label key={article.slug} className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="articleSlugs" value={article.slug} defaultChecked={values.articleSlugs.includes(article.slug)} className="mt-1 size-4" />
            <span>
              {article.title} <span className="text-muted-foreground">({article.category}, {article.date})</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Button type="submit" disabled={disabled}>
        Save draft
      </Button>
    </Form>
  );
}
