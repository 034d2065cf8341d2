// <watermark-playground>'s scripting surface: the DOM CustomEvents it dispatches (bubbling,
// composed, the JS API's payloads; a long runUntil's in batches) and el.playground (the
// simulation's API, errors naming the argument; the JS API's reads and commands, agreeing with a
// WatermarkPlayground of the same scenario). Lifecycle, attributes, styles and hostile
// input: element.test.mjs. Page: www/pages/element-test.html.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch } from "./lib.mjs";
import { cspHeaders, elementHelpers } from "./element-lib.mjs";

const env = serveAndLaunch({ before, after }, cspHeaders);
const { open, add, call } = elementHelpers(env);

test("DOM CustomEvents bubble (composed) from the element with the JS API's payloads", async () => {
  const { context, page, problems } = await open();
  try {
    await page.evaluate(() => {
      window.got = {};
      for (const kind of ["window", "late", "watermark", "idle", "active"]) {
        document.addEventListener(kind, (e) => {
          const g = (window.got[kind] ??= { n: 0 });
          g.n++;
          g.detail = e.detail;
          g.target = e.target.id;
          g.composed = e.composed;
          g.bubbles = e.bubbles;
        });
      }
    });
    await add(page, "ev", { preset: "late-data", loading: "eager" });
    await add(page, "idler", { preset: "restart-stalls-until-idle", loading: "eager" });
    await page.locator("#idler .node.op").first().waitFor();
    await call(page, "ev", "runUntil", 1_800_000);
    await call(page, "idler", "runUntil", 1_800_000);
    const got = await page.evaluate(() => window.got);
    for (const kind of ["window", "late", "watermark", "idle"]) {
      assert.ok(got[kind]?.n > 0, `${kind} events arrived: ${JSON.stringify(got)}`);
      assert.equal(got[kind].composed, true);
      assert.equal(got[kind].bubbles, true);
    }
    assert.equal(got.late.target, "ev");
    assert.ok("watermark" in got.watermark.detail && "level" in got.watermark.detail, JSON.stringify(got.watermark.detail));
    assert.ok("end" in got.window.detail && "key" in got.window.detail, JSON.stringify(got.window.detail));
    assert.ok("partition" in got.late.detail, JSON.stringify(got.late.detail));
    // active: a silenced partition goes idle after the 60 s timeout, and is active again once resumed.
    await add(page, "act", { preset: "heartbeat-idle-timeout", loading: "eager" });
    await page.locator("#act .node.op").first().waitFor();
    await page.evaluate(() => { window.got = {}; });
    await call(page, "act", "silence", 1);
    await call(page, "act", "runUntil", 200_000);
    await call(page, "act", "resume", 1);
    await call(page, "act", "runUntil", 260_000);
    const act = await page.evaluate(() => window.got);
    assert.ok(act.idle?.n > 0 && act.active?.n > 0, JSON.stringify(act));
    assert.equal(act.active.target, "act");
    assert.equal(act.active.composed && act.active.bubbles, true);
    assert.ok("level" in act.active.detail, JSON.stringify(act.active.detail));
    // Playing dispatches them too.
    await page.evaluate(() => { window.got = {}; document.getElementById("ev").setAttribute("speed", "3000"); document.getElementById("ev").playground.play(); });
    await page.waitForFunction(() => (window.got.window?.n ?? 0) > 0, null, { timeout: 20_000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a host's long runUntil dispatches its events in batches as it runs, none lost", async () => {
  const { context, page, problems } = await open();
  try {
    // An hour of seed 001 is some 300,000 watermark events: held to the end of the call they
    // took 480 MB of wasm memory, and nine hours trapped.
    await add(page, "long", { preset: "seed-001-heartbeat", loading: "eager" });
    await page.locator("#long .node.op").first().waitFor();
    await page.evaluate(() => {
      window.clocks = [];
      document.getElementById("long").addEventListener("watermark", (e) => window.clocks.push(e.target.playground.elapsedMs()));
    });
    await call(page, "long", "runUntil", 3_600_000);
    const r = await page.evaluate(() => {
      const at = [...new Set(window.clocks)];
      return { n: window.clocks.length, at: at.length, first: at[0], last: at.at(-1), sorted: at.every((t, i) => i === 0 || at[i - 1] < t) };
    });
    assert.ok(r.n > 100_000, JSON.stringify(r));
    assert.ok(r.at > 10 && r.sorted && r.first < 3_600_000 && r.last === 3_600_000, `delivered during the run, in order: ${JSON.stringify(r)}`);
    assert.equal(await call(page, "long", "elapsedMs"), 3_600_000);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("el.playground: the simulation's API, errors naming the argument", async () => {
  const { context, page, problems } = await open();
  try {
    const r = await page.evaluate(() => {
      const p = document.getElementById("first").playground;
      const err = (f) => { try { f(); return null; } catch (e) { return `${e.name}: ${e.message}`; } };
      const out = {};
      out.start = [p.playing, p.now() - p.now(), p.elapsedMs()];
      p.setSpeed(1000);
      out.speed = p.speed;
      p.play();
      out.playing = p.playing;
      p.pause();
      p.runUntil(600_000);
      out.elapsed = p.elapsedMs();
      out.hash = p.traceHash();
      out.snapshot = Object.keys(p.snapshot()).includes("splits");
      p.silence(0);
      p.resume(0);
      out.share = p.toShareString().startsWith("wmp1.");
      p.loadPreset("late-data");
      out.afterLoad = p.elapsedMs();
      p.load("seed-001-heartbeat");
      p.runUntil(600_000);
      out.hash2 = p.traceHash();
      out.errors = [
        err(() => p.setSpeed("x")),
        err(() => p.setSpeed(0)),
        err(() => p.loadPreset("nope")),
        err(() => p.load(42)),
        err(() => p.load("{")),
        err(() => p.runUntil("soon")),
        err(() => p.silence(999)),
      ];
      return out;
    });
    assert.deepEqual(r.start, [false, 0, 0]);
    assert.equal(r.speed, 1000);
    assert.equal(r.playing, true);
    assert.equal(r.elapsed, 600_000);
    assert.match(r.hash, /^[0-9a-f]{16}$/);
    assert.equal(r.snapshot, true);
    assert.equal(r.share, true);
    assert.equal(r.afterLoad, 0);
    assert.equal(r.hash2, r.hash, "the same preset and time give the same trace hash");
    const [speedType, speedRange, preset, loadType, loadBad, runUntil, silence] = r.errors;
    assert.match(speedType, /^TypeError: setSpeed: speed: /);
    assert.match(speedRange, /^RangeError: setSpeed: speed: /);
    assert.match(preset, /loadPreset: id: .*nope/);
    assert.match(loadType, /^TypeError: load: scenario: /);
    assert.match(loadBad, /load: scenario: /);
    assert.match(runUntil, /runUntil: atMs: /);
    assert.match(silence, /silence: partition: no partition 999 \(the topic has /);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("el.playground: the JS API's reads and commands on the element's simulation, as a WatermarkPlayground of its scenario answers them", async () => {
  const { context, page, problems } = await open();
  try {
    const r = await page.evaluate(async () => {
      const { WatermarkPlayground } = await import("../wmp.js");
      const p = document.getElementById("first").playground;
      const err = (f) => { try { f(); return null; } catch (e) { return `${e.name}: ${e.message}`; } };
      p.runUntil(120_000);
      p.setParam("idle_timeout_ms", 5_000);
      p.markIdle(1);
      const produced = p.produce(0, [{ key: "late", ts: 1 }, { key: "late", ts: 2 }]);
      p.apply([{ command: "mark_split_active", partition: 1 }]);
      const part = p.addPartition();
      p.runUntil(300_000);
      const why = p.diagnose();
      const fix = why.findings.flatMap((f) => f.fixes).find((f) => !f.restarts);
      if (fix) p.applyFix(fix);
      p.runUntil(360_000);
      const reads = (o) => ({
        hash: typeof o.traceHash === "function" ? o.traceHash() : o.traceHash,
        windows: o.windows(0),
        late: o.lateRecords().length,
        metrics: o.metrics(),
        rest: o.restWatermarks("window"),
        bp: o.restBackPressure("source"),
        state: o.stateSizeHistory().samples.length,
        explain: o.explain(0).text,
        lag: o.lagHistory(0).length,
        culprit: JSON.stringify(o.diagnose().culprit),
        snap: o.snapshot({ openWindows: 2 }).splits.length,
      });
      const sc = p.toScenario();
      const api = new WatermarkPlayground(sc);
      api.runUntil(360_000);
      const out = { produced, part, fix: fix?.label ?? null, methods: Object.keys(p), el: reads(p), api: reads(api), commands: sc.commands.length };
      api.free();
      out.errors = [
        err(() => p.explain(9)),
        err(() => p.setParam("window_parallelism", 2)),
        err(() => p.setParam("idle_timeout_ms", -5)),
        err(() => p.produce(0, { ts: "soon" })),
        err(() => p.apply([{ command: "silence", partition: 0 }, { command: "fly" }])),
        err(() => p.restWatermarks("sink")),
        err(() => p.windows(-1)),
        err(() => p.applyFix({ nope: 1 })),
        err(() => p.applyFix({ kind: "idle_timeout", value: -1 })),
        err(() => p.setParam("nope", 1)),
      ];
      return out;
    });
    assert.equal(r.produced, 2);
    assert.equal(r.part, 16, "seed-001-heartbeat has partitions 0 … 15");
    assert.ok(r.fix, "the diagnosis offered a live fix");
    for (const m of ["windows", "explain", "diagnose", "produce", "apply", "setParam", "applyFix", "markIdle", "toScenario"]) {
      assert.ok(r.methods.includes(m), `el.playground.${m}`);
    }
    assert.ok(r.commands >= 6, `the commands issued are in toScenario(): ${r.commands}`);
    assert.ok(r.el.windows.length > 0 && r.el.late > 0, JSON.stringify({ w: r.el.windows.length, late: r.el.late }));
    assert.deepEqual(r.el, r.api, "the element's reads are a WatermarkPlayground's of its scenario at the same time");
    const [explain, structural, value, record, command, vertex, from, fix, fixValue, unknown] = r.errors;
    assert.match(explain, /^RangeError: explain: subtask: no window subtask 9/);
    assert.match(structural, /^Error: setParam: name: window_parallelism shapes the job: load\(\) a scenario/);
    assert.match(value, /setParam: value: /);
    assert.match(record, /^TypeError: produce: records\.ts: /);
    assert.match(command, /apply: commands\[1\]/);
    assert.match(vertex, /restWatermarks: vertex: no vertex "sink"/);
    assert.match(from, /^RangeError: windows: from: /);
    assert.match(fix, /applyFix: fix/);
    assert.match(fixValue, /^\w+: applyFix: fix\.value: /, "the fix's own field, not the command's param.value");
    assert.match(unknown, /setParam: name: unknown parameter "nope" \(one of bound_ms, /);
    assert.doesNotMatch(unknown, /window_parallelism/, "the element refuses the structural ones: they are not offered");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a listener that loads another scenario ends the run: the old run's other events are not dispatched", async () => {
  const { context, page, problems } = await open();
  try {
    const r = await page.evaluate(() => {
      const el = document.getElementById("first");
      const p = el.playground;
      p.setParam("idle_timeout_ms", 5_000);
      const seen = { n: 0, afterLoad: 0 };
      el.addEventListener("window", () => {
        seen.n++;
        if (seen.loaded) seen.afterLoad++;
        if (seen.n === 1) {
          p.loadPreset("late-data");
          seen.loaded = true;
        }
      });
      p.runUntil(200_000);
      return { n: seen.n, afterLoad: seen.afterLoad, elapsed: p.elapsedMs(), windows: p.windows(0).length };
    });
    assert.deepEqual(r, { n: 1, afterLoad: 0, elapsed: 0, windows: 0 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
