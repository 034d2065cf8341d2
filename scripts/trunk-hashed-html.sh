#!/usr/bin/env bash
# Trunk post_build hook (see Trunk.toml): points the staged index.html at the content-hashed
# module that scripts/trunk-wasm-lib.sh wrote (wmp-<hash>.js + wmp-<hash>_bg.wasm) and at a
# content-hashed copy of its boot module (boot-<hash>.js), so the page never loads the stable
# alias `wmp.js`, which a cache may hold from an older release. Trunk
# runs this after it wrote index.html into TRUNK_STAGING_DIR and before it moves that to dist/.
set -euo pipefail

: "${TRUNK_STAGING_DIR:?this script is a Trunk hook; run 'trunk build' instead}"
cd "$TRUNK_STAGING_DIR"

shopt -s nullglob
mods=(wmp-????????????????.js)
[ "${#mods[@]}" -eq 1 ] || { echo "[trunk-hook] expected one wmp-<hash>.js in the staging dir, found: ${mods[*]:-none}" >&2; exit 1; }
js="${mods[0]}"
wasm="${js%.js}_bg.wasm"
[ -f "$wasm" ] || { echo "[trunk-hook] $wasm missing" >&2; exit 1; }

# The page's boot module (www/boot.js, no inline script so that a strict CSP works) imports the
# hashed module too, under a content-hashed name of its own.
[ -f boot.js ] || { echo "[trunk-hook] boot.js missing (index.html's copy-file)" >&2; exit 1; }
sed "s#\./wmp\.js\([\"']\)#./$js\1#" boot.js > boot.tmp
grep -q "$js" boot.tmp || { echo "[trunk-hook] boot.js does not import ./wmp.js" >&2; exit 1; }
boot="boot-$(sha256sum boot.tmp | cut -c1-16).js"
mv boot.tmp "$boot"
rm boot.js

# A release bundle's index.html is minified: its attributes may have lost their quotes.
sed -i -e "s#\./wmp\.js\([\"' >]\)#./$js\1#g" -e "s#\./wmp_bg\.wasm\([\"' >]\)#./$wasm\1#g" \
  -e "s#\./boot\.js\([\"' >]\)#./$boot\1#g" index.html
if grep -q "\./wmp\.js[\"' >]\|\./wmp_bg\.wasm[\"' >]\|\./boot\.js[\"' >]" index.html || ! grep -q "$js" index.html || ! grep -q "$boot" index.html; then
  echo "[trunk-hook] index.html still names wmp.js / wmp_bg.wasm / boot.js" >&2
  exit 1
fi
echo "[trunk-hook] index.html -> $boot, $js, $wasm" >&2

# The stylesheet's fixed name (index.html's copy-file, for pages that mount() the playground)
# carries the same bytes as the hashed one, which Trunk minified in a release bundle.
# (`trunk build --filehash false` writes style.css itself: nothing to copy.)
sheets=(style-*.css)
if [ "${#sheets[@]}" -eq 1 ]; then
  cp "${sheets[0]}" style.css
elif [ "${#sheets[@]}" -gt 1 ] || [ ! -f style.css ]; then
  echo "[trunk-hook] expected one style-<hash>.css, found: ${sheets[*]:-none}" >&2
  exit 1
fi
