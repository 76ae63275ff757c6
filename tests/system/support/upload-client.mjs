// Node's own fetch (undici) posting multipart uploads, in a process of its own, so it trusts the
// test proxy's certificate the way any Node client does (NODE_EXTRA_CA_CERTS is read at start
// only). Reads a JSON list of uploads on stdin; prints one JSON line with each outcome: the status
// and text of the answer, or the error fetch threw (EPIPE, ECONNRESET: what the issue saw).
import { Readable } from "node:stream";

const BOUNDARY = "----refused-uploads";

function* multipart(fields, fileBytes) {
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  yield Buffer.from(`${parts.join("")}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 255);
  for (let sent = 0; sent < fileBytes; sent += chunk.length) yield sent + chunk.length <= fileBytes ? chunk : chunk.subarray(0, fileBytes - sent);
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const outcomes = [];
for (const upload of JSON.parse(input)) {
  const started = Date.now();
  const parts = multipart(upload.fields, upload.fileBytes);
  // A Buffer body (Content-Length) or a stream (chunked), as fetch callers send either.
  const body = upload.streamed ? Readable.toWeb(Readable.from(parts)) : Buffer.concat([...parts]);
  try {
    const response = await fetch(upload.url, {
      method: "POST",
      headers: { ...upload.headers, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: "half",
      redirect: "manual",
      signal: AbortSignal.timeout(60_000),
    });
    outcomes.push({ status: response.status, contentType: response.headers.get("content-type"), text: await response.text(), ms: Date.now() - started });
  } catch (error) {
    outcomes.push({ error: String(error.cause?.code ?? error.cause?.message ?? error.message), ms: Date.now() - started });
  }
}
console.log(JSON.stringify(outcomes));
