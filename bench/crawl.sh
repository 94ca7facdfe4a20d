#!/usr/bin/env bash
# bench/crawl.sh: what it does and takes is the usage text of usage() below,
# which `--help` prints (so the help never shows the script's code).
usage() {
  cat <<'EOF'
Crawl throughput benchmark: the fcrawl worker crawling the synthetic test
web with politeness delays off, next to two references measured in the same
run on the same web: wget2 --recursive mirroring it, and gumbo parsing the
worker's pages alone on the same number of cores. End to end:
  1. builds the worker and bench/gumbo_parse_bench: deploy/build.sh when the
     build tree is not configured yet, else just those two targets;
  2. runs bench/crawl_bench.py: generates the web (tests/testweb/generate.py,
     kept in bench/out/crawl/web-* and reused), starts nginx
     (tests/testweb/nginx.sh), runs the worker (bfs and ssaps), wget2 and
     gumbo_parse_bench --threads, stops nginx, writes
     bench/out/crawl/results.json and the section between
     <!-- crawl:begin --> and <!-- crawl:end --> of docs/benchmarks.md
     (only when every worker run succeeded).
nginx is stopped at the end, also on failure or Ctrl-C. The default run
(20,000 pages) takes about 9 minutes on 2 cores, the web's generation
(once, kept) included.

usage: bench/crawl.sh [--no-build] [--no-docs] [--quick] [OPTIONS]
  --no-build   use the binaries that are there (fails if they are missing)
  --no-docs    do not touch docs/benchmarks.md (results.json only)
  --quick      a small web: 3000 pages on 20 hosts (under 2 minutes + build)
  --pages N --hosts H --seed S   the web (default 20000 pages, 60 hosts, 1)
  --calendar-months N   calendar trap depth on every 10th host (default 0)
  --strategies LIST     worker strategies, one row each (default bfs,ssaps)
  --in-flight N         the worker's max_in_flight (default 64)
  --wget2-threads LIST  wget2 --max-threads values (default 16 and --in-flight)
  --threads N           threads for gumbo alone (default: the cores)
  --repeat N            gumbo runs, best kept (default 3)
  --budget N            the worker's max_pages (default: twice the web's
                        files, more than is reachable: the crawl ends when
                        its frontier is empty)
  --timeout S           seconds per crawl (default 120 + budget / 10)
Environment: BUILD_DIR (default build); WORKER and GUMBO_BENCH override the
binaries' paths (then nothing is built for them).
EOF
}
set -euo pipefail

T0=$(date +%s.%N)
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
cd "$ROOT"

BUILD=1
DOCS="$ROOT/docs/benchmarks.md"
COMMAND="bench/crawl.sh"
# Binaries given through the environment go into the command shown in the report.
for var in BUILD_DIR WORKER GUMBO_BENCH; do
  if [[ -n "${!var:-}" ]]; then COMMAND="$var=${!var#"$ROOT"/} $COMMAND"; fi
done
PASS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) BUILD=0; COMMAND+=" --no-build" ;;
    --no-docs) DOCS=""; COMMAND+=" --no-docs" ;;
    -h|--help) usage; exit 0 ;;
    --quick) PASS+=("$1"); COMMAND+=" $1" ;;
    --pages|--hosts|--seed|--calendar-months|--strategies|--in-flight|--wget2-threads|\
    --threads|--repeat|--budget|--timeout)
      if [[ $# -lt 2 ]]; then echo "crawl.sh: $1 needs a value" >&2; exit 2; fi
      PASS+=("$1" "$2"); COMMAND+=" $1 $2"; shift ;;
    *) echo "crawl.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

PYTHON=/usr/bin/python3
BUILD_DIR=${BUILD_DIR:-build}
OUT="$BENCH_DIR/out/crawl"
mkdir -p "$OUT"
say() { echo "[crawl] $*" >&2; }

# nginx is started by crawl_bench.py, which stops it itself (also when it
# gets SIGTERM); should it die without doing so, the EXIT trap does
# (crawl_bench.py writes the web folder it serves into $SERVING while nginx
# runs). On SIGINT or SIGTERM the script sends SIGTERM to crawl_bench.py
# (which ends the crawler or wget2 it runs) and waits for it.
SERVING="$OUT/serving"
PY_PID=""
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
bench_traps

# 1. Build.
WORKER=${WORKER:-}
GUMBO_BENCH=${GUMBO_BENCH:-}
targets=()
[[ -z "$WORKER" ]] && targets+=(worker/worker) && WORKER="$ROOT/$BUILD_DIR/worker/worker"
[[ -z "$GUMBO_BENCH" ]] && targets+=(bench/gumbo_parse_bench) &&
  GUMBO_BENCH="$ROOT/$BUILD_DIR/bench/gumbo_parse_bench"
if [[ $BUILD == 1 && ${#targets[@]} -gt 0 ]]; then
  if [[ ! -f "$BUILD_DIR/build.ninja" && "$BUILD_DIR" == build ]]; then
    say "building the project (deploy/build.sh)"
    bash "$ROOT/deploy/build.sh" >&2
  else
    bash "$ROOT/deploy/install-deps.sh"
    if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
      say "configuring $BUILD_DIR"
      cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
    fi
    say "building ${targets[*]}"
    # Output paths as ninja targets: independent of the CMake target names.
    ninja -C "$BUILD_DIR" "${targets[@]}" >&2
  fi
fi
for tool in "$WORKER" "$GUMBO_BENCH"; do
  if [[ ! -x "$tool" ]]; then
    echo "crawl.sh: $tool is missing (build it, or run without --no-build)" >&2
    exit 1
  fi
done
for tool in "$PYTHON" /usr/sbin/nginx wget2 /usr/bin/time; do
  if ! command -v "$tool" >/dev/null; then
    echo "crawl.sh: $tool is missing (deploy/install-deps.sh installs it)" >&2
    exit 1
  fi
done
export PYTHONDONTWRITEBYTECODE=1

# 2. Run, report. In the background so that the traps run at once on a signal.
"$PYTHON" "$BENCH_DIR/crawl_bench.py" \
  --root "$ROOT" --out-dir "$OUT" --worker "$WORKER" --gumbo-bench "$GUMBO_BENCH" \
  --command "$COMMAND" --docs "$DOCS" --t0 "$T0" ${PASS[@]+"${PASS[@]}"} &
PY_PID=$!
wait "$PY_PID"
