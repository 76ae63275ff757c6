import { data } from "react-router";
import { containsNul, REFUSALS } from "./refusals";

export const FORM_BODY_LIMIT = 16 * 1024;
/**
 * The consent forms also carry their page's address (up to MAX_PAGE_URL, 8 KB, which
 * percent-encoding may triple: decision 127).
 */
export const CONSENT_FORM_BODY_LIMIT = 32 * 1024;

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 405 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** Reads at most `maxBytes` of the body, also when it arrives chunked without a length. */
async function readLimited(request: Request, maxBytes: number) {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new BodyError(413, REFUSALS.tooLarge(maxBytes));
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyError(413, REFUSALS.tooLarge(maxBytes));
    }
    chunks.push(value);
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
  return text;
}

function mediaType(request: Request) {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** A form post (urlencoded) as a plain object of strings; 413 and 415 as BodyError. */
export async function readFormBody(request: Request, maxBytes = FORM_BODY_LIMIT): Promise<Record<string, string>> {
  return Object.fromEntries(await readFormParams(request, maxBytes));
}

/** A form post with every value of repeated fields (checkbox lists); 400, 413 and 415 as BodyError. */
export async function readFormParams(request: Request, maxBytes = FORM_BODY_LIMIT): Promise<URLSearchParams> {
  const type = mediaType(request);
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") {
    throw new BodyError(415, REFUSALS.formType);
  }
  if (type === "multipart/form-data") {
    const declared = Number(request.headers.get("content-length") ?? "NaN");
    if (!(declared <= maxBytes)) throw new BodyError(413, REFUSALS.tooLarge(maxBytes));
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new BodyError(400, REFUSALS.badForm);
    }
    return paramsWithoutNul(new URLSearchParams([...form.entries()].filter(([, v]) => typeof v === "string") as [string, string][]));
  }
  const text = await readLimited(request, maxBytes);
  return paramsWithoutNul(new URLSearchParams(text));
}

function paramsWithoutNul(params: URLSearchParams) {
  withoutNul([...params.entries()]);
  return params;
}

/** PostgreSQL text cannot hold NUL: refuse it here as a 400 instead of failing at the insert. */
function withoutNul<T>(body: T): T {
  if (containsNul(body)) throw new BodyError(400, REFUSALS.nulCharacter);
  return body;
}

/** A JSON body as unknown (validate it next); 400, 413 and 415 as BodyError. */
export async function readJsonBody(request: Request, maxBytes = FORM_BODY_LIMIT): Promise<unknown> {
  if (mediaType(request) !== "application/json") throw new BodyError(415, REFUSALS.jsonType);
  return parseJson(await readLimited(request, maxBytes));
}

/** JSON text as unknown (validate it next); malformed JSON and NUL characters as 400 BodyErrors. */
export function parseJson(text: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BodyError(400, REFUSALS.badJson);
  }
  return withoutNul(body);
}

export function bodyErrorResponse(error: BodyError) {
  return data({ error: error.message }, { status: error.status });
}

/** A form post's fields, or the 4xx answer to send instead (too large, wrong content type). */
export async function readFormOrAnswer(request: Request, maxBytes = FORM_BODY_LIMIT) {
  try {
    return { form: await readFormBody(request, maxBytes) };
  } catch (error) {
    if (error instanceof BodyError) return { answer: bodyErrorResponse(error) };
    throw error;
  }
}

/** The same for forms with repeated fields (checkbox lists). */
export async function readFormParamsOrAnswer(request: Request, maxBytes = FORM_BODY_LIMIT) {
  try {
    return { form: await readFormParams(request, maxBytes) };
  } catch (error) {
    if (error instanceof BodyError) return { answer: bodyErrorResponse(error) };
    throw error;
  }
}

/**
 * better-auth reads bodies itself, without a size limit and without refusing NUL: read the body
 * here under the same rules (413, 415, 400) and hand better-auth an identical request.
 */
export async function guardedCopy(request: Request, maxBytes = FORM_BODY_LIMIT): Promise<Request> {
  const text = await readLimited(request, maxBytes);
  const type = mediaType(request);
  if (text && type !== "application/json" && type !== "application/x-www-form-urlencoded") throw new BodyError(415, REFUSALS.jsonType);
  if (text.includes("\u0000")) throw new BodyError(400, REFUSALS.nulCharacter);
  if (type === "application/json" && text) parseJson(text);
  else withoutNul(Object.fromEntries(new URLSearchParams(text)));
  return new Request(request.url, { method: request.method, headers: request.headers, body: text || undefined, signal: request.signal });
}
