import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { notify } from "~/lib/notify";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { NoticeBanner } from "~/components/ui/notice-banner";
import type { Notice } from "~/lib/notices";
import { useHydrated } from "~/lib/use-hydrated";

export type ContactField = "name" | "email" | "phone" | "subject" | "message";

export type ContactActionData = {
  form: "contact";
  ok: boolean;
  notice: Notice;
  fieldErrors?: Partial<Record<ContactField, string>>;
  /** What was submitted, so a page rendered without JavaScript keeps the person's typing. */
  values?: Partial<Record<ContactField, string>>;
};

/** Bots fill every field; people never see this one. */
export const HONEYPOT_FIELD = "website";

export function ContactForm({ serverResult }: { serverResult?: ContactActionData }) {
  const fetcher = useFetcher<ContactActionData>();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const result = fetcher.data ?? serverResult;
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  const kept = serverResult && !serverResult.ok ? serverResult.values : undefined;

  useEffect(() => {
    if (!fetcher.data) return;
    const { notice, ok } = fetcher.data;
    notify(notice);
    if (ok) formRef.current?.reset();
  }, [fetcher.data]);

  return (
    <fetcher.Form ref={formRef} method="post" action="/contact" className="space-y-5" noValidate={hydrated}>
      {!hydrated && result ? <NoticeBanner notice={result.notice} /> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Full Name" name="name" defaultValue={kept?.name} autoComplete="name" required error={errors?.name} />
        <Field label="Email" name="email" defaultValue={kept?.email} type="email" autoComplete="email" required error={errors?.email} />
        <Field label="Phone" name="phone" defaultValue={kept?.phone} type="tel" autoComplete="tel" error={errors?.phone} />
        <Field label="Subject" name="subject" defaultValue={kept?.subject} required error={errors?.subject} />
      </div>
      <Field label="Message" name="message" defaultValue={kept?.message} multiline rows={6} required error={errors?.message} />
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label>
          Leave this field empty
          <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      <Button type="submit" size="lg" disabled={fetcher.state !== "idle"}>
        {fetcher.state !== "idle" ? "Sending..." : "Send Message"}
      </Button>
    </fetcher.Form>
  );
}
