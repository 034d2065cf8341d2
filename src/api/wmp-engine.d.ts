// Type declarations for the engine-only module (dist/wmp-engine.js: the engine and the JS API,
// without the UI, for Node.js and scripts): wmp.d.ts's, less the values that need the UI —
// `mount`, `mountPlayground`, `defineElement` and `MountedPlayground` stay types only here, so
// calling them is a compile error. scripts/trunk-wasm-lib.sh copies it next to wmp-engine.js;
// tests/node/typecheck.ts checks both.

export { default, initSync, Subscription, WatermarkPlayground } from "./wmp";
export type * from "./wmp";
