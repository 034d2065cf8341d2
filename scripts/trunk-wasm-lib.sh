#!/usr/bin/env bash
# Trunk build hook (see Trunk.toml): builds the crate's library (cdylib `wmp`) for wasm32 twice
# and runs wasm-bindgen on each into Trunk's staging dir:
#   - the full module (feature `ui`: engine + JS API + Leptos UI), which index.html loads;
#   - the engine-only module (`--no-default-features`: engine + JS API, without the `tools`
#     feature's SQL reader and job export), for scripts and Node.
# Each gets content-hashed names (`wmp-<hash>.js` + `wmp-<hash>_bg.wasm`, `wmp-engine-<hash>.js`
# + `wmp-engine-<hash>_bg.wasm`) so that caches never serve a stale wasm after an upgrade, plus
# stable names for scripts and docs: `wmp.js` / `wmp-engine.js` (small alias modules of the
# hashed ones) and `wmp_bg.wasm` / `wmp-engine_bg.wasm` (copies, for Node's `initSync`).
# scripts/trunk-hashed-html.sh (the post_build hook) then points index.html at the hashed names.
#
# A release bundle uses the size-optimized cargo profile `web` (Cargo.toml), leaves out the
# debug names and the producers section, runs binaryen's wasm-opt and minifies the JS with
# esbuild (both in tools/web, installed by scripts/setup.sh). Trunk sets TRUNK_STAGING_DIR and TRUNK_PROFILE (release|debug).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
: "${TRUNK_STAGING_DIR:?this script is a Trunk hook; run 'trunk build' instead}"
PROFILE="${TRUNK_PROFILE:-debug}"
STAGE="$TRUNK_STAGING_DIR"
WASM_OPT="$ROOT/tools/web/node_modules/binaryen/bin/wasm-opt"
ESBUILD="$ROOT/tools/web/node_modules/.bin/esbuild"

# minify_js FILE: in a release bundle, wasm-bindgen's JS (and its snippets) without comments and
# whitespace, in place. Identifiers keep their names: the API's classes show as
# `WatermarkPlayground`, not `u`, in a console and a stack trace (renaming them too would save
# another 1 KB gzipped of the full module's 11). See "Size and load" in README.md.
minify_js() {
  [ "$PROFILE" = "release" ] || return 0
  "$ESBUILD" --minify-whitespace --minify-syntax --format=esm --log-level=warning \
    --allow-overwrite "$1" --outfile="$1"
}

# cargo_wasm ARGS...: builds the library for wasm32 and prints the path of its .wasm.
cargo_wasm() {
  local args=(build --lib --target wasm32-unknown-unknown --manifest-path "$ROOT/Cargo.toml"
              --message-format=json-render-diagnostics "$@")
  [ "$PROFILE" = "release" ] && args+=(--profile web)
  echo "[trunk-hook] cargo ${args[*]}" >&2
  # Cargo's JSON messages name the exact .wasm of the cdylib (not the same-named bin's).
  cargo "${args[@]}" | WMP_MANIFEST="$ROOT/Cargo.toml" node -e '
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
  '
}

# bundle NAME WASM: wasm-bindgen (+ wasm-opt) into the staging dir under hashed and stable names.
bundle() {
  local name="$1" wasm="$2" tmp
  tmp="$(mktemp -d)"
  # A release bundle leaves out the debug names (a third of the file) and the producers
  # section: users download it, and panics still carry their messages.
  local strip=()
  [ "$PROFILE" = "release" ] && strip=(--remove-name-section --remove-producers-section)
  echo "[trunk-hook] wasm-bindgen --target web $wasm -> $name" >&2
  wasm-bindgen --target web --no-typescript "${strip[@]}" --out-dir "$tmp" --out-name "$name" "$wasm"
  if [ "$PROFILE" = "release" ] && [ "${WMP_WASM_OPT:-1}" != 0 ]; then
    # -Oz with binaryen's one-caller inlining limited: a function goes into its only caller only
    # when it is small (20 IR nodes in binaryen's measure). Unlimited (binaryen's default) made
    # the wasm 13% bigger gzipped; no inlining at all made it 0.4% bigger and left ~600 more
    # functions, each compiled lazily on its first call, many during the first render. See
    # "Size and load" in README.md.
    # WMP_WASM_OPT=0 skips this step (a minute in Node) while iterating.
    echo "[trunk-hook] wasm-opt -Oz $name" >&2
    node "$WASM_OPT" -Oz --one-caller-inline-max-function-size 20 \
      "$tmp/${name}_bg.wasm" -o "$tmp/${name}_bg.opt.wasm"
    mv "$tmp/${name}_bg.opt.wasm" "$tmp/${name}_bg.wasm"
  fi
  hashed_snippets "$name" "$tmp"
  minify_js "$tmp/${name}.js"
  # One hash over both files names both: a new wasm always comes with a new JS that loads it.
  local hash
  hash="$(cat "$tmp/${name}_bg.wasm" "$tmp/${name}.js" | sha256sum | cut -c1-16)"
  # The glue names its wasm in single quotes, or double ones once minified.
  sed "s/\(['\"]\)${name}_bg\.wasm\1/\1${name}-${hash}_bg.wasm\1/" "$tmp/${name}.js" > "$STAGE/${name}-${hash}.js"
  grep -q "${name}-${hash}_bg.wasm" "$STAGE/${name}-${hash}.js" \
    || { echo "[trunk-hook] $name.js does not name ${name}_bg.wasm; cannot hash it" >&2; exit 1; }
  cp "$tmp/${name}_bg.wasm" "$STAGE/${name}-${hash}_bg.wasm"
  cp "$tmp/${name}_bg.wasm" "$STAGE/${name}_bg.wasm"
  alias_module "$name" "$hash" > "$STAGE/${name}.js"
  rm -rf "$tmp"
}

# element_stylesheet: the stylesheet the custom element loads into its shadow root, as
# wmp-style-<hash>.css (minified by esbuild in a release bundle), whose name the element's
# snippet is given before it is hashed (`hashed_snippets`): after an upgrade a docs site that
# caches hard never pairs new markup with an old sheet. Prints the name.
element_stylesheet() {
  local tmp name
  tmp="$(mktemp)"
  if [ "$PROFILE" = "release" ]; then
    "$ESBUILD" "$ROOT/www/style.css" --minify --log-level=warning --outfile="$tmp" --allow-overwrite
  else
    cp "$ROOT/www/style.css" "$tmp"
  fi
  name="wmp-style-$(sha256sum "$tmp" | cut -c1-16).css"
  mv "$tmp" "$STAGE/$name"
  chmod 644 "$STAGE/$name" # mktemp made it private; a web server must read it
  echo "$name"
}
STYLESHEET="$(element_stylesheet)"

# hashed_snippets NAME TMP: the JS files wasm-bindgen writes under snippets/ (the custom
# element's class, src/api/element.js) go next to the module under content-hashed names, and the
# module imports those names: a cached page never pairs a new module with an old snippet, and
# the module's hash (taken after this) covers them.
hashed_snippets() {
  local name="$1" tmp="$2" f rel h new
  [ -d "$tmp/snippets" ] || return 0
  while IFS= read -r f; do
    rel="${f#"$tmp"/}"
    sed -i "s#^const STYLESHEET = \"style\.css\";#const STYLESHEET = \"${STYLESHEET}\";#" "$f"
    if grep -q '^const STYLESHEET = "style\.css";' "$f"; then
      echo "[trunk-hook] $rel still names style.css" >&2
      exit 1
    fi
    minify_js "$f"
    h="$(sha256sum "$f" | cut -c1-16)"
    new="${name}-snippet-${h}.js"
    cp "$f" "$STAGE/$new"
    # Only the import statement: the wasm's own import table keeps the original module key.
    sed -i "s#^\(import .* from \)\"\./${rel}\"#\1\"./${new}\"#" "$tmp/${name}.js"
  done < <(find "$tmp/snippets" -type f -name '*.js' | sort)
  if grep -q '^import .* from "\./snippets/' "$tmp/${name}.js"; then
    echo "[trunk-hook] $name.js still imports a file under snippets/" >&2
    exit 1
  fi
}

# alias_module NAME HASH: the stable module, re-exporting the hashed one. The full module's
# alias also instantiates it in a browser and registers <watermark-playground> (when the module
# defines it), so `<script type="module" src="wmp.js">` alone is enough on a docs page. In Node
# it does nothing on import: call initSync()/init() with the wasm's bytes as before.
alias_module() {
  local name="$1" hash="$2"
  echo "// Stable alias of ./${name}-${hash}.js (content-hashed; written by scripts/trunk-wasm-lib.sh)."
  if [ "$name" != "wmp" ]; then
    printf 'export * from "./%s";\nexport { default } from "./%s";\n' "${name}-${hash}.js" "${name}-${hash}.js"
    return
  fi
  cat <<EOF
import init, * as wmp from "./${name}-${hash}.js";
export * from "./${name}-${hash}.js";
export default init;
if (typeof window !== "undefined" && typeof document !== "undefined") {
  await init();
  if (typeof wmp.defineElement === "function") wmp.defineElement();
}
EOF
}

full="$(cargo_wasm)"
bundle wmp "$full"
# Its own target dir: both builds write the same deps/wmp.wasm (a cdylib's name has no hash),
# so in one dir each would invalidate the other and every bundle would rebuild both.
engine="$(cargo_wasm --no-default-features --target-dir "${CARGO_TARGET_DIR:-$ROOT/target}/wmp-engine")"
bundle wmp-engine "$engine"

# The JS API's TypeScript declarations go next to wmp.js: the hand-written src/api/wmp.d.ts (with
# wmp-ui.d.ts, the UI's part, which it re-exports; and
# wmp-engine.d.ts, the same less the UI and the `tools` statics, next to wmp-engine.js) and
# the data types it re-exports, generated from the engine's views (src/api/types.gen.d.ts).
cp "$ROOT/src/api/wmp.d.ts" "$STAGE/wmp.d.ts"
cp "$ROOT/src/api/wmp-ui.d.ts" "$STAGE/wmp-ui.d.ts"
cp "$ROOT/src/api/wmp-engine.d.ts" "$STAGE/wmp-engine.d.ts"
cp "$ROOT/src/api/types.gen.d.ts" "$STAGE/types.gen.d.ts"
