#!/usr/bin/env bash
# npm start: set up what is missing, build the wasm core and the page, and serve the static
# build on 127.0.0.1 (PORT, default 5173; the next free port if it is taken).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm run --silent build
port=${PORT:-5173}
while (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null; do port=$((port + 1)); done
echo
echo "√dk Lab is served at http://127.0.0.1:${port}/  (Ctrl-C to stop)"
echo
exec node node_modules/vite/bin/vite.js preview --host 127.0.0.1 --port "$port" --strictPort
