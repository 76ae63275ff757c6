import { z } from "zod";

/**
 * Form schemas shared by the browser (disabled states) and the server (the real check).
 * Text fields refuse control characters, which PostgreSQL text cannot always hold (NUL) and no
 * person types.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`)
    .refine((value) => !CONTROL_CHARS.test(value), `${label} contains characters that are not allowed.`);

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .refine((value) => !CONTROL_CHARS.test(value), `${label} contains characters that are not allowed.`)
    .optional()
    .transform((value) => value || undefined);

/** Checkboxes arrive as "on" from forms and as booleans from JSON. */
const checkbox = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
  .optional()
  .transform((value) => value === true || value === "on" || value === "true");

export const NAME_MAX = 50;
export const EMAIL_MAX = 254;

export const OptInSchema = z.object({
  firstName: text("First name", NAME_MAX),
  lastName: text("Last name", NAME_MAX),
  phone: text("Phone number", 30),
  clickId: optionalText("Click id", 200).nullable(),
  smsConsent: checkbox,
  termsConsent: checkbox,
});
export type OptInForm = z.infer<typeof OptInSchema>;

export const NewsletterSchema = z.object({
  firstName: text("First name", NAME_MAX),
  lastName: text("Last name", NAME_MAX),
  email: text("Email", EMAIL_MAX).pipe(z.email("Please enter a valid email address.")),
  phone: text("Phone", 30),
  smsConsent: checkbox,
  termsConsent: checkbox,
});
export type NewsletterForm = z.infer<typeof NewsletterSchema>;

export const ContactSchema = z.object({
  name: text("Full name", 100),
  email: text("Email", EMAIL_MAX).pipe(z.email("Please enter a valid email address.")),
  phone: optionalText("Phone", 30),
  subject: text("Subject", 150),
  message: text("Message", 5000),
});
export type ContactForm = z.infer<typeof ContactSchema>;

/** First message per field, for showing next to inputs. */
export function fieldErrors<T extends string>(error: z.ZodError): Partial<Record<T, string>> {
  const errors: Partial<Record<T, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as T | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}
