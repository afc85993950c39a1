#!/usr/bin/env bash
# valgrind memcheck of the fmucheck parent on a real FMU: no leaks, no invalid reads/writes, no
# leaked file descriptors. The workers are forked without exec, so they run under valgrind too,
# but their reports are silenced by default (their memory is the FMU's business); --children
# also reports errors and leaks in them, with the suppressions in scripts/valgrind-fmu.supp for
# what FMU code does.
# usage: bash scripts/valgrind.sh [--children] [BUILD_DIR (default build)] [FMU]
# environment: FMUC_VALGRIND_ARGS       extra fmucheck arguments (word-split), e.g.
#                                       "--isolation basic" once a sandbox uses seccomp/Landlock
#              FMUC_VALGRIND_LEAK_KINDS leak kinds that count as errors (default
#                                       definite,indirect,possible)
#              FMUC_VALGRIND_TIMEOUT_MULTIPLIER  worker timeout scale (default 10)
#              FMUC_VALGRIND_EXPECT_EXIT  fmucheck's expected exit code (exit 98 otherwise)
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
kinds=${FMUC_VALGRIND_LEAK_KINDS:-definite,indirect,possible}
read -r -a extra <<< "${FMUC_VALGRIND_ARGS:-}"
valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
  --errors-for-leak-kinds="$kinds" --track-fds=yes --trace-children=$children \
  --child-silent-after-fork=$([ $children = yes ] && echo no || echo yes) \
  "${supp[@]}" --log-file="$work/valgrind.%p.log" \
  "$build/fmucheck" --no-html --isolation "$isolation" --tmpdir "$work/tmp" -o "$work/out" \
  --timeout-multiplier "$tmult" "${extra[@]}" "$fmu" > "$work/stdout" 2> "$work/stderr"
rc=$?
# the parent's log: its parent is this shell (the workers' logs name fmucheck as their parent;
# sorting the names by pid would pick a worker's now and then)
parent_log=$(grep -l "Parent PID: $$\$" "$work"/valgrind.*.log | head -n1)
[ -n "$parent_log" ] || parent_log=$(ls -1 "$work"/valgrind.*.log | head -n1)
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
if [ -n "${FMUC_VALGRIND_EXPECT_EXIT:-}" ] && [ "$rc" != "$FMUC_VALGRIND_EXPECT_EXIT" ]; then
  tail -n 40 "$work/stdout"
  echo "fmucheck exit $rc, expected $FMUC_VALGRIND_EXPECT_EXIT"
  exit 98
fi
[ "$(ls -A "$work/tmp")" = "" ] || { echo "temporary folders left behind"; exit 99; }
[ -s "$work/out/report.json" ] || { echo "no report.json"; exit 99; }
echo "valgrind: clean"
exit 0
