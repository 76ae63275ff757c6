import { useId, useRef } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { useTextTypedBeforeHydration } from "~/lib/use-typed-before-hydration";
import { cn } from "~/lib/cn";

const inputClass =
  "block w-full rounded-md border border-input bg-background px-3 py-2.5 text-base text-foreground placeholder:text-muted-foreground focus-visible:outline-3 focus-visible:outline-ring aria-invalid:border-destructive";

type FieldProps = {
  label: string;
  error?: string;
  /** A line under the input saying what it takes (read out with it). */
  hint?: string;
  required?: boolean;
  className?: string;
} & (
  | ({ multiline?: false } & React.ComponentProps<"input">)
  | ({ multiline: true } & React.ComponentProps<"textarea">)
);

/** A labelled input (or textarea) with its error message wired up for screen readers. */
export function Field({ label, error, hint, required, className, multiline, ...inputProps }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ");
  const textarea = useRef<HTMLTextAreaElement>(null);
  useTextTypedBeforeHydration(id, textarea);
  const shared = {
    id,
    required,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy || undefined,
    className: inputClass,
  };
  return (
    <div className={className}>
      <div className="mb-1.5 text-sm font-semibold text-foreground">
        <label htmlFor={id}>{label}</label>
        {required ? (
          <span className="text-destructive" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </div>
      {multiline ? (
        <textarea {...(inputProps as React.ComponentProps<"textarea">)} {...shared} ref={textarea} />
      ) : (
        <input {...(inputProps as React.ComponentProps<"input">)} {...shared} />
      )}
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type CheckboxFieldProps = Omit<React.ComponentProps<"input">, "type"> & {
  children: React.ReactNode;
  error?: string;
};

/** A consent checkbox. Never pre-ticked: callers pass no defaultChecked from the URL. */
export function CheckboxField({ children, error, className, ...inputProps }: CheckboxFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={cn("flex items-start gap-3", className)}>
      <input
        id={id}
        type="checkbox"
        value="on"
        className="mt-1 h-5 w-5 shrink-0 accent-[#b22234]"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...inputProps}
      />
      <div>
        <label htmlFor={id} className="text-sm leading-relaxed text-foreground">
          {children}
        </label>
        {error ? (
          <p id={errorId} className="mt-1 text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The Terms of Service and Privacy Policy box of every sign-up form: its own box, never pre-ticked. */
export function TermsConsentField() {
  return (
    <CheckboxField name="termsConsent">
      I agree to the{" "}
      <Link to="/terms" className="font-semibold text-accent-strong underline">
        Terms of Service
      </Link>{" "}
      and{" "}
      <Link to="/privacy" className="font-semibold text-accent-strong underline">
        Privacy Policy
      </Link>
      .
    </CheckboxField>
  );
}

/**
 * A sign-up form's submit button and the "Still needed: …" line it points to. Once hydrated, the
 * button stays off until nothing is missing; without JavaScript it is always on and the server
 * answers what is missing.
 */
export function SubmitWithHint({ hydrated, hint, submitting, label, busyLabel }: { hydrated: boolean; hint: string; submitting: boolean; label: string; busyLabel: string }) {
  const hintId = useId();
  return (
    <>
      <Button type="submit" size="lg" className="mt-6 w-full" disabled={hydrated && (hint !== "" || submitting)} aria-describedby={hydrated && hint ? hintId : undefined}>
        {submitting ? busyLabel : label}
      </Button>
      {hydrated && hint ? (
        <p id={hintId} className="mt-2 text-center text-sm text-muted-foreground" aria-live="polite">
          {hint}
        </p>
      ) : null}
    </>
  );
}
