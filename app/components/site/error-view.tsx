import { isRouteErrorResponse } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { errorHeading } from "./error-heading";

/** Last-resort view: never shows a stack trace or internal message to the visitor. */
export function ErrorView({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const heading = errorHeading(status);
  const text =
    status === 403
      ? "Your account does not have permission to view this page."
      : "We could not complete your request. Please try again in a moment.";
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-accent">{status}</p>
      <h1 className="mt-4 text-3xl font-extrabold text-primary">{heading}</h1>
      <p className="mt-3 text-muted-foreground">{text}</p>
      <ButtonLink to="/" className="mt-8">
        Return to Home
      </ButtonLink>
    </section>
  );
}
