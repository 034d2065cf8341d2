// Hostile calls through the JS API in Node.js (issue 10): extreme numbers, wrong types, huge
// strings, cycles, scenarios over the work budget. Each must throw a real JS Error naming the
// argument — never a wasm trap (RuntimeError), never a hang — and leave the object usable.
//   cd tests/node && node --test hostile.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.env.WMP_DIST ?? path.join(here, "../../dist"));
const { initSync, WatermarkPlayground } = await import(path.join(dist, "wmp.js"));
initSync({ module: fs.readFileSync(path.join(dist, "wmp_bg.wasm")) });

const small = () => ({ topic: { partitions: 2 }, window: { assigner: { type: "tumbling", size_ms: 1000 } } });

/** Asserts `f` throws an Error (not a wasm RuntimeError) whose message is one short line. */
function refuses(f, what) {
  let err;
  try {
    f();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof Error, `${what}: expected an Error, got ${err}`);
  assert.ok(!(err instanceof WebAssembly.RuntimeError), `${what}: a wasm trap: ${err}`);
  assert.ok(!err.message.includes("\n") && err.message.length < 600, `${what}: not one short line: ${err.message.slice(0, 200)}`);
  return err;
}

test("hostile scenarios are refused with the field named", () => {
  const cases = [
    // As JSON text, so that the engine's own bounds answer (a JS number this large is refused
    // earlier, by the argument conversion).
    [JSON.stringify({ ...small(), producers: [{ partitions: 0, kind: "steady", rate_per_s: 1, start_ms: 0 }] }).replace('"start_ms":0', '"start_ms":1152921504606846976'), "producers[0].start_ms"],
    [JSON.stringify({ ...small(), commands: [{ at_ms: 0, command: "silence", partition: 0 }] }).replace('"at_ms":0', '"at_ms":4611686018427387904'), "commands[0].at_ms"],
    [{ ...small(), producers: [{ partitions: 0, kind: "burst", every_ms: 1, count: 10_000_000 }] }, "duration_ms"],
    [{ ...small(), topic: { partitions: 1000 }, producers: [{ partitions: "all", kind: "heartbeat", every_ms: 1000, keys: { count: 10_000_000 } }] }, "producers"],
    [{ ...small(), window: { assigner: { type: "sliding", size_ms: 10_000_000, slide_ms: 1 } } }, "window.assigner.slide_ms"],
    [{ ...small(), window: { assigner: { type: "sliding", size_ms: 100_000, slide_ms: 1 } }, producers: [{ partitions: 0, kind: "steady", rate_per_s: 1000 }] }, "duration_ms"],
    [{ ...small(), topic: { partitions: "x".repeat(1_000_000) } }, "topic.partitions"],
  ];
  for (const [sc, field] of cases) {
    const err = refuses(() => new WatermarkPlayground(sc), field);
    assert.ok(err.path.includes(field), `${field}: path ${err.path}: ${err.message.slice(0, 200)}`);
  }
  assert.match(refuses(() => new WatermarkPlayground(JSON.stringify(small()) + " trailing"), "trailing data").message, /after the JSON document/);
  assert.match(refuses(() => new WatermarkPlayground("\ufeff" + JSON.stringify(small())), "byte-order mark").message, /byte-order mark/);
  const cyclic = small();
  cyclic.self = cyclic;
  refuses(() => new WatermarkPlayground(cyclic), "a cycle");
});

test("running far past the scenario is refused by the work budget, not a hang", () => {
  const p = WatermarkPlayground.fromPreset("seed-001-heartbeat");
  const err = refuses(() => p.runFor(1e15), "runFor(1e15)");
  assert.equal(err.path, "ms");
  refuses(() => p.attach({ partitions: "all", kind: "heartbeat", every_ms: 1000, keys: { count: 10_000_000 } }), "10^7 keys on 16 partitions");
  p.runFor(1_000); // still usable
});

test("hostile calls throw and the playground keeps working", () => {
  const p = new WatermarkPlayground(small());
  p.runFor(1_000);
  const hostile = [
    () => p.runFor(Number.MAX_VALUE),
    () => p.runFor(2n ** 70n),
    () => p.runUntil(-1), // in the past
    () => p.runFor(NaN),
    () => p.produce(0, { ts: 2 ** 60 }),
    () => p.produce(0, { ts_offset_ms: -(2 ** 60) }),
    () => p.produce(0, { key: "k".repeat(10) , value: Infinity }),
    () => p.produce(7, {}),
    () => p.produce(0, Array.from({ length: 3 }, () => ({ kee: 1 }))),
    () => p.setParam("channel_latency_ms", 2 ** 52),
    () => p.setParam("auto_watermark_interval_ms", -1),
    () => p.setParam("idle_timeout_ms", 0),
    () => p.setParam("x".repeat(100_000), 1),
    () => p.attach({ partitions: 0, kind: "heartbeat", every_ms: 2 ** 52 }),
    () => p.attach({ partitions: 0, kind: "burst", every_ms: 1, count: 2 ** 40 }),
    () => p.apply({ command: "remove_partition", partition: 2 ** 31 }),
    () => p.schedule(2 ** 53, { command: "silence", partition: 0 }),
    () => p.stepToNextInteresting(0),
    () => p.explain(99),
    () => p.on("window", 42),
  ];
  hostile.forEach((f, i) => refuses(f, `call ${i}`));
  // Still usable, and nothing was logged by the refused calls.
  p.runFor(5_000);
  assert.equal(p.toScenario().commands.length, 0);
  assert.ok(p.elapsedMs >= 6_000);
});
