#!/usr/bin/env bash
# Two builds of the server side by side (BENCHMARKS.md, "Server CPU per action"): runs
# `junqi load --levels LEVEL` with each binary in turn, ROUNDS times, a fresh SQLite
# file each run, and prints each run's row (srv µs/act is the figure to compare: runs
# apart in time differ by more than a change does).
#
#   cp target/release/junqi /tmp/junqi-before   # build the other commit, then
#   bench/ab.sh /tmp/junqi-before target/release/junqi 9000 2
set -euo pipefail
before="$1" after="$2" level="${3:-9000}" rounds="${4:-2}"
db=/tmp/junqi-ab.db
for round in $(seq "$rounds"); do
    for which in before after; do
        bin="$before"
        [ "$which" = after ] && bin="$after"
        rm -f "$db" "$db-wal" "$db-shm"
        printf '== %s, round %s, %s games: ' "$which" "$round" "$level"
        "$bin" load --database-url "$db" --levels "$level" --server-log /tmp/junqi-ab-server.log 2>/dev/null | tail -1
    done
done
