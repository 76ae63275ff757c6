#!/usr/bin/env bash
# npm run bench:analytics-pages — pages from memory with page-view counting on against off, in
# interleaved runs on the same build (decision 141). wrk sends what a browser sends, so every
# request takes the whole counting path: ANALYTICS_VIEWS_PER_MINUTE is raised so that no request
# stops at the rate limit. Needs a build (npm run build).
set -euo pipefail
source "$(dirname "$0")/tools.sh"
need wrk wrk; need curl curl
PORT_ON=3310
PORT_OFF=3311
REPS="${WRK_REPS:-3}"
cd "$ROOT"
trap 'stop_app $PORT_ON; stop_app $PORT_OFF' EXIT
stop_app $PORT_ON; stop_app $PORT_OFF
start_app $PORT_ON SITE_URL="http://127.0.0.1:$PORT_ON" MAIN_DOMAINS=127.0.0.1 ANALYTICS=on ANALYTICS_VIEWS_PER_MINUTE=1000000
start_app $PORT_OFF SITE_URL="http://127.0.0.1:$PORT_OFF" MAIN_DOMAINS=127.0.0.1 ANALYTICS=off
HEADERS=(-H "User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
  -H "Accept: text/html,application/xhtml+xml" -H "Accept-Language: en-US,en;q=0.9" -H "Accept-Encoding: gzip, deflate, br"
  -H "Sec-Fetch-Mode: navigate" -H "Sec-Fetch-Dest: document" -H "Referer: https://www.google.com/")
echo "# Pages with counting on and off ($(date -u +%FT%TZ), $(nproc) cores, node $(node -v), load $(cut -d' ' -f1 /proc/loadavg))"
echo
echo "| page | run | counting on (req/s) | counting off (req/s) |"
echo "|---|---|---|---|"
for path in "/about" "/opt-in?f_name=Betsy&l_name=Ross&phone=2124561776&sub2=cl1ck-4d-7f3a9e&utm_source=fb&utm_medium=cpc"; do
  for rep in $(seq 1 "$REPS"); do
    on=$(wrk -t2 -c50 -d10s "${HEADERS[@]}" "http://127.0.0.1:$PORT_ON$path" | awk '/Requests\/sec/ {print $2}')
    off=$(wrk -t2 -c50 -d10s "${HEADERS[@]}" "http://127.0.0.1:$PORT_OFF$path" | awk '/Requests\/sec/ {print $2}')
    echo "| \`${path%%\?*}\` | $rep | $on | $off |"
  done
done
