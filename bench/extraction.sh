#!/usr/bin/env bash
# bench/extraction.sh: what it does and takes is the usage text of usage() below,
# which `--help` prints (so the help never shows the script's code).
usage() {
  cat <<'EOF'
Main-content extraction benchmark: quark vs Mozilla Readability on the test
split of Dragnet, on the CleanEval development set and on the held-out rest
of Dragnet, plus quark --paper (the ablation: the paper's similarity test
only) and gumbo's parse alone vs quark's whole pipeline. End to end:
  1. builds quark (cmake --build build --target quark_cli) and
     bench/gumbo_parse_bench (the CMake target when the top-level
     CMakeLists.txt has add_subdirectory(bench), else compiled by hand
     against the build tree's libraries into bench/out/bin);
  2. installs @mozilla/readability and jsdom (npm ci in bench/) if needed;
  3. unpacks ../shared/data/extraction-dev.tar.xz into bench/out/data once;
  4. runs bench/extraction.py: quark, quark --paper and Readability on each
     set, scoring, gumbo_parse_bench; writes bench/out/results.json and the
     section between <!-- extraction:begin --> and <!-- extraction:end -->
     of docs/benchmarks.md.
With --wcxb, instead of 3. and 4.: bench/extraction_wcxb.py on WCXB's
development split (../shared/data/wcxb-dev.tar.xz, 1,497 pages of seven
page types, unpacked into bench/out/data/wcxb-dev once): quark, Readability,
Defuddle and readability-lxml, WCXB's word-level F1 per page type on the
fixed tune and held-out parts; writes bench/out/wcxb_results.json,
bench/out/wcxb_pages.jsonl and the section between
<!-- extraction-wcxb:begin --> and <!-- extraction-wcxb:end -->.

usage: bench/extraction.sh [--no-build] [--no-docs] [--quick]
                           [--wcxb [--jobs N] [--reuse-peers]]
  --no-build  use the binaries that are there (fails if they are missing)
  --no-docs   do not touch docs/benchmarks.md (results.json only)
  --quick     skip the held-out set dragnet-rest (1104 pages; saves about
              5 minutes, but leaves only the sets the defaults were tuned on)
  --wcxb      the WCXB benchmark instead of Dragnet and CleanEval
  --jobs N    with --wcxb: extractors run at the same time (default 1)
  --reuse-peers  with --wcxb: run quark only and score the other
              extractors' outputs of the last run (after a change to quark)
Environment: BUILD_DIR (default build), NODE (default node).
Takes 7 to 9 minutes on 2 cores (2 without dragnet-rest; Readability
dominates), plus a first npm install and unpack; --wcxb --jobs 2 45 minutes
(Defuddle, 1 to 3 s a page under jsdom, dominates; Readability 15 minutes,
readability-lxml 2, quark half a minute), --reuse-peers 1.
EOF
}
set -euo pipefail

T0=$(date +%s.%N)
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
cd "$ROOT"

BUILD=1
QUICK=()
WCXB=0
JOBS=1
REUSE=()
DOCS="$ROOT/docs/benchmarks.md"
COMMAND="bench/extraction.sh"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) BUILD=0; COMMAND+=" --no-build" ;;
    --no-docs) DOCS=""; COMMAND+=" --no-docs" ;;
    --quick) QUICK=(--quick); COMMAND+=" --quick" ;;
    --wcxb) WCXB=1; COMMAND+=" --wcxb" ;;
    --reuse-peers) REUSE=(--reuse-peers); COMMAND+=" --reuse-peers" ;;
    --jobs)
      if [[ $# -lt 2 || ! "$2" =~ ^[1-9][0-9]*$ ]]; then
        echo "extraction.sh: --jobs needs a positive number" >&2; exit 2
      fi
      JOBS=$2; COMMAND+=" --jobs $2"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "extraction.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
if [[ $WCXB == 1 && ${#QUICK[@]} -gt 0 ]]; then
  echo "extraction.sh: --quick is about the Dragnet sets; it does not go with --wcxb" >&2
  exit 2
fi
if [[ $WCXB == 0 && ( $JOBS != 1 || ${#REUSE[@]} -gt 0 ) ]]; then
  echo "extraction.sh: --jobs and --reuse-peers go with --wcxb" >&2
  exit 2
fi

SHARED_DATA="$ROOT/../shared/data"
ARCHIVE="$SHARED_DATA/extraction-dev.tar.xz"
[[ $WCXB == 1 ]] && ARCHIVE="$SHARED_DATA/wcxb-dev.tar.xz"
if [[ ! -d "$SHARED_DATA" || ! -f "$ARCHIVE" ]]; then
  echo "extraction.sh: $ARCHIVE not found (the shared data folder ../shared/data" \
       "is absent); nothing to do." >&2
  exit 0
fi

PYTHON=/usr/bin/python3
NODE=${NODE:-node}
BUILD_DIR=${BUILD_DIR:-build}
OUT="$BENCH_DIR/out"
mkdir -p "$OUT"
say() { echo "[extraction] $*" >&2; }

# Readability needs Node.js and npm; only this benchmark does, so they are
# installed here (Debian 12's nodejs is 18, enough for jsdom 26) rather than
# by deploy/install-deps.sh.
if ! command -v "$NODE" >/dev/null || ! command -v npm >/dev/null; then
  say "installing nodejs and npm (Debian packages)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm
fi
bash "$ROOT/deploy/install-deps.sh"
for tool in "$PYTHON" "$NODE" npm cmake; do
  if ! command -v "$tool" >/dev/null; then
    echo "extraction.sh: $tool is missing" >&2
    exit 1
  fi
done

if ! "$NODE" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)'; then
  echo "extraction.sh: jsdom 26 needs node 18 or later; $NODE is $("$NODE" --version)" >&2
  exit 1
fi
export PYTHONDONTWRITEBYTECODE=1

# 1. Build.
QUARK="$ROOT/$BUILD_DIR/quark/quark"
GUMBO_BENCH=""
if [[ $BUILD == 1 ]]; then
  if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
    say "configuring $BUILD_DIR"
    cmake -S . -B "$BUILD_DIR" -G Ninja -DFCRAWL_BUILD_TESTS=OFF >&2
  fi
  say "building quark"
  cmake --build "$BUILD_DIR" --target quark_cli >&2
fi
if [[ ! -x "$QUARK" ]]; then
  echo "extraction.sh: $QUARK is missing" >&2
  exit 1
fi

if grep -q '^build bench/gumbo_parse_bench:' "$BUILD_DIR/build.ninja" 2>/dev/null; then
  # The top-level CMakeLists.txt has add_subdirectory(bench).
  [[ $BUILD == 1 ]] && cmake --build "$BUILD_DIR" --target gumbo_parse_bench >&2
  GUMBO_BENCH="$ROOT/$BUILD_DIR/bench/gumbo_parse_bench"
else
  # Compile by hand against the build tree's libraries, with quark's link line.
  GUMBO_BENCH="$OUT/bin/gumbo_parse_bench"
  LIBS=""
  if [[ -f "$BUILD_DIR/build.ninja" ]]; then
    LIBS=$(awk '/^build quark\/quark:/ {f = 1}
                f && /^ *LINK_LIBRARIES = / {sub(/^ *LINK_LIBRARIES = /, ""); print; exit}' \
               "$BUILD_DIR/build.ninja")
  fi
  needs_build=0
  for dep in bench/gumbo_parse_bench.cc "$BUILD_DIR/quark/libquark.a" \
             "$BUILD_DIR/core/libcore.a" "$BUILD_DIR/proto/libfcrawl_proto.a"; do
    [[ ! -x "$GUMBO_BENCH" || "$dep" -nt "$GUMBO_BENCH" ]] && needs_build=1
  done
  if [[ $BUILD == 1 && $needs_build == 1 ]]; then
    if [[ -z "$LIBS" ]]; then
      say "cannot find quark's link line in $BUILD_DIR/build.ninja; skipping gumbo_parse_bench"
      GUMBO_BENCH=""
    else
      say "compiling gumbo_parse_bench"
      mkdir -p "$OUT/bin"
      # LIBS holds paths relative to the build dir.
      (cd "$BUILD_DIR" && ${CXX:-c++} -O2 -DNDEBUG -std=c++17 -pthread \
          -Wall -Wextra -Wno-unused-parameter \
          -I"$ROOT" -I"$ROOT/$BUILD_DIR" $(pkg-config --cflags gumbo) \
          "$BENCH_DIR/gumbo_parse_bench.cc" -o "$GUMBO_BENCH.tmp" \
          $LIBS $(pkg-config --libs gumbo)) >&2 && mv "$GUMBO_BENCH.tmp" "$GUMBO_BENCH" \
        || { say "gumbo_parse_bench failed to compile; its table will be empty";
             rm -f "$GUMBO_BENCH.tmp"; }
    fi
  fi
  [[ -n "$GUMBO_BENCH" && ! -x "$GUMBO_BENCH" ]] && GUMBO_BENCH=""
fi

# 2. Readability and jsdom.
if [[ ! -f bench/node_modules/@mozilla/readability/package.json ||
      ! -f bench/node_modules/jsdom/package.json ||
      ! -f bench/node_modules/defuddle/package.json ||
      bench/package-lock.json -nt bench/node_modules/.package-lock.json ]]; then
  say "installing npm packages"
  (cd bench && npm ci --no-audit --no-fund --loglevel=error) >&2
fi

DATA="$OUT/data"
if [[ $WCXB == 1 ]]; then
  # 3. and 4. for WCXB (the script unpacks its archive into $DATA/wcxb-dev).
  exec "$PYTHON" "$BENCH_DIR/extraction_wcxb.py" \
    --root "$ROOT" --archive "$ARCHIVE" --data-dir "$DATA" --out-dir "$OUT" \
    --quark "$QUARK" --gumbo-bench "$GUMBO_BENCH" --node "$NODE" --jobs "$JOBS" \
    --command "$COMMAND" --docs "$DOCS" --t0 "$T0" ${REUSE[@]+"${REUSE[@]}"}
fi

# 3. Data (the archive's folders only: $DATA/wcxb-dev stays).
if [[ ! -d "$DATA/dragnet_data/input" || ! -d "$DATA/cleaneval-dev/input" ]]; then
  say "unpacking $ARCHIVE"
  rm -rf "$DATA.tmp"
  mkdir -p "$DATA.tmp" "$DATA"
  tar -xJf "$ARCHIVE" -C "$DATA.tmp"
  for dir in "$DATA.tmp"/*; do
    rm -rf "$DATA/$(basename "$dir")"
    mv "$dir" "$DATA/"
  done
  rmdir "$DATA.tmp"
fi

# 4. Run, score, report.
"$PYTHON" "$BENCH_DIR/extraction.py" \
  --root "$ROOT" --data-dir "$DATA" --out-dir "$OUT" \
  --quark "$QUARK" --gumbo-bench "$GUMBO_BENCH" --node "$NODE" \
  --command "$COMMAND" --docs "$DOCS" --t0 "$T0" ${QUICK[@]+"${QUICK[@]}"}
