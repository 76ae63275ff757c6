import { Form, Link } from "react-router";
import type { Route } from "./+types/auth";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { cn } from "~/lib/cn";
import { pageMeta } from "~/lib/route-meta";

export type AuthTab = "signin" | "signup";

export function loader({ request }: Route.LoaderArgs) {
  const tab: AuthTab = new URL(request.url).searchParams.get("tab") === "signup" ? "signup" : "signin";
  return { tab };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Sign In",
    description: "Sign in to access the admin panel.",
    path: "/auth",
    noindex: true,
  });

const tabClass = (active: boolean) =>
  cn(
    "flex-1 rounded-md px-4 py-2 text-center text-sm font-bold",
    active ? "bg-primary text-primary-foreground" : "text-primary hover:bg-muted",
  );

export default function Auth({ loaderData }: Route.ComponentProps) {
  const { tab } = loaderData;
  const isSignUp = tab === "signup";
  return (
    <section className="mx-auto max-w-md px-4 py-16">
      <Card className="p-8">
        <h1 className="text-center text-3xl font-extrabold text-primary">{isSignUp ? "Create Account" : "Sign In"}</h1>
        <p className="mt-2 text-center text-muted-foreground">Sign in to access the admin panel</p>
        <nav aria-label="Sign in or sign up" className="mt-6 flex gap-2 rounded-lg bg-muted p-1">
          <Link to="/auth" className={tabClass(!isSignUp)} aria-current={!isSignUp ? "page" : undefined}>
            Sign In
          </Link>
          <Link to="/auth?tab=signup" className={tabClass(isSignUp)} aria-current={isSignUp ? "page" : undefined}>
            Sign Up
          </Link>
        </nav>
        <Form method="post" className="mt-6 space-y-4">
          <input type="hidden" name="intent" value={tab} />
          <Field label="Email" name="email" type="email" autoComplete="email" required />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete={isSignUp ? "new-password" : "current-password"}
            minLength={isSignUp ? 6 : undefined}
            required
          />
          <Button type="submit" className="w-full" size="lg">
            {isSignUp ? "Sign Up" : "Sign In"}
          </Button>
        </Form>
      </Card>
    </section>
  );
}
