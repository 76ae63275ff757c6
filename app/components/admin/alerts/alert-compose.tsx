import { useEffect, useRef, useState } from "react";
import { Form, useFetcher } from "react-router";
import { SmsCounter } from "~/components/admin/sms-counter";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { SOURCE_OPTIONS, ZONE_OPTIONS } from "~/lib/audience-form";
import { ALERT_NOTICES } from "~/lib/notices";
import { withShortLinkPlaceholders } from "~/lib/short-links";
import { analyzeSms } from "~/lib/sms-guidance";
import { SCHEDULE_ZONES } from "~/lib/zoned-time";
import { useSiteConfig } from "~/root";
import type { AlertActionData, AlertComposeData } from "~/routes/admin-alert";
import type { Reach } from "~/services/sending/audience.server";
import { inputClass, usd } from "./alert-format";

/** The alert while it is a draft: message, audience, reach and cost, test text, schedule or send. */
export function AlertCompose({ data: loaderData, actionData, banner }: { data: AlertComposeData; actionData: AlertActionData | undefined; banner: React.ReactNode }) {
  const site = useSiteConfig();
  const campaign = loaderData.campaign;
  const fields = campaign?.fields ?? {};
  const [text, setText] = useState(campaign?.body ?? "");
  const reachFetcher = useFetcher<{ ok: true; reach: Reach } | { ok: false; error: string }>();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reach = reachFetcher.data?.ok ? reachFetcher.data.reach : loaderData.reach;
  const analysis = analyzeSms(withShortLinkPlaceholders(text, site.url), site.name);
  const linkNote = text.match(/https?:\/\//) ? [`Links are sent as short links on ${site.url}/l/… (counted above).`] : [];
  const cost = analysis.segments * reach.reachable * loaderData.price;
  const errors = actionData?.errors ?? {};

  // The count follows the filters as they change (a quarter second after the last change).
  const refreshReach = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!formRef.current) return;
      const params = new URLSearchParams();
      for (const [name, value] of new FormData(formRef.current)) if (typeof value === "string" && value) params.set(name, value);
      void reachFetcher.load(`/admin/alerts/reach?${params}`);
    }, 250);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <section className="lg:col-span-2" aria-labelledby="alert-heading">
        {banner}
        {loaderData.justSaved && !actionData ? <NoticeBanner notice={ALERT_NOTICES.saved} className="mb-4" /> : null}
        <h1 id="alert-heading" className="text-3xl font-extrabold text-primary">
          {campaign ? `Alert: ${campaign.name}` : "New market alert"}
        </h1>
        <p className="mt-2 text-muted-foreground">
          <a href="/admin/alerts" className="underline">
            All alerts
          </a>{" "}
          · Draft
        </p>
        <Card className="mt-6 p-6">
          <Form method="post" ref={formRef} onChange={(event) => (event.target as HTMLElement).dataset.audience !== undefined && refreshReach()} className="space-y-5">
            <input type="hidden" name="intent" value="save" />
            {campaign ? <input type="hidden" name="version" value={campaign.version} /> : null}
            <div>
              <label htmlFor="alert-name" className="block text-sm font-semibold">
                Name (staff only)
              </label>
              <input id="alert-name" name="name" required maxLength={100} defaultValue={campaign?.name ?? ""} className={`mt-1 ${inputClass}`} aria-invalid={errors.name ? true : undefined} />
            </div>
            <div>
              <label htmlFor="alert-body" className="block text-sm font-semibold">
                Message
              </label>
              <textarea
                id="alert-body"
                name="body"
                rows={5}
                required
                maxLength={1600}
                value={text}
                onChange={(event) => setText(event.target.value)}
                aria-describedby="alert-count alert-warnings"
                aria-invalid={errors.body ? true : undefined}
                className="mt-2 block w-full rounded-md border border-input p-3 font-mono text-sm"
              />
              <SmsCounter analysis={analysis} countId="alert-count" warningsId="alert-warnings" extraWarnings={linkNote} />
            </div>
            <fieldset className="space-y-4 rounded-md border border-border p-4">
              <legend className="px-1 text-sm font-semibold">Audience: active SMS subscribers</legend>
              <fieldset>
                <legend className="text-sm">Opt-in source (none ticked: all)</legend>
                <div className="mt-1 flex flex-wrap gap-4">
                  {SOURCE_OPTIONS.map((option) => (
                    <label key={option.value} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name={`source_${option.value}`} data-audience="" defaultChecked={Boolean(fields[`source_${option.value}`])} />
                      {option.label}
                    </label>
                  ))}
                </div>
              </fieldset>
              <div className="grid gap-3 sm:grid-cols-2">
                <div>
                  <label htmlFor="alert-click" className="block text-sm">
                    Click id (sub2)
                  </label>
                  <input id="alert-click" name="clickId" data-audience="" defaultValue={fields.clickId ?? ""} maxLength={100} className={`mt-1 ${inputClass}`} />
                </div>
                <div>
                  <label htmlFor="alert-click-match" className="block text-sm">
                    Click id match
                  </label>
                  <select id="alert-click-match" name="clickIdMatch" data-audience="" defaultValue={fields.clickIdMatch ?? "exact"} className={`mt-1 ${inputClass}`}>
                    <option value="exact">Exactly this value</option>
                    <option value="prefix">Starts with this value</option>
                  </select>
                </div>
                <div>
                  <label htmlFor="alert-from" className="block text-sm">
                    Opted in from (Eastern)
                  </label>
                  <input id="alert-from" type="date" name="optInFrom" data-audience="" defaultValue={fields.optInFrom ?? ""} className={`mt-1 ${inputClass}`} />
                </div>
                <div>
                  <label htmlFor="alert-to" className="block text-sm">
                    Opted in until (Eastern)
                  </label>
                  <input id="alert-to" type="date" name="optInTo" data-audience="" defaultValue={fields.optInTo ?? ""} className={`mt-1 ${inputClass}`} aria-invalid={errors.optInTo ? true : undefined} />
                </div>
              </div>
              <div>
                <label htmlFor="alert-states" className="block text-sm">
                  US states (by area code), e.g. FL, TX
                </label>
                <input id="alert-states" name="states" data-audience="" defaultValue={fields.states ?? ""} list="alert-state-list" className={`mt-1 ${inputClass}`} aria-invalid={errors.states ? true : undefined} />
                <datalist id="alert-state-list">
                  {loaderData.states.map((state) => (
                    <option key={state} value={state} />
                  ))}
                </datalist>
              </div>
              <fieldset>
                <legend className="text-sm">Time zone (by area code; none ticked: all)</legend>
                <div className="mt-1 flex flex-wrap gap-4">
                  {ZONE_OPTIONS.map((option) => (
                    <label key={option.value} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name={`zone_${option.value}`} data-audience="" defaultChecked={Boolean(fields[`zone_${option.value}`])} />
                      {option.label}
                    </label>
                  ))}
                </div>
              </fieldset>
            </fieldset>
            <div className="rounded-md bg-muted p-4 text-sm" aria-live="polite" data-testid="reach">
              {reachFetcher.data && !reachFetcher.data.ok ? (
                <p className="text-destructive">{reachFetcher.data.error}</p>
              ) : (
                <>
                  <p>
                    Reaches <strong data-testid="reach-count">{reach.reachable.toLocaleString("en-US")}</strong> people now · estimated cost{" "}
                    <strong data-testid="cost">{usd(cost)}</strong> ({analysis.segments} × {reach.reachable.toLocaleString("en-US")} × {usd(loaderData.price).replace(/0+$/, "")}
                    {loaderData.price < 0.01 ? ` (${loaderData.price} USD)` : ""} per segment)
                  </p>
                  <p className="mt-1 text-muted-foreground">
                    Matching {reach.matched.toLocaleString("en-US")}; left out: {reach.notActive} not active, {reach.internalDnc} on our opt-out list, {reach.federalDnc} on the federal list,{" "}
                    {reach.frequencyCap} at the 3-per-day limit. Quiet hours are applied per person when sending.
                  </p>
                </>
              )}
            </div>
            <Button type="submit">{campaign ? "Save draft" : "Create draft"}</Button>
          </Form>
        </Card>
      </section>
      <aside className="space-y-6">{campaign ? <DraftActions data={loaderData} campaignId={campaign.id} actionData={actionData} /> : <Card className="p-6 text-sm text-muted-foreground">Save the draft to send a test or schedule it.</Card>}</aside>
    </div>
  );
}

function DraftActions({ data: loaderData, campaignId, actionData }: { data: AlertComposeData; campaignId: string; actionData: AlertActionData | undefined }) {
  const reachable = loaderData.reach.reachable;
  const needsConfirm = reachable > loaderData.confirmAbove;
  const [when, setWhen] = useState<"now" | "later">("now");
  const errors = actionData?.errors ?? {};
  return (
    <>
      <Card className="p-6">
        <h2 className="text-lg font-bold text-primary">Send a test</h2>
        <p className="mt-1 text-sm text-muted-foreground">Texts the saved draft, with its short links, to a staff phone.</p>
        <Form method="post" className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="test" />
          <label htmlFor="test-phone" className="block text-sm font-semibold">
            Staff phone
          </label>
          <input id="test-phone" name="phone" type="tel" autoComplete="tel" required className={inputClass} />
          <Button type="submit" variant="navy">
            Send test
          </Button>
        </Form>
      </Card>
      <Card className="p-6">
        <h2 className="text-lg font-bold text-primary">Send</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Sends the saved draft to <strong>{reachable.toLocaleString("en-US")}</strong> people, each within their allowed hours.
        </p>
        <Form method="post" action={`/admin/alerts/${campaignId}`} className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="schedule" />
          <fieldset>
            <legend className="text-sm font-semibold">When</legend>
            <label className="mt-1 flex items-center gap-2 text-sm">
              <input type="radio" name="when" value="now" checked={when === "now"} onChange={() => setWhen("now")} /> Now
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="when" value="later" checked={when === "later"} onChange={() => setWhen("later")} /> At a time
            </label>
          </fieldset>
          <div>
            <label htmlFor="schedule-at" className="block text-sm">
              Date and time
            </label>
            <input id="schedule-at" type="datetime-local" name="at" className={inputClass} aria-invalid={errors.at ? true : undefined} />
          </div>
          <div>
            <label htmlFor="schedule-zone" className="block text-sm">
              Time zone
            </label>
            <select id="schedule-zone" name="zone" defaultValue="America/New_York" className={inputClass}>
              {SCHEDULE_ZONES.map((zone) => (
                <option key={zone.zone} value={zone.zone}>
                  {zone.label}
                </option>
              ))}
            </select>
          </div>
          {needsConfirm ? (
            <div className="rounded-md border-2 border-destructive p-3">
              <input type="hidden" name="shownCount" value={reachable} />
              <label htmlFor="typed-count" className="block text-sm font-semibold">
                Type the number of recipients ({reachable.toLocaleString("en-US")}) to confirm
              </label>
              <input id="typed-count" name="typedCount" inputMode="numeric" autoComplete="off" required className={`mt-1 ${inputClass}`} aria-invalid={errors.typedCount ? true : undefined} />
              {loaderData.twoFactor ? (
                <>
                  <label htmlFor="totp" className="mt-3 block text-sm font-semibold">
                    Code from your authenticator app
                  </label>
                  <input id="totp" name="totp" inputMode="numeric" autoComplete="one-time-code" required className={`mt-1 ${inputClass}`} aria-invalid={errors.totp ? true : undefined} />
                </>
              ) : null}
            </div>
          ) : null}
          <Button type="submit" variant="primary">
            {when === "now" ? "Send now" : "Schedule"}
          </Button>
        </Form>
      </Card>
    </>
  );
}
