import type { IncomingMessage, ServerResponse } from "node:http";
import type { StaticFile } from "./static-files";
import { prefilledDocument, prefilledGzip, type PrefillTemplate } from "./opt-in-prefill";
import type { OptInPrefill } from "~/components/opt-in/opt-in-page";

type Encoding = "br" | "gzip" | "identity";

/**
 * Every header of a file's answers, built once per file and encoding as the flat list
 * writeHead() takes: headers set one by one (setHeader) are validated and stored per request,
 * which was most of the fast path's own time.
 */
type Prepared = Record<"br" | "gzip" | "notModified", string[]> & {
  /** Made on the first plain answer: a file kept compressed only (keptCompressed) unzips its body then. */
  identity?: string[];
  withBody: (body: Buffer | undefined, encoding?: string) => string[];
};
const prepared = new WeakMap<StaticFile, Prepared>();

function prepare(file: StaticFile, securityHeaders: Record<string, string>): Prepared {
  let answers = prepared.get(file);
  if (answers) return answers;
  const common = [...Object.entries(securityHeaders).flat(), "Content-Type", file.contentType, "Cache-Control", file.cacheControl, "ETag", file.etag, "Vary", "Accept-Encoding"];
  if (file.contentSecurityPolicy) common.push("Content-Security-Policy", file.contentSecurityPolicy);
  const withBody = (body: Buffer | undefined, encoding?: string) =>
    body ? [...common, ...(encoding ? ["Content-Encoding", encoding] : []), "Content-Length", String(body.length)] : [];
  answers = {
    br: withBody(file.brotli, "br"),
    gzip: withBody(file.gzip, "gzip"),
    notModified: common,
    withBody,
  };
  prepared.set(file, answers);
  return answers;
}

// Browsers send a handful of distinct Accept-Encoding values: remember what each one allows.
const acceptedEncodings = new Map<string, { br: boolean; gzip: boolean }>();
function accepts(req: IncomingMessage) {
  const header = req.headers["accept-encoding"] ?? "";
  let known = acceptedEncodings.get(header);
  if (!known) {
    known = { br: /\bbr\b/.test(header), gzip: /\bgzip\b/.test(header) };
    if (acceptedEncodings.size < 64) acceptedEncodings.set(header, known);
  }
  return known;
}

/**
 * Answers a GET/HEAD with a file held in memory (server/pages.ts decides which), and says with
 * which status (200, or 304 to a matching If-None-Match). These and
 * sendPrefilled's are the only compressed answers, and all are public: the same for every anonymous
 * visitor but for a prefill's values, which come from the address and are stored, not compressed.
 * Nothing with a person's session or data in it is compressed, here or by the proxy (BREACH,
 * decision 091).
 */
export function sendFile(req: IncomingMessage, res: ServerResponse, file: StaticFile, securityHeaders: Record<string, string>): 200 | 304 {
  const answers = prepare(file, securityHeaders);
  if (req.headers["if-none-match"] === file.etag) {
    res.writeHead(304, answers.notModified);
    res.end();
    return 304;
  }
  const accepted = accepts(req);
  const [encoding, body]: [Encoding, Buffer] =
    accepted.br && file.brotli ? ["br", file.brotli] : accepted.gzip && file.gzip ? ["gzip", file.gzip] : ["identity", file.body];
  const headers = encoding === "identity" ? (answers.identity ??= answers.withBody(body)) : answers[encoding];
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
  return 200;
}

const preparedPrefilled = new WeakMap<PrefillTemplate, { gzip: string[]; identity: string[] }>();

/**
 * The opt-in document with a request's prefill written in: gzip when the browser takes it
 * (spliced from segments compressed once at start, see opt-in-prefill.ts), otherwise plain. There is no
 * ETag: the document differs per query string and is cheap to send again.
 */
export function sendPrefilled(
  req: IncomingMessage,
  res: ServerResponse,
  template: PrefillTemplate,
  prefill: OptInPrefill,
  securityHeaders: Record<string, string>,
) {
  const gzip = accepts(req).gzip;
  const chunks = gzip ? prefilledGzip(template, prefill) : [prefilledDocument(template, prefill)];
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  let answers = preparedPrefilled.get(template);
  if (!answers) {
    const { file } = template;
    const common = [...Object.entries(securityHeaders).flat(), "Content-Type", file.contentType, "Cache-Control", file.cacheControl, "Vary", "Accept-Encoding"];
    if (file.contentSecurityPolicy) common.push("Content-Security-Policy", file.contentSecurityPolicy);
    answers = { gzip: [...common, "Content-Encoding", "gzip"], identity: common };
    preparedPrefilled.set(template, answers);
  }
  res.writeHead(200, [...(gzip ? answers.gzip : answers.identity), "Content-Length", String(length)]);
  if (req.method === "HEAD") return res.end();
  // Corked: the parts leave in one writev, the large constant ones without being copied.
  res.cork();
  for (let index = 0; index < chunks.length - 1; index++) res.write(chunks[index]);
  res.end(chunks.at(-1));
}
