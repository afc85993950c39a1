#!/usr/bin/env bash
# Seed corpora for the fuzzers from the built reference FMUs:
#   archive: every build/fmus/**/*.fmu (capped at 1 MiB each)
#   md:      the modelDescription.xml of each of them
#   reply:   a few well-formed and broken worker reply frames
# usage: bash fuzz/make_corpus.sh [BUILD_DIR (default build)] [OUT (default fuzz/corpus)]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-$here/corpus}
mkdir -p "$out/archive" "$out/md" "$out/reply"
n=0
while IFS= read -r -d '' f; do
  size=$(stat -c %s "$f")
  [ "$size" -le 1048576 ] || continue
  base=$(basename "$(dirname "$f")")_$(basename "$f" .fmu)
  cp "$f" "$out/archive/$base.fmu"
  unzip -p "$f" modelDescription.xml > "$out/md/$base.xml" 2>/dev/null || rm -f "$out/md/$base.xml"
  n=$((n + 1))
done < <(find "$build/fmus" -name '*.fmu' -print0)
# reply frames: selector byte (0 = frame decoder, 1/3 = shared-region decoder) + bytes
frame() { # $1 = JSON body
  local body=$1
  printf '\000FMUCRPL1 %016x\n%s\nFMUCEND1\n' "${#body}" "$body"
}
frame '{"fn_status":0,"reply":{"status":0}}' > "$out/reply/ok"
frame '{"fn_status":1e300,"reply":{}}' > "$out/reply/huge_status"
frame '{"fn_status":0,"reply":[1,2]}' > "$out/reply/wrong_shape"
printf '\000FMUCRPL1 00000000000000ff\n{}' > "$out/reply/short"
printf '\001FMUCWKR1run\000' > "$out/reply/region"
echo "seeded $n FMUs into $out"
