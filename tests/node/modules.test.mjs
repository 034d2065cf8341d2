// The two modules in dist/ and their names: the engine-only module (wmp-engine.js, which
// load.mjs gives the other tests) and the full one (wmp.js, engine + JS API + UI) give the same
// API, less the full module's SQL reader and job export, and the same runs; each stable name is an alias of a content-hashed file, and the hashed
// JS loads the hashed wasm (scripts/trunk-wasm-lib.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { dist, loadFull, WatermarkPlayground as EngineOnly } from "./load.mjs";

const full = await loadFull();

function run(Playground) {
  const p = Playground.fromPreset("late-data");
  p.runFor(600_000);
  return { hash: p.traceHash, windows: p.windows().length, elapsed: p.elapsedMs };
}

test("the full module's JS API runs like the engine-only one", () => {
  const a = run(full.WatermarkPlayground);
  const b = run(EngineOnly);
  assert.deepEqual(a, b);
  assert.equal(a.elapsed, 600_000);
  assert.ok(a.windows > 0, "some windows fired");
});

test("the engine-only module has the API but not the UI", async () => {
  const engine = await import(path.join(dist, "wmp-engine.js"));
  assert.equal(typeof engine.WatermarkPlayground, "function");
  assert.equal(typeof engine.default, "function", "init");
  assert.equal(engine.mount, undefined);
  assert.equal(engine.mountPlayground, undefined);
  assert.equal(typeof full.mount, "function");
  assert.equal(typeof full.mountPlayground, "function");
});

test("the SQL reader and the job export are the full module's alone (feature tools)", () => {
  for (const name of ["sqlScenario", "exportJob"]) {
    assert.equal(EngineOnly[name], undefined, `wmp-engine.js has no ${name}`);
    assert.equal(typeof full.WatermarkPlayground[name], "function", `wmp.js has ${name}`);
  }
  const exported = full.WatermarkPlayground.exportJob("late-data");
  assert.ok(exported.files.some((f) => f.path.endsWith(".java")), "the full module exports in Node");
});

test("each module's exports are declared in its .d.ts beside it", async () => {
  const engine = await import(path.join(dist, "wmp-engine.js"));
  const declared = (file) => fs.readFileSync(path.join(dist, file), "utf8");
  // wmp.d.ts re-exports the UI's part from wmp-ui.d.ts.
  assert.match(declared("wmp.d.ts"), /export \* from "\.\/wmp-ui";/);
  const fullDts = declared("wmp.d.ts") + declared("wmp-ui.d.ts");
  // wasm-streams' IntoUnderlying* classes come with Leptos's dependencies; they are no API of ours.
  for (const name of Object.keys(full).filter((n) => n !== "default" && !n.startsWith("IntoUnderlying"))) {
    assert.match(fullDts, new RegExp(`export (declare )?(function|class|const) ${name}\\b`), `wmp.d.ts declares ${name}`);
  }
  // The engine module's values are re-exported by name from wmp.d.ts or declared there (the
  // class, less the full module's statics), nothing more.
  const engineDts = declared("wmp-engine.d.ts");
  const reexported = engineDts.match(/export \{([^}]*)\} from "\.\/wmp";/)[1].split(",").map((n) => n.trim());
  const values = [...reexported, ...[...engineDts.matchAll(/export declare const (\w+)/g)].map((m) => m[1])];
  const exported = Object.keys(engine).sort();
  assert.deepEqual([...values].sort(), exported);
});

for (const name of ["wmp", "wmp-engine"]) {
  test(`${name}.js is an alias of a content-hashed module that loads a hashed wasm`, () => {
    const alias = fs.readFileSync(path.join(dist, `${name}.js`), "utf8");
    const m = alias.match(new RegExp(`from "\\./(${name}-([0-9a-f]{16})\\.js)"`));
    assert.ok(m, alias);
    const [, file, hash] = m;
    assert.ok(alias.length < 1000, "the alias is small");
    const js = fs.readFileSync(path.join(dist, file), "utf8");
    // Single quotes from wasm-bindgen, double ones in a minified release bundle.
    assert.match(js, new RegExp(`new URL\\((['"])${name}-${hash}_bg\\.wasm\\1, ?import\\.meta\\.url\\)`));
    const hashed = fs.readFileSync(path.join(dist, `${name}-${hash}_bg.wasm`));
    assert.ok(hashed.equals(fs.readFileSync(path.join(dist, `${name}_bg.wasm`))), "the stable wasm is a copy");
  });
}
