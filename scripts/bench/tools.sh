#!/usr/bin/env bash
# Shared helpers for the benchmark scripts: the measuring tools from ../shared/bench (installed
# once into /tmp, outside the repo), and starting/stopping our production server.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SHARED_BENCH="${SHARED_BENCH:-$ROOT/../shared/bench}"
TOOLS="${BENCH_TOOLS:-/tmp/bench-tools}"

need() { command -v "$1" > /dev/null || { echo "missing $1: apt-get install -y $2" >&2; exit 1; }; }

ensure_tools() {
  need wrk wrk; need nginx nginx-light; need curl curl
  [ -x /usr/bin/chromium ] || { echo "missing /usr/bin/chromium: apt-get install -y chromium" >&2; exit 1; }
  [ -d "$SHARED_BENCH" ] || { echo "the measuring scripts are expected in $SHARED_BENCH (set SHARED_BENCH)" >&2; exit 1; }
  if [ ! -d "$TOOLS/node_modules/lighthouse" ]; then
    rm -rf "$TOOLS" && cp -r "$SHARED_BENCH" "$TOOLS" && (cd "$TOOLS" && npm install --no-audit --no-fund > /dev/null)
  fi
  export CHROME_PATH=/usr/bin/chromium
}

# start_app PORT [ENV=VALUE ...]: the production server in the background; prints its PID.
# APP_ROOT=<folder> starts another checkout's build (bench:pages with BEFORE_REF).
start_app() {
  local port="$1"; shift
  local data; data="$(mktemp -d /tmp/bench-data-XXXX)"
  # Production refuses DATABASE_URL without AUTH_SECRET; a throw-away one is enough to measure.
  (cd "${APP_ROOT:-$ROOT}" && exec env NODE_ENV=production PORT="$port" HOST=127.0.0.1 DATA_DIR="$data" LOG_LEVEL=warn AUTH_SECRET="bench-only-secret-$(date +%s)-0123456789abcdef" "$@" node server.mjs > "/tmp/bench-app-$port.log" 2>&1) &
  echo $! > "/tmp/bench-app-$port.pid"
  for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && return 0; sleep 0.5; done
  echo "the app on port $port did not start; see /tmp/bench-app-$port.log" >&2; exit 1
}

stop_app() {
  local pidfile="/tmp/bench-app-$1.pid"
  if [ -f "$pidfile" ]; then kill "$(cat "$pidfile")" 2> /dev/null || true; rm -f "$pidfile"; sleep 1; fi
}
