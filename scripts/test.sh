#!/usr/bin/env bash
# Set up everything on a fresh Debian 12 machine, then build and run the whole test suite twice:
# a normal optimised build, and an AddressSanitizer + UndefinedBehaviorSanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
run_suite() {
  local dir=$1; shift
  echo "== configure $dir ($*)"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  echo "== build $dir"
  cmake --build "$dir" -j"$jobs"
  echo "== test $dir"
  (cd "$dir" && ctest --output-on-failure -j"$jobs" --timeout 900)
}
run_suite build
if [ "${FMUC_SKIP_SANITIZE:-0}" != 1 ]; then
  # Sanitizers make FMU calls slower: tests scale their timeouts with FMUC_TIMEOUT_MULTIPLIER.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp" \
  FMUC_TIMEOUT_MULTIPLIER=4 run_suite build-asan -DFMUC_SANITIZE=ON
fi
echo "== all test suites passed"
