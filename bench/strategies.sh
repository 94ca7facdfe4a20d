#!/usr/bin/env bash
# bench/strategies.sh: what it does and takes is the usage text of usage() below,
# which `--help` prints (so the help never shows the script's code).
usage() {
  cat <<'EOF'
Strategy comparison: crawls the labelled test webs (synthetic, the
university dev and held-out webs, the Wikispeedia-based one and the MDN
archive web (a real one, with dev and held-out topics) when
../shared/data has it) with every crawl strategy from the same seeds, topic
and budget, twice each (in parallel with the default scheduler: 64 in
flight, 20 ms per-host delay; and in strict order: 1 in flight, no delay),
evaluates the crawls with crawl-eval, ranks the learned crawl's graph with
every ranking algorithm, and writes the generated section of
docs/strategies.md (between <!-- strategies:begin --> and
<!-- strategies:end -->) and its plots (docs/strategies/*.svg). Webs are
generated once into bench/out/strategies/ and reused. About an hour on
2 cores with the defaults.

usage: bench/strategies.sh [--no-build] [--no-docs] [OPTIONS]
  --no-build   use the binaries that are there
  --no-docs    do not touch docs/ (bench/out/strategies/results.json only)
  --webs LIST          synthetic,university,university-heldout,wikispeedia,mdn
                       (default all)
  --topics LIST        only these topics of the webs (default all)
  --strategies LIST    default all eleven
  --budget N           pages per crawl (default 1000)
  --pages N --hosts H --seed S   the synthetic web (default 20000, 60, 7)
  --calendar-months N  calendar trap depth (default 120)
  --examples N         interest examples per side (default 30)
  --gammas LIST        interest γ values for the trade-off (default -0.3,-0.2,-0.1,0)
  --repeats N          parallel crawls per strategy, the median is shown (default 3)
  --repeat-strategies LIST  repeat only these strategies' parallel crawls
  --out DIR            work folder (default bench/out/strategies): two runs
                       with their own folders can crawl side by side
  --render FILES       no crawls: write docs/strategies.md from these
                       results.json files (comma-separated; a web's topics
                       joined in that order)
Environment: BUILD_DIR (default build); WORKER, CRAWL_EVAL and RANKER
override the binaries' paths.
EOF
}
set -euo pipefail

T0=$(date +%s.%N)
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
cd "$ROOT"

BUILD=1
OUT_ARG=""
DOCS="$ROOT/docs/strategies.md"
COMMAND="bench/strategies.sh"
PASS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) BUILD=0; COMMAND+=" --no-build" ;;
    --no-docs) DOCS=""; COMMAND+=" --no-docs" ;;
    -h|--help) usage; exit 0 ;;
    --out) if [[ $# -lt 2 ]]; then echo "strategies.sh: $1 needs a value" >&2; exit 2; fi
      OUT_ARG="$2"; COMMAND+=" $1 $2"; shift ;;
    --webs|--topics|--repeat-strategies|--render|--strategies|--budget|--pages|--hosts|--seed|--calendar-months|--examples|--gammas|--repeats)
      if [[ $# -lt 2 ]]; then echo "strategies.sh: $1 needs a value" >&2; exit 2; fi
      PASS+=("$1" "$2"); COMMAND+=" $1 $2"; shift ;;
    *) echo "strategies.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

PYTHON=/usr/bin/python3
BUILD_DIR=${BUILD_DIR:-build}
OUT="${OUT_ARG:-$BENCH_DIR/out/strategies}"
mkdir -p "$OUT"
SERVING="$OUT/serving"
PY_PID=""
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
bench_traps

WORKER=${WORKER:-}
CRAWL_EVAL=${CRAWL_EVAL:-}
RANKER=${RANKER:-}
targets=()
[[ -z "$WORKER" ]] && targets+=(worker/worker) && WORKER="$ROOT/$BUILD_DIR/worker/worker"
[[ -z "$CRAWL_EVAL" ]] && targets+=(eval/crawl-eval) && CRAWL_EVAL="$ROOT/$BUILD_DIR/eval/crawl-eval"
[[ -z "$RANKER" ]] && targets+=(ranker/ranker) && RANKER="$ROOT/$BUILD_DIR/ranker/ranker"
if [[ $BUILD == 1 && ${#targets[@]} -gt 0 ]]; then
  if [[ ! -f "$BUILD_DIR/build.ninja" && "$BUILD_DIR" == build ]]; then
    bash "$ROOT/deploy/build.sh" >&2
  else
    bash "$ROOT/deploy/install-deps.sh"
    if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
      cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
    fi
    ninja -C "$BUILD_DIR" "${targets[@]}" >&2
  fi
fi
for tool in "$WORKER" "$CRAWL_EVAL" "$RANKER"; do
  if [[ ! -x "$tool" ]]; then
    echo "strategies.sh: $tool is missing (build it, or run without --no-build)" >&2
    exit 1
  fi
done
export PYTHONDONTWRITEBYTECODE=1

"$PYTHON" "$BENCH_DIR/strategies.py" \
  --root "$ROOT" --out-dir "$OUT" --worker "$WORKER" --crawl-eval "$CRAWL_EVAL" \
  --ranker "$RANKER" \
  --command "$COMMAND" --docs "$DOCS" --t0 "$T0" ${PASS[@]+"${PASS[@]}"} &
PY_PID=$!
wait "$PY_PID"
