#!/usr/bin/env bash
# Installs whatever the build and the tests need and is missing, on Debian 12 as root:
# the Debian packages (emscripten, Eigen 3.4, GoogleTest, cmake, Chromium, Firefox ESR, WebKitGTK's driver) and the npm
# dependencies (npm ci). Safe to run again: each step checks first.
set -euo pipefail
cd "$(dirname "$0")/.."

need_pkgs=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# fonts-noto-cjk: Chromium has no CJK font otherwise, and the zh-CN browser tests (layout at
# 360 px, screenshots) must measure real glyphs, not empty boxes
# fonts-dejavu-core: the link cards' Latin and math signs (√, ·, superscripts) beside Noto's CJK (scripts/share-pages.ts).
# firefox-esr, webkit2gtk-driver (WebKitWebDriver and WebKitGTK's MiniBrowser) and xvfb (its display: it has
# no headless mode): the browser tests in the other engines a shared link opens in (tests/e2e/engines.test.mjs).
# python3-numpy: the exported "Copy as code" scripts run in the tests (tests/web/reproduce.test.ts); python3-nbconvert and
# python3-ipykernel: a notebook with the Jupyter embed is executed (jupyter nbconvert --execute).
for p in emscripten libeigen3-dev cmake g++ make libgtest-dev chromium fonts-noto-cjk fonts-dejavu-core firefox-esr webkit2gtk-driver xvfb python3-numpy python3-nbconvert python3-ipykernel; do
  have_pkg "$p" || need_pkgs+=("$p")
done
if [ ${#need_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages: ${need_pkgs[*]} (run as root, or: apt-get install ${need_pkgs[*]})" >&2
    exit 1
  fi
  echo "setup: installing Debian packages: ${need_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

# python3-torch (the PyTorch flavour of the exported scripts) is large and not built for every architecture: installed
# where Debian has it; the tests skip the PyTorch flavour, saying why, where it is missing.
if ! have_pkg python3-torch && [ "$(id -u)" -eq 0 ]; then
  if apt-cache show python3-torch >/dev/null 2>&1; then
    echo "setup: installing python3-torch"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-torch >/dev/null || echo "setup: python3-torch did not install; the PyTorch flavour's test will be skipped" >&2
  else
    echo "setup: python3-torch is not available here; the PyTorch flavour's test will be skipped" >&2
  fi
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
