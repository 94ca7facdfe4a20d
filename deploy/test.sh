#!/usr/bin/env bash
# Sets up, builds, and runs every test through CTest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/deploy/build.sh"
cd "$root/build"
ctest --output-on-failure -j2 --timeout 600
# The libFuzzer targets, briefly (clang, ASan+UBSan): a crash fails the run.
bash "$root/deploy/fuzz.sh" "${FCRAWL_FUZZ_SECONDS:-30}"
