#!/usr/bin/env bash
# Installs what the build needs, only what is missing, and says little when all is there.
# Debian/Ubuntu: apt packages (sudo when not root). Elsewhere: checks the tools and says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(emscripten libxtensor-dev xtl-dev libxsimd-dev catch2 cmake g++ clang clang-format chromium
  wordnet-base sword-text-web libsword-utils r-base-core r-cran-janeaustenr r-cran-stringr nlohmann-json3-dev mkdocs python3-sphinx
  hugo)

if command -v dpkg-query >/dev/null && command -v apt-get >/dev/null; then
  missing=()
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    echo "setup: installing Debian packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
else
  for tool in emcc cmake c++; do
    command -v "$tool" >/dev/null || { echo "setup: '$tool' not found: install emsdk, cmake, a C++17 compiler, xtensor and Catch2 2.x" >&2; exit 1; }
  done
fi

# npm ci when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
