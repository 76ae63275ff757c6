#!/usr/bin/env bash
# npm run bench:optin — opt-ins per second and latency over HTTP (POST /api/phone-optin, every
# request a new number and a new client address), on the embedded database and on PostgreSQL,
# each with 1,000,000 numbers on the Do-Not-Call list.
set -euo pipefail
source "$(dirname "$0")/tools.sh"
need wrk wrk
cd "$ROOT"
[ -f build/server/index.js ] || npm run build > /tmp/bench-build.log 2>&1
PORT="${BENCH_PORT:-3301}"
DURATION="${DURATION:-10s}"
trap 'stop_app $PORT' EXIT

echo "# Opt-in benchmark $(date -u +%FT%TZ), $(nproc) cores, wrk -t2 -c50 -d$DURATION"
echo
echo "| database | opt-ins/s | p50 ms | p99 ms | non-2xx | server RSS MB |"
echo "|---|---|---|---|---|---|"
for kind in ${BENCH_KINDS:-pglite postgres}; do
  data="$(mktemp -d /tmp/bench-optin-XXXX)"
  if [ "$kind" = postgres ]; then
    url="$(npx tsx scripts/bench/prepare-db.ts postgres 2> /dev/null | tail -n 1)"
    start_app $PORT TRUST_PROXY=1 DATABASE_URL="$url"
  else
    npx tsx scripts/bench/prepare-db.ts pglite "$data" > /dev/null 2>&1
    (cd "$ROOT" && exec env NODE_ENV=production PORT=$PORT HOST=127.0.0.1 DATA_DIR="$data" LOG_LEVEL=warn TRUST_PROXY=1 node server.mjs > "/tmp/bench-app-$PORT.log" 2>&1) &
    echo $! > "/tmp/bench-app-$PORT.pid"
    for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$PORT/readyz" > /dev/null && break; sleep 0.5; done
  fi
  # warm-up
  wrk -t2 -c10 -d3s -s scripts/bench/optin.lua "http://127.0.0.1:$PORT" > /dev/null
  out="$(wrk -t2 -c50 -d"$DURATION" --latency -s scripts/bench/optin.lua "http://127.0.0.1:$PORT")"
  rps="$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
  p50="$(echo "$out" | awk '$1=="50%" {print $2}')"
  p99="$(echo "$out" | awk '$1=="99%" {print $2}')"
  bad="$(echo "$out" | awk '/Non-2xx/ {print $5}')"
  rss="$(ps -o rss= -p "$(cat /tmp/bench-app-$PORT.pid)" | awk '{printf "%d", $1/1024}')"
  echo "| $kind | ${rps%.*} | $p50 | $p99 | ${bad:-0} | $rss |"
  stop_app $PORT
  if [ "$kind" = postgres ]; then psql -q "${url%/*}/postgres" -c "DROP DATABASE IF EXISTS ${url##*/} WITH (FORCE)" > /dev/null 2>&1 || true; fi
done
