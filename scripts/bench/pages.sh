#!/usr/bin/env bash
# npm run bench:pages — Lighthouse (mobile), first-load JavaScript and throughput of every page
# served from memory (server/pages.ts) against nginx serving a pre-compressed file, in one run.
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_tools
PORT=3300
BASE="http://127.0.0.1:$PORT"
cd "$ROOT"
SITE_URL="$BASE" npm run build > /tmp/bench-build.log 2>&1
trap 'stop_app $PORT; stop_app 3301; "$SHARED_BENCH/run-nginx.sh" stop > /dev/null 2>&1 || true' EXIT
stop_app $PORT
# shellcheck disable=SC2086 # APP_ENV is a list of NAME=value words
start_app $PORT SITE_URL="$BASE" MAIN_DOMAINS=127.0.0.1 ${APP_ENV:-}
BEFORE_TARGETS=()
if [ -n "${BEFORE_REF:-}" ]; then
  BEFORE_ROOT=/tmp/bench-before
  BEFORE_BASE="http://127.0.0.1:3301"
  rm -rf "$BEFORE_ROOT" && mkdir -p "$BEFORE_ROOT"
  git archive "$BEFORE_REF" | tar -x -C "$BEFORE_ROOT"
  ln -s "$ROOT/node_modules" "$BEFORE_ROOT/node_modules"
  (cd "$BEFORE_ROOT" && SITE_URL="$BEFORE_BASE" npm run build > /tmp/bench-build-before.log 2>&1)
  stop_app 3301
  APP_ROOT="$BEFORE_ROOT" start_app 3301 SITE_URL="$BEFORE_BASE" MAIN_DOMAINS=127.0.0.1
  BEFORE_TARGETS=(before-about="$BEFORE_BASE/about" before-home="$BEFORE_BASE/" \
    before-opt-in-prefilled="$BEFORE_BASE/opt-in?f_name=Betsy&l_name=Ross&phone=2124561776&sub2=cl1ck-4d-7f3a9e" \
    before-article="$BEFORE_BASE/articles/bonds-guide")
fi
"$SHARED_BENCH/run-nginx.sh" start build/client build/client > /dev/null

echo "# Pages benchmark $(date -u +%FT%TZ), $(nproc) cores, node $(node -v), $(/usr/bin/chromium --version | head -1)"
echo
echo "## First-load JavaScript"
echo
node "$ROOT/scripts/bench/jsbytes.mjs" "$BASE/" "$BASE/home" "$BASE/opt-in" "$BASE/contact" "$BASE/auth" "$BASE/blog" "$BASE/about" \
  "$BASE/privacy" "$BASE/gold" "$BASE/articles/bonds-guide" "$BASE/authors/michael-harrington"
echo
if [ -z "${SKIP_LH:-}" ]; then
  echo "## Lighthouse (mobile, ${LH_RUNS:-3} runs, medians)"
  node "$TOOLS/lh.mjs" --runs "${LH_RUNS:-3}" --out /tmp/bench-lh home="$BASE/" blog="$BASE/blog" about="$BASE/about" \
    article="$BASE/articles/generational-wealth" author="$BASE/authors/michael-harrington" opt-in="$BASE/opt-in" 2> /tmp/bench-lh.log
fi
echo
echo "## Throughput (wrk -t2 -c50 -d10s, gzip): nginx gzip_static /about/ and our pages, interleaved"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# MAIN_DOMAINS=127.0.0.1: / is the home page. The opt-in address carries a typical ad click.
OPT_IN="$BASE/opt-in?f_name=Betsy&l_name=Ross&phone=2124561776&sub2=cl1ck-4d-7f3a9e"
node "$TOOLS/wrk.mjs" --reps "${WRK_REPS:-3}" nginx-gzip_static=http://127.0.0.1:8083/about/ about="$BASE/about" home="$BASE/" \
  opt-in-prefilled="$OPT_IN" blog-category="$BASE/blog?category=precious-metals" article="$BASE/articles/bonds-guide" \
  "${BEFORE_TARGETS[@]}" 2> /tmp/bench-wrk.log
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
