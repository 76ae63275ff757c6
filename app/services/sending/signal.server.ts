import { EventEmitter } from "node:events";

/** In-process nudge so the campaign sender starts a campaign at once instead of at its next poll. */
export const campaignSignal = new EventEmitter();

export function nudgeCampaigns() {
  campaignSignal.emit("queued");
}
