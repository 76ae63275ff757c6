import { createServer, type Server } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { twoRequestsOnOneConnection } from "../tests/support/keep-alive";
import { DRAIN_MAX_BYTES, settleUnreadBody } from "./unread-body";

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
