#!/usr/bin/env bash
# A slower machine on a fast one (BENCHMARKS.md, "A slower machine, emulated"): runs
# bench/load.sh with the load tool, the server it starts and, on PostgreSQL, every
# PostgreSQL process in a cgroup that gets CORES cores' worth of CPU time. The work is
# the same; the cores are as full as a machine 2/CORES times slower would have them.
#
#   bench/slow.sh 1.0 sqlite --levels 6000,9000          # as full as a machine 2x slower
#   bench/slow.sh 0.83 postgres --levels 6000            # 2.4x slower
#   BIN=/tmp/old/junqi bench/slow.sh 0.9 sqlite --levels 9000   # another build
#
# Needs root and the cgroup `cpu` controller (v1 at /sys/fs/cgroup/cpu, or v2). The
# PostgreSQL processes go back to the root group when the run ends.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: $0 CORES sqlite|postgres [junqi load options]"
cores="${1:?$usage}"
backend="${2:?$usage}"
case "$backend" in sqlite | postgres) ;; *) echo "$usage" >&2; exit 2 ;; esac
shift 2
period=10000
quota=$(awk -v c="$cores" -v p="$period" 'BEGIN { printf "%d", c * p }')

if [ -d /sys/fs/cgroup/cpu ]; then
  root=/sys/fs/cgroup/cpu
  group=$root/junqi-slow
  mkdir -p "$group"
  echo "$period" > "$group/cpu.cfs_period_us"
  echo "$quota" > "$group/cpu.cfs_quota_us"
else
  root=/sys/fs/cgroup
  group=$root/junqi-slow
  echo +cpu > "$root/cgroup.subtree_control" 2>/dev/null || true
  mkdir -p "$group"
  echo "$quota $period" > "$group/cpu.max"
fi

# Built at full speed, outside the group.
if [ -z "${BIN:-}" ]; then
  CARGO_INCREMENTAL=0 cargo build --release --quiet
  export BIN=target/release/junqi
fi
if [ "$backend" = postgres ]; then
  # New backends are forked by the postmaster and stay in its group.
  for p in $(pgrep -x postgres); do echo "$p" > "$group/cgroup.procs"; done
  trap 'for p in $(pgrep -x postgres); do echo "$p" > "$root/cgroup.procs"; done' EXIT
fi
echo "run on $cores of the cores ($quota us per $period us)" >&2
bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$group" bench/load.sh "$backend" "$@"
