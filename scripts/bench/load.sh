#!/usr/bin/env bash
# npm run bench:load — requests/s and latency under load for four workloads (a prerendered page,
# a page rendered per request, the opt-in endpoint, sign-in) on PGlite with one process and on
# PostgreSQL with one and with two processes; prints a Markdown table.
set -euo pipefail
source "$(dirname "$0")/tools.sh"
need wrk wrk
need curl curl
need psql postgresql-client
cd "$ROOT"
[ -f build/server/index.js ] || npm run build > /tmp/bench-build.log 2>&1

DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-3s}"
PORTS=(3401 3402)
EMAIL="load-bench@example.com"
PASSWORD="Bench-load-Quokka-4417"
AUTH_SECRET="$(node -e 'process.stdout.write(require("node:crypto").randomBytes(36).toString("base64"))')"
# Prerendered pages carry the SITE_URL of the build; sign-in checks Origin against the server's, so
# the servers must run with the same one.
SITE_URL="$(sed -n 's|.*<link rel="canonical" href="\([^"]*\)/about".*|\1|p' build/client/about/index.html 2> /dev/null | head -n 1)"
SITE_URL="${SITE_URL:-http://localhost:3000}"
SERVER_ENV=(NODE_ENV=production HOST=127.0.0.1 LOG_LEVEL=warn TRUST_PROXY=1 SITE_URL="$SITE_URL")

WORK="$(mktemp -d /tmp/bench-load-XXXX)"
DATABASES=()
LEFTOVER_DIRS=()
WRK_PIDS=()

stop_servers() {
  local port pid
  for port in "${PORTS[@]}"; do
    [ -f "/tmp/bench-app-$port.pid" ] || continue
    pid="$(cat "/tmp/bench-app-$port.pid")"
    stop_app "$port"
    # The next configuration reuses the port, and PGlite must have closed its folder.
    for _ in $(seq 1 60); do kill -0 "$pid" 2> /dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2> /dev/null || true
  done
}

cleanup() {
  local pid url dir
  for pid in "${WRK_PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
  stop_servers
  for url in "${DATABASES[@]}"; do
    psql -q "${url%/*}/postgres" -c "DROP DATABASE IF EXISTS ${url##*/} WITH (FORCE)" > /dev/null 2>&1 ||
      echo "could not drop ${url##*/}" >&2
  done
  for dir in "${LEFTOVER_DIRS[@]}"; do rm -rf "$dir"; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Runs a command and remembers the /tmp/bench-* folders it creates (start_app's empty DATA_DIR,
# prepare-db's generated registry file), to remove them at the end.
remembering_tmp_dirs() {
  local before after dir status=0
  before="$(ls -d /tmp/bench-data-* /tmp/bench-dnc-* 2> /dev/null || true)"
  "$@" || status=$?
  after="$(ls -d /tmp/bench-data-* /tmp/bench-dnc-* 2> /dev/null || true)"
  for dir in $after; do grep -qxF "$dir" <<< "$before" || LEFTOVER_DIRS+=("$dir"); done
  return "$status"
}

# optin.lua numbers its threads from 0 in every wrk instance; this wrapper shifts them (first
# argument after "--") so that instances running together or one after another on the same
# database never send the same number or client address.
cat > "$WORK/optin-shifted.lua" << EOF
dofile("$ROOT/scripts/bench/optin.lua")
local numbered_init = init
function init(args)
  thread_id = (tonumber(thread_id) or 0) + (tonumber(args[1]) or 0)
  numbered_init(args)
end
EOF

to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0
    if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /m$/) n *= 60000; else if (v ~ /s$/) n *= 1000
    printf "%.2f", n
  }'
}

# Whole requests/s with thousands separators; one decimal below 100 (sign-in).
rps_cell() {
  awk -v n="$1" 'BEGIN {
    if (n < 100) { printf "%.1f\n", n; exit }
    s = sprintf("%d", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); print s
  }'
}

# Milliseconds the way the table shows them: two decimals for short times, whole ones for long.
ms_cell() { awk -v n="$1" 'BEGIN { if (n < 10) printf "%.2f", n; else if (n < 100) printf "%.1f", n; else printf "%d", n }'; }

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2> /dev/null || echo 0; }

# The outbox goes on sending the opt-in run's welcome texts after wrk stops; the next workload
# starts once every server process has been nearly idle (under 10% of a core) for half a second.
wait_idle() {
  local processes="$1" i before after busy
  for _ in $(seq 1 120); do
    before=() busy=0
    for ((i = 0; i < processes; i++)); do before+=("$(cpu_ticks "$(cat "/tmp/bench-app-${PORTS[$i]}.pid")")"); done
    sleep 0.5
    for ((i = 0; i < processes; i++)); do
      after="$(cpu_ticks "$(cat "/tmp/bench-app-${PORTS[$i]}.pid")")"
      [ $((after - before[i])) -lt $(($(getconf CLK_TCK) / 20)) ] || busy=1
    done
    [ "$busy" = 1 ] || return 0
  done
}

rss_mb() { ps -o rss= -p "$(cat "/tmp/bench-app-$1.pid")" | awk '{printf "%d", $1/1024}'; }

# wrk_all PROCESSES CONNECTIONS DURATION FIRST_THREAD WORKLOAD: one wrk per server process, all at
# once, the connections split between them; results in $WORK/wrk-<port>.txt.
wrk_all() {
  local processes="$1" connections="$2" duration="$3" first="$4" workload="$5"
  local threads=$((2 / processes)) i port
  WRK_PIDS=()
  for ((i = 0; i < processes; i++)); do
    port="${PORTS[$i]}"
    local base="http://127.0.0.1:$port" slot=$((first + i * threads))
    # A 10 s timeout: slow answers (sign-in under load) count in the latencies, not as errors.
    local args=(-t"$threads" -c$((connections / processes)) -d"$duration" --timeout 10s --latency)
    case "$workload" in
      about | opt-in) wrk "${args[@]}" -H "Accept-Encoding: br, gzip" "$base/$workload" ;;
      optin-api) wrk "${args[@]}" -s "$WORK/optin-shifted.lua" "$base" -- "$slot" ;;
      sign-in) wrk "${args[@]}" -s scripts/bench/signin.lua "$base" -- "$EMAIL" "$PASSWORD" "$SITE_URL" "$slot" ;;
    esac > "$WORK/wrk-$port.txt" 2>&1 &
    WRK_PIDS+=($!)
  done
  for ((i = 0; i < processes; i++)); do wait "${WRK_PIDS[$i]}" || true; done
  WRK_PIDS=()
}

# measure CONFIGURATION PROCESSES WORKLOAD LABEL CONNECTIONS: warm-up, run, one table row.
measure() {
  local configuration="$1" processes="$2" workload="$3" label="$4" connections="$5"
  local rps=0 p50=0 p99=0 bad=0 errors=0 requests=0 rss="" i port out
  wait_idle "$processes"
  # The warm-up's threads are numbered after the run's (2 and 3), so it uses other numbers too.
  wrk_all "$processes" "$connections" "$WARMUP" 2 "$workload"
  wrk_all "$processes" "$connections" "$DURATION" 0 "$workload"
  for ((i = 0; i < processes; i++)); do
    port="${PORTS[$i]}"
    out="$(cat "$WORK/wrk-$port.txt")"
    grep -q "Requests/sec" <<< "$out" || { echo "wrk failed on port $port:" >&2; echo "$out" >&2; exit 1; }
    rps="$(awk -v a="$rps" '/Requests\/sec/ {printf "%f", a + $2}' <<< "$out")"
    p50="$(awk -v a="$p50" -v b="$(to_ms "$(awk '$1=="50%" {print $2}' <<< "$out")")" 'BEGIN {printf "%.2f", (b > a ? b : a)}')"
    p99="$(awk -v a="$p99" -v b="$(to_ms "$(awk '$1=="99%" {print $2}' <<< "$out")")" 'BEGIN {printf "%.2f", (b > a ? b : a)}')"
    requests=$((requests + $(awk '/requests in/ {n = $1} END {print n + 0}' <<< "$out")))
    bad=$((bad + $(awk '/Non-2xx/ {n = $5} END {print n + 0}' <<< "$out")))
    errors=$((errors + $(awk '/Socket errors/ {gsub(",", ""); n = $4 + $6 + $8 + $10} END {print n + 0}' <<< "$out")))
    rss="${rss:+$rss / }$(rss_mb "$port")"
  done
  if [ "$requests" -eq 0 ]; then p50="-" p99="-"; else p50="$(ms_cell "$p50")" p99="$(ms_cell "$p99")"; fi
  local failures="$bad"
  [ "$errors" -eq 0 ] || failures="$bad (+$errors socket errors)"
  echo "| $configuration | $label | $(rps_cell "$rps") | $p50 | $p99 | $failures | $rss |"
}

# run_configuration LABEL PROCESSES DATABASE_ENV...: servers started on a prepared database, then
# the four workloads.
run_configuration() {
  local configuration="$1" processes="$2" i
  shift 2
  for ((i = 0; i < processes; i++)); do
    # One after the other: the first one runs the migrations.
    remembering_tmp_dirs start_app "${PORTS[$i]}" "${SERVER_ENV[@]}" "$@"
  done
  check_sign_in
  measure "$configuration" "$processes" about "GET /about (prerendered)" 50
  measure "$configuration" "$processes" opt-in "GET /opt-in (SSR)" 50
  measure "$configuration" "$processes" optin-api "POST /api/phone-optin" 50
  measure "$configuration" "$processes" sign-in "POST /api/auth/sign-in/email" 8
  stop_servers
}

# A wrong Origin or an unverified account would turn the sign-in run into a run of refusals.
check_sign_in() {
  local status
  status="$(curl -s -o "$WORK/sign-in.txt" -w '%{http_code}' -H "Content-Type: application/json" -H "Origin: $SITE_URL" \
    -H "X-Forwarded-For: 10.250.0.1" --data "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}" \
    "http://127.0.0.1:${PORTS[0]}/api/auth/sign-in/email")"
  [ "$status" = 200 ] || echo "warning: a test sign-in answered $status: $(head -c 300 "$WORK/sign-in.txt")" >&2
}

create_user() {
  env "$@" LOG_LEVEL=warn npx tsx scripts/admin-create.ts "$EMAIL" "$PASSWORD" >> "$WORK/prepare.log" 2>&1 ||
    { echo "admin-create failed:" >&2; cat "$WORK/prepare.log" >&2; exit 1; }
}

new_postgres_database() {
  local url
  remembering_tmp_dirs npx tsx scripts/bench/prepare-db.ts postgres > "$WORK/prepare-out.txt" 2>> "$WORK/prepare.log" ||
    { echo "prepare-db failed:" >&2; cat "$WORK/prepare.log" >&2; exit 1; }
  url="$(tail -n 1 "$WORK/prepare-out.txt")"
  DATABASES+=("$url")
  create_user NODE_ENV=production DATABASE_URL="$url" AUTH_SECRET="$AUTH_SECRET"
  NEW_DATABASE="$url"
}

echo "# Load benchmark $(date -u +%FT%TZ), $(nproc) cores shared by wrk and the server processes, node $(node -v), wrk -d$DURATION after a $WARMUP warm-up per workload"
echo
echo "50 connections (sign-in 8), wrk --timeout 10s. Two processes: one wrk per process at the same time with half"
echo "the connections each; requests/s summed, the larger p50 and p99. Pages with Accept-Encoding: br, gzip; the"
echo "page rendered per request is /opt-in (no database). RSS after each workload's run. SITE_URL $SITE_URL."
echo
echo "| configuration | workload | req/s | p50 ms | p99 ms | non-2xx | RSS MB per process |"
echo "|---|---|---|---|---|---|---|"

data="$(mktemp -d /tmp/bench-load-pglite-XXXX)"
LEFTOVER_DIRS+=("$data")
echo "preparing PGlite..." >&2
remembering_tmp_dirs npx tsx scripts/bench/prepare-db.ts pglite "$data" > /dev/null 2>> "$WORK/prepare.log" ||
  { echo "prepare-db failed:" >&2; cat "$WORK/prepare.log" >&2; exit 1; }
# PGlite admits one process per folder: the account is created before the server opens it.
create_user NODE_ENV=production DATA_DIR="$data"
run_configuration "PGlite, 1 process" 1 DATA_DIR="$data"
echo "| PGlite, 2 processes | not possible: PGlite admits one process per data folder | | | | | |"

echo "preparing PostgreSQL..." >&2
new_postgres_database
pg_version="$(psql -tA "${NEW_DATABASE%/*}/postgres" -c "SHOW server_version" 2> /dev/null | cut -d' ' -f1)"
run_configuration "PostgreSQL ${pg_version:-}, 1 process" 1 DATABASE_URL="$NEW_DATABASE" AUTH_SECRET="$AUTH_SECRET"

echo "preparing a fresh PostgreSQL database..." >&2
new_postgres_database
run_configuration "PostgreSQL ${pg_version:-}, 2 processes" 2 DATABASE_URL="$NEW_DATABASE" AUTH_SECRET="$AUTH_SECRET"
