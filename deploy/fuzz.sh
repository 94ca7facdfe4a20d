#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang and runs each for a short
# time, as CI does:
#
#   deploy/fuzz.sh [SECONDS]      # SECONDS per target, default 30
#
# Each fuzzer runs on a COPY of its seed corpus (build-fuzz/corpus/<target>/),
# so the inputs it generates never touch the repository; crashes, timeouts and
# out-of-memory inputs go to build-fuzz/artifacts/<target>/. The script exits
# non-zero when a fuzzer failed, printing the input that did it.
#
# Inputs found go into fuzz/corpus/<target>/ BY HAND, after the bug is fixed:
# copy the crash file there (its name, crash-<sha1>, is fine) and the unit
# test fuzz_replay_test (tests/fuzz_replay_test.cc, run by ctest in the normal
# build) replays it from then on, so the bug stays fixed. Keep corpus files
# small (< 4 KB) and the folders small (< 200 files); use
# `<fuzzer> -merge=1 NEW_DIR build-fuzz/corpus/<target>` to pick the few
# generated inputs that add coverage if you want to grow the seeds.
#
# Needs clang and libFuzzer (libclang-rt-14-dev; deploy/install-deps.sh
# installs both).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-30}"
if ! [[ "$secs" =~ ^[0-9]+$ ]] || [ "$secs" -lt 1 ]; then
  echo "usage: $0 [SECONDS per target, default 30]" >&2
  exit 2
fi
build="$root/build-fuzz"

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja \
  -DFCRAWL_FUZZ=ON -DFCRAWL_BUILD_TESTS=OFF >/dev/null
ninja -C "$build" url_fuzzer page_fuzzer sitemap_fuzzer

# UBSan reports are findings too: make them fatal so libFuzzer saves the input.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

# target  max_len (bytes)
#   url:  a base and a reference of up to url::kMaxUrlLength (2048) each
#   page: pages big enough for structure; the page fuzzer's own input limit
#         is 1 MiB, but large inputs mostly slow the search down
#   sitemap: XML, gzip or text files with a few entries
targets=("url 4200" "page 32768" "sitemap 16384")

failed=()
for entry in "${targets[@]}"; do
  read -r target max_len <<<"$entry"
  fuzzer="$build/fuzz/${target}_fuzzer"
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target"
  rm -rf "$corpus"
  mkdir -p "$corpus" "$artifacts"
  cp "$root/fuzz/corpus/$target/." "$corpus/" -R
  dict=()
  if [ -f "$root/fuzz/$target.dict" ]; then dict=(-dict="$root/fuzz/$target.dict"); fi
  log="$build/$target-fuzzer.log"
  marker="$build/artifacts/.start-$target"  # artifacts newer than this are new
  touch "$marker"
  echo "== ${target}_fuzzer: ${secs}s, max_len $max_len, corpus $corpus" >&2
  status=0
  "$fuzzer" "$corpus" "${dict[@]}" \
    -max_total_time="$secs" -max_len="$max_len" -timeout=25 \
    -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
  grep -aE '^(#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb)' \
    "$log" >&2 || true
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    echo "== ${target}_fuzzer FAILED (exit $status); log: $log" >&2
    tail -n 60 "$log" >&2
    find "$artifacts" -type f -newer "$marker" | sort | while read -r input; do
      cat >&2 <<MSG
== input: $input
   reproduce:  $fuzzer $input
   after fixing the bug, keep it as a regression test:
               cp $input $root/fuzz/corpus/$target/
   (fuzz_replay_test replays every file in fuzz/corpus/$target/)
MSG
    done
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no crashes in ${secs}s per target" >&2
