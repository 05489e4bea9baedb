#!/usr/bin/env bash
# The four outside attacks (bench/attacks.py) on two builds, one scenario at a time,
# one build after the other, each on a fresh server and SQLite file:
#
#   git worktree add /work/wt/before e6e5072 && (cd /work/wt/before && cargo build --release)
#   bench/attacks.sh /work/wt/before/target/release/junqi target/release/junqi [sockets logins replay computer]
#
# Prints one SUMMARY line per scenario and build; every figure is kept in
# /tmp/atk-results/<scenario>-<before|after>.json and each server's log in
# /tmp/atk-<build>-<scenario>.log. replay and computer are timing runs: keep the
# machine otherwise idle while they run.
set -euo pipefail
before="$1" after="$2"
shift 2
scenarios=("${@:-sockets logins replay computer}")
here="$(cd "$(dirname "$0")" && pwd)"
venv=/tmp/atk-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q aiohttp
fi
# Hundreds of sockets in one client process, and as many in the server.
ulimit -n 20000 2>/dev/null || true
# The timing scenarios wait (up to 10 minutes) for the machine to be idle: a build or
# another benchmark running beside them would be measured too.
quiet() {
    for _ in $(seq 60); do
        awk '{exit !($1 < 0.5)}' /proc/loadavg && return
        sleep 10
    done
    echo "warning: the machine is busy: $(cat /proc/loadavg)"
}
for scenario in ${scenarios[*]}; do
    for which in before after; do
        bin="$before"
        [ "$which" = after ] && bin="$after"
        case "$scenario" in replay | computer) quiet ;; esac
        # aiohttp's warnings about sessions left to the garbage collector go to stderr.
        "$venv/bin/python" "$here/attacks.py" "$scenario" --binary "$bin" --label "$which" \
            2>"/tmp/atk-$which-$scenario.client.log" | grep '^SUMMARY' ||
            { echo "$scenario $which failed: see /tmp/atk-$which-$scenario.client.log"; }
    done
done
