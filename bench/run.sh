#!/usr/bin/env bash
# Page benchmark: seeds a database (100,000 players, 1,000,000 finished games unless
# told otherwise), starts the release build on it, and runs wrk with 64 connections
# against /games, /ladder, /@/{name} and /@/{name}/games, printing each page's
# latency percentiles.
#
#   bench/run.sh sqlite            # a fresh SQLite file under /tmp
#   bench/run.sh postgres          # a fresh database on $JUNQI_BENCH_POSTGRES_URL
#                                  # (default postgres://postgres@127.0.0.1:5432/test)
#   bench/run.sh postgres-socket   # the same server through its Unix socket
#                                  # (/var/run/postgresql, as Debian runs it)
#   PLAYERS=1000 GAMES=20000 DURATION=10s bench/run.sh sqlite   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
backend="${1:-sqlite}"
players="${PLAYERS:-100000}"
games="${GAMES:-1000000}"
duration="${DURATION:-30s}"
connections="${CONNECTIONS:-64}"
threads="${THREADS:-2}"
port="${PORT:-18099}"

command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 2; }
cargo build --release --quiet
bin=target/release/junqi

case "$backend" in
  sqlite)
    url="${DB_URL:-/tmp/junqi-bench.db}"
    if [ -z "${REUSE:-}" ]; then rm -f "$url" "$url-wal" "$url-shm"; fi
    ;;
  postgres|postgres-socket)
    if [ "$backend" = postgres-socket ]; then
      default_base="postgres://postgres@%2Fvar%2Frun%2Fpostgresql/test"
    else
      default_base="postgres://postgres@127.0.0.1:5432/test"
    fi
    base="${JUNQI_BENCH_POSTGRES_URL:-$default_base}"
    name=junqi_bench
    url="${base%/*}/$name"
    if [ -z "${REUSE:-}" ]; then
      psql "$base" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)" -c "CREATE DATABASE $name"
    fi
    ;;
  *) echo "usage: $0 sqlite|postgres|postgres-socket" >&2; exit 2 ;;
esac

if [ -z "${REUSE:-}" ]; then
  echo "seeding $players players and $games games on $backend"
  time "$bin" seed --players "$players" --games "$games" --database-url "$url"
fi

"$bin" --bind "127.0.0.1:$port" --database-url "$url" --workers "${WORKERS:-2}" >/tmp/junqi-bench-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
  sleep 0.1
done

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $backend; $connections connections; $duration per page"
for page in games ladder profile player_games; do
  # Warm the caches of the database and the OS first.
  JUNQI_BENCH_PAGE=$page wrk -t"$threads" -c"$connections" -d3s -s bench/pages.lua "http://127.0.0.1:$port" >/dev/null
  echo "== $page"
  JUNQI_BENCH_PAGE=$page wrk -t"$threads" -c"$connections" -d"$duration" --latency -s bench/pages.lua "http://127.0.0.1:$port" \
    | grep -E "Latency|50%|90%|99%|Requests/sec|Non-2xx|Socket errors"
done
