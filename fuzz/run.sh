#!/usr/bin/env bash
# Run each fuzzer for a fixed time: bash fuzz/run.sh [SECONDS per target (default 60)] [BUILD_FUZZ]
# Builds nothing: configure and build first with
#   CC=clang cmake -S . -B build-fuzz -DFMUC_FUZZ=ON && cmake --build build-fuzz -j2 --target fuzz_all
# Crashes are written to fuzz/findings/<target>/; copy each one to fuzz/regressions/<target>/
# (tests/unit/test_fuzz_regressions.c replays them) once fixed. Exit status 1 if any target found one.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-60}
bdir=${2:-$here/../build-fuzz}
[ -d "$here/corpus/archive" ] || bash "$here/make_corpus.sh"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fmuc-fuzz-XXXXXX")
export TMPDIR=$tmp   # fmuc_fmu_open's private folders go here
status=0
for t in archive md reply; do
  mkdir -p "$here/findings/$t" "$here/corpus/$t"
  work=$(mktemp -d "$tmp/corpus-$t-XXXXXX")
  echo "== fuzz_$t for ${secs}s"
  # new inputs go to a scratch corpus; the seed corpus in the tree stays as it is
  "$bdir/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
      -artifact_prefix="$here/findings/$t/" -print_final_stats=1 \
      "$work" "$here/corpus/$t" > "$tmp/log-$t" 2>&1
  rc=$?
  tail -n 25 "$tmp/log-$t"
  [ $rc -eq 0 ] || { echo "fuzz_$t: FAILED (exit $rc), see fuzz/findings/$t/"; status=1; }
done
left=$(find "$tmp" -maxdepth 1 -name 'fmucheck-*' | wc -l)
rm -rf "$tmp"
[ "$left" -eq 0 ] || { echo "fuzz: $left temporary folder(s) left behind by fmuc_fmu_open"; status=1; }
exit $status
