// The JS API in Node.js 20, through the real bundle (dist/wmp.js + dist/wmp_bg.wasm, or
// WMP_DIST) and the native runner (target/release/wmp, or WMP_BIN: scripts/test.sh sets
// target/checked/wmp):
//   cd tests/node && node --test
// - every scenario file and preset gives the same trace hash through the JS API as `wmp run`;
// - a scripted session exported with toScenario() gives, under `wmp run`, the session's hash;
// - the examples run (window-table.mjs; `init()` from bytes in a fresh process);
// - errors are real JS errors through the generated glue, and the object keeps working.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { root, dist, wmpBin, loadFull, WatermarkPlayground } from "./load.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

function nativeRun(file) {
  const out = execFileSync(wmpBin, ["run", file], { encoding: "utf8", maxBuffer: 1 << 30 });
  return JSON.parse(out);
}

const scenarioFiles = [
  ...fs.readdirSync(path.join(root, "tests/scenarios")).map((f) => path.join(root, "tests/scenarios", f)),
  ...fs.readdirSync(path.join(root, "presets")).map((f) => path.join(root, "presets", f)),
].filter((f) => f.endsWith(".json"));

test("scenario files: the JS API gives the trace hash `wmp run` prints", async (t) => {
  assert.ok(scenarioFiles.length >= 7, `found ${scenarioFiles.length} scenario files`);
  for (const file of scenarioFiles) {
    await t.test(path.relative(root, file), () => {
      const native = nativeRun(file);
      const p = new WatermarkPlayground(JSON.parse(fs.readFileSync(file, "utf8")));
      p.runToEnd();
      assert.equal(p.traceHash, native.trace_hash);
      assert.equal(p.windows().length, native.windows.length);
      assert.equal(p.now, native.end_time);
      p.free();
    });
  }
});

// API.md says so: a freed object throws on every method and property; nothing reads freed memory.
test("after free(), a method and a property throw an Error", () => {
  const p = WatermarkPlayground.fromPreset("empty-partition");
  p.free();
  assert.throws(() => p.runFor(1_000), Error);
  assert.throws(() => p.traceHash, Error);
});

test("a scripted session, exported with toScenario(), gives the same hash under `wmp run`", () => {
  const sc = WatermarkPlayground.presetScenario("seed-001-heartbeat");
  sc.duration_ms = 900_000;
  const p = new WatermarkPlayground(sc);
  const windows = [];
  p.on("window", (w) => windows.push(w));
  p.runUntil(120_000);
  assert.equal(windows.length, 0, "the heartbeat partition holds every window");
  assert.match(p.explain(0).text, /partition 11/);
  p.setParam("idle_timeout_ms", 60_000);
  p.produce(3, [{ ts_offset_ms: -90_000, key: "late" }, { key: "now" }]);
  const np = p.addPartition();
  p.attach({ partitions: np, kind: "steady", rate_per_s: 5, jitter_ms: 1000, keys: ["new"] });
  p.runFor(200_000);
  assert.ok(windows.length > 0, "idleness lets the windows fire");
  p.silence(2);
  p.schedule(600_000, { command: "resume", partition: 2 });
  p.stepToNextInteresting();
  p.runToEnd();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wmp-api-")), "session.json");
  fs.writeFileSync(file, JSON.stringify(p.toScenario(), null, 2));
  const native = nativeRun(file);
  assert.equal(native.trace_hash, p.traceHash);
  assert.equal(native.windows.length, p.windows().length);
  // The share string and a reload in the API agree too.
  const q = WatermarkPlayground.fromShareString(p.toShareString());
  q.runToEnd();
  assert.equal(q.traceHash, p.traceHash);
});

test("the diagnosis is the same in wasm as `wmp diagnose` natively, for every symptom scenario", async (t) => {
  const dir = path.join(root, "tests/diagnosis");
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
  assert.ok(files.length >= 30, `found ${files.length} diagnosis scenarios`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wmp-diag-"));
  for (const f of files) {
    await t.test(f, () => {
      const c = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
      const file = path.join(tmp, f);
      fs.writeFileSync(file, JSON.stringify(c.scenario));
      const native = JSON.parse(execFileSync(wmpBin, ["diagnose", "--at", String(c.at_ms), file], { encoding: "utf8" }));
      const p = new WatermarkPlayground(c.scenario);
      p.runUntil(c.at_ms);
      const d = p.diagnose();
      assert.deepEqual(JSON.parse(JSON.stringify(d)), native);
      if (c.fix) {
        const finding = c.fix.finding ? d.findings.find((x) => x.kind === c.fix.finding) : d.findings[0];
        p.applyFix(finding.fixes[c.fix.index]);
      }
      p.free();
    });
  }
});

test("the Node example prints a table of window emissions", () => {
  const out = execFileSync(process.execPath, [path.join(here, "window-table.mjs"), "--limit", "5"], {
    encoding: "utf8",
    env: { ...process.env, WMP_DIST: dist },
  });
  const lines = out.trim().split("\n");
  assert.match(lines[1], /^\d+ window emissions in 600 s of processing time; trace hash [0-9a-f]{16}$/);
  assert.match(lines[2], /^#\s+subtask\s+key\s+window\s+value\s+firing\s+watermark\s+fired at/);
  assert.equal(lines.filter((l) => /^\d+\s+\d+\s+user-\d+\s+\[/.test(l)).length, 5);
  const file = path.join(root, "tests/scenarios/late_data_allowed_lateness.json");
  const out2 = execFileSync(process.execPath, [path.join(here, "window-table.mjs"), file], {
    encoding: "utf8",
    env: { ...process.env, WMP_DIST: dist },
  });
  assert.ok(out2.includes(`trace hash ${nativeRun(file).trace_hash}`), out2);
});

test("init() loads the module from bytes in a fresh process", () => {
  const script = `
    const { default: init, WatermarkPlayground } = await import(${JSON.stringify(path.join(dist, "wmp.js"))});
    const fs = await import("node:fs");
    await init({ module_or_path: fs.readFileSync(${JSON.stringify(path.join(dist, "wmp_bg.wasm"))}) });
    const p = WatermarkPlayground.fromPreset("seed-001-heartbeat");
    p.runFor(1000);
    console.log(p.elapsedMs, p.snapshot().splits.length);`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(out.trim(), "1000 16");
});

test("errors are JS errors naming the argument, and the object keeps working", () => {
  const p = WatermarkPlayground.fromPreset("seed-001-heartbeat");
  const cases = [
    [() => new WatermarkPlayground(42), TypeError, /new WatermarkPlayground: scenario: expected a scenario object/],
    [() => new WatermarkPlayground({ topic: { partitions: 1 } }), Error, /scenario\.window: missing field `window`/],
    [() => p.removePartition(16), RangeError, /removePartition: partition: no partition 16 \(the topic has 16\)/],
    [() => p.produce(0, { ts: NaN }), RangeError, /produce: records\.ts: NaN is not a finite number/],
    [() => p.produce(0, [{ key: "a" }, { key: 1 }]), TypeError, /produce: records\[1\]\.key: invalid type/],
    [() => p.setParam("auto_watermark_interval_ms", -200), RangeError, /setParam: value: the interval must be in/],
    [() => p.setParam("idle_timeout_ms", "60s"), TypeError, /setParam: value: invalid type/],
    [() => p.runFor(1.5), RangeError, /runFor: ms: 1\.5 is not an integer/],
    [() => p.runUntil(2 ** 60), RangeError, /runUntil: atMs: .* beyond ±2\^53/],
    [() => p.runFor(undefined), TypeError, /runFor: ms: expected an integer number or BigInt, got undefined/],
    [() => p.explain(8), RangeError, /explain: subtask: no window subtask 8/],
    [() => p.on("tick", () => {}), RangeError, /on: event: unknown event "tick"/],
    [() => p.on("window", "cb"), TypeError, /on: callback: expected a function/],
    [() => p.restWatermarks("job"), RangeError, /restWatermarks: vertex/],
    [() => WatermarkPlayground.fromShareString("wmp1.@@"), RangeError, /fromShareString: share: invalid character/],
    [() => WatermarkPlayground.fromScenario("late-data"), Error, /"late-data" is a preset id: WatermarkPlayground\.fromPreset takes it/],
  ];
  for (const [call, cls, re] of cases) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof cls, `${e?.constructor?.name}: ${e?.message}`);
      assert.match(e.message, re);
      assert.equal(typeof e.path, "string");
      return true;
    });
    p.runFor(100);
  }
  assert.equal(p.elapsedMs, cases.length * 100);
  p.runFor(1000n);
  assert.equal(p.snapshot().splits.length, 16);
});

test("watermarks are exact: Long.MIN_VALUE and Long.MAX_VALUE survive as raw strings", () => {
  const p = WatermarkPlayground.fromPreset("seed-001-heartbeat");
  const s0 = p.snapshot();
  assert.deepEqual(s0.operators[0].inputWatermark, { ms: null, raw: "-9223372036854775808" });
  assert.equal(WatermarkPlayground.describeWatermark(s0.operators[0].inputWatermark), "No Watermark");
  p.runFor(1000);
  p.endOfInput();
  const s = p.snapshot();
  assert.ok(s.sources.some((x) => x.outputWatermark.raw === "9223372036854775807" && x.outputWatermark.ms === null));
  const rest = p.restWatermarks("window");
  assert.equal(rest.length, 8);
  assert.equal(rest[0].id, "0.currentInputWatermark");
  JSON.stringify(s); // plain, JSON-compatible objects (no BigInt)
});

test("every js example in docs/API.md runs", async (t) => {
  const md = fs.readFileSync(path.join(root, "docs/API.md"), "utf8");
  const blocks = [...md.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  assert.ok(blocks.length >= 25, `found ${blocks.length} js blocks`);
  const AsyncFunction = (async () => {}).constructor;
  // The SQL reader and the export are in wmp.js alone, as API.md says: their examples get its class.
  const Full = (await loadFull()).WatermarkPlayground;
  for (const [i, code] of blocks.entries()) {
    const title = code.split("\n")[0].slice(0, 60);
    await t.test(`block ${i + 1}: ${title}`, async () => {
      const logs = [];
      const quiet = { log: (...a) => logs.push(a), error: (...a) => logs.push(a) };
      const Class = /\b(sqlScenario|exportJob)\(/.test(code) ? Full : WatermarkPlayground;
      const wmp = Class.fromPreset("seed-001-heartbeat");
      await new AsyncFunction("WatermarkPlayground", "wmp", "console", code)(Class, wmp, quiet);
      wmp.free();
    });
  }
});
