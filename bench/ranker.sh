#!/usr/bin/env bash
# bench/ranker.sh: what it does and takes is the usage text of usage() below,
# which `--help` prints (so the help never shows the script's code).
usage() {
  cat <<'EOF'
Ranker benchmark: `ranker run --algorithm pagerank` against python3-igraph's
PageRank (PRPACK and ARPACK) on one generated web-like graph of 1M pages
and 20M links (ranker/graph_gen_main.cc; kept in bench/out/ranker/ and
reused), in one run: seconds, edges per second per core per round, peak
memory and bytes per link, the L1 distance between the two score vectors.
Then, with ranker-mpi built, rounds as batch jobs: `ranker round` building
and then loading the graph cache, and 2 MPI processes against 1.
Writes bench/out/ranker/results.json and the section of docs/benchmarks.md
between <!-- ranker:begin --> and <!-- ranker:end -->.

usage: bench/ranker.sh [--no-build] [--no-docs] [--quick] [OPTIONS]
  --quick               100k pages, 2M links
  --pages N --links M --seed S --shards K   the graph
  --epsilon E           the ranker's L1 stop (default 1e-6)
  --threads N           the ranker's threads (default: the cores)
Environment: BUILD_DIR (default build).
EOF
}
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
cd "$ROOT"
BUILD=1
DOCS="$ROOT/docs/benchmarks.md"
COMMAND="bench/ranker.sh"
PASS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) BUILD=0; COMMAND+=" --no-build" ;;
    --no-docs) DOCS=""; COMMAND+=" --no-docs" ;;
    --quick) PASS+=(--pages 100000 --links 2000000); COMMAND+=" --quick" ;;
    -h|--help) usage; exit 0 ;;
    --pages|--links|--seed|--shards|--epsilon|--threads)
      if [[ $# -lt 2 ]]; then echo "ranker.sh: $1 needs a value" >&2; exit 2; fi
      PASS+=("$1" "$2"); COMMAND+=" $1 $2"; shift ;;
    *) echo "ranker.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
BUILD_DIR=${BUILD_DIR:-build}
if [[ $BUILD == 1 ]]; then
  bash "$ROOT/deploy/install-deps.sh"
  if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
  fi
  ninja -C "$BUILD_DIR" ranker/ranker ranker/graph_gen >&2
  if ninja -C "$BUILD_DIR" -t targets all | grep -q '^ranker/ranker-mpi:'; then
    ninja -C "$BUILD_DIR" ranker/ranker-mpi >&2
  fi
fi
MPI=()
if [[ -x "$BUILD_DIR/ranker/ranker-mpi" ]] && command -v mpirun >/dev/null; then
  MPI=(--ranker-mpi "$BUILD_DIR/ranker/ranker-mpi")
fi
for tool in "$BUILD_DIR/ranker/ranker" "$BUILD_DIR/ranker/graph_gen" /usr/bin/time; do
  if [[ ! -x "$tool" ]]; then
    echo "ranker.sh: $tool is missing (build it, or run without --no-build)" >&2
    exit 1
  fi
done
export PYTHONDONTWRITEBYTECODE=1
exec /usr/bin/python3 "$BENCH_DIR/ranker_bench.py" \
  --ranker "$BUILD_DIR/ranker/ranker" --graph-gen "$BUILD_DIR/ranker/graph_gen" \
  --out-dir "$BENCH_DIR/out/ranker" --docs "$DOCS" --command "$COMMAND" ${MPI[@]+"${MPI[@]}"} \
  ${PASS[@]+"${PASS[@]}"}
