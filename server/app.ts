/**
 * The production server. It is the entry of the server bundle (vite.config.ts), so routes and
 * server share one module graph: one configuration, one logger, one database handle. The React
 * Router build is imported lazily, which also gives the prerender step its own chunk to load.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getHeapStatistics } from "node:v8";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { createRequestHandler } from "react-router";
import { getEnv } from "~/http/env.server";
import { logger, requestContext } from "~/http/logger.server";
import { getDatabase, setDatabaseRole } from "~/db/database.server";
import { getContentSync, getRedirectMap, startRuntime, stopRuntime } from "~/http/runtime.server";
import { setSnapshot } from "~/content/published";
import { loadPublishedSnapshot } from "~/services/content/published.server";
import { clientIp } from "./client-ip";
import { baseSecurityHeaders } from "./security-headers";
import { answerFromMemory, fillServedForm, loadMemoryPages, pageToRenderOnFirstRequest, servedFormDocument, type MemoryPages } from "./pages";
import { setServedPageSource } from "~/services/consent/served-page.server";
import { createLivePages, renderStoredPage } from "./live-pages";
import { createPageStore } from "./page-store";
import { currentSnapshot } from "~/content/published";
import { sendFile, sendPrefilled } from "./serve-static";
import { formServedCookiesFromEnv } from "~/http/form-served.server";
import { FORM_SEEN_PATH } from "~/lib/form-seen";
import { formDocumentEtag, sendFormSeen } from "./form-seen";
import { handleFastRoute } from "./fast-routes";
import { isCrossSiteWrite } from "./request-guard";
import { settleUnreadBody } from "./unread-body";
import { allowedMethods } from "./allowed-methods";
import { applyPublicOrigin, originText, publicOrigin, siteOrigin } from "./public-url";
import { databaseUnavailableResponse, databaseWasUnavailable } from "~/http/database-unavailable.server";
import { REFUSALS } from "~/http/refusals";
import { KEEP_ALIVE_TIMEOUT_MS } from "./timeouts";
import { bakedSiteUrlMismatch } from "./baked-site-url";
import { databaseStartFailure, listenFailure } from "./start-failure";
import { createViewCounter } from "./analytics";
import { answerRedirect, isHomeQuery } from "./redirects";
import { processRecorder } from "~/services/analytics/process.server";

export { prerenderViews, renderPage } from "./prerender-views";
export { renderLivePages } from "./live-pages";

/** Loads the published articles without starting a server (reference renders in tests and benchmarks). */
export async function loadPublishedContent() {
  setSnapshot(await loadPublishedSnapshot((await getDatabase()).db));
}

const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * Ready when the database answers (migrations ran when it was opened). It no longer waits for the
 * first render of the live set (decision 075, amending 049): that set is now the lists, feeds and
 * sitemap only, and until it is in memory (a second or two on a cold start) the router renders
 * those pages per request from the same snapshot: the same content, slower; `livePages` says which.
 */
async function readiness(pages: MemoryPages) {
  try {
    const database = await getDatabase();
    await database.ping();
    return { ok: true, body: { status: "ready", database: database.kind, livePages: pages.live.size > 0 ? "in memory" : "rendering" } };
  } catch {
    return { ok: false, body: { status: "unavailable", error: "The database is not reachable." } };
  }
}

export type RunningServer = {
  port: number;
  close: () => Promise<void>;
  /** The steps of a stop still running (empty before a stop and after it). */
  stopping: () => string[];
  log: typeof logger;
};

export async function startServer(options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const env = getEnv();
  setDatabaseRole("server");
  await startRuntime().catch((error: unknown) => {
    throw databaseStartFailure(error, env.DATABASE_URL) ?? error;
  });
  const production = env.NODE_ENV === "production";
  const buildDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const pages = loadMemoryPages(buildDir, env.MAIN_DOMAINS);
  const baked = bakedSiteUrlMismatch(buildDir, env.SITE_URL);
  if (baked) {
    logger.warn(
      { bakedSiteUrl: baked, siteUrl: env.SITE_URL },
      `the prerendered pages were built for ${baked}, this process serves ${env.SITE_URL}: run npm run build with the same SITE_URL (or PORT and HOST when SITE_URL is unset), or start with npm start, which rebuilds`,
    );
  }
  // The consent record keeps the document of the page a form was served in, and rebuilds the page (decisions 079, 127).
  setServedPageSource({
    documentFor: (url, etag) => {
      const file = servedFormDocument(pages, url, etag);
      return file && { body: file.body, contentType: file.contentType, etag: file.etag };
    },
    fill: (document, url) => fillServedForm(pages, document, url),
  });
  // The content pages are rendered from the database once the server listens, and again on every
  // change (decision 049). Until the first render is done (seconds with a large archive) the router
  // renders them per request from the same snapshot: the same content, never an older copy (the
  // build holds none), and /readyz answers 503 meanwhile.
  let closing: Promise<void> | undefined;
  const livePages = createLivePages(
    pages,
    env.MAIN_DOMAINS[0]!,
    (stats) => logger.info({ ...stats }, "live pages rendered"),
    (error) => {
      // A render cut off by a stop (the database closed under it) is no fault.
      if (closing) logger.info({ reason: error instanceof Error ? error.message : String(error) }, "a render was cut off by the stop");
      else logger.error({ err: error }, "could not render the live pages; the previous ones stay");
    },
  );
  // The article and author pages: rendered on first request, kept in memory within PAGE_CACHE_MB
  // (compressed only, decision 137) and on disk under DATA_DIR/pages (decision 075). A file's name folds in the build's version
  // and the host the pages are rendered for, so a new build never serves an old copy.
  const buildVersion = (await import("virtual:react-router/server-build")).assets.version;
  pages.store = createPageStore({
    budgetBytes: env.PAGE_CACHE_MB * 1024 * 1024,
    dir: env.DATA_DIR === "memory" ? undefined : path.join(env.DATA_DIR, "pages"),
    salt: `${buildVersion}\0${env.MAIN_DOMAINS[0]!}`,
    render: (page) => renderStoredPage(page, env.MAIN_DOMAINS[0]!),
    onError: (error) => logger.warn({ err: error }, "could not keep a rendered page on disk; it stays in memory"),
    onLoaded: (event) => logger.debug(event, "page loaded into memory"),
  });
  // Disk copies nobody read for PAGE_FILES_KEEP_DAYS (earlier builds, earlier versions of edited
  // pages) go, a minute after the start and then daily: the folder stays bounded by what is read.
  const prunePageFiles = () =>
    pages.store!.prune(env.PAGE_FILES_KEEP_DAYS * 86_400_000).then(
      (removed) => removed > 0 && logger.info({ removed, keepDays: env.PAGE_FILES_KEEP_DAYS }, "removed page files not read for a while"),
      (error: unknown) => logger.warn({ err: error }, "could not prune the page files"),
    );
  const pruneTimers = [setTimeout(() => void prunePageFiles(), 60_000), setInterval(() => void prunePageFiles(), 86_400_000)];
  for (const timer of pruneTimers) timer.unref();
  const contentSync = getContentSync();
  contentSync.onSnapshot(() => livePages.refresh());
  const securityHeaders = baseSecurityHeaders(production);
  const loadBuild = () => import("virtual:react-router/server-build");
  const handleRequest = createRequestHandler(loadBuild, production ? "production" : "development");
  let allowed: ((pathname: string) => string) | undefined;
  // A request that failed because the database is unreachable leaves a note (handleError,
  // better-auth's onError); its generic 500 becomes a 503 that says so.
  // The request URL is built from the Host and X-Forwarded-Proto that onRequest wrote (the
  // public origin), so React Router's own origin check sees what the browser saw.
  const handleWithRouter = createRequestListener(
    async (request) => {
      // A single-fetch request (.data) with a method its route does not take gets React Router's
      // error encoded in a 200: say 405 and what the URL takes instead, as for the page itself.
      const { pathname } = new URL(request.url);
      if (pathname.endsWith(".data") && request.method !== "GET" && request.method !== "HEAD") {
        allowed ??= allowedMethods(await loadBuild());
        const allow = allowed(pathname);
        if (!allow.split(", ").includes(request.method)) {
          logger.info({ method: request.method, path: pathname }, "method not allowed");
          return new Response(null, { status: 405, headers: { Allow: allow, "Cache-Control": "no-store" } });
        }
      }
      const response = await handleRequest(request);
      if (response.status === 405 && !response.headers.has("Allow")) {
        allowed ??= allowedMethods(await loadBuild());
        response.headers.set("Allow", allowed(new URL(request.url).pathname));
      }
      return response.status >= 500 && databaseWasUnavailable() ? databaseUnavailableResponse(request) : response;
    },
    { trustProxy: true },
  );
  const publicUrl = { siteUrl: env.SITE_URL, trustedHops: env.TRUST_PROXY };
  const site = siteOrigin(env.SITE_URL);

  const formServed = formServedCookiesFromEnv(env);
  // Page views, counted in memory where each page is answered (decision 141).
  const countView = createViewCounter(processRecorder(), env.TRUST_PROXY);
  // The old addresses answering 301 (decision 160), kept current by the runtime.
  const redirectMap = getRedirectMap();

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // One answer to "which URL did the visitor ask for" (decision 058), written into the headers
    // before anything reads them: the host rule of the memory pages included.
    const origin = publicOrigin(req, publicUrl, site);
    applyPublicOrigin(req, origin);
    // The image of a consent form: the time it was shown, in a signed cookie (decision 080).
    if ((req.url ?? "").split("?")[0] === FORM_SEEN_PATH && (req.method === "GET" || req.method === "HEAD")) {
      sendFormSeen(req, res, formServed.setCookie(formDocumentEtag(pages, req.url ?? "", req.headers.referer, originText(origin))), securityHeaders);
      return;
    }
    // An old WordPress query on the home page (/?p=123) is an old post, not the home page (server/redirects.ts).
    const homeQuery = isHomeQuery(req.url ?? "");
    if (homeQuery && answerRedirect(req, res, redirectMap, env.MAIN_DOMAINS, securityHeaders)) return;
    // Prerendered pages and files first, with no per-request work beyond choosing the bytes.
    const fromMemory = answerFromMemory(req, pages);
    if (fromMemory) {
      if ("file" in fromMemory) {
        const status = sendFile(req, res, fromMemory.file, securityHeaders);
        countView?.(req, status, fromMemory.file.contentType);
      } else {
        sendPrefilled(req, res, fromMemory.template, fromMemory.prefill, securityHeaders);
        countView?.(req, 200, fromMemory.template.file.contentType);
      }
      return;
    }
    // An old address: only now, so a page always wins (the map holds none of the site's own paths).
    if (!homeQuery && answerRedirect(req, res, redirectMap, env.MAIN_DOMAINS, securityHeaders)) return;
    // An article or author page not kept yet: from disk or rendered now, kept, then sent like the
    // others. Should that fail, the router renders it.
    const toRender = pageToRenderOnFirstRequest(req, pages);
    if (toRender) {
      const snapshot = currentSnapshot();
      pages
        .store!.get(toRender, snapshot, currentSnapshot)
        .then((file) => {
          if (!file) return routeRequest(req, res, origin);
          // Sent first, then counted: an optional call would skip its arguments, the send with them.
          const status = sendFile(req, res, file, securityHeaders);
          countView?.(req, status, file.contentType);
        })
        .catch((error: unknown) => {
          logger.error({ err: error, path: req.url }, "could not render a page on its first request; the router answers it");
          if (!res.headersSent) routeRequest(req, res, origin);
        });
      return;
    }
    routeRequest(req, res, origin);
  };

  const routeRequest = (req: IncomingMessage, res: ServerResponse, origin: ReturnType<typeof publicOrigin>) => {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    if (req.url === "/healthz") {
      res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ status: "ok" }));
      return;
    }
    if (req.url === "/readyz") {
      void readiness(pages).then(({ ok, body }) => {
        res.writeHead(ok ? 200 : 503, { "Content-Type": "application/json", "Cache-Control": "no-store" });
        res.end(JSON.stringify(body));
      });
      return;
    }

    // Everything else goes to the app. The client address is fixed here, from the socket or the
    // trusted proxies only, so nothing downstream can be fooled by a forged X-Forwarded-For.
    const requestId = randomUUID();
    req.headers["x-forwarded-for"] = clientIp(req, env.TRUST_PROXY);
    // Read: its host and scheme are in Host and X-Forwarded-Proto now, its client in X-Forwarded-For.
    delete req.headers.forwarded;
    req.headers["x-request-id"] = requestId;
    res.setHeader("X-Request-Id", requestId);
    const started = performance.now();
    res.on("finish", () => {
      countView?.(req, res.statusCode, String(res.getHeader("content-type") ?? ""));
      logger.info(
        { requestId, method: req.method, path: req.url, status: res.statusCode, ms: Math.round(performance.now() - started) },
        "request",
      );
    });
    // A refusal that leaves the body unread must not leave the connection unusable.
    settleUnreadBody(req, res);
    if (isCrossSiteWrite(req, { site, request: origin })) {
      logger.warn({ requestId, method: req.method, path: req.url, origin: req.headers.origin, referer: req.headers.referer }, "cross-site write refused");
      res.writeHead(403, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ success: false, error: REFUSALS.crossSite }));
      return;
    }
    requestContext.run({ requestId }, () => {
      if (handleFastRoute(req, res)) return;
      void handleWithRouter(req, res);
    });
  };

  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, requestTimeout: 30_000, headersTimeout: 20_000 }, onRequest);
  const port = options.port ?? env.PORT;
  const host = options.host ?? env.HOST;
  // A port in use (a second server), a low port or an address not of this machine: one fatal line
  // that says what to change (server.mjs), after the database is closed again.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    for (const timer of pruneTimers) clearTimeout(timer);
    await stopRuntime().catch(() => {});
    throw listenFailure(error, port, host) ?? error;
  });
  // Past the start, a server error (none is known to happen) is logged, never an unhandled event.
  server.on("error", (error) => logger.error({ err: error }, "the HTTP server reported an error"));
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  // The memory bounds in effect (decision 137): V8's heap limit (server.mjs sets one when none is
  // given) and the byte budget of the kept pages; the process id is the server's own.
  const memory = { pid: process.pid, heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20), pageCacheMb: env.PAGE_CACHE_MB };
  logger.info({ port: boundPort, host, staticFiles: pages.files.size, views: pages.views.size, ...memory }, `listening on http://${host === "0.0.0.0" ? "localhost" : host}:${boundPort}`);
  const renderStarted = performance.now();
  let contentReady = false;
  void livePages.refresh().then(() => {
    contentReady = true;
    pending.delete("rendering the content pages");
    if (closing) return;
    if (pages.live.size > 0) logger.info({ livePages: pages.live.size, liveRenderMs: Math.round(performance.now() - renderStarted) }, "content pages ready");
    else logger.error({}, "the content pages could not be rendered (see above): the router answers them and /readyz stays 503 until a change renders them");
  });

  // What the stop is waiting for, so a stop past its deadline can say (server.mjs).
  const pending = new Set<string>();
  const step = async <T>(name: string, work: () => Promise<T>) => {
    pending.add(name);
    try {
      return await work();
    } finally {
      pending.delete(name);
    }
  };
  // Stop accepting, let in-flight requests finish (up to the deadline), then stop the outbox
  // after the message it is sending, then close the database.
  const close = () =>
    (closing ??= (async () => {
      for (const timer of pruneTimers) clearTimeout(timer);
      if (!contentReady) pending.add("rendering the content pages");
      await step(
        "finishing the requests in flight",
        () =>
          new Promise<void>((resolve) => {
            const deadline = setTimeout(() => {
              server.closeAllConnections();
              resolve();
            }, SHUTDOWN_DEADLINE_MS - 2_000);
            deadline.unref();
            server.close(() => {
              clearTimeout(deadline);
              resolve();
            });
            server.closeIdleConnections();
          }),
      );
      await step("stopping the senders, housekeeping and the database", () => stopRuntime());
      logger.info("stopped");
    })());
  return { port: boundPort, close, stopping: () => [...pending], log: logger };
}

