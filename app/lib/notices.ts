/**
 * The single catalogue of user-facing notices (spec section 8, word for word).
 * Services return codes, routes map codes to keys here, and the UI shows them with sonner
 * (or server-rendered when JavaScript is off).
 */
export type NoticeVariant = "success" | "error" | "info";

export type Notice = { title: string; description: string; variant: NoticeVariant };

import { CONTACT_FAILED, GENERIC_SUBSCRIPTION_ERROR, OPT_IN_ERROR } from "./notice-fallbacks";

export { GENERIC_SUBSCRIPTION_ERROR };

export const NOTICES = {
  consentRequired: {
    title: "Consent Required",
    description: "Please agree to the terms and conditions to continue.",
    variant: "error",
  },
  optInMissingFields: {
    title: "Required Fields Missing",
    description: "Please fill in your first name, last name, and phone number.",
    variant: "error",
  },
  smsConsentRequired: {
    title: "Consent Required",
    description: "Please check the box to agree to receive SMS market alerts.",
    variant: "error",
  },
  optInDnc: {
    title: "Unable to Subscribe",
    description: "This phone number is on the Do Not Call list and cannot receive marketing messages.",
    variant: "error",
  },
  optInError: OPT_IN_ERROR,
  optInSuccess: {
    title: "Welcome Patriot!",
    description: "You're now subscribed to breaking market alerts!",
    variant: "success",
  },
  adminLoadFailed: { title: "Error", description: "Failed to load current SMS message", variant: "error" },
  adminSaveFailed: { title: "Error", description: "Failed to update welcome message", variant: "error" },
  adminSaved: { title: "Success", description: "Welcome message updated successfully!", variant: "success" },
  adminSaveConflict: {
    title: "Not Saved",
    description: "Someone else changed the welcome message since you opened it. Press Reset to load their version, then make your change again.",
    variant: "error",
  },
  testQueued: { title: "Test Sent", description: "The test message is on its way.", variant: "success" },
  testFailed: { title: "Test Not Sent", description: "Please enter a valid US mobile number.", variant: "error" },
  adminMessageRequired: { title: "Message Required", description: "Please enter a welcome message", variant: "error" },
  signedIn: { title: "Welcome back!", description: "You have successfully signed in.", variant: "success" },
  signInFailed: { title: "Sign In Failed", description: "Invalid email or password.", variant: "error" },
  accountCreated: {
    title: "Account Created!",
    description: "Please check your email to verify your account.",
    variant: "success",
  },
  signUpFailed: { title: "Sign Up Failed", description: "We could not create your account.", variant: "error" },
  signedOut: { title: "Signed Out", description: "You have been successfully signed out.", variant: "success" },
  emailVerified: {
    title: "Email Verified",
    description: "Thank you for confirming your email address. You are signed in.",
    variant: "success",
  },
  resetRequested: {
    title: "Check Your Email",
    description: "If an account exists for that address, we sent a link to reset the password.",
    variant: "success",
  },
  passwordReset: {
    title: "Password Changed",
    description: "Your password was changed and your other sessions were signed out. Please sign in.",
    variant: "success",
  },
  resetFailed: {
    title: "Reset Failed",
    description: "This reset link is invalid or has expired. Please ask for a new one.",
    variant: "error",
  },
  contactSent: {
    title: "Message Sent",
    description: "Thank you for reaching out. We reply within 24 hours on business days.",
    variant: "success",
  },
  contactInvalid: {
    title: "Please Check the Form",
    description: "Some fields need your attention.",
    variant: "error",
  },
  contactFailed: CONTACT_FAILED,
  tooManyRequests: {
    title: "Too Many Attempts",
    description: "Please wait a few minutes and try again.",
    variant: "error",
  },
} as const satisfies Record<string, Notice>;

export type NoticeKey = keyof typeof NOTICES;

/** "Successfully Subscribed!" names the product, so its text is built from the site name. */
export function newsletterSuccessNotice(siteName: string): Notice {
  return {
    title: "Successfully Subscribed!",
    description: `Welcome to ${siteName}! You'll receive updates soon.`,
    variant: "success",
  };
}

/** A notice with its description replaced, e.g. "Subscription Error" with the server's text. */
export function noticeWith(key: NoticeKey, description?: string | null): Notice {
  const notice = NOTICES[key];
  return description ? { ...notice, description } : notice;
}

/** Notices that may travel in a URL (?notice=key) after a redirect: keys only, never free text. */
export const URL_NOTICES = ["signedIn", "signedOut", "emailVerified", "passwordReset", "resetRequested"] as const satisfies readonly NoticeKey[];

export function urlNotice(key: string | null): Notice | null {
  return key && (URL_NOTICES as readonly string[]).includes(key) ? NOTICES[key as NoticeKey] : null;
}

/** Market-alert campaigns (/admin/alerts). */
export const ALERT_NOTICES = {
  saved: { title: "Draft Saved", description: "The alert is saved as a draft.", variant: "success" },
  invalid: { title: "Please Check the Alert", description: "Some fields need your attention.", variant: "error" },
  testQueued: { title: "Test Sent", description: "The test text is on its way, with its short links.", variant: "success" },
  testFailed: { title: "Test Not Sent", description: "Please enter a valid US mobile number.", variant: "error" },
  scheduled: { title: "Alert Scheduled", description: "The alert will start at the time you picked.", variant: "success" },
  sending: { title: "Alert Sending", description: "The alert is going out now, within each person's allowed hours.", variant: "success" },
  confirm: { title: "Confirm the Number", description: "Type the number of recipients to confirm.", variant: "error" },
  twoFactor: { title: "Code Required", description: "Enter a current code from your authenticator app to send to this many people.", variant: "error" },
  paused: { title: "Alert Paused", description: "No more texts go out until you resume it.", variant: "success" },
  resumed: { title: "Alert Resumed", description: "Sending continues.", variant: "success" },
  cancelled: { title: "Alert Cancelled", description: "Texts not yet sent will not go out.", variant: "success" },
  unscheduled: { title: "Back to Draft", description: "The alert is a draft again and will not start.", variant: "success" },
  notAllowed: { title: "Not Possible", description: "This alert changed meanwhile; reload the page.", variant: "error" },
  failed: { title: "Error", description: "The alert could not be updated. Please try again.", variant: "error" },
} as const satisfies Record<string, Notice>;
