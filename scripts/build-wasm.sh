#!/usr/bin/env bash
# Builds the WebAssembly artifacts (wasm/dist/sqrtdk-simd.{mjs,wasm}: SIMD128 with both kernel
# families; wasm/dist/sqrtdk-simd-first.{mjs,wasm}: the same, with only the first view's calls;
# wasm/dist/sqrtdk-base.{mjs,wasm}: no SIMD) and the wasm GoogleTest suite, with
# Debian's emscripten 3.1.6.
set -euo pipefail
cd "$(dirname "$0")/.."
# emcc's JS optimizer needs acorn, which Debian ships under /usr/share/nodejs.
export NODE_PATH=/usr/share/nodejs
jobs=$(nproc)
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/wasm -j "$jobs" "$@"
