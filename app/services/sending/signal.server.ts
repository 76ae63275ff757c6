import { EventEmitter } from "node:events";

/**
 * In-process nudges so a sender starts at once instead of at its next poll: one per channel, so a
 * text queued for one person does not wake the newsletter's sender.
 */
export const sendSignals = { sms: new EventEmitter(), email: new EventEmitter() };

/** A campaign was started or scheduled now: both channels' senders look. */
export function nudgeCampaigns() {
  sendSignals.sms.emit("queued");
  sendSignals.email.emit("queued");
}

/** A text of its own was queued (and committed): the SMS sender looks. */
export function nudgeTexts() {
  sendSignals.sms.emit("queued");
}
