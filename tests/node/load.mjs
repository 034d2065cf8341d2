// The bundle under test, loaded once for a test file: the engine-only module (dist/wmp-engine.js
// + dist/wmp-engine_bg.wasm: the engine and the JS API without the UI, what Node scripts load;
// or WMP_DIST), and where the native runner is (target/release/wmp, or WMP_BIN: scripts/test.sh
// sets target/checked/wmp). The full module (dist/wmp.js, with the UI) is checked against it in
// modules.test.mjs; `loadFull()` gives it.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
export const dist = path.resolve(process.env.WMP_DIST ?? path.join(root, "dist"));
export const wmpBin = path.resolve(process.env.WMP_BIN ?? path.join(root, "target/release/wmp"));

const wmp = await import(path.join(dist, "wmp-engine.js"));
wmp.initSync({ module: fs.readFileSync(path.join(dist, "wmp-engine_bg.wasm")) });
export const { WatermarkPlayground } = wmp;

/** The full module (dist/wmp.js), instantiated on first use: it alone has the SQL reader and
 *  the job export (`sqlScenario`, `exportJob`). */
let fullModule;
export async function loadFull() {
  if (!fullModule) {
    fullModule = await import(path.join(dist, "wmp.js"));
    fullModule.initSync({ module: fs.readFileSync(path.join(dist, "wmp_bg.wasm")) });
  }
  return fullModule;
}
