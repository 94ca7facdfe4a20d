#!/usr/bin/env bash
# bench/cluster.sh: what it does and takes is the usage text of usage() below,
# which `--help` prints (so the help never shows the script's code).
usage() {
  cat <<'EOF'
Cluster throughput benchmark: a coordinator with 1, 2 and 4 workers (and
one `worker crawl` as the reference) crawling the same synthetic
test web with bfs, politeness delays off and a fixed page budget, in one
run: pages, wall time from StartCrawl to DONE, pages/s, pages per worker,
CPU seconds of the coordinator and of each worker, the coordinator's share
of the cluster's CPU, speed-up over one worker. The web is generated once
into $OUT/web-* (tests/testweb/generate.py) and reused; nginx serves it
(tests/testweb/nginx.sh). Each configuration gets a fresh coordinator,
fresh workers and new data folders. Writes $OUT/results.json and the
section of docs/benchmarks.md between <!-- cluster:begin --> and
<!-- cluster:end --> (appended when the markers are absent). nginx, the
coordinator and the workers are stopped at the end, also on failure or
Ctrl-C.

usage: bench/cluster.sh [--no-build] [--no-docs] [OPTIONS]
  --no-build   use the binaries that are there (fails if they are missing)
  --no-docs    do not touch docs/benchmarks.md (results.json only)
  --pages N            the crawl's page budget (default 12000)
  --web-pages N --hosts H --seed S   the web (default 20000 pages, 60 hosts, 1)
  --calendar-months N  calendar trap depth (default: generate.py's)
  --workers LIST       worker counts (default 1,2,4; 1 is always run)
  --strategy NAME      the crawl's strategy (default bfs)
  --repeat N           runs per configuration, the median reported (default 1)
  --in-flight N        fetch.max_in_flight (default 64)
  --lease-ms N         the coordinator's --lease_ms (default 5000)
  --timeout S          seconds per crawl before it counts as failed (default 600)
  --no-standalone      skip the `worker crawl` reference row
Environment: BUILD_DIR (default build); OUT (default $BUILD_DIR/bench-cluster).
EOF
}
set -euo pipefail

T0=$(date +%s.%N)
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
cd "$ROOT"

BUILD=1
DOCS="$ROOT/docs/benchmarks.md"
COMMAND="bench/cluster.sh"
for var in BUILD_DIR OUT; do
  if [[ -n "${!var:-}" ]]; then COMMAND="$var=${!var#"$ROOT"/} $COMMAND"; fi
done
PASS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) BUILD=0; COMMAND+=" --no-build" ;;
    --no-docs) DOCS=""; COMMAND+=" --no-docs" ;;
    --no-standalone) PASS+=("$1"); COMMAND+=" $1" ;;
    -h|--help) usage; exit 0 ;;
    --pages|--web-pages|--hosts|--seed|--calendar-months|--workers|--repeat|--in-flight|\
    --lease-ms|--timeout|--strategy)
      if [[ $# -lt 2 ]]; then echo "cluster.sh: $1 needs a value" >&2; exit 2; fi
      PASS+=("$1" "$2"); COMMAND+=" $1 $2"; shift ;;
    *) echo "cluster.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

PYTHON=/usr/bin/python3
BUILD_DIR=${BUILD_DIR:-build}
OUT=${OUT:-$BUILD_DIR/bench-cluster}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# nginx: see bench/lib.sh. The coordinator and workers: cluster_bench.py
# stops them itself; should it die without doing so, the EXIT trap ends the
# ones listed in $OUT/pids (pid and binary a line) that still run that
# binary (a recycled pid is left alone).
SERVING="$OUT/serving"
PY_PID=""
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
bench_traps
cluster_cleanup() {
  local pid exe
  if [[ -f "$OUT/pids" ]]; then
    while read -r pid exe; do
      [[ -n "$pid" ]] || continue
      if [[ "$(tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | head -n1)" == "$exe" ]]; then
        kill -KILL "$pid" 2>/dev/null || true
      fi
    done < "$OUT/pids"
    rm -f "$OUT/pids"
  fi
  bench_cleanup
}
trap cluster_cleanup EXIT

if [[ $BUILD == 1 ]]; then
  bash "$ROOT/deploy/install-deps.sh"
  if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
  fi
  ninja -C "$BUILD_DIR" coordinator/coordinator worker/worker crawlctl/crawlctl >&2
fi
BIN=$(cd "$BUILD_DIR" 2>/dev/null && pwd || echo "$BUILD_DIR")
for tool in "$BIN/coordinator/coordinator" "$BIN/worker/worker" "$BIN/crawlctl/crawlctl"; do
  if [[ ! -x "$tool" ]]; then
    echo "cluster.sh: $tool is missing (build it, or run without --no-build)" >&2
    exit 1
  fi
done
for tool in "$PYTHON" /usr/sbin/nginx /usr/bin/time; do
  if ! command -v "$tool" >/dev/null; then
    echo "cluster.sh: $tool is missing (deploy/install-deps.sh installs it)" >&2
    exit 1
  fi
done
export PYTHONDONTWRITEBYTECODE=1

# In the background so that the traps run at once on a signal.
"$PYTHON" "$BENCH_DIR/cluster_bench.py" \
  --root "$ROOT" --out-dir "$OUT" \
  --coordinator "$BIN/coordinator/coordinator" \
  --worker "$BIN/worker/worker" --crawlctl "$BIN/crawlctl/crawlctl" \
  --command "$COMMAND" --docs "$DOCS" --t0 "$T0" ${PASS[@]+"${PASS[@]}"} &
PY_PID=$!
wait "$PY_PID"
