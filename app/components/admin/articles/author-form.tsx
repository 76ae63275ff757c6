import { Form } from "react-router";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";

export type AuthorFormValues = { name: string; slug: string; bio: string; credentials: string; photo: string; links: string };
export type AuthorFormErrors = Partial<Record<keyof AuthorFormValues, string>>;

/** An author's profile: what `/authors/<slug>` and the bylines show. */
export function AuthorForm({ values, errors = {}, submitLabel }: { values: AuthorFormValues; errors?: AuthorFormErrors; submitLabel: string }) {
  return (
    <Form method="post" className="space-y-4">
      <Field label="Name" name="name" defaultValue={values.name} required maxLength={80} error={errors.name} />
      <Field label="Slug (the address: /authors/…)" name="slug" defaultValue={values.slug} required maxLength={100} pattern="[a-z0-9]+(-[a-z0-9]+)*" error={errors.slug} />
      <Field label="Credentials (for example: CFA, 20 years covering bonds)" name="credentials" defaultValue={values.credentials} maxLength={200} error={errors.credentials} />
      <Field label="Photo (/images/… or /media/…)" name="photo" defaultValue={values.photo} error={errors.photo} />
      <Field label="Bio" name="bio" multiline rows={5} defaultValue={values.bio} maxLength={2000} error={errors.bio} />
      <Field label="Links, one per line: Label | https://address" name="links" multiline rows={3} defaultValue={values.links} error={errors.links} />
      <Button type="submit">{submitLabel}</Button>
    </Form>
  );
}
