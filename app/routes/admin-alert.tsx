import { useEffect } from "react";
import { data, redirect } from "react-router";
import type { Route } from "./+types/admin-alert";
import { callAuthEndpoint, cookieHeaders } from "~/auth/call-auth.server";
import { requireAdmin } from "~/auth/guards.server";
import { AlertCompose } from "~/components/admin/alerts/alert-compose";
import { AlertResults } from "~/components/admin/alerts/alert-results";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { getEnv } from "~/http/env.server";
import { logger } from "~/http/logger.server";
import { audienceFromFields, audienceToFields } from "~/lib/audience-form";
import { ALERT_NOTICES, type Notice } from "~/lib/notices";
import { notify } from "~/lib/notify";
import { pageMeta } from "~/lib/route-meta";
import { useHydrated } from "~/lib/use-hydrated";
import { formatInZone, SCHEDULE_ZONES, zonedTimeToUtc } from "~/lib/zoned-time";
import { AudienceSchema, countReach } from "~/services/sending/audience.server";
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

export type AlertActionData = { notice: Notice; errors?: Record<string, string>; expected?: number };

const fail = (notice: Notice, status: number, extra: Partial<AlertActionData> = {}) => data<AlertActionData>({ notice, ...extra }, { status });

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
      return data<AlertActionData>({ notice: ALERT_NOTICES.saved });
    }
    if (isNew) return fail(ALERT_NOTICES.notAllowed, 400);
    if (form.intent === "test") {
      const sent = await sendCampaignTest(db, { id: params.id, phone: form.phone ?? "", actor: user.email, siteUrl: env.SITE_URL });
      if (!sent.ok) return fail({ ...ALERT_NOTICES.testFailed, description: sent.message }, sent.code === "not_found" ? 404 : 400);
      return data<AlertActionData>({ notice: ALERT_NOTICES.testQueued });
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
      return data<AlertActionData>({ notice: schedule.when === "now" ? ALERT_NOTICES.sending : ALERT_NOTICES.scheduled }, { headers: authCookies });
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
    return data<AlertActionData>({ notice: control.notice });
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
  if (loaderData.mode === "results") return <AlertResults data={loaderData} banner={banner} />;
  return <AlertCompose data={loaderData} actionData={actionData} banner={banner} />;
}

export type AlertComposeData = Extract<Route.ComponentProps["loaderData"], { mode: "compose" }>;
export type AlertResultsData = Extract<Route.ComponentProps["loaderData"], { mode: "results" }>;
