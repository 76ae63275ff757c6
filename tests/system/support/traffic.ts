import { randomInt } from "node:crypto";

/** The n-th of up to 8,000,000 distinct valid US mobile numbers (312-NXX-XXXX, never 555 or N11). */
export function mobileNumber(n: number) {
  const exchanges: number[] = [];
  for (let e = 200; e <= 999; e++) if (e !== 555 && e % 100 !== 11) exchanges.push(e);
  const exchange = exchanges[Math.floor(n / 10_000) % exchanges.length]!;
  return `312${exchange}${String(n % 10_000).padStart(4, "0")}`;
}

export const toE164 = (digits: string) => `+1${digits}`;

/** A client address from the benchmarking range, so per-IP limits see many visitors. */
export function randomClientIp() {
  return `198.18.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

export type OptInOutcome = "ok" | "fail" | "info";

/**
 * One JSON opt-in, classified the way crash tests classify operations: ok (the site said it was
 * saved), fail (the site said it was not), info (no answer: the outcome is unknown).
 */
export async function postOptIn(baseUrl: string, phone: string, headers: Record<string, string> = {}): Promise<{ outcome: OptInOutcome; status?: number; body?: unknown }> {
  try {
    const response = await fetch(`${baseUrl}/api/phone-optin`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": randomClientIp(), ...headers },
      body: JSON.stringify({ firstName: "Crash", lastName: "Test", phone, clickId: "system-test", smsConsent: true, termsConsent: true }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json()) as { success?: boolean };
    return { outcome: response.ok && body.success === true ? "ok" : "fail", status: response.status, body };
  } catch {
    return { outcome: "info" };
  }
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
