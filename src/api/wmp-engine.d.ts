// Type declarations for the engine-only module (dist/wmp-engine.js: the engine and the JS API,
// without the UI, for Node.js and scripts): wmp.d.ts's, less the values that need the UI —
// `mount`, `mountPlayground`, `defineElement` and `MountedPlayground` stay types only here, so
// calling them is a compile error — and less the `tools` feature's two statics, the SQL reader
// `sqlScenario` and the job export `exportJob`, which this module leaves out for its size (load
// wmp.js for them; it runs in Node too). scripts/trunk-wasm-lib.sh copies it next to
// wmp-engine.js; tests/node/typecheck.ts checks both.

import { WatermarkPlayground as Full } from "./wmp";

export { default, initSync, Subscription } from "./wmp";
export type * from "./wmp";

/** The statics only the full module has (`tools`). */
type ToolsOnly = "sqlScenario" | "exportJob";

/** The class of wmp.d.ts, without `sqlScenario` and `exportJob`. */
export declare const WatermarkPlayground: Omit<typeof Full, ToolsOnly | "prototype"> & (new (...args: ConstructorParameters<typeof Full>) => Full);
export type WatermarkPlayground = Full;
