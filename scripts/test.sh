#!/usr/bin/env bash
# npm test: set up what is missing (scripts/setup.sh), build the wasm and the page, then run
# every test layer: native GoogleTest (ctest), the same suite as wasm under node (ctest),
# the Node tests of the wasm module's JS API, the page's unit tests (vitest) and the browser
# tests (playwright-core + Debian's Chromium; a focused layer in Firefox ESR and WebKitGTK). Every
# layer runs even if an earlier one fails.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || { echo "setup failed" >&2; exit 1; }
setup_s=$SECONDS
npm run --silent build || { echo "build failed" >&2; exit 1; }
timings=("${setup_s} s  set-up" "$((SECONDS - setup_s)) s  build")

passed=0
failed=0
failed_layers=()
layer() {
  local name=$1
  shift
  echo
  echo "=== ${name} ==="
  local start=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failed_layers+=("$name")
  fi
  timings+=("$((SECONDS - start)) s  ${name}")
}

layer "native GoogleTest (ctest)" bash scripts/test-native.sh
layer "wasm GoogleTest under node (ctest)" ctest --test-dir build/wasm --output-on-failure
layer "wasm module JS API (node --test)" node --test tests/node/
layer "page unit tests (vitest)" npm run --silent test:web
layer "browser tests (playwright-core + chromium)" npm run --silent test:e2e
layer "browser tests, Firefox and WebKit (puppeteer-core, selenium-webdriver)" npm run --silent test:engines

echo
echo "time per step (the budget is 25 minutes in all):"
printf '  %s\n' "${timings[@]}"
echo "  ${SECONDS} s  in all"
if [ "$failed" -gt 0 ]; then
  echo "failed layers: ${failed_layers[*]}"
fi
echo "layers: ${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
