import { useEffect, useRef } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { notify } from "~/lib/notify";
import { BellRing, ShieldCheck, Zap } from "lucide";
import { Icon } from "~/components/ui/icon";
import { CheckboxField, Field, SubmitWithHint, TermsConsentField } from "~/components/forms/field";
import { BrandMark } from "~/components/site/brand-mark";
import { AccountLinks, useViewer } from "~/components/site/account-links";
import { ImportantDisclosure } from "~/components/site/important-disclosure";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { OPT_IN_REDIRECT_MS, type PublicSiteConfig } from "~/config/site";
import { smsDisclosureText } from "~/lib/consent-texts";
import type { Notice } from "~/lib/notices";
import { useHydrated } from "~/lib/use-hydrated";
import { signInHref } from "~/lib/return-path";
import { clearForm, useFormValue } from "~/lib/use-form-ready";
import { missingForOptIn, missingHint } from "~/lib/form-missing";
import { useOptInPrefill } from "./prefill";
import { useInteractionRecord } from "~/components/forms/use-interaction";
import { PAGE_ADDRESS_FIELD } from "~/lib/interaction";
import { FormSeenImage } from "~/components/forms/form-seen-image";

export const OPT_IN_ACTION = "/opt-in";

export type OptInPrefill = { clickId: string; firstName: string; lastName: string; phone: string };

export type OptInActionData = {
  form: "opt-in";
  success: boolean;
  dnc: boolean;
  /** Double opt-in: subscribed once the person replies Y. */
  pending?: boolean;
  notice: Notice;
  fieldErrors?: Partial<Record<"firstName" | "lastName" | "phone", string>>;
  /** What was submitted, so a page rendered without JavaScript keeps the person's typing. */
  values?: { firstName: string; lastName: string; phone: string };
};

/** The same rule as the server's: names, phone and both boxes (decision 007). */
const stillNeeded = (data: FormData) => missingHint(missingForOptIn(data));
const NOTHING_FILLED = stillNeeded(new FormData());

const BENEFITS = [
  { icon: Zap, text: "Breaking market moves as they happen" },
  { icon: BellRing, text: "Gold, silver, bond and Fed alerts" },
  { icon: ShieldCheck, text: "No spam. Reply STOP at any time" },
] as const;

export function OptInPage({
  site,
  serverResult,
}: {
  site: PublicSiteConfig;
  serverResult?: OptInActionData;
}) {
  const prefill = useOptInPrefill();
  const viewer = useViewer();
  const { pathname } = useLocation();
  const fetcher = useFetcher<OptInActionData>();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const hint = useFormValue(formRef, stillNeeded, NOTHING_FILLED);
  const stampInteraction = useInteractionRecord(formRef);
  const submitting = fetcher.state !== "idle";
  const result = fetcher.data ?? serverResult;
  const initial = serverResult && !serverResult.success && serverResult.values ? serverResult.values : prefill;

  useEffect(() => {
    if (!fetcher.data) return;
    notify(fetcher.data.notice);
    if (!fetcher.data.success) return;
    if (formRef.current) clearForm(formRef.current);
    // A document load, not a client-side navigation: /blog ships no JavaScript (so no scroll
    // restoration), and a fresh document starts at the top instead of at the form's scroll position.
    const timer = setTimeout(() => window.location.assign("/blog"), OPT_IN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [fetcher.data]);

  const errors = result && !result.success ? result.fieldErrors : undefined;
  const field = (name: "firstName" | "lastName" | "phone") => ({
    name,
    defaultValue: initial[name],
    error: errors?.[name],
  });

  return (
    <div className="flex min-h-screen flex-col bg-muted">
      <header className="bg-primary text-primary-foreground">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-4 px-4">
          <Link to="/" className="flex items-center gap-2 text-lg font-extrabold">
            <BrandMark />
            {site.name}
          </Link>
          {viewer ? (
            <nav aria-label="Account" className="flex items-center gap-1">
              <AccountLinks layout="bar" />
            </nav>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <div className="mx-auto grid max-w-5xl gap-10 px-4 py-10 md:grid-cols-5 md:py-16">
          <section className="md:col-span-2" aria-labelledby="opt-in-heading">
            <p className="text-sm font-bold uppercase tracking-widest text-accent-strong">Free SMS Market Alerts</p>
            <h1 id="opt-in-heading" className="mt-3 text-4xl font-extrabold leading-tight text-primary">
              Get Breaking Market Alerts by Text
            </h1>
            <p className="mt-4 text-lg text-muted-foreground">
              Join thousands of patriotic investors who hear about the moves that matter first: straight to your phone,
              free of charge.
            </p>
            <ul className="mt-6 space-y-3">
              {BENEFITS.map(({ icon, text }) => (
                <li key={text} className="flex items-center gap-3 font-semibold text-primary">
                  <Icon node={icon} className="h-5 w-5 shrink-0 text-accent" />
                  {text}
                </li>
              ))}
            </ul>
          </section>
          <section className="md:col-span-3" aria-label="Sign up for SMS market alerts">
            <fetcher.Form
              ref={formRef}
              method="post"
              action={OPT_IN_ACTION}
              className="rounded-lg bg-card p-6 shadow-lg md:p-8"
              noValidate={hydrated}
              onSubmit={stampInteraction}
            >
              {!hydrated && result ? <NoticeBanner notice={result.notice} className="mb-6" /> : null}
              {!hydrated && result?.success ? (
                <p className="mb-6">
                  <Link to="/blog" className="font-semibold text-accent-strong underline">
                    Continue to the latest market insights
                  </Link>
                </p>
              ) : null}
              <input type="hidden" name="clickId" value={prefill.clickId} />
              {/* Filled in by the page's JavaScript when the form is sent; empty without it. */}
              <input type="hidden" name="interaction" defaultValue="" />
              <input type="hidden" name={PAGE_ADDRESS_FIELD} defaultValue="" />
              <FormSeenImage />
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="First Name" autoComplete="given-name" required {...field("firstName")} />
                <Field label="Last Name" autoComplete="family-name" required {...field("lastName")} />
                <Field
                  label="Mobile Phone"
                  type="tel"
                  autoComplete="tel"
                  inputMode="tel"
                  required
                  className="sm:col-span-2"
                  {...field("phone")}
                />
              </div>
              <div className="mt-6 space-y-4">
                <CheckboxField name="smsConsent">
                  {smsDisclosureText(site.name)}
                </CheckboxField>
                <TermsConsentField />
              </div>
              <SubmitWithHint hydrated={hydrated} hint={hint} submitting={submitting} label="JOIN FREE ALERTS" busyLabel="Joining..." />
            </fetcher.Form>
          </section>
        </div>
      </main>
      <footer className="bg-primary text-xs text-on-primary-muted">
        <div className="mx-auto max-w-5xl space-y-3 px-4 py-6">
          <nav aria-label="Legal">
            <ul className="flex flex-wrap gap-4">
              <li>
                <Link to="/privacy" className="underline hover:text-white">
                  Privacy Policy
                </Link>
              </li>
              <li>
                <Link to="/terms" className="underline hover:text-white">
                  Terms of Service
                </Link>
              </li>
              <li>
                <Link to="/disclaimer" className="underline hover:text-white">
                  Disclaimer
                </Link>
              </li>
              <li>
                <Link to={viewer ? "/account" : signInHref(pathname)} className="underline hover:text-white">
                  {viewer ? "Your Account" : "Sign In"}
                </Link>
              </li>
            </ul>
          </nav>
          <ImportantDisclosure siteName={site.name} />
          <p>
            &copy; {site.year} {site.name}. All rights reserved.
          </p>
        </div>
      </footer>
    </div>
  );
}
