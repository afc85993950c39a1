#!/usr/bin/env bash
# valgrind memcheck of the fmucheck parent on a real FMU: no leaks, no invalid reads/writes, no
# leaked file descriptors. The workers are forked children and are not traced by default
# (their memory is the FMU's business); --children also traces them, with the suppressions in
# scripts/valgrind-fmu.supp for what FMU code does.
# usage: bash scripts/valgrind.sh [--children] [BUILD_DIR (default build)] [FMU]
# exit 0 clean, 99 valgrind found errors, other = fmucheck's own exit code problem.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
children=no
if [ "${1:-}" = "--children" ]; then children=yes; shift; fi
build=${1:-$here/build}
fmu=${2:-$build/fmus/vdsim_l2.fmu}
command -v valgrind >/dev/null || { echo "valgrind not installed (apt-get install valgrind)"; exit 2; }
[ -x "$build/fmucheck" ] || { echo "no $build/fmucheck: build first"; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/fmuc-valgrind-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp"
supp=()
[ -f "$here/scripts/valgrind-fmu.supp" ] && supp=(--suppressions="$here/scripts/valgrind-fmu.supp")
# valgrind 3.19 does not know the Landlock syscalls, and a seccomp filter in a worker forked from
# the valgrind'ed parent would also filter valgrind's own syscalls: the workers run at the basic
# isolation level here (no_new_privs and the privilege drop stay). FMUC_VALGRIND_ISOLATION=auto
# tries the full sandbox anyway.
isolation=${FMUC_VALGRIND_ISOLATION:-basic}
# Worker timeouts scaled for valgrind's slowdown (the workers run natively unless --children).
tmult=${FMUC_VALGRIND_TIMEOUT_MULTIPLIER:-10}
valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
  --errors-for-leak-kinds=definite,indirect,possible --track-fds=yes --trace-children=$children \
  --child-silent-after-fork=$([ $children = yes ] && echo no || echo yes) \
  "${supp[@]}" --log-file="$work/valgrind.%p.log" \
  "$build/fmucheck" --no-html --isolation "$isolation" --tmpdir "$work/tmp" -o "$work/out" --timeout-multiplier "$tmult" \
  "$fmu" > "$work/stdout" 2> "$work/stderr"
rc=$?
parent_log=$(ls -1 "$work"/valgrind.*.log | head -n1)
errors=$(grep -h "ERROR SUMMARY" "$work"/valgrind.*.log | awk '{s += $4} END {print s + 0}')
# --track-fds: descriptors fmucheck opened and did not close (inherited ones and valgrind's log
# are not fmucheck's)
leaked=$(awk '/Open (file|AF_UNIX socket|AF_INET socket|socket) descriptor/ {fd=$0; getline; \
           if ($0 !~ /inherited from parent/ && fd !~ /valgrind\./) print fd}' "$parent_log")
echo "fmucheck exit: $rc   valgrind errors: $errors"
tail -n 1 "$work/stdout"
if [ "$rc" = 99 ] || [ "$errors" != 0 ]; then
  cat "$work"/valgrind.*.log
  exit 99
fi
if [ -n "$leaked" ]; then
  sed -n '/FILE DESCRIPTORS/,$p' "$parent_log"
  echo "file descriptors leaked"
  exit 99
fi
[ "$(ls -A "$work/tmp")" = "" ] || { echo "temporary folders left behind"; exit 99; }
[ -s "$work/out/report.json" ] || { echo "no report.json"; exit 99; }
echo "valgrind: clean"
exit 0
