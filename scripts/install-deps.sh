#!/usr/bin/env bash
# Installs the Debian 12 packages fmucheck needs to build, test and report. Idempotent; run as root.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config git ca-certificates
  libzip-dev zipcmp zipmerge ziptool zip unzip
  libxml2-dev libcjson-dev libcriterion-dev libssl-dev
  libsundials-dev
  gnuplot-nox
  clang libclang-rt-14-dev llvm binutils file valgrind
  chromium
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
echo "install-deps: installing ${missing[*]}"
# apt-get update is needed on a fresh machine whose package lists were never fetched.
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
