import { Field } from "~/components/forms/field";

/**
 * The article's Markdown body as a plain textarea: works without JavaScript. The rich editor
 * replaces this one component (same props, same form field name).
 */
export function ArticleBodyField({ name, defaultValue, error }: { name: string; defaultValue: string; error?: string }) {
  return <Field label="Body (Markdown)" name={name} multiline rows={24} defaultValue={defaultValue} error={error} className="font-mono" />;
}
