import { PassThrough } from "node:stream";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { contentSecurityPolicy, createNonce, isMemoryRender } from "~/http/csp";
import { deferHydration } from "~/http/defer-hydration.server";
import { logger } from "~/http/logger.server";
import { noteIfDatabaseUnavailable } from "~/http/database-unavailable.server";
import { hasSessionCookie } from "~/auth/session-cookie";
import { refusedRequestStatus } from "~/http/refused-request";
import { formServedCookiesFromEnv, keepsRenderedPage, renderedPageTag } from "~/http/form-served.server";
import { getDb } from "~/db/database.server";
import { keepRenderedPage } from "~/services/consent/served-page.server";

export const streamTimeout = 5_000;

/**
 * Every rendered page and .data answer may differ by session cookie (the header shows who is
 * signed in): shared caches must key on it, and a signed-in person's answer is never stored.
 */
function markPersonal(request: Request, headers: Headers) {
  headers.append("Vary", "Cookie");
  if (hasSessionCookie(request.headers.get("cookie"))) headers.set("Cache-Control", "private, no-store");
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  markPersonal(request, response.headers);
  return response;
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  // Per response: the nonce goes on every script React Router renders and into the policy. A page
  // rendered to be kept in memory gets its policy from its scripts' hashes instead, and no nonce.
  const nonce = isMemoryRender(request) ? undefined : createNonce();
  if (nonce) responseHeaders.set("Content-Security-Policy", contentSecurityPolicy([`'nonce-${nonce}'`]));
  markPersonal(request, responseHeaders);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Every page is sent complete (no streamed Suspense fallbacks): our loaders are fast, and
    // streamed content would stay hidden for visitors without JavaScript.
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      // Keep resolved Suspense boundaries (lazy sections) inline in the HTML instead of outlined
      // behind a script that swaps them in.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onAllReady() {
        shellRendered = true;
        // The whole document is ready: collect it, take the JavaScript off the critical path, send it.
        const chunks: Buffer[] = [];
        const sink = new PassThrough();
        sink.on("data", (chunk: Buffer) => chunks.push(chunk));
        sink.on("end", () => {
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          const html = deferHydration(Buffer.concat(chunks).toString("utf8"));
          keepRenderedFormPage(request, responseStatusCode, html, responseHeaders).then(
            () => resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode })),
            reject,
          );
        });
        sink.on("error", reject);
        pipe(sink);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) logger.error({ err: error }, "render error after the shell was sent");
      },
    });

    setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * A consent form's page that only a render can make (the newsletter's confirmation button) is
 * kept as it is sent, and its cookie names it by SHA-256 (decision 080). A failure to keep it
 * costs the record its page, never the person their page.
 */
async function keepRenderedFormPage(request: Request, status: number, html: string, headers: Headers) {
  if (request.method !== "GET" || status !== 200 || !keepsRenderedPage(new URL(request.url).pathname)) return;
  let sha256: string | undefined;
  try {
    sha256 = await keepRenderedPage(await getDb(), Buffer.from(html, "utf8"), "text/html; charset=utf-8");
  } catch (error) {
    logger.warn({ err: error }, "could not keep a consent form's page as it was sent");
  }
  headers.append("Set-Cookie", formServedCookiesFromEnv().setCookie(sha256 && renderedPageTag(sha256)));
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted || noteIfDatabaseUnavailable(error)) return;
  const refused = refusedRequestStatus(error);
  if (refused !== undefined) {
    // The client's mistake, not ours: no stack, not an error (issue 21).
    logger.info({ status: refused, path: new URL(request.url).pathname, method: request.method, reason: error instanceof Error ? error.message : undefined }, "request refused");
    return;
  }
  logger.error({ err: error, url: request.url, method: request.method }, "unhandled error in a loader or action");
};
