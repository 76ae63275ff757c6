import net from "node:net";

export type RawAnswer = { status: number; headers: Record<string, string>; body: string };

export type FirstRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** What is sent after the head (the head declares `Content-Length` from `declaredLength ?? body.length`). */
  body: Buffer;
  /** A larger length than sent: the client stops sending, as a browser does once it has the answer. */
  declaredLength?: number;
};

export type KeepAliveOutcome =
  | { first: RawAnswer; said: "close"; closedByServer: boolean }
  | { first: RawAnswer; said: "keep-alive"; second: RawAnswer | { error: string } };

/**
 * Two requests on one raw keep-alive connection: `first` (a body the server may refuse), then a
 * GET of `secondPath`. Answers the first response and either that the server said
 * `Connection: close` (and whether it then closed the connection), or what the GET got.
 */
export async function twoRequestsOnOneConnection(base: string, first: FirstRequest, secondPath: string, timeoutMs = 10_000): Promise<KeepAliveOutcome> {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  let received = Buffer.alloc(0);
  let ended: string | null = null;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((waiter) => waiter());
  socket.on("data", (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on("error", (error: NodeJS.ErrnoException) => {
    ended ??= error.code ?? error.message;
    wake();
  });
  socket.on("close", () => {
    ended ??= "closed";
    wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });

  const deadline = Date.now() + timeoutMs;
  const until = async <T>(probe: () => T | null): Promise<T | { error: string }> => {
    for (;;) {
      const value = probe();
      if (value !== null) return value;
      if (ended) return { error: ended };
      if (Date.now() > deadline) return { error: "timeout" };
      await new Promise<void>((resolve) => {
        const waiter = () => {
          waiters.delete(waiter);
          resolve();
        };
        waiters.add(waiter);
        setTimeout(waiter, 50);
      });
    }
  };

  const head = [`${first.method} ${first.path} HTTP/1.1`, `Host: ${hostname}:${port}`, "Connection: keep-alive", `Content-Length: ${first.declaredLength ?? first.body.length}`];
  for (const [name, value] of Object.entries(first.headers)) head.push(`${name}: ${value}`);
  socket.write(`${head.join("\r\n")}\r\n\r\n`);
  socket.write(first.body, () => {});

  const answer = await until(() => parseAnswer(received));
  if ("error" in answer) throw new Error(`no answer to ${first.method} ${first.path}: ${answer.error}`);
  received = received.subarray(answer.length);
  const firstAnswer = answer.answer;
  if ((firstAnswer.headers.connection ?? "").toLowerCase() === "close") {
    const closed = await until(() => (ended ? true : null));
    socket.destroy();
    return { first: firstAnswer, said: "close", closedByServer: closed === true || ("error" in closed && closed.error !== "timeout") };
  }
  socket.write(`GET ${secondPath} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`);
  const second = await until(() => parseAnswer(received));
  socket.destroy();
  return { first: firstAnswer, said: "keep-alive", second: "error" in second ? second : second.answer };
}

/** One complete HTTP/1.1 response at the start of `data` (Content-Length or chunked), or null. */
function parseAnswer(data: Buffer): { answer: RawAnswer; length: number } | null {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, headEnd).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine!.split(" ")[1]);
  let offset = headEnd + 4;
  if ((headers["transfer-encoding"] ?? "").toLowerCase().includes("chunked")) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = data.indexOf("\r\n", offset);
      if (lineEnd < 0) return null;
      const size = parseInt(data.subarray(offset, lineEnd).toString("latin1"), 16);
      if (data.length < lineEnd + 2 + size + 2) return null;
      parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
      if (size === 0) return { answer: { status, headers, body: Buffer.concat(parts).toString("utf8") }, length: offset };
    }
  }
  const length = Number(headers["content-length"] ?? 0);
  if (data.length < offset + length) return null;
  return { answer: { status, headers, body: data.subarray(offset, offset + length).toString("utf8") }, length: offset + length };
}
