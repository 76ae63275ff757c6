import { useEffect, useRef, useState } from "react";
import { useTextTypedBeforeHydration } from "~/lib/use-typed-before-hydration";
import { data, useFetcher, useRevalidator } from "react-router";
import type { Route } from "./+types/admin-sms";
import { requireAdmin } from "~/auth/guards.server";
import { SmsCounter } from "~/components/admin/sms-counter";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { logger } from "~/http/logger.server";
import { NOTICES, noticeWith, type Notice } from "~/lib/notices";
import { notify } from "~/lib/notify";
import { analyzeSms } from "~/lib/sms-guidance";
import { pageMeta } from "~/lib/route-meta";
import { useHydrated } from "~/lib/use-hydrated";
import { useSiteConfig } from "~/root";
import { saveWelcomeMessage, sendWelcomeTest } from "~/services/admin/welcome-message.server";
import { getWelcomeConfig } from "~/services/subscription/sms-config.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  try {
    const config = await getWelcomeConfig(await getDb());
    return { ok: true as const, message: config.welcomeMessage, version: config.version, updatedAt: config.updatedAt.toISOString(), updatedBy: config.updatedBy };
  } catch (error) {
    logger.error({ err: error }, "could not load the welcome message");
    return { ok: false as const, message: "", version: 0, updatedAt: null, updatedBy: null };
  }
}

type ActionData = { notice: Notice; saved?: { message: string; version: number } };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const db = await getDb();
  if (form.intent === "test") {
    const sent = await sendWelcomeTest(db, form.phone ?? "");
    if (!sent.ok) return data<ActionData>({ notice: noticeWith("testFailed", sent.message) }, { status: 400 });
    return data<ActionData>({ notice: NOTICES.testQueued });
  }
  const expectedVersion = Number(form.version);
  if (!Number.isInteger(expectedVersion)) return data<ActionData>({ notice: NOTICES.adminSaveFailed }, { status: 400 });
  try {
    const result = await saveWelcomeMessage(db, { text: form.message ?? "", expectedVersion, actor: user.email });
    if (result.ok) return data<ActionData>({ notice: NOTICES.adminSaved, saved: { message: result.message, version: result.version } });
    if (result.code === "empty") return data<ActionData>({ notice: NOTICES.adminMessageRequired }, { status: 400 });
    if (result.code === "stale") return data<ActionData>({ notice: NOTICES.adminSaveConflict }, { status: 409 });
    return data<ActionData>({ notice: noticeWith("adminSaveFailed", "The message is too long (at most 1,600 characters).") }, { status: 400 });
  } catch (error) {
    logger.error({ err: error }, "could not save the welcome message");
    return data<ActionData>({ notice: NOTICES.adminSaveFailed }, { status: 500 });
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Welcome SMS", description: "Edit the welcome text message.", path: "/admin/sms", noindex: true });

export default function AdminSms({ loaderData, actionData }: Route.ComponentProps) {
  const site = useSiteConfig();
  const hydrated = useHydrated();
  const save = useFetcher<ActionData>();
  const test = useFetcher<ActionData>();
  const revalidator = useRevalidator();
  // The textarea is uncontrolled (a controlled one gets the state's text back at hydration);
  // `text` mirrors it for the counter and Save, and text typed before hydration is put back.
  const box = useRef<HTMLTextAreaElement>(null);
  const [text, setTypedText] = useState(loaderData.message);
  const [shown, setShown] = useState<{ text: string } | null>(null);
  const setText = (value: string) => {
    setTypedText(value);
    setShown({ text: value });
  };
  useTextTypedBeforeHydration("welcome-message", box, setTypedText);
  useEffect(() => {
    if (shown && box.current) box.current.value = shown.text;
  }, [shown]);
  const [version, setVersion] = useState(loaderData.version);
  const [resetPending, setResetPending] = useState(false);
  const saving = save.state !== "idle";
  const analysis = analyzeSms(text, site.name);

  // A successful save moves us to the new version; a reset takes the stored text once reloaded.
  const [handled, setHandled] = useState(save.data);
  if (save.data !== handled) {
    setHandled(save.data);
    if (save.data?.saved) {
      setText(save.data.saved.message);
      setVersion(save.data.saved.version);
    }
  }
  const [loaded, setLoaded] = useState(loaderData);
  if (loaderData !== loaded) {
    setLoaded(loaderData);
    if (resetPending) {
      setText(loaderData.message);
      setVersion(loaderData.version);
      setResetPending(false);
    }
  }

  useEffect(() => {
    if (!loaderData.ok) notify(NOTICES.adminLoadFailed);
  }, [loaderData.ok]);
  useEffect(() => {
    if (save.data) notify(save.data.notice);
  }, [save.data]);
  useEffect(() => {
    if (test.data) notify(test.data.notice);
  }, [test.data]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    if (!text.trim()) {
      event.preventDefault();
      notify(NOTICES.adminMessageRequired);
    }
  };

  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <section className="lg:col-span-2" aria-labelledby="sms-heading">
        <h1 id="sms-heading" className="text-3xl font-extrabold text-primary">
          Welcome SMS
        </h1>
        <p className="mt-2 text-muted-foreground">Sent to every new subscriber right after they opt in.</p>
        {!hydrated && actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} className="mt-4" /> : null}
        {!loaderData.ok ? <NoticeBanner notice={NOTICES.adminLoadFailed} className="mt-4" /> : null}
        <Card className="mt-6 p-6">
          <save.Form method="post" onSubmit={onSubmit}>
            <input type="hidden" name="intent" value="save" />
            <input type="hidden" name="version" value={version} />
            <label htmlFor="welcome-message" className="block text-sm font-semibold">
              Welcome message
            </label>
            <textarea
              id="welcome-message"
              name="message"
              rows={5}
              ref={box}
              defaultValue={loaderData.message}
              onChange={(event) => setTypedText(event.target.value)}
              aria-describedby="sms-count sms-warnings"
              className="mt-2 block w-full rounded-md border border-input p-3 font-mono text-sm"
            />
            <SmsCounter analysis={analysis} countId="sms-count" warningsId="sms-warnings" />
            <div className="mt-4 flex gap-3">
              <Button type="submit" disabled={hydrated && (!text.trim() || saving)}>
                {saving ? "Saving..." : "Save"}
              </Button>
              <Button
                type="button"
                variant="outline"
                onClick={() => {
                  setResetPending(true);
                  void revalidator.revalidate();
                }}
              >
                Reset
              </Button>
            </div>
          </save.Form>
        </Card>
        {loaderData.updatedAt ? (
          <p className="mt-3 text-xs text-muted-foreground">
            Last changed {new Date(loaderData.updatedAt).toLocaleString("en-US")} {loaderData.updatedBy ? `by ${loaderData.updatedBy}` : ""} (version{" "}
            {loaderData.version})
          </p>
        ) : null}
      </section>
      <aside>
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">Send a test</h2>
          <p className="mt-1 text-sm text-muted-foreground">Sends the saved text to a phone you type, through the outbox.</p>
          <test.Form method="post" className="mt-4 space-y-3">
            <input type="hidden" name="intent" value="test" />
            <Field label="Phone" name="phone" type="tel" autoComplete="tel" required />
            <Button type="submit" variant="navy" disabled={test.state !== "idle"}>
              Send test
            </Button>
          </test.Form>
        </Card>
        <Card className="mt-6 p-6 text-sm text-muted-foreground">
          <h2 className="text-lg font-bold text-primary">Guidance</h2>
          <p className="mt-2">Keep it to one segment (160 GSM-7 characters), name {site.name}, and include HELP and &ldquo;Reply STOP&rdquo;. Curly quotes, dashes and emoji switch to UCS-2 (70 characters).</p>
        </Card>
      </aside>
    </div>
  );
}
