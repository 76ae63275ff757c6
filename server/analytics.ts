import type { IncomingMessage } from "node:http";
import type { Recorder } from "~/services/analytics/recorder";
import { viewTarget } from "~/services/analytics/page-view";
import { clientIp } from "./client-ip";

export type CountView = (req: IncomingMessage, status: number, contentType: string) => void;

/**
 * The one call every answer that may be a page makes once it is sent (from memory, from the page
 * store, from the router): a page view is counted in memory, nothing else (decision 141). The
 * client address is resolved as the rest of the server resolves it (trusted hops only).
 * Undefined when analytics is off, so the callers skip even the call.
 */
export function createViewCounter(recorder: Recorder | undefined, trustedHops: number): CountView | undefined {
  if (!recorder) return undefined;
  return (req, status, contentType) => {
    const target = viewTarget(req.method, status, contentType, req.url ?? "/", req.headers);
    if (target) recorder.count(target, req.headers, clientIp(req, trustedHops));
  };
}
