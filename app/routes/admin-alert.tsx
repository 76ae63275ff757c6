import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useFetcher, useRevalidator } from "react-router";
import type { Route } from "./+types/admin-alert";
import { callAuthEndpoint, cookieHeaders } from "~/auth/call-auth.server";
import { requireAdmin } from "~/auth/guards.server";
import { SmsCounter } from "~/components/admin/sms-counter";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { getEnv } from "~/http/env.server";
import { logger } from "~/http/logger.server";
import { audienceFromFields, audienceToFields, SOURCE_OPTIONS, ZONE_OPTIONS } from "~/lib/audience-form";
import { ALERT_NOTICES, type Notice } from "~/lib/notices";
import { notify } from "~/lib/notify";
import { pageMeta } from "~/lib/route-meta";
import { withShortLinkPlaceholders } from "~/lib/short-links";
import { analyzeSms } from "~/lib/sms-guidance";
import { useHydrated } from "~/lib/use-hydrated";
import { formatInZone, SCHEDULE_ZONES, zonedTimeToUtc } from "~/lib/zoned-time";
import { useSiteConfig } from "~/root";
import { AudienceSchema, countReach, type Reach } from "~/services/sending/audience.server";
import {
  CampaignDraftSchema,
  controlCampaign,
  getCampaign,
  saveDraft,
  scheduleCampaign,
  sendCampaignTest,
  type CampaignControl,
} from "~/services/sending/campaigns.server";
import { KNOWN_STATES } from "~/services/sending/npa-regions";
import { campaignResults } from "~/services/sending/results.server";

const noStore = { "Cache-Control": "private, no-store" };

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  const env = getEnv();
  const db = await getDb();
  const base = {
    price: env.SMS_PRICE_PER_SEGMENT,
    confirmAbove: env.ALERT_CONFIRM_ABOVE,
    twoFactor: user.twoFactorEnabled,
    states: KNOWN_STATES,
    justSaved: new URL(request.url).searchParams.has("saved"),
  };
  const campaign = params.id === "new" ? null : await getCampaign(db, params.id);
  if (params.id !== "new" && !campaign) return data({ ...base, mode: "missing" as const }, { status: 404 });
  const view = campaign && {
    id: campaign.id,
    name: campaign.name,
    body: campaign.body,
    sendBody: campaign.sendBody,
    status: campaign.status,
    version: campaign.version,
    fields: audienceToFields(campaign.audience),
    scheduled: campaign.scheduledAt ? formatInZone(campaign.scheduledAt, campaign.scheduleZone ?? "America/New_York") : null,
    segments: campaign.segments,
  };
  if (!campaign || campaign.status === "draft") {
    const reach = await countReach(db, campaign?.audience ?? AudienceSchema.parse({}), env.DNC_POLICY);
    return { ...base, mode: "compose" as const, campaign: view, reach };
  }
  const results = await campaignResults(db, campaign.id, Number(campaign.pricePerSegment));
  return { ...base, mode: "results" as const, campaign: view!, results };
}

type ActionData = { notice: Notice; errors?: Record<string, string>; expected?: number };

const fail = (notice: Notice, status: number, extra: Partial<ActionData> = {}) => data<ActionData>({ notice, ...extra }, { status });

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const env = getEnv();
  const db = await getDb();
  const isNew = params.id === "new";
  try {
    if (form.intent === "save") {
      const parsed = CampaignDraftSchema.safeParse({ name: form.name, body: form.body, audience: audienceFromFields(form) });
      if (!parsed.success) {
        const errors = Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path.at(-1) ?? "form"), issue.message]));
        return fail({ ...ALERT_NOTICES.invalid, description: parsed.error.issues[0]!.message }, 400, { errors });
      }
      const saved = await saveDraft(db, {
        ...parsed.data,
        id: isNew ? undefined : params.id,
        version: form.version ? Number(form.version) : undefined,
        actor: user.email,
        siteUrl: env.SITE_URL,
        pricePerSegment: env.SMS_PRICE_PER_SEGMENT,
      });
      if (!saved.ok) return fail({ ...ALERT_NOTICES.notAllowed, description: saved.message }, saved.code === "not_found" ? 404 : 409);
      if (isNew) return redirect(`/admin/alerts/${saved.campaign.id}?saved=1`);
      return data<ActionData>({ notice: ALERT_NOTICES.saved });
    }
    if (isNew) return fail(ALERT_NOTICES.notAllowed, 400);
    if (form.intent === "test") {
      const sent = await sendCampaignTest(db, { id: params.id, phone: form.phone ?? "", actor: user.email, siteUrl: env.SITE_URL });
      if (!sent.ok) return fail({ ...ALERT_NOTICES.testFailed, description: sent.message }, sent.code === "not_found" ? 404 : 400);
      return data<ActionData>({ notice: ALERT_NOTICES.testQueued });
    }
    if (form.intent === "schedule") {
      let schedule: Parameters<typeof scheduleCampaign>[1]["schedule"] = { when: "now" };
      if (form.when === "later") {
        const zone = SCHEDULE_ZONES.find((option) => option.zone === form.zone)?.zone;
        const at = zone ? zonedTimeToUtc(form.at ?? "", zone) : null;
        if (!zone || !at) return fail({ ...ALERT_NOTICES.invalid, description: "Pick a date, a time and a time zone." }, 400, { errors: { at: "Pick a date and time." } });
        schedule = { when: "later", at, zone };
      }
      let authCookies: Headers | undefined;
      const result = await scheduleCampaign(db, {
        id: params.id,
        schedule,
        typedCount: form.typedCount ? Number(form.typedCount.replace(/[,\s]/g, "")) : undefined,
        shownCount: form.shownCount ? Number(form.shownCount) : undefined,
        actor: user.email,
        dncPolicy: env.DNC_POLICY,
        confirmAbove: env.ALERT_CONFIRM_ABOVE,
        verifySecondFactor: user.twoFactorEnabled
          ? async () => {
              const call = await callAuthEndpoint(request, "/two-factor/verify-totp", { code: (form.totp ?? "").replace(/\s/g, "") });
              if (call.ok) authCookies = cookieHeaders(call);
              return call.ok;
            }
          : undefined,
      });
      if (!result.ok) {
        if (result.code === "confirm") return fail({ ...ALERT_NOTICES.confirm, description: result.message }, 400, { expected: result.expected, errors: { typedCount: result.message } });
        if (result.code === "second_factor") return fail(ALERT_NOTICES.twoFactor, 400, { errors: { totp: "That code is not valid." } });
        return fail({ ...ALERT_NOTICES.notAllowed, description: result.message }, result.code === "not_found" ? 404 : result.code === "invalid" ? 400 : 409);
      }
      return data<ActionData>({ notice: schedule.when === "now" ? ALERT_NOTICES.sending : ALERT_NOTICES.scheduled }, { headers: authCookies });
    }
    const controls: Record<string, { action: CampaignControl; notice: Notice }> = {
      pause: { action: "pause", notice: ALERT_NOTICES.paused },
      resume: { action: "resume", notice: ALERT_NOTICES.resumed },
      cancel: { action: "cancel", notice: ALERT_NOTICES.cancelled },
      unschedule: { action: "unschedule", notice: ALERT_NOTICES.unscheduled },
    };
    const control = controls[form.intent ?? ""];
    if (!control) return fail({ ...ALERT_NOTICES.notAllowed, description: "Unknown action." }, 400);
    const result = await controlCampaign(db, { id: params.id, action: control.action, actor: user.email });
    if (!result.ok) return fail({ ...ALERT_NOTICES.notAllowed, description: result.message }, result.code === "not_found" ? 404 : 409);
    return data<ActionData>({ notice: control.notice });
  } catch (error) {
    logger.error({ err: error, intent: form.intent }, "market alert action failed");
    return fail(ALERT_NOTICES.failed, 500);
  }
}

export function headers() {
  return noStore;
}

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(matches, { title: "Market Alert", description: "Compose, send and follow an SMS market alert.", path: `/admin/alerts/${params.id}`, noindex: true });

export default function AdminAlert({ loaderData, actionData: answer }: Route.ComponentProps) {
  const actionData = answer && "notice" in answer ? answer : undefined;
  const hydrated = useHydrated();
  useEffect(() => {
    if (actionData?.notice) notify(actionData.notice);
  }, [actionData]);
  const banner = !hydrated && actionData?.notice ? <NoticeBanner notice={actionData.notice} className="mb-4" /> : null;
  if (loaderData.mode === "missing") {
    return (
      <section>
        <h1 className="text-3xl font-extrabold text-primary">Alert not found</h1>
        <p className="mt-2 text-muted-foreground">
          It may have been removed. <a href="/admin/alerts" className="underline">Back to the alerts</a>
        </p>
      </section>
    );
  }
  if (loaderData.mode === "results") return <Results data={loaderData} banner={banner} />;
  return <Compose data={loaderData} actionData={actionData} banner={banner} />;
}

type ComposeData = Extract<Route.ComponentProps["loaderData"], { mode: "compose" }>;
type ResultsData = Extract<Route.ComponentProps["loaderData"], { mode: "results" }>;

const inputClass = "block w-full rounded-md border border-input bg-background px-3 py-2 text-base";
const usd = (amount: number) => amount.toLocaleString("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

function Compose({ data: loaderData, actionData, banner }: { data: ComposeData; actionData: ActionData | undefined; banner: React.ReactNode }) {
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

function DraftActions({ data: loaderData, campaignId, actionData }: { data: ComposeData; campaignId: string; actionData: ActionData | undefined }) {
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

const STATUS_LABEL: Record<string, string> = {
  scheduled: "Scheduled",
  sending: "Sending",
  paused: "Paused",
  completed: "Completed",
  cancelled: "Cancelled",
};

function Results({ data: loaderData, banner }: { data: ResultsData; banner: React.ReactNode }) {
  const { campaign, results } = loaderData;
  const revalidator = useRevalidator();
  const live = campaign.status === "sending" || campaign.status === "scheduled";
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [live, revalidator]);
  const done = results.planned - results.queued - results.waiting - results.sending;
  const percent = results.planned ? Math.round((done / results.planned) * 100) : campaign.status === "completed" ? 100 : 0;
  const stats: [string, string | number, string][] = [
    ["Planned", results.planned, "planned"],
    ["Sent", results.sent, "sent"],
    ["Delivered", results.delivered, "delivered"],
    ["Failed", results.failed, "failed"],
    ["Skipped", results.skipped, "skipped"],
    ["Waiting for allowed hours", results.waiting, "waiting"],
    ["Opt-outs within 7 days", results.optOuts, "opt-outs"],
    ["Clicks", results.clicks, "clicks"],
    ["Unique clickers", results.uniqueClickers, "clickers"],
    ["Cost", usd(results.cost), "cost"],
  ];
  const controls: { intent: string; label: string; show: boolean }[] = [
    { intent: "pause", label: "Pause", show: campaign.status === "sending" },
    { intent: "resume", label: "Resume", show: campaign.status === "paused" },
    { intent: "unschedule", label: "Back to draft", show: campaign.status === "scheduled" },
    { intent: "cancel", label: "Cancel alert", show: ["scheduled", "sending", "paused"].includes(campaign.status) },
  ];
  return (
    <section aria-labelledby="results-heading" className="space-y-6">
      {banner}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="results-heading" className="text-3xl font-extrabold text-primary">
            Alert: {campaign.name}
          </h1>
          <p className="mt-2 text-muted-foreground">
            <a href="/admin/alerts" className="underline">
              All alerts
            </a>{" "}
            · <span data-testid="campaign-status">{STATUS_LABEL[campaign.status] ?? campaign.status}</span>
            {campaign.scheduled ? ` · starts ${campaign.scheduled}` : ""}
          </p>
        </div>
        <a href={`/admin/alerts/${campaign.id}/recipients.csv`} className={buttonVariants({ variant: "navy", size: "sm" })} download>
          Export CSV
        </a>
      </div>
      <Card className="p-6">
        <div className="flex items-center justify-between text-sm">
          <span id="progress-label">Progress</span>
          <span data-testid="rate">{results.currentRate} texts/second now</span>
        </div>
        <div className="mt-2 h-3 w-full rounded bg-muted" role="progressbar" aria-labelledby="progress-label" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
          <div className="h-3 rounded bg-accent" style={{ width: `${percent}%` }} />
        </div>
        <dl className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-5">
          {stats.map(([label, value, id]) => (
            <div key={id}>
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="text-xl font-bold" data-testid={`stat-${id}`}>
                {typeof value === "number" ? value.toLocaleString("en-US") : value}
              </dd>
            </div>
          ))}
        </dl>
      </Card>
      <div className="grid gap-6 md:grid-cols-2">
        <ReasonList title="Failed, by reason" rows={results.failedReasons} />
        <ReasonList title="Skipped, by reason" rows={results.skippedReasons} />
      </div>
      <Card className="p-6">
        <h2 className="text-lg font-bold text-primary">Message as sent</h2>
        <p className="mt-2 whitespace-pre-wrap font-mono text-sm">{campaign.sendBody ?? campaign.body}</p>
      </Card>
      {controls.some((control) => control.show) ? (
        <div className="flex flex-wrap gap-3">
          {controls
            .filter((control) => control.show)
            .map((control) => (
              <Form method="post" key={control.intent}>
                <input type="hidden" name="intent" value={control.intent} />
                <Button type="submit" variant={control.intent === "cancel" ? "outline" : "navy"}>
                  {control.label}
                </Button>
              </Form>
            ))}
        </div>
      ) : null}
    </section>
  );
}

function ReasonList({ title, rows }: { title: string; rows: { reason: string; label: string; count: number }[] }) {
  return (
    <Card className="p-6">
      <h2 className="text-lg font-bold text-primary">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">None.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm">
          {rows.map((row) => (
            <li key={row.reason} className="flex justify-between gap-4">
              <span>{row.label}</span>
              <strong>{row.count.toLocaleString("en-US")}</strong>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
