#!/usr/bin/env bash
# Installs whatever this project's build and tests need and is missing on the machine.
# Idempotent and non-interactive: every step checks first and is skipped when already done.
#   - rust target wasm32-unknown-unknown, rust components rustfmt and clippy
#   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock
#   - trunk 0.21.14 (newer trunk needs a newer rustc)
#   - Debian chromium + chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver)
#   - tests/e2e/node_modules (playwright-core, from tests/e2e/package-lock.json)
#   - tests/node/node_modules (typescript, pinned, for the JS API's `tsc --noEmit` check)
#   - tools/web/node_modules (binaryen and esbuild, pinned: the release bundle's wasm-opt and
#     JS / CSS minifier)
#   - Debian curl, jq and prometheus (/usr/bin/prometheus, /usr/bin/promtool): tests/serve.rs
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TRUNK_VERSION="0.21.14"
export PATH="$HOME/.cargo/bin:$PATH"

log()  { printf '[setup %s] %s\n' "$(date '+%H:%M:%S')" "$*"; }
die()  { printf '[setup %s] ERROR: %s\n' "$(date '+%H:%M:%S')" "$*" >&2; exit 1; }
trap 'rc=$?; [ $rc -eq 0 ] || printf "[setup %s] ERROR: setup failed (exit %s) at line %s: %s\n" "$(date +%H:%M:%S)" "$rc" "$LINENO" "$BASH_COMMAND" >&2' EXIT

step_start=0
begin() { step_start=$(date +%s); log "$*"; }
done_() { log "$* (took $(( $(date +%s) - step_start ))s)"; }

command -v cargo  >/dev/null || die "cargo not found (expected the machine's rustup toolchain in ~/.cargo/bin)"
command -v rustup >/dev/null || die "rustup not found"

# 1. wasm32 target -------------------------------------------------------------------------
if rustup target list --installed | grep -qx 'wasm32-unknown-unknown'; then
  log "rust target wasm32-unknown-unknown: present"
else
  begin "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown || die "rustup target add wasm32-unknown-unknown failed"
  done_ "rust target wasm32-unknown-unknown installed"
fi

# 1b. rustfmt and clippy (scripts/test.sh checks the format and the lints) ------------------
for comp in rustfmt clippy; do
  if rustup component list --installed 2>/dev/null | grep -q "^$comp"; then
    log "rust component $comp: present"
  else
    begin "rustup component add $comp"
    rustup component add "$comp" || die "rustup component add $comp failed"
    done_ "rust component $comp installed"
  fi
done

# 2. wasm-bindgen-cli, same version as the wasm-bindgen crate in Cargo.lock ----------------
[ -f Cargo.lock ] || die "Cargo.lock missing; run 'cargo generate-lockfile' first"
WB_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
[ -n "$WB_VERSION" ] || die "could not read the wasm-bindgen version from Cargo.lock"
have_wb="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
if [ "$have_wb" = "$WB_VERSION" ]; then
  log "wasm-bindgen-cli $WB_VERSION: present"
else
  begin "cargo install wasm-bindgen-cli --version $WB_VERSION (found: '${have_wb:-none}'; about 2 min)"
  # No --locked: with it the install fails against this machine's registry mirror.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force \
    || die "cargo install wasm-bindgen-cli --version $WB_VERSION failed"
  done_ "wasm-bindgen-cli $WB_VERSION installed"
fi

# 3. trunk -----------------------------------------------------------------------------------
have_trunk="$(trunk --version 2>/dev/null | awk '{print $2}' || true)"
if [ "$have_trunk" = "$TRUNK_VERSION" ]; then
  log "trunk $TRUNK_VERSION: present"
else
  begin "cargo install --locked trunk --version $TRUNK_VERSION (found: '${have_trunk:-none}'; about 12 min on 2 cores)"
  # --locked is required: without it trunk's dependencies resolve to versions that don't compile.
  cargo install --locked trunk --version "$TRUNK_VERSION" --force \
    || die "cargo install --locked trunk --version $TRUNK_VERSION failed"
  done_ "trunk $TRUNK_VERSION installed"
fi

# 4. Chromium + ChromeDriver from Debian -----------------------------------------------------
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  log "chromium + chromedriver: present ($(/usr/bin/chromium --version 2>/dev/null || echo '?'))"
else
  command -v apt-get >/dev/null || die "apt-get not found; install chromium and chromium-driver by hand"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: cannot apt-get install chromium"
    SUDO="sudo -n"
  fi
  begin "apt-get update && apt-get install chromium chromium-driver"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q || die "apt-get update failed"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    chromium chromium-driver || die "apt-get install chromium chromium-driver failed"
  [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] \
    || die "chromium installed but /usr/bin/chromium or /usr/bin/chromedriver is missing"
  done_ "chromium + chromedriver installed"
fi

# 5. npm packages for the end-to-end tests ---------------------------------------------------
command -v node >/dev/null || die "node not found (needed for tests/e2e)"
command -v npm  >/dev/null || die "npm not found (needed for tests/e2e)"
if [ -d tests/e2e/node_modules/playwright-core ]; then
  log "tests/e2e/node_modules: present"
else
  begin "npm install in tests/e2e"
  if [ -f tests/e2e/package-lock.json ]; then
    (cd tests/e2e && npm ci --no-audit --no-fund) || die "npm ci in tests/e2e failed"
  else
    (cd tests/e2e && npm install --no-audit --no-fund) || die "npm install in tests/e2e failed"
  fi
  done_ "tests/e2e/node_modules installed"
fi

# 6. npm packages for the JS API's Node tests (typescript for the .d.ts type check) ---------
if [ -x tests/node/node_modules/.bin/tsc ]; then
  log "tests/node/node_modules: present"
else
  begin "npm install in tests/node"
  if [ -f tests/node/package-lock.json ]; then
    (cd tests/node && npm ci --no-audit --no-fund) || die "npm ci in tests/node failed"
  else
    (cd tests/node && npm install --no-audit --no-fund) || die "npm install in tests/node failed"
  fi
  done_ "tests/node/node_modules installed"
fi

# 7. wasm-opt and the JS minifier for the release bundle (scripts/trunk-wasm-lib.sh): npm's
# binaryen, which runs in Node, since Trunk cannot download its own here, and esbuild.
if [ -f tools/web/node_modules/binaryen/bin/wasm-opt ] && [ -x tools/web/node_modules/.bin/esbuild ]; then
  log "tools/web/node_modules (binaryen, esbuild): present"
else
  begin "npm ci in tools/web (binaryen, esbuild)"
  (cd tools/web && npm ci --no-audit --no-fund) || die "npm ci in tools/web failed"
  done_ "tools/web/node_modules installed"
fi

# 8. curl, jq, Prometheus and promtool for `wmp serve`'s tests (tests/serve.rs runs seed 000's
# curl | jq loop, promtool check metrics and a real Prometheus). Debian's prometheus package may
# try to start its service on install; without systemd it does not, and the tests use their own
# ports anyway.
if command -v curl >/dev/null && command -v jq >/dev/null && [ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ]; then
  log "curl + jq + prometheus: present ($(/usr/bin/prometheus --version 2>&1 | head -1))"
else
  command -v apt-get >/dev/null || die "apt-get not found; install curl, jq and prometheus by hand"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: cannot apt-get install curl jq prometheus"
    SUDO="sudo -n"
  fi
  begin "apt-get install curl jq prometheus"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q || die "apt-get update failed"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    curl jq prometheus || die "apt-get install curl jq prometheus failed"
  [ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ] || die "prometheus installed but /usr/bin/prometheus or /usr/bin/promtool is missing"
  done_ "curl + jq + prometheus installed"
fi

# 9. python3 for tests/export.rs, whose zip test reads the exported job's .zip back with
# Python's zipfile (an independent reader of the format).
if command -v python3 >/dev/null; then
  log "python3: present ($(python3 --version 2>&1))"
else
  command -v apt-get >/dev/null || die "apt-get not found; install python3 by hand"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: cannot apt-get install python3"
    SUDO="sudo -n"
  fi
  begin "apt-get install python3"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q || die "apt-get update failed"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3 || die "apt-get install python3 failed"
  done_ "python3 installed"
fi

log "setup complete"
