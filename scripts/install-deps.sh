#!/usr/bin/env bash
# Installs the Debian 12 packages fmucheck needs to build, test and report. Idempotent; run as root.
set -euo pipefail

PKGS=(
  build-essential dpkg-dev cmake pkg-config git ca-certificates
  libzip-dev zipcmp zipmerge ziptool zip unzip
  libxml2-dev libcjson-dev libcriterion-dev libssl-dev
  libsundials-dev
  libseccomp-dev
  gnuplot-nox
  clang libclang-rt-14-dev llvm binutils file valgrind
  chromium
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive

# The FMUs link cJSON statically (an FMU must not need libcjson.so on the host), and Debian ships
# only the shared library; so the Debian *source* package of cjson is fetched and unpacked (with
# Debian's patches) into CJSON_SRC, and CMake compiles it into the FMUs. See fmi_export/README.md.
CJSON_SRC_PARENT=/var/lib/fmucheck/src
SRC_LIST=/etc/apt/sources.list.d/fmucheck-src.sources
need_src=0
compgen -G "$CJSON_SRC_PARENT/cjson-*/cJSON.c" >/dev/null || need_src=1

if [ "${#missing[@]}" -gt 0 ] || [ "$need_src" -eq 1 ]; then
  if [ ! -f "$SRC_LIST" ]; then
    $SUDO tee "$SRC_LIST" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  fi
  # apt-get update is needed on a fresh machine whose package lists were never fetched.
  $SUDO apt-get update -qq
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$need_src" -eq 1 ]; then
  echo "install-deps: fetching the Debian source package of cjson into $CJSON_SRC_PARENT"
  $SUDO mkdir -p "$CJSON_SRC_PARENT"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source --download-only cjson >/dev/null 2>&1 &&
     dpkg-source --no-check -x ./cjson_*.dsc cjsrc >/dev/null)
  ver=$(sed -n 's/^Version: //p' "$tmp"/cjson_*.dsc | head -n 1)
  $SUDO rm -rf "$CJSON_SRC_PARENT/cjson-$ver"
  $SUDO mv "$tmp/cjsrc" "$CJSON_SRC_PARENT/cjson-$ver"
  rm -rf "$tmp"
fi
echo "install-deps: all ${#PKGS[@]} packages present; cJSON source: $(ls -d $CJSON_SRC_PARENT/cjson-* | head -n 1)"
