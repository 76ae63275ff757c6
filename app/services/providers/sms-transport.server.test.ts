import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTwilioStandIn } from "../../../tests/support/twilio-stand-in";
import { createTwilioTransport } from "./sms-transport.server";

const ACCOUNT = `AC${"1".repeat(32)}`;
const TOKEN = "test-auth-token-0123456789";

describe("the Twilio transport", () => {
  let twilio: Awaited<ReturnType<typeof startTwilioStandIn>>;
  beforeAll(async () => {
    twilio = await startTwilioStandIn({ accountSid: ACCOUNT, authToken: TOKEN });
  });
  afterAll(async () => {
    await twilio.close();
  });

  const transport = () =>
    createTwilioTransport({
      accountSid: ACCOUNT,
      authToken: TOKEN,
      from: "+18005550100",
      apiBase: twilio.url,
      statusCallbackUrl: "https://www.example.com/api/sms/status",
    });

  it("posts To, From, Body and the status callback with basic auth, and returns the message SID", async () => {
    const result = await transport().send({ id: 1, to: "+12124567890", body: "Hello from Patriot Investor" });
    expect(result).toEqual({ ok: true, providerId: expect.stringMatching(/^SM/), providerStatus: "queued" });
    expect(twilio.sent.at(-1)).toMatchObject({
      to: "+12124567890",
      from: "+18005550100",
      body: "Hello from Patriot Investor",
      statusCallback: "https://www.example.com/api/sms/status",
    });
  });

  it("answers whether Twilio already has a message (the list filtered by To), also after a lost answer", async () => {
    const before = new Date(Date.now() - 2000);
    twilio.dropNextAnswers(1);
    const lost = await transport().send({ id: 7, to: "+12124567899", body: "Patriot Investor: in doubt" });
    expect(lost).toMatchObject({ ok: false, retryable: true, inDoubt: true });
    const found = await transport().lookup!({ to: "+12124567899", body: "Patriot Investor: in doubt", since: before });
    expect(found).toEqual({ found: true, providerId: expect.stringMatching(/^SM/), providerStatus: "sent" });
    expect(await transport().lookup!({ to: "+12124567899", body: "another text", since: before })).toEqual({ found: false });
    expect(await transport().lookup!({ to: "+12124567899", body: "Patriot Investor: in doubt", since: new Date(Date.now() + 60_000) })).toEqual({ found: false });
    const unreachable = createTwilioTransport({ accountSid: ACCOUNT, authToken: TOKEN, from: "+18005550100", apiBase: "http://127.0.0.1:9" });
    expect(await unreachable.lookup!({ to: "+12124567899", body: "x", since: before })).toMatchObject({ found: null });
  });

  it("uses the Messaging Service when one is configured", async () => {
    const viaService = createTwilioTransport({ accountSid: ACCOUNT, authToken: TOKEN, messagingServiceSid: `MG${"2".repeat(32)}`, apiBase: twilio.url });
    await viaService.send({ id: 2, to: "+12124567891", body: "x" });
    expect(twilio.sent.at(-1)).toMatchObject({ messagingServiceSid: `MG${"2".repeat(32)}`, from: undefined });
  });

  it("reports 21610 (the person replied STOP) as a permanent opt-out", async () => {
    twilio.optedOut.add("+12124567892");
    const result = await transport().send({ id: 3, to: "+12124567892", body: "x" });
    expect(result).toMatchObject({ ok: false, retryable: false, optedOut: true });
  });

  it("reports a 5xx as retryable, and a wrong token as permanent", async () => {
    twilio.failNextSends(1);
    expect(await transport().send({ id: 4, to: "+12124567893", body: "x" })).toMatchObject({ ok: false, retryable: true });
    const wrong = createTwilioTransport({ accountSid: ACCOUNT, authToken: "wrong-token-000000000", from: "+18005550100", apiBase: twilio.url });
    expect(await wrong.send({ id: 5, to: "+12124567893", body: "x" })).toMatchObject({ ok: false, retryable: false });
  });

  it("reports a refused connection as retryable and not in doubt: nothing reached the provider", async () => {
    const down = createTwilioTransport({ accountSid: ACCOUNT, authToken: TOKEN, from: "+18005550100", apiBase: "http://127.0.0.1:9" }, 2000);
    const result = await down.send({ id: 6, to: "+12124567894", body: "x" });
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect(result).not.toHaveProperty("inDoubt");
  });

  /** Runs `send` against a provider on 127.0.0.1 that answers with `handler`, then closes it. */
  async function sendVia(handler: RequestListener, timeoutMs: number, id: number) {
    const provider = createServer(handler);
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    try {
      const apiBase = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
      const started = Date.now();
      const result = await createTwilioTransport({ accountSid: ACCOUNT, authToken: TOKEN, from: "+18005550100", apiBase }, timeoutMs).send({ id, to: "+12124567895", body: "x" });
      return { result, ms: Date.now() - started };
    } finally {
      provider.closeAllConnections();
      await new Promise((resolve) => provider.close(resolve));
    }
  }

  it("gives up on a provider that takes the request and never answers: in doubt, not failed", async () => {
    const { result, ms } = await sendVia(() => {}, 300, 7);
    expect(result).toMatchObject({ ok: false, retryable: true, inDoubt: true });
    expect(ms).toBeLessThan(5000);
  });

  it("gives up on an answer that never ends: in doubt, and the sender is not left waiting", async () => {
    // Headers, then a byte every 100 ms, never the end: no idle gap for a socket timeout to catch.
    const { result, ms } = await sendVia((_request, response) => {
      response.writeHead(201, { "Content-Type": "application/json" });
      response.write('{"sid":"SM');
      const drip = setInterval(() => response.write(" "), 100);
      response.on("close", () => clearInterval(drip));
    }, 300, 9);
    expect(result).toMatchObject({ ok: false, retryable: true, inDoubt: true });
    expect(ms).toBeLessThan(5000);
  });

  it("reads a gateway's non-JSON error page as a retryable status", async () => {
    const { result } = await sendVia((_request, response) => response.writeHead(502, { "Content-Type": "text/html" }).end("<h1>Bad gateway</h1>"), 10_000, 8);
    expect(result).toEqual({ ok: false, retryable: true, error: "Twilio 502: no message" });
  });
});
