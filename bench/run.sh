#!/usr/bin/env bash
# Benchmarks: builds the bench programs, fmucheck and the FMUs (Release) and runs every bench,
# printing its table; writes bench/results.json (all figures: median, min, max, runs) and
# bench/results.txt (the printed tables).
#
#   bash bench/run.sh                 # everything (about 10 minutes on an idle 2-core machine)
#   bash bench/run.sh --quick         # fewer repetitions (still >= 3 runs per figure)
#   bash bench/run.sh core wrapper    # only some: core md_scale cli_scale battery wrapper isolation batch
#                                     # time_bounds (issue 16: battery wall time on the
#                                     # third-party FMUs and the hanging fixture; not in the
#                                     # default set, a few minutes)
# Selecting some benches keeps the other benches' entries of an existing results.json.
#
# Environment: BUILD (build dir, default build-bench), BUILD_TYPE (Release), JOBS (2),
# RESULTS (output JSON, default bench/results.json).
# Benchmarks print figures; nothing here asserts timings. Other work on the machine inflates
# wall times: each bench prints a warning when the load average exceeds the CPU count, and CPU
# times are reported beside wall times.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=${BUILD:-$src/build-bench}
case $build in /*) ;; *) build=$src/$build ;; esac
build_type=${BUILD_TYPE:-Release}
jobs=${JOBS:-2}
results=${RESULTS:-$here/results.json}
quick=0
all=(core md_scale cli_scale battery wrapper isolation batch)
sel=()
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    core|md_scale|cli_scale|battery|wrapper|isolation|batch|time_bounds) sel+=("$a") ;;
    *) echo "run.sh: unknown argument '$a'" >&2; exit 64 ;;
  esac
done
[ ${#sel[@]} -eq 0 ] && sel=("${all[@]}")

echo "== building ($build_type) in $build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
cmake --build "$build" -j"$jobs" --target fmucheck bench_core bench_md_scale bench_battery \
  bench_wrapper bench_isolation bench_batch bench_time_bounds fmu_hostile__hang-in-dostep fmu_vdsim_l2 fmu_vdsim_l3 fmu_BouncingBall \
  fmu_SpringMassDamper fmu_Stair >/dev/null
# any further good reference FMUs
for d in "$src"/reference_fmus/good/*/; do
  n=$(basename "$d")
  cmake --build "$build" -j"$jobs" --target "fmu_$n" >/dev/null 2>&1 || true
done

out=$(mktemp -d /tmp/fmuc-bench-XXXXXX)
trap 'rm -rf "$out"' EXIT
b=$build/bench
if [ $quick = 1 ]; then
  a_md=(--runs 3); a_bat=(--runs 3); a_wr=(--runs 3 --steps 3000); a_iso=(--runs 3 --batch 10)
  a_batch=(--runs 3 --count 20)
else
  a_md=(--runs 5); a_bat=(--runs 3); a_wr=(--runs 7 --steps 10000); a_iso=(--runs 5 --batch 20)
  a_batch=(--runs 3 --count 50)
fi

run() { # name, program args...
  local name=$1; shift
  echo
  echo "== $name"
  if "$@" --json "$out/$name.json" 2>"$out/$name.err" | tee "$out/$name.txt"; then :; else
    echo "(bench $name exited with an error; see below)"
    tail -5 "$out/$name.err"
  fi
}
for s in "${sel[@]}"; do
  case $s in
    core) run core "$b/bench_core" ;;
    md_scale) run md_scale "$b/bench_md_scale" "${a_md[@]}" ;;
    cli_scale) run cli_scale python3 "$here/bench_cli_scale.py" --fmucheck "$build/fmucheck" \
                 --runs "$([ $quick = 1 ] && echo 2 || echo 3)" ;;
    battery) run battery "$b/bench_battery" "${a_bat[@]}" ;;
    wrapper) run wrapper "$b/bench_wrapper" "${a_wr[@]}" ;;
    isolation) run isolation "$b/bench_isolation" "${a_iso[@]}" ;;
    batch) run batch "$b/bench_batch" "${a_batch[@]}" ;;
    time_bounds) run time_bounds "$b/bench_time_bounds" ;;
  esac
done

echo
echo "== targets"
for s in "${sel[@]}"; do
  [ -f "$out/$s.txt" ] && grep -E ': (met|MISSED)' "$out/$s.txt" | sed "s/^ */$s: /"
done || true

# results.json: one object per bench (null when it produced nothing)
rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$src" status --porcelain 2>/dev/null | head -1)
{
  printf '{\n  "schema": "fmucheck-bench",\n  "schemaVersion": 1,\n'
  printf '  "dateUtc": "%s",\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  printf '  "git": "%s%s",\n  "buildType": "%s",\n' "$rev" "${dirty:+-dirty}" "$build_type"
  printf '  "quick": %s,\n' "$([ $quick = 1 ] && echo true || echo false)"
  printf '  "command": "bash bench/run.sh%s",\n' "$([ $# -gt 0 ] && printf ' %s' "$@")"
  printf '  "benches": {\n'
  first=1
  for s in "${sel[@]}"; do
    [ $first = 1 ] || printf ',\n'
    first=0
    printf '    "%s": ' "$s"
    if [ -s "$out/$s.json" ]; then sed '2,$s/^/    /' "$out/$s.json"; else printf 'null'; fi
  done
  printf '\n  }\n}\n'
} >"$results.tmp"
txt=${results%.json}.txt
for s in "${sel[@]}"; do [ -f "$out/$s.txt" ] && { echo "== $s"; cat "$out/$s.txt"; echo; }; done \
  >"$txt.tmp"
# the benches not run this time keep their earlier figures (results.json and .txt)
if [ -f "$results" ] && command -v python3 >/dev/null; then
  python3 - "$results" "$results.tmp" "$txt" "$txt.tmp" <<'PY'
import json, re, sys
old_j, new_j, old_t, new_t = sys.argv[1:5]
try:
    old = json.load(open(old_j)).get("benches", {})
except (OSError, ValueError):
    old = {}
new = json.load(open(new_j))
for k, v in old.items():
    new["benches"].setdefault(k, v)
json.dump(new, open(new_j, "w"), indent=2)
try:
    sections = re.split(r"(?m)^(?=== )", open(old_t).read())
except OSError:
    sections = []
have = set(re.findall(r"(?m)^== (\S+)", open(new_t).read()))
keep = [s for s in sections if s.startswith("== ") and s.split()[1] not in have]
with open(new_t, "a") as f:
    f.write("".join(keep))
PY
fi
mv "$results.tmp" "$results"
mv "$txt.tmp" "$txt"
echo
echo "wrote $results and $txt"
