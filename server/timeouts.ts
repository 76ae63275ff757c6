/**
 * How long an idle keep-alive connection stays open (75 s). Longer than the proxy keeps one in
 * its pool (keepalive_timeout 60s in deploy/nginx), so the proxy always lets go first. The other
 * way round, a request the proxy sends on a connection this server is just closing dies with it,
 * and a POST is not retried: the visitor gets a 502 (seen as a flaky sign-out and 2FA step).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 75_000;
