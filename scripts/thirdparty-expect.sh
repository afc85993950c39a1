#!/usr/bin/env bash
# Regenerate tests/thirdparty/expect/ (the expectations of the ctest "test_thirdparty", label
# thirdparty) from a fmucheck batch over every FMU of ../shared/thirdparty (manifest.tsv) and
# ../shared/reference-fmus/fmi2, fmi3 and fmi1/{me,cs}, then show what changed. Lines whose verdicts did not change keep
# their clause; changed and new lines carry "REVIEW" in their clause: replace it by the clause of
# the standard (or the reason for not-applicable) after judging the change against the text
# (tests/thirdparty/TRIAGE.md), then commit.
#
# usage: bash scripts/thirdparty-expect.sh [--from OUTDIR] [BUILD_DIR]
#   --from OUTDIR  use an existing batch output (e.g. BUILD_DIR/thirdparty-out, left by the test)
#                  instead of running the batch (about 5 minutes with -j 2)
# FMUC_SHARED_DIR overrides the shared folder (default: the repository's ../shared).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
from=
if [ "${1:-}" = "--from" ]; then
    from=$(cd "${2:?--from needs a folder}" && pwd)
    shift 2
fi
build=$(cd "${1:-$here/build}" && pwd)
shared=${FMUC_SHARED_DIR:-$here/../shared}
tool=$build/tests/fmuc_tp_expect
[ -x "$tool" ] || { echo "build $tool first (cmake --build $build --target fmuc_tp_expect)" >&2; exit 2; }
if [ -z "$from" ]; then
    [ -d "$shared" ] || { echo "no shared folder at $shared" >&2; exit 2; }
    fmus=()
    opt_files=()
    opt_args=()
    # tests/thirdparty/options.tsv: FMUs checked with extra options, each in a batch of its own
    while IFS=$'\t' read -r file args _; do
        case "$file" in ''|'#'*) continue ;; esac
        opt_files+=("$file")
        opt_args+=("$args")
    done < "$here/tests/thirdparty/options.tsv"
    if [ -f "$shared/thirdparty/manifest.tsv" ]; then
        while IFS=$'\t' read -r file _; do
            [ -n "$file" ] || continue
            for o in "${opt_files[@]}"; do [ "$o" = "$file" ] && continue 2; done
            fmus+=("$shared/thirdparty/$file")
        done < <(tail -n +2 "$shared/thirdparty/manifest.tsv")
    fi
    for f in "$shared"/reference-fmus/fmi2/*.fmu "$shared"/reference-fmus/fmi3/*.fmu \
             "$shared"/reference-fmus/fmi1/me/*.fmu "$shared"/reference-fmus/fmi1/cs/*.fmu; do
        [ -f "$f" ] && fmus+=("$f")
    done
    from=$build/thirdparty-out
    rm -rf "$from"
    echo "fmucheck on ${#fmus[@]} FMUs -> $from/batch"
    "$build/fmucheck" -j 2 -q --time-budget off -o "$from/batch" "${fmus[@]}" || true # exit codes are verdicts
    indexes=("$from/batch/index.json")
    for k in "${!opt_files[@]}"; do
        [ -f "$shared/thirdparty/${opt_files[$k]}" ] || continue
        echo "fmucheck ${opt_args[$k]} on ${opt_files[$k]} -> $from/options-$((k + 1))"
        # shellcheck disable=SC2086 # the options column is split at spaces
        "$build/fmucheck" -q --time-budget off --shard 1/1 -o "$from/options-$((k + 1))" ${opt_args[$k]} -- \
            "$shared/thirdparty/${opt_files[$k]}" || true
        [ -f "$from/options-$((k + 1))/index.json" ] && indexes+=("$from/options-$((k + 1))/index.json")
    done
    "$build/fmucheck" merge "$from" "${indexes[@]}" > /dev/null || true
fi
"$tool" "$from" "$here/tests/thirdparty/expect"
git -C "$here" --no-pager diff --stat -- tests/thirdparty/expect || true
echo "review: git diff tests/thirdparty/expect; grep -rn REVIEW tests/thirdparty/expect"
