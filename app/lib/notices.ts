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
    description: "You’re now subscribed to breaking market alerts!",
    variant: "success",
  },
  /** With double opt-in (SMS_DOUBLE_OPT_IN): the number is subscribed only after the "Y" reply. */
  optInConfirmPending: {
    title: "Check Your Phone to Confirm",
    description: "We just texted you. Reply Y to confirm your market alerts; nothing else is sent until you do.",
    variant: "success",
  },
  newsletterConfirmSent: {
    title: "Check Your Inbox",
    description: "We sent you an e-mail: open the link in it to confirm your subscription.",
    variant: "info",
  },
  newsletterConfirmed: {
    title: "Subscription Confirmed",
    description: "Thank you! Your newsletter subscription is confirmed.",
    variant: "success",
  },
  newsletterLinkUsed: {
    title: "Already Confirmed",
    description: "This confirmation link has already been used. Your subscription stands unless you unsubscribed since.",
    variant: "info",
  },
  newsletterLinkExpired: {
    title: "Link Expired",
    description: "This confirmation link has expired. Sign up again and we will send you a new one.",
    variant: "error",
  },
  newsletterUnsubscribed: {
    title: "Unsubscribed",
    description: "You will receive no more newsletters from us. You can come back at any time on this page.",
    variant: "success",
  },
  newsletterResubscribed: {
    title: "Welcome Back!",
    description: "Your newsletter subscription is active again.",
    variant: "success",
  },
  newsletterHeldNoPostalAddress: {
    title: "Held: No Postal Address",
    description:
      "This issue is not being sent: the server has no postal address (SITE_POSTAL_ADDRESS), which the law requires in every newsletter (CAN-SPAM). Set it and restart the server; the issue then goes out on its own.",
    variant: "error",
  },
  newsletterSuppressed: {
    title: "Cannot Subscribe",
    description: "Mail to this address bounced or was reported as spam, so we no longer send to it. Contact us if this is a mistake.",
    variant: "error",
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
  adminCreated: {
    title: "Admin Account Created",
    description: "Your admin account is ready and its email address verified. Please sign in.",
    variant: "success",
  },
  setupInvalid: {
    title: "Please Check the Form",
    description: "Some fields need your attention.",
    variant: "error",
  },
  emailChangeSent: {
    title: "Check Your New Address",
    description: "We sent a link to the new address. Your e-mail changes once you open it.",
    variant: "success",
  },
  emailChanged: { title: "Email Changed", description: "Your new e-mail address is confirmed.", variant: "success" },
  passwordChanged: {
    title: "Password Changed",
    description: "Your password was changed and your other devices were signed out.",
    variant: "success",
  },
  signedOutEverywhere: {
    title: "Signed Out Everywhere",
    description: "You were signed out on every device, this one included.",
    variant: "success",
  },
  phoneCodeSent: { title: "Code Sent", description: "We texted a 6-digit code to your phone. Enter it below.", variant: "success" },
  phoneConfirmed: { title: "Phone Confirmed", description: "Your phone number is confirmed.", variant: "success" },
  subscriptionStopped: { title: "Subscription Stopped", description: "You will receive no more messages on this subscription.", variant: "success" },
  accountDeleted: {
    title: "Account Deleted",
    description: "Your account and its sign-in data were deleted. Consent records are kept as the law requires.",
    variant: "success",
  },
  accountActionFailed: { title: "Not Changed", description: "Something went wrong. Please try again.", variant: "error" },
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
    description: `Welcome to ${siteName}! You’ll receive updates soon.`,
    variant: "success",
  };
}

/** A notice with its description replaced, e.g. "Subscription Error" with the server's text. */
export function noticeWith(key: NoticeKey, description?: string | null): Notice {
  const notice = NOTICES[key];
  return description ? { ...notice, description } : notice;
}

/** Notices that may travel in a URL (?notice=key) after a redirect: keys only, never free text. */
export const URL_NOTICES = ["signedIn", "signedOut", "emailVerified", "passwordReset", "resetRequested", "adminCreated", "emailChanged", "signedOutEverywhere", "accountDeleted"] as const satisfies readonly NoticeKey[];

/**
 * Notices after a redirect that stay on the page as a banner, with or without JavaScript, instead
 * of a toast that fades: the outcome of something that cannot be undone, after which the person
 * is signed out and has nothing else to check it by.
 */
export const LASTING_URL_NOTICES = ["accountDeleted"] as const satisfies readonly (typeof URL_NOTICES)[number][];

export type UrlNotice = Notice & { lasting: boolean };

export function urlNotice(key: string | null): UrlNotice | null {
  if (!key || !(URL_NOTICES as readonly string[]).includes(key)) return null;
  return { ...NOTICES[key as NoticeKey], lasting: (LASTING_URL_NOTICES as readonly string[]).includes(key) };
}

/** Market-alert campaigns (/admin/alerts). */
export const ALERT_NOTICES = {
  saved: { title: "Draft Saved", description: "The alert is saved as a draft.", variant: "success" },
  invalid: { title: "Please Check the Alert", description: "Some fields need your attention.", variant: "error" },
  testQueued: { title: "Test Sent", description: "The test text is on its way, with its short links.", variant: "success" },
  testFailed: { title: "Test Not Sent", description: "Please enter a valid US mobile number.", variant: "error" },
  scheduled: { title: "Alert Scheduled", description: "The alert will start at the time you picked.", variant: "success" },
  sending: { title: "Alert Sending", description: "The alert is going out now, within each person’s allowed hours.", variant: "success" },
  confirm: { title: "Confirm the Number", description: "Type the number of recipients to confirm.", variant: "error" },
  twoFactor: { title: "Code Required", description: "Enter a current code from your authenticator app to send to this many people.", variant: "error" },
  paused: { title: "Alert Paused", description: "No more texts go out until you resume it.", variant: "success" },
  resumed: { title: "Alert Resumed", description: "Sending continues.", variant: "success" },
  cancelled: { title: "Alert Cancelled", description: "Texts not yet sent will not go out.", variant: "success" },
  unscheduled: { title: "Back to Draft", description: "The alert is a draft again and will not start.", variant: "success" },
  notAllowed: { title: "Not Possible", description: "This alert changed meanwhile; reload the page.", variant: "error" },
  failed: { title: "Error", description: "The alert could not be updated. Please try again.", variant: "error" },
} as const satisfies Record<string, Notice>;

/** People and roles (/admin/people). */
export const PEOPLE_NOTICES = {
  changed: { title: "Role Changed", description: "The new role applies from the person’s next page load.", variant: "success" },
  lastAdmin: {
    title: "Not Changed",
    description: "This is the last admin account. Make someone else an admin first, so that the site keeps an admin.",
    variant: "error",
  },
  unchanged: { title: "Not Changed", description: "The account already has this role.", variant: "info" },
  notFound: { title: "Not Changed", description: "This account no longer exists. Reload the page.", variant: "error" },
  invalid: { title: "Not Changed", description: "Choose reader, editor or admin.", variant: "error" },
} as const satisfies Record<string, Notice>;

/** Image uploads (/admin/media and the editor's image button); the keys are the service's codes. */
export const MEDIA_NOTICES = {
  uploaded: { title: "Image Uploaded", description: "Resized for every screen. Use its Markdown line in an article.", variant: "success" },
  alt_required: {
    title: "Alt Text Required",
    description: "Describe the image in at least 5 characters, for readers who cannot see it.",
    variant: "error",
  },
  alt_too_long: { title: "Alt Text Too Long", description: "Keep the description to 300 characters or fewer.", variant: "error" },
  not_image: {
    title: "Not an Image",
    description: "This file is not an image we can read. Upload a JPEG, PNG, WebP, AVIF, GIF or TIFF picture.",
    variant: "error",
  },
  too_many_pixels: { title: "Image Too Large", description: "The picture has more than 50 megapixels. Scale it down and try again.", variant: "error" },
  no_file: { title: "No File", description: "Choose an image file to upload.", variant: "error" },
  refused: { title: "Not Uploaded", description: "The upload could not be read. Please try again.", variant: "error" },
} as const satisfies Record<string, Notice>;

/** The editorial desk (/admin/articles, /admin/authors). Keys may travel in `?done=` after a redirect. */
export const ARTICLE_NOTICES = {
  created: { title: "Draft Created", description: "The article is saved as a draft.", variant: "success" },
  saved: { title: "Draft Saved", description: "Your changes are saved. Readers see them once you publish.", variant: "success" },
  published: { title: "Article Published", description: "The article is live on every page that lists it.", variant: "success" },
  updated: { title: "Article Updated", description: "Readers see the new version now.", variant: "success" },
  scheduled: { title: "Article Scheduled", description: "It goes live at the time you picked, on its own.", variant: "success" },
  unpublished: { title: "Article Unpublished", description: "Readers no longer see it; its address now answers that it was removed.", variant: "success" },
  restored: { title: "Revision Restored", description: "The working copy is that revision again. Publish to show it to readers.", variant: "success" },
  featured: { title: "Featured Article Changed", description: "The blog features this article now.", variant: "success" },
  invalid: { title: "Please Check the Article", description: "Some fields need your attention.", variant: "error" },
  stale: { title: "Changed Elsewhere", description: "Someone saved this article after you opened it. Reload it, then make your change again.", variant: "error" },
  wrongState: { title: "Not Possible", description: "The article’s status changed meanwhile; reload the page.", variant: "error" },
  notFound: { title: "Not Found", description: "This article or revision does not exist.", variant: "error" },
  authorCreated: { title: "Author Created", description: "The profile is saved.", variant: "success" },
  authorSaved: { title: "Author Saved", description: "The profile and every byline show the change now.", variant: "success" },
  authorInvalid: { title: "Please Check the Profile", description: "Some fields need your attention.", variant: "error" },
} as const satisfies Record<string, Notice>;

export type ArticleNoticeKey = keyof typeof ARTICLE_NOTICES;

export function articleNotice(key: string | null): Notice | null {
  return key && Object.hasOwn(ARTICLE_NOTICES, key) ? ARTICLE_NOTICES[key as ArticleNoticeKey] : null;
}
