import { data } from "react-router";

export const FORM_BODY_LIMIT = 16 * 1024;

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
  if (declared > maxBytes) throw new BodyError(413, `The request body is larger than ${maxBytes / 1024} KB.`);
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
      throw new BodyError(413, `The request body is larger than ${maxBytes / 1024} KB.`);
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
  const type = mediaType(request);
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") {
    throw new BodyError(415, "Send the form as application/x-www-form-urlencoded.");
  }
  if (type === "multipart/form-data") {
    const declared = Number(request.headers.get("content-length") ?? "NaN");
    if (!(declared <= maxBytes)) throw new BodyError(413, `The request body is larger than ${maxBytes / 1024} KB.`);
    const form = await request.formData();
    return Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string") as [string, string][]);
  }
  const text = await readLimited(request, maxBytes);
  return Object.fromEntries(new URLSearchParams(text));
}

/** A JSON body as unknown (validate it next); 400, 413 and 415 as BodyError. */
export async function readJsonBody(request: Request, maxBytes = FORM_BODY_LIMIT): Promise<unknown> {
  if (mediaType(request) !== "application/json") throw new BodyError(415, "Send the body as application/json.");
  const text = await readLimited(request, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError(400, "The body is not valid JSON.");
  }
}

export function bodyErrorResponse(error: BodyError) {
  return data({ error: error.message }, { status: error.status });
}

/** A form post's fields, or the 4xx answer to send instead (too large, wrong content type). */
export async function readFormOrAnswer(request: Request) {
  try {
    return { form: await readFormBody(request) };
  } catch (error) {
    if (error instanceof BodyError) return { answer: bodyErrorResponse(error) };
    throw error;
  }
}
