// The controls drawer's generator select (the bound and silence it remembers) and its other
// restarts: the start offset's "now", a cumulate window.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { serveAndLaunch, onApp, setField, choosePreset, playUntil, clockMs, openControls, onPage, gotoApp, ROOT } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const app = (fn, options) => onApp(env, fn, options);

// The generator select lost the bound through forMonotonousTimestamps or noWatermarks (they
// have none, and the way back set 0), and gave the custom generator 60 s of silence whatever
// the scenario's was.
test("switching the generator keeps the bound through one without it, and the custom one's silence", async () => {
  await app(async (page) => {
    await choosePreset(page, "max-on-silence");
    await openControls(page);
    // The preset with 30 s of silence instead of its 60 s, imported.
    await page.click("#tab-export");
    const sc = JSON.parse(await page.inputValue("#export-json"), (k, v) => (k === "silence_ms" ? 30_000 : v));
    await page.click("#tab-import");
    await page.fill("#import-json", JSON.stringify(sc));
    await page.click("#btn-import");
    assert.equal(await page.locator("#import-error").textContent(), "");
    await setField(page, "#f-bound", "7 s");
    for (const g of ["monotonous", "none", "bounded"]) await page.selectOption("#f-generator", g);
    assert.equal(await page.inputValue("#f-bound"), "7 s");
    await page.selectOption("#f-generator", "max_on_silence");
    await page.click("#tab-export");
    const generators = JSON.parse(await page.inputValue("#export-json")).commands.filter((c) => c.command === "set_param" && c.param.name === "generator");
    assert.deepEqual(generators.map((c) => c.param.value.kind), ["monotonous", "no_watermarks", "bounded_out_of_orderness", "max_on_silence"]);
    assert.deepEqual(generators.at(-1).param.value, { kind: "max_on_silence", bound_ms: 7_000, silence_ms: 30_000 });
  });
});

// The bound and silence the select remembers are the scenario's: they carried the last
// scenario's over a load (seed-001's 5 s into a preset whose source has none), and a pick of a
// bounded generator ran with them. A restart with a change (Apply ↻) is the same scenario: they
// carry over it.
test("a scenario load resets the bound and silence the generator select remembers", async () => {
  await app(async (page) => {
    await choosePreset(page, "seed-001-heartbeat");
    await openControls(page);
    assert.equal(await page.inputValue("#f-bound"), "5 s");
    // noWatermarks at the source, SQL's `ts - INTERVAL '2' SECOND` after it: the 2 s are its bound.
    await choosePreset(page, "sql-idle-reactivates");
    assert.equal(await page.inputValue("#f-generator"), "none");
    await page.selectOption("#f-generator", "bounded");
    assert.equal(await page.inputValue("#f-bound"), "2 s", "the loaded scenario's bound, not the last one's 5 s");
    // The custom generator with 30 s of silence imported, then a job with neither bound nor
    // silence: forMonotonousTimestamps is bounded(0), and the silence the custom one's default.
    await choosePreset(page, "max-on-silence");
    await page.click("#tab-export");
    const sc = JSON.parse(await page.inputValue("#export-json"));
    const load = async (generator) => {
      sc.source.watermark.generator = generator;
      await page.click("#tab-import");
      await page.fill("#import-json", JSON.stringify(sc));
      await page.click("#btn-import");
      assert.equal(await page.locator("#import-error").textContent(), "");
    };
    await load({ kind: "max_on_silence", bound_ms: 3_000, silence_ms: 30_000 });
    await load({ kind: "monotonous" });
    assert.equal(await page.inputValue("#f-generator"), "monotonous");
    await page.selectOption("#f-generator", "max_on_silence");
    await page.click("#tab-export");
    const generators = JSON.parse(await page.inputValue("#export-json")).commands.filter((c) => c.command === "set_param" && c.param.name === "generator");
    assert.deepEqual(generators.at(-1).param.value, { kind: "max_on_silence", bound_ms: 0, silence_ms: 60_000 }, "not the 3 s and 30 s imported before");
    // A restart with a change keeps them.
    await choosePreset(page, "seed-001-heartbeat");
    await page.selectOption("#f-generator", "monotonous");
    await page.fill("#f-src-par", "2");
    await page.click("#btn-apply-parallelism");
    await page.locator(".notice", { hasText: "Parallelism: source 2" }).first().waitFor();
    await page.selectOption("#f-generator", "bounded");
    assert.equal(await page.inputValue("#f-bound"), "5 s");
  });
});

test("records from \"now\" start at the restarted run's now, its start, not where the old run was", async () => {
  await app(async (page) => {
    await choosePreset(page, "late-data");
    await openControls(page);
    await page.selectOption("#f-start", "timestamp");
    // The field shows the run's start until a timestamp is set.
    const start = await page.inputValue("#f-start-at");
    await playUntil(page, 20_000, 30);
    await page.fill("#f-start-at", "now");
    await page.click("#btn-apply-flow");
    await page.locator(".notice", { hasText: "start offset timestamp (restarted)" }).first().waitFor();
    assert.ok((await clockMs(page)) < 20_000, "the run restarted");
    // "now" was the old run's 00:00:20: the restarted run read nothing for its first 20 s.
    assert.equal(await page.inputValue("#f-start-at"), start, "now is the restarted run's start");
  });
});

test("a cumulate window from the drawer becomes a SQL CUMULATE window, with its own field names", async () => {
  await app(async (page) => {
    await openControls(page);
    await page.selectOption("#f-wtype", "cumulate");
    assert.equal(await page.locator("label[for=f-wsize]").textContent(), "max size");
    assert.equal(await page.locator("label[for=f-wslide]").textContent(), "step");
    await page.fill("#f-wsize", "30 s");
    await page.fill("#f-wslide", "10 s");
    await page.click("#btn-apply-window");
    // It restarted as a SQL window (the apply said 'set "api": "sql"', which the drawer cannot).
    await page.locator(".notice", { hasText: "SQL CUMULATE window" }).waitFor();
    assert.match(await page.inputValue("#sql-text"), /CUMULATE/);
  });
});

// A link's commands (or its scenario's own) that switched to forMonotonousTimestamps before its
// position left the select 0 to go back to: it remembered the bound of the job as replayed to
// there, bounded(0), not the scenario's.
test("a link that switched to forMonotonousTimestamps gives the scenario's bound back to the select", async () => {
  const state = (obj) => "2." + zlib.deflateRawSync(Buffer.from(JSON.stringify(obj))).toString("base64url");
  const monotonous = { at_ms: 1_000, command: "set_param", param: { name: "generator", value: { kind: "monotonous" } } };
  const lateData = JSON.parse(fs.readFileSync(path.join(ROOT, "presets", "late_data.json"), "utf8"));
  assert.deepEqual(lateData.source.watermark.generator, { kind: "bounded_out_of_orderness", bound_ms: 2_000 });
  const links = {
    "the link's commands": { p: "late-data", c: [monotonous], t: 5_000 },
    "its scenario's commands": { sc: { ...lateData, commands: [monotonous] }, t: 5_000 },
  };
  for (const [whose, link] of Object.entries(links)) {
    // Opened as a new page does, not a #fragment pasted into the page of another link.
    await onPage(env.browser, { width: 1600, height: 1000 }, async (page) => {
      await gotoApp(page, env.baseUrl, "s=" + state(link));
      assert.ok((await clockMs(page)) >= 5_000, `${whose}: opened at its position`);
      await openControls(page);
      assert.equal(await page.inputValue("#f-generator"), "monotonous", `${whose}: switched`);
      await page.selectOption("#f-generator", "bounded");
      assert.equal(await page.inputValue("#f-bound"), "2 s", `${whose}: the scenario's bound, not 0`);
    });
  }
});
