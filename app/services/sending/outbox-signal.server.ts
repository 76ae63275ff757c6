import { EventEmitter } from "node:events";

/** In-process nudge so the outbox worker sends a new message at once instead of at its next poll. */
export const outboxSignal = new EventEmitter();

export function nudgeOutbox() {
  outboxSignal.emit("queued");
}
