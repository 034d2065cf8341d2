#!/usr/bin/env bash
# Trunk build hook (see Trunk.toml): builds the crate's library (cdylib `wmp`) for wasm32 and
# runs wasm-bindgen on it into Trunk's staging dir, giving wmp.js + wmp_bg.wasm in dist/.
# Trunk sets TRUNK_STAGING_DIR and TRUNK_PROFILE (release|debug).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
: "${TRUNK_STAGING_DIR:?this script is a Trunk hook; run 'trunk build' instead}"
PROFILE="${TRUNK_PROFILE:-debug}"

args=(build --lib --target wasm32-unknown-unknown --manifest-path "$ROOT/Cargo.toml"
      --message-format=json-render-diagnostics)
[ "$PROFILE" = "release" ] && args+=(--release)

echo "[trunk-hook] cargo ${args[*]}" >&2
# Cargo's JSON messages name the exact .wasm of the cdylib (not the same-named bin's).
wasm="$(cargo "${args[@]}" | WMP_MANIFEST="$ROOT/Cargo.toml" node -e '
  const manifest = process.env.WMP_MANIFEST;
  const lines = require("fs").readFileSync(0, "utf8").split("\n");
  let found = "";
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    const m = JSON.parse(line);
    if (m.reason === "compiler-artifact" && m.manifest_path === manifest
        && m.target.kind.includes("cdylib")) {
      found = m.filenames.find((f) => f.endsWith(".wasm")) || found;
    }
  }
  if (!found) { console.error("[trunk-hook] no cdylib .wasm in cargo output"); process.exit(1); }
  console.log(found);
')"

echo "[trunk-hook] wasm-bindgen --target web $wasm -> $TRUNK_STAGING_DIR" >&2
# A release bundle leaves out the debug names (a third of the file) and the producers section:
# users download it, and panics still carry their messages.
strip=()
[ "$PROFILE" = "release" ] && strip=(--remove-name-section --remove-producers-section)
wasm-bindgen --target web --no-typescript "${strip[@]}" --out-dir "$TRUNK_STAGING_DIR" --out-name wmp "$wasm"
# The JS API's TypeScript declarations go next to wmp.js: the hand-written src/api/wmp.d.ts and
# the data types it re-exports, generated from the engine's views (src/api/types.gen.d.ts).
cp "$ROOT/src/api/wmp.d.ts" "$TRUNK_STAGING_DIR/wmp.d.ts"
cp "$ROOT/src/api/types.gen.d.ts" "$TRUNK_STAGING_DIR/types.gen.d.ts"
