import { useEffect } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/auth";
import { withActionRetryAfter } from "~/http/route-headers";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { authFormAction } from "~/auth/auth-form.server";
import { getSessionUser } from "~/auth/instance.server";
import { landingAfterSignIn } from "~/auth/landing.server";
import { readFormOrAnswer } from "~/http/body.server";
import { AUTH_TEXTS } from "~/lib/auth-texts";
import { cn } from "~/lib/cn";
import { notify } from "~/lib/notify";
import { safeReturnPath } from "~/lib/return-path";
import { pageMeta } from "~/lib/route-meta";
import { useHydrated } from "~/lib/use-hydrated";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // Signed in already: back to where the visitor came from (on this site only), else their home.
  const user = await getSessionUser(request);
  if (user) throw redirect(landingAfterSignIn(url.searchParams.get("redirectTo"), user.role));
  return {
    tab: url.searchParams.get("tab") === "signup" ? ("signup" as const) : ("signin" as const),
    redirectTo: safeReturnPath(url.searchParams.get("redirectTo"), ""),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  return authFormAction(request, form);
}

// A limited post (429) says when to try again.
export const headers: Route.HeadersFunction = (args) => withActionRetryAfter(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Sign In", description: "Sign in to access the admin panel.", path: "/auth", noindex: true });

const tabClass = (active: boolean) =>
  cn(
    "flex-1 rounded-md px-4 py-2 text-center text-sm font-bold",
    active ? "bg-primary text-primary-foreground" : "text-primary hover:bg-muted",
  );

export default function Auth({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData && "notice" in actionData ? actionData : undefined;
  const tab = result?.tab ?? loaderData.tab;
  const isSignUp = tab === "signup";
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const keep = loaderData.redirectTo ? `&redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : "";

  useEffect(() => {
    if (result?.notice) notify(result.notice);
  }, [result]);

  return (
    <section className="mx-auto max-w-md px-4 py-16">
      <Card className="p-8">
        <h1 className="text-center text-3xl font-extrabold text-primary">{isSignUp ? "Create Account" : "Sign In"}</h1>
        <p className="mt-2 text-center text-muted-foreground" data-testid="auth-lead">
          {isSignUp ? AUTH_TEXTS.signUpLead : AUTH_TEXTS.signInLead}
        </p>
        <nav aria-label="Sign in or sign up" className="mt-6 flex gap-2 rounded-lg bg-muted p-1">
          <Link to={`/auth?tab=signin${keep}`} className={tabClass(!isSignUp)} aria-current={!isSignUp ? "page" : undefined}>
            Sign In
          </Link>
          <Link to={`/auth?tab=signup${keep}`} className={tabClass(isSignUp)} aria-current={isSignUp ? "page" : undefined}>
            Sign Up
          </Link>
        </nav>
        {!hydrated && result ? <NoticeBanner notice={result.notice} className="mt-6" /> : null}
        <Form method="post" className="mt-6 space-y-4" key={tab}>
          <input type="hidden" name="intent" value={tab} />
          <Field label="Email" name="email" type="email" autoComplete="email" defaultValue={result?.email} required />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete={isSignUp ? "new-password" : "current-password"}
            minLength={isSignUp ? 6 : undefined}
            maxLength={128}
            required
          />
          <Button type="submit" className="w-full" size="lg" disabled={busy}>
            {busy ? (isSignUp ? "Creating account..." : "Signing in...") : isSignUp ? "Sign Up" : "Sign In"}
          </Button>
        </Form>
        {!isSignUp ? (
          <p className="mt-6 text-center text-sm">
            <Link to="/auth/forgot" className="font-semibold text-accent-strong underline">
              Forgot your password?
            </Link>
          </p>
        ) : null}
      </Card>
    </section>
  );
}
