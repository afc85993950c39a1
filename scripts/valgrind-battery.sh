#!/usr/bin/env bash
# The ctest "valgrind" entry: the full battery of checks under memcheck, parent and workers
# (--children), on vdsim_l2 (its full DefaultExperiment) and on SpringMassDamper. Fails (99) on
# any memcheck error or definite leak, and when fmucheck does not pass (every check must run
# and pass under valgrind too); scripts/valgrind.sh does the run and the verdict.
#
# FMUC_VALGRIND_STOP_TIME=<seconds> runs a copy of vdsim_l2.fmu whose DefaultExperiment stopTime
# is shortened (e.g. 0.5 instead of 10) on slow machines: every check still runs (same binary,
# same GUID, the native round trip included), with fewer steps. Default "full": the FMU as built
# (about 25 s under memcheck on 2 cores).
#
# usage: bash scripts/valgrind-battery.sh [BUILD_DIR]
# Extra fmucheck arguments: FMUC_VALGRIND_ARGS (e.g. "--isolation basic" where a sandbox uses
# seccomp/Landlock that valgrind cannot emulate). Exit 77 (ctest: skipped) without valgrind.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd) || exit 2
command -v valgrind >/dev/null || { echo "valgrind not installed: skipped"; exit 77; }
stop=${FMUC_VALGRIND_STOP_TIME:-full}
work=$(mktemp -d "${TMPDIR:-/tmp}/fmuc-vgbattery-XXXXXX")
trap 'rm -rf "$work"' EXIT

vdsim="$build/fmus/vdsim_l2.fmu"
if [ "$stop" != full ]; then
  # vdsim_l2 with stopTime=$stop (unpacked and packed again with CMake's zip writer, which the
  # reference FMUs are made with too)
  mkdir -p "$work/unz"
  (cd "$work/unz" && cmake -E tar xf "$vdsim") || exit 2
  md="$work/unz/modelDescription.xml"
  grep -q 'stopTime="' "$md" || { echo "vdsim_l2: no DefaultExperiment stopTime"; exit 2; }
  sed -i "s/stopTime=\"[^\"]*\"/stopTime=\"$stop\"/" "$md"
  (cd "$work/unz" && cmake -E tar cf "$work/vdsim_l2.fmu" --format=zip -- *) || exit 2
  vdsim="$work/vdsim_l2.fmu"
fi

rc=0
for fmu in "$vdsim" "$build/fmus/good/SpringMassDamper.fmu"; do
  echo "== valgrind: $(basename "$fmu")"
  start=$(date +%s)
  FMUC_VALGRIND_LEAK_KINDS=definite FMUC_VALGRIND_EXPECT_EXIT=0 bash "$here/scripts/valgrind.sh" --children "$build" "$fmu"
  r=$?
  echo "   $(( $(date +%s) - start )) s, exit $r"
  [ "$r" = 0 ] || rc=$r
done
exit $rc
