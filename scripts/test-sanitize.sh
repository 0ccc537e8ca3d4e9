#!/usr/bin/env bash
# npm run test:sanitize: builds the native GoogleTest suite with -fsanitize=address,undefined in
# its own directory (build/sanitize) and runs it through ctest. A sanitizer finding aborts the
# test that caused it (-fno-sanitize-recover=all, halt_on_error), so ctest fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/sanitize/CMakeCache.txt ]; then
  cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSQRTDK_SANITIZE=ON >/dev/null
fi
cmake --build build/sanitize -j "$(nproc)" --target sqrtdk_tests
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ctest --test-dir build/sanitize --output-on-failure -j "$(nproc)"
