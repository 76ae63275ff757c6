import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { Readable } from "node:stream";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { twoRequestsOnOneConnection } from "../tests/support/keep-alive";
import { DRAIN_MAX_BYTES, settleUnreadBody, type LingerBounds } from "./unread-body";

/**
 * The server's way of answering through node-fetch-server (as server/app.ts does), with handlers
 * that refuse a body without reading it, read a little of it, or read all of it.
 */
describe("a request body the app did not read", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const listener = createRequestListener(async (request) => {
      const path = new URL(request.url).pathname;
      if (request.method === "GET") return new Response("next request answered");
      if (path === "/refuse") return new Response("refused unread", { status: 403 });
      if (path === "/read-a-little") {
        const reader = request.body!.getReader();
        await reader.read();
        await reader.cancel();
        return new Response("too large", { status: 413 });
      }
      return new Response(`read ${(await request.arrayBuffer()).byteLength} bytes`);
    });
    server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
      settleUnreadBody(req, res);
      void listener(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (path: string, bytes: number, declaredLength?: number) =>
    twoRequestsOnOneConnection(base, { method: "POST", path, headers: { "Content-Type": "application/octet-stream" }, body: Buffer.alloc(bytes, 97), declaredLength }, "/next", 3_000);

  it("drains a small unread body: the connection stays open and answers the next request", async () => {
    for (const path of ["/refuse", "/read-a-little"]) {
      const outcome = await post(path, DRAIN_MAX_BYTES);
      expect(outcome, path).toMatchObject({ said: "keep-alive", second: { status: 200, body: "next request answered" } });
    }
  });

  it("closes after answering when a larger body was not read, and the client gets the answer", async () => {
    for (const path of ["/refuse", "/read-a-little"]) {
      const outcome = await post(path, 4 * 1024 ** 2);
      expect(outcome, path).toMatchObject({ said: "close", closedByServer: true, first: { status: path === "/refuse" ? 403 : 413 } });
    }
    // Declared large, and the client stops sending once it has its answer.
    expect(await post("/refuse", 64 * 1024, 50 * 1024 ** 2)).toMatchObject({ said: "close", closedByServer: true, first: { status: 403 } });
  });

  it("leaves a connection alone when the body was read", async () => {
    expect(await post("/read-all", 4 * 1024 ** 2)).toMatchObject({ first: { body: `read ${4 * 1024 ** 2} bytes` }, said: "keep-alive", second: { status: 200 } });
  });
});

/** Small bounds, so each one can be seen to end the lingering close. */
const BOUNDS: LingerBounds = { idleMs: 400, maxMs: 2_000, maxBytes: 2 * 1024 ** 2 };

type Closed = { afterAnswerMs: number; bytesAfterAnswer: number };

/**
 * A server that refuses every body unread (413), lingering within BOUNDS, and reports when each
 * connection closed after its answer and how much of the body it read after the answer.
 */
describe("the lingering close after an answer given before the body was read", () => {
  let server: Server;
  let port: number;
  const closed: ((closed: Closed) => void)[] = [];
  const nextClose = () => new Promise<Closed>((resolve) => closed.push(resolve));

  beforeAll(async () => {
    const listener = createRequestListener(async () => new Response("refused unread", { status: 413 }));
    server = createServer((req, res) => {
      let answeredAt = 0;
      let readAtAnswer = 0;
      res.once("finish", () => {
        answeredAt = performance.now();
        readAtAnswer = req.socket.bytesRead;
      });
      req.socket.once("close", () => closed.shift()?.({ afterAnswerMs: performance.now() - answeredAt, bytesAfterAnswer: req.socket.bytesRead - readAtAnswer }));
      settleUnreadBody(req, res, BOUNDS);
      void listener(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A raw connection that has sent a POST head declaring `declared` bytes, and what it receives. */
  async function open(declared: number) {
    // Half-open allowed: the client goes on sending after the server's FIN, as one that has not
    // read the answer yet does (Node's sockets otherwise close as soon as the FIN arrives).
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    let received = "";
    let error: string | null = null;
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", (failure: NodeJS.ErrnoException) => (error ??= failure.code ?? failure.message));
    socket.write(`POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\n`);
    const answered = async () => {
      for (let waited = 0; !received.includes("refused unread") && waited < 2_000; waited += 20) await sleep(20);
      return received;
    };
    return { socket, answered, received: () => received, error: () => error };
  }

  it("reads and drops what a client still sends until it closes, then closes at once", async () => {
    const close = nextClose();
    const client = await open(64 * 1024 ** 2);
    client.socket.write(Buffer.alloc(64 * 1024, 97));
    expect(await client.answered()).toMatch(/^HTTP\/1\.1 413 .*\r\nConnection: close\r\n/s);
    client.socket.write(Buffer.alloc(256 * 1024, 97));
    await sleep(100);
    client.socket.end();
    const { afterAnswerMs, bytesAfterAnswer } = await close;
    expect(afterAnswerMs).toBeLessThan(BOUNDS.idleMs);
    expect(bytesAfterAnswer).toBeGreaterThanOrEqual(256 * 1024);
    expect(client.error()).toBeNull();
  });

  it("closes once the rest of the body has arrived", async () => {
    const close = nextClose();
    const client = await open(1024 ** 2);
    client.socket.write(Buffer.alloc(300 * 1024, 97));
    await client.answered();
    client.socket.write(Buffer.alloc(1024 ** 2 - 300 * 1024, 97));
    expect((await close).afterAnswerMs).toBeLessThan(BOUNDS.idleMs);
    client.socket.destroy();
  });

  it("idle bound: a client that stops sending without closing is let go after idleMs", async () => {
    const close = nextClose();
    const client = await open(64 * 1024 ** 2);
    client.socket.write(Buffer.alloc(300 * 1024, 97));
    await client.answered();
    const { afterAnswerMs } = await close;
    expect(afterAnswerMs).toBeGreaterThanOrEqual(BOUNDS.idleMs - 20);
    expect(afterAnswerMs).toBeLessThan(BOUNDS.idleMs + 400);
    client.socket.destroy();
  });

  it("time bound: a slow sender that never pauses long is let go after maxMs", async () => {
    const close = nextClose();
    const client = await open(64 * 1024 ** 2);
    client.socket.write(Buffer.alloc(300 * 1024, 97));
    await client.answered();
    let sending = true;
    void (async () => {
      // 16 KB every 100 ms: never idle, far under maxBytes.
      while (sending && !client.socket.destroyed) {
        client.socket.write(Buffer.alloc(16 * 1024, 97));
        await sleep(100);
      }
    })();
    const { afterAnswerMs, bytesAfterAnswer } = await close;
    sending = false;
    expect(afterAnswerMs).toBeGreaterThanOrEqual(BOUNDS.maxMs - 20);
    expect(afterAnswerMs).toBeLessThan(BOUNDS.maxMs + 500);
    expect(bytesAfterAnswer).toBeLessThan(BOUNDS.maxBytes);
    client.socket.destroy();
  });

  it("byte bound: a fast sender that ignores the answer is let go after maxBytes", async () => {
    const close = nextClose();
    const client = await open(1024 ** 3);
    client.socket.write(Buffer.alloc(300 * 1024, 97));
    await client.answered();
    let sending = true;
    void (async () => {
      while (sending && !client.socket.destroyed && !client.error()) {
        if (!client.socket.write(Buffer.alloc(256 * 1024, 97))) await new Promise((resolve) => client.socket.once("drain", resolve).once("close", resolve));
      }
    })();
    const { afterAnswerMs, bytesAfterAnswer } = await close;
    sending = false;
    expect(bytesAfterAnswer).toBeGreaterThan(BOUNDS.maxBytes);
    // What was already on its way when the bound was reached, no more.
    expect(bytesAfterAnswer).toBeLessThan(BOUNDS.maxBytes + 1024 ** 2);
    expect(afterAnswerMs).toBeLessThan(BOUNDS.maxMs);
    client.socket.destroy();
  });

  it("a client still sending when the answer comes, that reads it late, still reads it (no reset)", async () => {
    const close = nextClose();
    const client = await open(64 * 1024 ** 2);
    // Reads nothing for a while, as a client busy writing its body does.
    client.socket.pause();
    for (let sent = 0; sent < 1024 ** 2; sent += 64 * 1024) {
      client.socket.write(Buffer.alloc(64 * 1024, 97));
      await sleep(10);
    }
    await sleep(100);
    client.socket.resume();
    expect(await client.answered()).toMatch(/^HTTP\/1\.1 413 .*\r\n\r\ne\r\nrefused unread\r\n0\r\n\r\n$/s);
    expect(client.error()).toBeNull();
    client.socket.end();
    await close;
  });
});

/**
 * What the issue saw: Node's fetch (undici) sending a large upload that the server refuses before
 * reading it. undici reads the answer while it is still sending and stops sending once it has it.
 */
describe("Node's fetch and a refused upload", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const listener = createRequestListener(async (request) => {
      // The refusal comes after a little work (a session lookup), the body unread meanwhile.
      await sleep(20);
      if (new URL(request.url).pathname === "/read-a-little") {
        const reader = request.body!.getReader();
        await reader.read();
        await reader.cancel();
      }
      return new Response("The file is larger than 15 MB.", { status: 413 });
    });
    server = createServer((req, res) => {
      settleUnreadBody(req, res);
      void listener(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  for (const megabytes of [15.5, 16, 20]) {
    it(`gets the 413 with its text at ${megabytes} MB, as a Buffer and as a stream`, async () => {
      const bytes = Math.round(megabytes * 1024 ** 2);
      for (const path of ["/refuse", "/read-a-little"]) {
        const buffered = await fetch(`${base}${path}`, { method: "POST", body: Buffer.alloc(bytes, 97) });
        expect(buffered.status, path).toBe(413);
        expect(await buffered.text(), path).toBe("The file is larger than 15 MB.");
        const streamed = await fetch(`${base}${path}`, { method: "POST", body: Readable.toWeb(Readable.from(chunks(bytes))) as ReadableStream, duplex: "half" } as RequestInit);
        expect(streamed.status, path).toBe(413);
        expect(await streamed.text(), path).toBe("The file is larger than 15 MB.");
      }
    }, 60_000);
  }
});

function* chunks(bytes: number) {
  const chunk = Buffer.alloc(256 * 1024, 97);
  for (let sent = 0; sent < bytes; sent += chunk.length) yield sent + chunk.length <= bytes ? chunk : chunk.subarray(0, bytes - sent);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
