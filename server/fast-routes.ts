import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyError, FORM_BODY_LIMIT, parseJson } from "~/http/body.server";
import { OPT_IN_NOT_ALLOWED, phoneOptInApi } from "~/http/opt-in.server";
import { evidenceFromHeaders, globalPrivacyControl } from "~/http/request.server";
import { logger } from "~/http/logger.server";
import { GENERIC_SUBSCRIPTION_ERROR } from "~/lib/notices";
import { DATABASE_RETRY_AFTER_SECONDS, REFUSALS } from "~/http/refusals";
import { noteIfDatabaseUnavailable } from "~/http/database-unavailable.server";
import { answerShortLink, SHORT_LINK_NOT_FOUND_HTML } from "~/http/short-link.server";
import { copyIdFromQuery } from "~/lib/short-links";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { getDb } from "~/db/database.server";
import { answerMediaFile } from "~/http/media-files.server";
import { mediaUploadJson } from "~/http/media-upload-request.server";
import { answerOfferRedirect, OFFER_PATH, type OfferRedirectOptions } from "~/http/offer-redirect.server";
import { getEnv } from "~/http/env.server";
import { processVisitLookup } from "~/services/analytics/process.server";
import { createSiteClock } from "~/services/analytics/site-clock";
import { recordOfferClick, type OfferClick } from "~/services/analytics/offer-clicks.server";

/**
 * Endpoints answered without the router: the JSON opt-in is the busiest POST (ad traffic), and
 * React Router's per-request route matching and Request/Response objects cost a quarter of its
 * CPU. Same handler as app/routes/api.phone-optin.ts, same answers. Uploaded images are served
 * here from memory, and the editor's JSON image upload is answered here (the router would turn a
 * page action's JSON into HTML).
 */
export function handleFastRoute(req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? "").split("?")[0]!;
  if (path.startsWith("/l/")) return shortLink(req, res, path.slice(3), (req.url ?? "").slice(path.length + 1));
  if (path.startsWith("/media/")) return mediaFile(req, res, path);
  if (path === OFFER_PATH) return offerRedirect(req, res);
  if (path === "/admin/media" && req.method === "POST" && /application\/json/i.test(String(req.headers.accept ?? ""))) {
    void mediaUploadListener(req, res);
    return true;
  }
  if (path !== "/api/phone-optin") return false;
  void phoneOptIn(req, res).catch((error: unknown) => {
    if (res.headersSent) return res.destroy();
    if (noteIfDatabaseUnavailable(error)) {
      return sendJson(res, 503, { success: false, dnc: false, error: REFUSALS.databaseUnavailable }, { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) });
    }
    logger.error({ err: error, path }, "unexpected error in the opt-in endpoint");
    sendJson(res, 500, { success: false, dnc: false, error: GENERIC_SUBSCRIPTION_ERROR });
  });
  return true;
}

/** Campaign short links: one indexed read and a redirect, without the router. */
function shortLink(req: IncomingMessage, res: ServerResponse, code: string, query: string) {
  answerShortLink({
    method: req.method ?? "GET",
    code,
    ip: String(req.headers["x-forwarded-for"] ?? ""),
    userAgent: req.headers["user-agent"],
    navigation: req.headers["sec-fetch-mode"] === "navigate",
    acceptLanguage: Boolean(req.headers["accept-language"]),
    copyId: copyIdFromQuery(query),
  })
    .then((answer) => {
      if (answer.status === 302) {
        res.writeHead(302, { Location: answer.location, "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });
        return res.end();
      }
      if (answer.status === 405) {
        res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
        return res.end("Method not allowed\n");
      }
      res.writeHead(404, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : SHORT_LINK_NOT_FOUND_HTML);
    })
    .catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      if (noteIfDatabaseUnavailable(error)) {
        res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) });
        return res.end(`${REFUSALS.databaseUnavailable}\n`);
      }
      logger.error({ err: error, path: req.url }, "unexpected error in a short link");
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Something went wrong.\n");
    });
  return true;
}

let offerOptions: OfferRedirectOptions | undefined;

/** One upsert per click, after the redirect is sent: a slow or failed count never holds it up. */
function countOfferClick(click: OfferClick) {
  setImmediate(() => {
    void getDb()
      .then((db) => recordOfferClick(db, click))
      .catch((error: unknown) => logger.warn({ err: error }, "could not count an offer click"));
  });
}

/** The sponsor's offer: a 302 to OFFER_URL filled from the visit, the click counted after (decision 152). */
function offerRedirect(req: IncomingMessage, res: ServerResponse) {
  if (!offerOptions) {
    const env = getEnv();
    const clock = createSiteClock(env.ANALYTICS_TIME_ZONE);
    const visits = processVisitLookup(env);
    offerOptions = { offerUrl: env.OFFER_URL, visits, today: () => clock().day, count: visits ? countOfferClick : undefined };
  }
  answerOfferRedirect(
    {
      method: req.method ?? "GET",
      origin: `${String(req.headers["x-forwarded-proto"] ?? "http")}://${req.headers.host ?? "localhost"}`,
      referer: req.headers.referer,
      ip: String(req.headers["x-forwarded-for"] ?? ""),
      userAgent: req.headers["user-agent"],
      navigation: req.headers["sec-fetch-mode"] === "navigate",
      acceptLanguage: Boolean(req.headers["accept-language"]),
    },
    offerOptions,
  )
    .then((answer) => {
      if (answer.status === 405) {
        res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
        return res.end("Method not allowed\n");
      }
      // The sponsor learns nothing of the page the click came from (the link itself sends its
      // Referer to us only, so its query can fill the template): no-referrer on the redirect.
      res.writeHead(302, { Location: answer.location, "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" });
      res.end();
    })
    .catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      logger.error({ err: error, path: req.url }, "unexpected error in the offer redirect");
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Something went wrong.\n");
    });
  return true;
}

/** Uploaded images: from memory (filled from the database), immutable. */
function mediaFile(req: IncomingMessage, res: ServerResponse, path: string) {
  const method = req.method ?? "GET";
  answerMediaFile(method, path, req.headers["if-none-match"])
    .then((answer) => {
      res.writeHead(answer.status, answer.headers);
      res.end(method === "HEAD" || answer.status === 304 ? undefined : answer.body);
    })
    .catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      if (noteIfDatabaseUnavailable(error)) {
        res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) });
        return res.end(`${REFUSALS.databaseUnavailable}\n`);
      }
      logger.error({ err: error, path }, "unexpected error serving an image");
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Something went wrong.\n");
    });
  return true;
}

/** The image button's upload (JSON answer); the page's form posts the same fields through the router. */
const mediaUploadListener = createRequestListener((request) =>
  mediaUploadJson(request, getDb).catch((error: unknown) => {
    const unavailable = noteIfDatabaseUnavailable(error);
    if (!unavailable) logger.error({ err: error }, "unexpected error in an image upload");
    return Response.json({ error: unavailable ? REFUSALS.databaseUnavailable : "Something went wrong." }, { status: unavailable ? 503 : 500 });
  }),
);

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers });
  res.end(text);
}

class TooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number) {
  return new Promise<string>((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) return reject(new TooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        reject(new TooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

async function phoneOptIn(req: IncomingMessage, res: ServerResponse) {
  if (req.method !== "POST") return sendJson(res, 405, OPT_IN_NOT_ALLOWED, { Allow: "POST" });
  const type = String(req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") {
    return sendJson(res, 415, { success: false, dnc: false, error: REFUSALS.jsonType });
  }
  let text: string;
  try {
    text = await readBody(req, FORM_BODY_LIMIT);
  } catch (error) {
    if (error instanceof TooLarge) {
      res.setHeader("Connection", "close");
      return sendJson(res, 413, { success: false, dnc: false, error: REFUSALS.tooLarge(FORM_BODY_LIMIT) });
    }
    throw error;
  }
  let body: unknown;
  try {
    body = parseJson(text);
  } catch (error) {
    if (error instanceof BodyError) return sendJson(res, error.status, { success: false, dnc: false, error: error.message });
    throw error;
  }
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
  const result = await phoneOptInApi(body, evidenceFromHeaders(header, `${header("x-forwarded-proto") ?? "http"}://${req.headers.host ?? "localhost"}${req.url ?? "/"}`), globalPrivacyControl(header));
  sendJson(res, result.status, result.answer, result.headers);
}
