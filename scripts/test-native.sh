#!/usr/bin/env bash
# Builds the native core with g++ and runs its GoogleTest suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/native/CMakeCache.txt ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/native -j "$(nproc)"
ctest --test-dir build/native --output-on-failure -j "$(nproc)"
