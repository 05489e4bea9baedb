#!/usr/bin/env bash
# Live games under load (BENCHMARKS.md, "Live games under load"): builds the release
# binary and runs `junqi load` on a fresh database, passing any further arguments on.
#
#   bench/load.sh sqlite                      # a fresh SQLite file under /tmp
#   bench/load.sh postgres                    # a fresh database junqi_load on
#                                             # $JUNQI_BENCH_POSTGRES_URL's server
#                                             # (default postgres://postgres@127.0.0.1:5432/test)
#   bench/load.sh sqlite --levels 1000,3000 --hold 20
#   bench/load.sh postgres --crash            # kill the server mid-load, check the records
#   bench/load.sh sqlite --levels 1000 --computer-games 50 --computer-level hard
# DB_URL (SQLite) and SERVER_LOG choose other files than /tmp/junqi-load.db and
# /tmp/junqi-load-server.log, for a second run beside another; BIN runs another build
# as it is (e.g. an older one, for a comparison) instead of building this one.
set -euo pipefail
cd "$(dirname "$0")/.."
backend="${1:-sqlite}"
shift || true

case "$backend" in
  sqlite)
    url="${DB_URL:-/tmp/junqi-load.db}"
    rm -f "$url" "$url-wal" "$url-shm"
    ;;
  postgres)
    base="${JUNQI_BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}"
    name=junqi_load
    url="${base%/*}/$name"
    psql "$base" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)" -c "CREATE DATABASE $name"
    ;;
  *) echo "usage: $0 sqlite|postgres [junqi load options]" >&2; exit 2 ;;
esac

bin="${BIN:-target/release/junqi}"
if [ -z "${BIN:-}" ]; then
  CARGO_INCREMENTAL=0 cargo build --release --quiet
fi
# 9,000 games are 18,000 sockets on each side: the tool raises its soft open-file
# limit to the hard one, and warns when that is too low.
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; open files: $(ulimit -Hn); $backend; commit $(git rev-parse --short HEAD)" >&2
exec "$bin" load --database-url "$url" --server-log "${SERVER_LOG:-/tmp/junqi-load-server.log}" "$@"
