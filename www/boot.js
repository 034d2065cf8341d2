// Starts the playground page (index.html). A module file, not an inline script: the page (and
// its `?embed=1` iframe) then works under `script-src 'self' 'wasm-unsafe-eval'`.
// scripts/trunk-hashed-html.sh writes its content-hashed copy (boot-<hash>.js), which imports
// the content-hashed module wmp-<hash>.js instead of the alias, and points index.html at it.
import init, * as bindings from "./wmp.js";

// init() instantiates the wasm next to the module; nothing runs until we mount.
await init();
window.wasmBindings = bindings;
bindings.mountPlayground();
