#!/usr/bin/env bash
# Checks that every tracked C++ file (.cpp, .hpp) is formatted as .clang-format says: clang-format --dry-run
# --Werror, which prints each difference and fails on the first file that differs. The style was tuned with
# clang-format 14; other versions may place a few line breaks differently. To fix the files:
#   git ls-files '*.cpp' '*.hpp' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$format" ]; then
  echo "lint-cpp: clang-format not found (Debian: apt-get install clang-format)" >&2
  exit 1
fi
git ls-files -z '*.cpp' '*.hpp' | xargs -0 "$format" --dry-run --Werror
