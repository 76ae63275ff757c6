import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { CheckboxField, Field, SubmitWithHint, TermsConsentField } from "~/components/forms/field";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { smsDisclosureText } from "~/lib/consent-texts";
import type { Notice } from "~/lib/notices";
import { notify } from "~/lib/notify";
import { useFormValue } from "~/lib/use-form-ready";
import { missingForNewsletter, missingHint } from "~/lib/form-missing";
import { useHydrated } from "~/lib/use-hydrated";
import { useInteractionRecord } from "~/components/forms/use-interaction";
import { PAGE_ADDRESS_FIELD } from "~/lib/interaction";
import { FormSeenImage } from "~/components/forms/form-seen-image";

/** Where the newsletter form posts; the action answers with { notice, fieldErrors?, ok }. */
export const NEWSLETTER_ACTION = "/home";

export type NewsletterActionData = {
  form: "newsletter";
  ok: boolean;
  notice: Notice;
  /** Further notices: check your inbox to confirm; the number is on the Do-Not-Call list. */
  extraNotices?: Notice[];
  fieldErrors?: Partial<Record<"firstName" | "lastName" | "email" | "phone", string>>;
  /** What was submitted, so a page rendered without JavaScript keeps the person's typing. */
  values?: { firstName: string; lastName: string; email: string; phone: string };
};

const stillNeeded = (data: FormData) => missingHint(missingForNewsletter(data));
const NOTHING_FILLED = stillNeeded(new FormData());

export function NewsletterSection({
  siteName,
  serverResult,
}: {
  siteName: string;
  /** The action's answer when the form was posted without JavaScript. */
  serverResult?: NewsletterActionData;
}) {
  const fetcher = useFetcher<NewsletterActionData>();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const stampInteraction = useInteractionRecord(formRef);
  const hint = useFormValue(formRef, stillNeeded, NOTHING_FILLED);
  const submitting = fetcher.state !== "idle";
  const result = fetcher.data ?? serverResult;
  const kept = serverResult && !serverResult.ok ? serverResult.values : undefined;

  useEffect(() => {
    if (!fetcher.data) return;
    for (const notice of [fetcher.data.notice, ...(fetcher.data.extraNotices ?? [])]) {
      if (notice) notify(notice);
    }
    if (fetcher.data.ok) formRef.current?.reset();
  }, [fetcher.data]);

  const field = (name: "firstName" | "lastName" | "email" | "phone") => ({
    name,
    defaultValue: kept?.[name],
    error: result?.ok ? undefined : result?.fieldErrors?.[name],
  });

  return (
    <section id="newsletter" aria-labelledby="newsletter-heading" className="scroll-mt-20 bg-primary py-16 text-white">
      <div className="mx-auto max-w-3xl px-4">
        <h2 id="newsletter-heading" className="text-center text-3xl font-extrabold md:text-4xl">
          Join Our Newsletter for SMS Market Updates
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-on-primary-muted">
          Get our latest market analysis by e-mail and, if you choose, breaking market alerts by text message.
        </p>
        <fetcher.Form
          ref={formRef}
          method="post"
          // Without JavaScript the answer is a new page: the fragment brings it back to this form and its notice.
          action={hydrated ? NEWSLETTER_ACTION : `${NEWSLETTER_ACTION}#newsletter`}
          className="mt-8 rounded-lg bg-card p-6 text-card-foreground shadow-lg md:p-8"
          noValidate={hydrated}
          onSubmit={stampInteraction}
        >
          <input type="hidden" name="intent" value="newsletter" />
          {/* What the person did on the form, and the page's address, written in when it is sent (decisions 077, 127). */}
          <input type="hidden" name="interaction" defaultValue="" />
          <input type="hidden" name={PAGE_ADDRESS_FIELD} defaultValue="" />
          <FormSeenImage />
          {!hydrated && result ? <NoticeBanner notice={result.notice} className="mb-6" /> : null}
          {!hydrated ? result?.extraNotices?.map((notice) => <NoticeBanner key={notice.title} notice={notice} className="mb-6" />) : null}
          <div className="grid gap-4 md:grid-cols-2">
            <Field label="First Name" autoComplete="given-name" required {...field("firstName")} />
            <Field label="Last Name" autoComplete="family-name" required {...field("lastName")} />
            <Field label="Email" type="email" autoComplete="email" required {...field("email")} />
            <Field label="Phone" type="tel" autoComplete="tel" required {...field("phone")} />
          </div>
          <div className="mt-6 space-y-4">
            <CheckboxField name="smsConsent">{smsDisclosureText(siteName)}</CheckboxField>
            <TermsConsentField />
          </div>
          <SubmitWithHint hydrated={hydrated} hint={hint} submitting={submitting} label="Subscribe" busyLabel="Subscribing..." />
        </fetcher.Form>
      </div>
    </section>
  );
}
