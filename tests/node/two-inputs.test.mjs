// The JS API for jobs with two inputs, through the real bundle (dist/): an interval join's pairs
// (`joins(from)`, `on("join")`, equal to `wmp run`'s), the job's shape in the snapshot, a
// two-input operator's per-input watermarks in `snapshot()`, `metrics()` and `restWatermarks()`,
// and the chained watermark operator's view.
//   cd tests/node && node --test
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root, wmpBin, WatermarkPlayground } from "./load.mjs";

const joinFile = path.join(root, "tests/scenarios/interval_join_orders_payments.json");

test("joins(): every pair, in emission order, equal to wmp run's; from an index; within the bounds", () => {
  const native = JSON.parse(execFileSync(wmpBin, ["run", joinFile], { encoding: "utf8", maxBuffer: 1 << 30 }));
  const p = new WatermarkPlayground(JSON.parse(fs.readFileSync(joinFile, "utf8")));
  p.runToEnd();
  const pairs = p.joins();
  assert.equal(pairs.length, native.joins.length);
  assert.ok(pairs.length > 100, `pairs: ${pairs.length}`);
  pairs.forEach((j, i) => {
    assert.equal(j.index, i);
    const n = native.joins[i];
    assert.deepEqual([j.key, j.leftTs, j.rightTs, j.ts, j.time, j.subtask], [n.key, n.left_ts, n.right_ts, n.ts, n.time, n.subtask]);
    // between(-2 s, 5 s) with an exclusive upper bound: right.ts - left.ts in [-2000, 5000).
    assert.ok(j.rightTs - j.leftTs >= -2000 && j.rightTs - j.leftTs < 5000, JSON.stringify(j));
    assert.equal(j.ts, Math.max(j.leftTs, j.rightTs));
  });
  assert.deepEqual(p.joins(pairs.length - 3).map((j) => j.index), [pairs.length - 3, pairs.length - 2, pairs.length - 1]);
  assert.equal(p.snapshot().joinsEmitted, pairs.length);
  assert.deepEqual(p.windows(), [], "a join job emits no windows");
  p.free();
});

test("on('join') delivers each pair once, as joins() lists them", () => {
  const p = new WatermarkPlayground(JSON.parse(fs.readFileSync(joinFile, "utf8")));
  const seen = [];
  const sub = p.on("join", (j) => seen.push(j));
  p.runUntil(20_000);
  p.runFor(10_000);
  sub.remove();
  p.runFor(10_000);
  const all = p.joins();
  assert.ok(seen.length > 0);
  assert.deepEqual(seen, all.slice(0, seen.length), "in emission order, none twice, none missed");
  assert.ok(all.length > seen.length, "nothing after remove()");
  assert.throws(() => p.on("joins", () => {}), (e) => e.path === "event" && /one of window, join, late/.test(e.message));
  p.free();
});

test("a two-input operator: the job's shape, currentInput1/2Watermark in snapshot, metrics and REST, and the input that holds it", () => {
  const p = WatermarkPlayground.fromPreset("quiet-side-join");
  p.runUntil(30_000);
  const s = p.snapshot();
  assert.deepEqual(s.job, {
    topics: ["orders", "rates"],
    twoInputMode: "connect",
    keyedOperator: "window",
    joinBounds: null,
    keyedCapacityPerS: null,
    flowMarks: false,
    channelBufferRecords: 3200,
    recordScale: 1,
  });
  assert.deepEqual(s.splits.map((x) => [x.input, x.partitionInTopic]), [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]]);
  assert.deepEqual(s.sources.map((x) => [x.input, x.subtaskInSource]), [[0, 0], [0, 1], [1, 0]]);
  const op = s.operators[0];
  assert.deepEqual(op.inputs.map((i) => [i.input, i.topic, i.isMin, i.idle]), [[0, "orders", false, false], [1, "rates", true, false]]);
  assert.equal(op.inputs[1].watermark.ms, null, "rates: No Watermark");
  assert.equal(op.inputs[1].watermark.raw, "-9223372036854775808");
  assert.ok(op.inputs[0].watermark.ms > p.startTime, "orders is at the present");
  assert.deepEqual(op.channels.map((c) => [c.input, c.channel, c.sourceSubtask]), [[0, 0, 0], [0, 1, 1], [1, 0, 2]]);
  const m = p.metrics().window[0];
  assert.deepEqual(m.currentInput1Watermark, op.inputs[0].watermark);
  assert.deepEqual(m.currentInput2Watermark, op.inputs[1].watermark);
  assert.deepEqual(m.currentInputWatermark, op.inputWatermark, "the operator's is their minimum");
  // Flink's handler reads only currentInputWatermark: a two-input task's is the minimum of both.
  assert.deepEqual(p.restWatermarks("window").map((r) => r.id), ["0.currentInputWatermark", "1.currentInputWatermark"]);
  assert.equal(p.restWatermarks("window")[0].value, op.inputWatermark.raw);
  const d = p.diagnose();
  assert.equal(d.culprit.input, 1);
  assert.match(d.headline, /Partition rates-0/);
  assert.ok(d.findings.some((f) => f.kind === "quiet_input_holds"));
  p.applyFix(d.findings.find((f) => f.fixes.length).fixes[0]);
  p.runFor(30_000);
  assert.ok(p.windows().length > 0);
  assert.equal(p.snapshot().operators[0].inputs[1].idle, true);
  assert.equal(p.metrics().window[0].currentInput2Watermark.raw, op.inputs[1].watermark.raw, "an idle input keeps its last watermark");
  p.free();
});

test("one input: no inputs, no per-input metrics; a union is one input over both sources' channels", () => {
  const one = WatermarkPlayground.fromPreset("seed-001-heartbeat");
  one.runUntil(5_000);
  assert.deepEqual(one.snapshot().operators[0].inputs, []);
  assert.equal("currentInput1Watermark" in one.metrics().window[0], false);
  assert.equal(one.snapshot().job.twoInputMode, null);
  const u = WatermarkPlayground.fromPreset("union-idle-stream");
  u.runUntil(5_000);
  assert.equal(u.snapshot().job.twoInputMode, "union");
  assert.deepEqual(u.snapshot().operators[0].inputs, []);
  assert.deepEqual(u.snapshot().operators[0].channels.map((c) => c.input), [0, 0], "both sources' channels on one input");
  one.free();
  u.free();
});

test("a chained watermark operator: its own watermark and idle state beside the source's", () => {
  const p = WatermarkPlayground.fromPreset("midstream-assigner");
  p.runUntil(60_000);
  const src = p.snapshot().sources[0];
  assert.equal(src.idle, true, "the source subtask went idle");
  assert.equal(src.midstream.operator, "assignTimestampsAndWatermarks");
  assert.equal(src.midstream.idle, false, "the operator after it did not");
  const reasons = p.explain(0).reasons.map((r) => r.kind);
  assert.ok(reasons.includes("midstream_holds"), reasons.join());
  p.free();
});

test("attach() returns the engine numbers it writes to, within a named topic; a run past ten years is refused", () => {
  // From the input review: the partitions were resolved against every topic's, so a producer
  // on the second topic's partition 1 returned [1] while the engine wrote to partition 5.
  const p = WatermarkPlayground.fromPreset("quiet-side-join");
  const topics = p.snapshot().job.topics;
  const first = p.snapshot().splits.filter((s) => s.input === 0).length;
  const second = p.snapshot().splits.length - first;
  assert.ok(second > 0, JSON.stringify(topics));
  assert.deepEqual(p.attach({ topic: topics[1], partitions: 0, kind: "steady", rate_per_s: 1 }), [first]);
  assert.deepEqual(
    p.attach({ topic: topics[1], partitions: "all", kind: "steady", rate_per_s: 1 }),
    Array.from({ length: second }, (_, i) => first + i),
  );
  assert.throws(() => p.runUntil(11 * 365 * 86_400_000), (e) => e.path === "atMs" && /ten years/.test(e.message));
  assert.throws(() => p.runFor(11 * 365 * 86_400_000), (e) => e.path === "ms" && /ten years/.test(e.message));
  assert.throws(
    () => p.schedule(11 * 365 * 86_400_000, { command: "silence", partition: 0 }),
    (e) => e.path === "atMs" && /ten years/.test(e.message),
    "the time is what is wrong, not the command",
  );
  p.free();
});
