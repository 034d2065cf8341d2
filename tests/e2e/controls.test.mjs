// Controls end to end: add a partition, inject events, silence a split and see the idle flag,
// field validation, keyboard shortcuts, theme override, export/import round trip.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import fs from "node:fs";
import { execFileSync } from "node:child_process";
import { startServer, launch, openPage, gotoApp, choosePreset, playUntil, clockMs, artifactsDir, openControls } from "./lib.mjs";

let server, browser, baseUrl;
const shots = artifactsDir("e2e");

before(async () => {
  server = await startServer();
  baseUrl = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await new Promise((r) => server.close(r));
});

async function app(fn, options = {}) {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 1600, height: 1000 }, ...options });
  try {
    await gotoApp(page, baseUrl);
    await fn(page, context);
    const real = problems.filter((p) => !p.includes("clipboard"));
    assert.deepEqual(real, [], real.join("\n"));
  } finally {
    await context.close();
  }
}

async function setField(page, id, value) {
  await page.fill(id, value);
  await page.press(id, "Enter");
}

test("add a partition, inject events into it, silence a split and see it go idle", async () => {
  await app(async (page) => {
    await choosePreset(page, "late-data");
    await openControls(page);
    await page.click("#btn-add-partition");
    assert.equal(await page.locator("svg.graph .node.part").count(), 3);
    assert.equal(await page.locator("#splits-table tbody tr").count(), 3);
    // The new partition holds the watermark (never received a record) ...
    await playUntil(page, 5_000, 10);
    assert.equal(await page.locator(".why [data-culprit-partition]").first().getAttribute("data-culprit-partition"), "2");
    // ... until it gets an event: inject one, relative to now.
    await page.selectOption("#f-inj-part", "2");
    await page.fill("#f-inj-ts", "-1 s");
    await page.click("#btn-send");
    await page.click("#btn-step");
    await page.waitForFunction(() => document.querySelector("#splits-table tr[data-partition='2'] td:nth-child(4)")?.textContent.trim() === "1");
    // An absolute timestamp too. The field starts at now (it read a time a day early: the
    // time of day with "-1d", written for a clock a day ahead).
    await page.fill("#f-inj-ts", "now");
    const at = async () => (await page.locator("#f-inj-ts-msg").textContent()).match(/\((-?\d+)\)/)?.[1];
    const nowAt = await at();
    assert.ok(nowAt, await page.locator("#f-inj-ts-msg").textContent());
    await page.selectOption("#f-inj-mode", "absolute");
    assert.match(await page.inputValue("#f-inj-ts"), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    assert.equal(await at(), nowAt, "the absolute field starts at now");
    await page.fill("#f-inj-ts", "2026-01-01 00:00:03");
    await page.click("#btn-send");
    await page.click("#btn-step");
    await page.waitForFunction(() => document.querySelector("#splits-table tr[data-partition='2'] td:nth-child(4)")?.textContent.trim() === "2");
    // Silence partition 0 with one click, set an idle timeout, and watch it go idle.
    await page.click("#splits-table tr[data-partition='0'] button");
    assert.match(await page.locator("#splits-table tr[data-partition='0'] button").textContent(), /resume/);
    await setField(page, "#f-idle", "3 s");
    assert.equal(await page.inputValue("#f-idle"), "3 s");
    const now = await clockMs(page);
    await playUntil(page, now + 6_000, 5);
    assert.match(await page.locator("#splits-table tr[data-partition='0']").textContent(), /IDLE/);
    assert.equal(await page.locator("svg.graph .node.part.idle[data-partition='0']").count(), 1);
    await page.screenshot({ path: path.join(shots, "controls-idle.png") });
  });
});

test("fields refuse bad input with a message at the field", async () => {
  await app(async (page) => {
    await openControls(page);
    await page.fill("#f-bound", "five seconds");
    assert.equal(await page.getAttribute("#f-bound", "aria-invalid"), "true");
    assert.match(await page.locator("#f-bound-err").textContent(), /not a duration/);
    await page.fill("#f-idle", "0");
    assert.match(await page.locator("#f-idle-err").textContent(), /greater than 0/);
    // The start offset's time is checked as typed and marked as the others are, by its label.
    await page.selectOption("#f-start", "timestamp");
    await page.fill("#f-start-at", "soonish");
    assert.equal(await page.getAttribute("#f-start-at", "aria-invalid"), "true");
    assert.match(await page.locator(".ctl-group", { has: page.locator("#f-start-at") }).textContent(), /records from \(UTC\): 'soonish' is not a time/);
    await page.fill("#f-start-at", "2026-01-01 00:00:10");
    assert.equal(await page.getAttribute("#f-start-at", "aria-invalid"), "false");
    // "now" (any case, spaces around) is the simulation's current time, as in a relative field.
    await page.fill("#f-start-at", " Now ");
    assert.equal(await page.getAttribute("#f-start-at", "aria-invalid"), "false", "now is a time");
    await page.selectOption("#f-start", "earliest");
    await page.fill("#f-src-par", "0");
    await page.click("#btn-apply-parallelism");
    assert.match(await page.locator(".ctl-group", { hasText: "Topology" }).textContent(), /between 1 and 256/);
    await page.fill("#f-inj-ts", "yesterday-ish");
    assert.match(await page.locator(".ctl-group", { hasText: "Inject an event" }).textContent(), /not a duration|unknown unit/);
    // Each field keeps its own message and mark: the value's was replaced by the timestamp's.
    await page.fill("#f-inj-val", "abc");
    assert.match(await page.locator("#f-inj-val-err").textContent(), /'abc' is not a whole number/);
    assert.equal(await page.getAttribute("#f-inj-val", "aria-invalid"), "true");
    assert.equal(await page.getAttribute("#f-inj-ts", "aria-invalid"), "true");
    await page.click("#btn-send");
    assert.match(await page.locator("#f-inj-val-err").textContent(), /'abc' is not a whole number/);
    await page.fill("#f-inj-val", "1");
    await page.fill("#f-inj-ts", "-2 s");
    assert.equal(await page.getAttribute("#f-inj-ts", "aria-invalid"), "false");
    await page.selectOption("#f-inj-mode", "absolute");
    assert.match(await page.locator("label[for=f-inj-ts]").textContent(), /or now/, "the hint says so");
    await page.fill("#f-inj-ts", "NOW");
    assert.equal(await page.getAttribute("#f-inj-ts", "aria-invalid"), "false", "now is a time");
    // The header's UTC clock, "HH:MM:SS.mmm UTC": the same instant.
    const utc = (await page.locator(".clock .mono.small").textContent()).replace(" UTC", "").trim();
    assert.equal((await page.locator("#f-inj-ts-msg").textContent()).replace(/ \(\d+\)$/, ""), `event time ${utc}`);
    await page.selectOption("#f-inj-mode", "relative");
    // A valid value applies; the WHY panel follows.
    await setField(page, "#f-bound", "2 s");
    assert.equal(await page.getAttribute("#f-bound", "aria-invalid"), "false");
    assert.equal((await page.locator("#f-bound-err").textContent()).trim(), "");
    // A number without a unit is milliseconds, as in Flink: said, not done silently.
    await setField(page, "#f-bound", "3");
    assert.equal(await page.inputValue("#f-bound"), "3 ms");
    assert.match(await page.locator("#f-bound-err").textContent(), /read as 3 ms: a number without a unit is milliseconds \(write 3 s for seconds\)/);
    assert.equal(await page.getAttribute("#f-bound", "aria-invalid"), "false", "a note, not an error");
    await page.fill("#f-bound", "3 s");
    assert.equal((await page.locator("#f-bound-err").textContent()).trim(), "", "typing clears it");
    await setField(page, "#f-bound", "3000");
    assert.match(await page.locator("#f-bound-err").textContent(), /read as 3 s: a number without a unit is milliseconds/);
    // A decimal comma is refused, not read as thousands ("1,5 s" was 15 s).
    await page.fill("#f-bound", "1,5 s");
    assert.match(await page.locator("#f-bound-err").textContent(), /a comma separates thousands here/);
    await page.screenshot({ path: path.join(shots, "field-validation.png") });
  });
});

test("settings changed before ▶ stay in the fields after a restart (Apply ↻)", async () => {
  await app(async (page) => {
    await choosePreset(page, "late-data");
    await openControls(page);
    await setField(page, "#f-bound", "2.5 s");
    await setField(page, "#f-idle", "20 s");
    assert.equal(await page.locator(".changed-note").isVisible(), false, "settings changed while it runs leave it the preset");
    await page.fill("#f-src-par", "2");
    await page.click("#btn-apply-parallelism");
    await page.locator(".notice", { hasText: "Parallelism: source 2" }).first().waitFor();
    // They showed the old values until ▶ reached 1 ms, and read as lost.
    assert.equal(await page.inputValue("#f-bound"), "2.5 s");
    assert.equal(await page.inputValue("#f-idle"), "20 s");
    // The preset's story is of the job as it came: the card says this one is not.
    assert.equal(await page.locator(".changed-note").isVisible(), true);
    await choosePreset(page, "empty-partition");
    assert.equal(await page.locator(".changed-note").isVisible(), false);
  });
});

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

test("Escape in a field undoes the edit and keeps the panel open; a second Escape closes it", async () => {
  await app(async (page) => {
    await openControls(page);
    const before = await page.inputValue("#f-bound");
    await page.fill("#f-bound", "7 s");
    await page.press("#f-bound", "Escape");
    assert.equal(await page.inputValue("#f-bound"), before);
    assert.equal(await page.getAttribute("#btn-controls", "aria-expanded"), "true", "the panel stays open");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "f-bound");
    await page.press("#f-bound", "Escape");
    assert.equal(await page.getAttribute("#btn-controls", "aria-expanded"), "false");
  });
});

test("a confirmation stays while it is pointed at or focused, and goes after", async () => {
  await app(async (page) => {
    await openControls(page);
    await page.click("#btn-send");
    const notice = page.locator(".notice", { hasText: "Sent one record" });
    await notice.waitFor();
    await notice.locator("button").focus();
    // It expired after 4 s whatever the reader did, and the focus fell to the page.
    await page.waitForTimeout(5_000);
    assert.equal(await notice.count(), 1, "kept while focused");
    await page.locator("#btn-send").focus();
    await notice.waitFor({ state: "detached", timeout: 4_000 });
  });
});

test("sending again replaces the last send's confirmation", async () => {
  await app(async (page) => {
    await openControls(page);
    for (let i = 0; i < 4; i++) await page.click("#btn-send");
    const notices = page.locator(".notice", { hasText: "Sent one record" });
    await notices.first().waitFor();
    assert.equal(await notices.count(), 1, "four piled over the WHY panel");
  });
});

test("keyboard shortcuts and the ? overlay", async () => {
  await app(async (page) => {
    await page.locator("body").click({ position: { x: 5, y: 700 } });
    await page.keyboard.press("?");
    await page.locator(".overlay:not(.hidden)").waitFor();
    assert.match(await page.locator(".dialog").textContent(), /play \/ pause/);
    await page.screenshot({ path: path.join(shots, "help-overlay.png") });
    await page.keyboard.press("Escape");
    assert.equal(await page.locator(".overlay.hidden").count(), 1);
    const t0 = await clockMs(page);
    // The first step processes the start instant itself; the second moves the clock.
    await page.keyboard.press(".");
    await page.keyboard.press(".");
    await page.waitForFunction((t) => {
      const [h, m, s] = document.querySelector("#clock").textContent.trim().split(":");
      return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 > t;
    }, t0);
    await page.keyboard.press(" ");
    assert.equal(await page.getAttribute("#btn-play", "aria-pressed"), "true");
    await page.keyboard.press(" ");
    assert.equal(await page.getAttribute("#btn-play", "aria-pressed"), "false");
    const speed = await page.inputValue("#speed");
    await page.keyboard.press("+");
    assert.ok(Number(await page.inputValue("#speed")) > Number(speed));
    await page.keyboard.press("2");
    await page.waitForFunction(() => document.querySelector("#preset").value === "empty-partition");
    await page.keyboard.press("n");
    await page.keyboard.press("r");
    await page.waitForFunction(() => document.querySelector("#clock").textContent.trim() === "00:00:00.000");
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.keyboard.press("t");
    assert.notEqual(await page.evaluate(() => document.documentElement.dataset.theme), theme);
  });
});

test("theme override: dark even when the system is light", async () => {
  await app(async (page) => {
    while ((await page.evaluate(() => document.documentElement.dataset.theme)) !== "dark") await page.click("#btn-theme");
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.ok(bg.match(/\d+/g).slice(0, 3).map(Number).every((c) => c < 64), bg);
    await page.screenshot({ path: path.join(shots, "theme-dark-override.png") });
    await page.click("#btn-theme"); // back to system for the next visit
  }, { colorScheme: "light" });
});

test("the timeline's canvas repaints in the new colours when the theme or the system changes", async () => {
  await app(async (page) => {
    await page.click("#btn-step");
    const pixels = () => page.evaluate(() => document.querySelector("canvas.timeline").toDataURL());
    const paintedAfter = async (old) => {
      await page.waitForFunction((o) => document.querySelector("canvas.timeline").toDataURL() !== o, old);
      return pixels();
    };
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "system");
    const light = await pixels();
    // Paused, following the system: the system turns dark.
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await paintedAfter(light);
    // The override back to light.
    while ((await page.evaluate(() => document.documentElement.dataset.theme)) !== "light") await page.click("#btn-theme");
    await paintedAfter(dark);
    while ((await page.evaluate(() => document.documentElement.dataset.theme)) !== "system") await page.click("#btn-theme");
  }, { colorScheme: "light" });
});

test("export / import round trip replays the session", async () => {
  let exported;
  await app(async (page) => {
    await choosePreset(page, "empty-partition");
    await playUntil(page, 20_000, 30);
    await openControls(page);
    await setField(page, "#f-idle", "30 s");
    await playUntil(page, 60_000, 30);
    await page.click("#tab-export");
    exported = await page.inputValue("#export-json");
    const sc = JSON.parse(exported);
    assert.ok(sc.commands.some((c) => c.command === "set_param" && c.param.name === "idle_timeout_ms" && c.param.value === 30000));
  });
  await app(async (page) => {
    await page.click("#tab-import");
    await page.fill("#import-json", '{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": -5}}}');
    await page.click("#btn-import");
    assert.match(await page.locator("#import-error").textContent(), /window\.assigner\.size_ms/);
    // The value the message names is selected, and the box is marked invalid.
    const picked = () => page.$eval("#import-json", (a) => [a.value.slice(a.selectionStart, a.selectionEnd), a.getAttribute("aria-invalid"), document.activeElement === a]);
    assert.deepEqual(await picked(), ["-5", "true", true]);
    await page.fill("#import-json", exported.replace('"topic"', '"topic" 7, "x"'));
    await page.click("#btn-import");
    assert.match(await page.locator("#import-error").textContent(), /not valid JSON/);
    assert.deepEqual(await picked(), ["7", "true", true], "a syntax error's character");
    await page.fill("#import-json", exported);
    await page.click("#btn-import");
    assert.equal(await page.locator("#import-error").textContent(), "");
    assert.equal(await page.locator("svg.graph .node.part").count(), 4);
    // Exporting the imported scenario gives the same JSON back.
    await page.click("#tab-export");
    assert.equal(await page.inputValue("#export-json"), exported);
    // And it replays: the idle timeout switches on at its time, windows fire.
    await playUntil(page, 60_000, 30);
    assert.equal(await page.inputValue("#f-idle"), "30 s");
    assert.ok(Number((await page.locator("#emissions-count").textContent()).split(" ")[0].replace(/,/g, "")) > 0);
    await page.click("#tab-java");
    assert.match(await page.locator("#java-code").textContent(), /withIdleness\(Duration\.ofSeconds\(30\)\)/);
    await page.click("#tab-sql");
    assert.match(await page.locator("#sql-code").textContent(), /'table\.exec\.source\.idle-timeout' = '30 s'/);
    assert.match(await page.locator("#sql-code").textContent(), /WATERMARK FOR event_time AS event_time - INTERVAL '2' SECOND/);
  });
});

test("a share link reopens the preset at its speed", async () => {
  await app(async (page) => {
    await page.goto(baseUrl + "#preset=late-data&speed=30", { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor();
    assert.equal(await page.inputValue("#preset"), "late-data");
    assert.equal(await page.inputValue("#speed"), "30");
  });
});

test("an exported session reproduces the live trace hash (JS API and wmp run)", async () => {
  await app(async (page) => {
    await choosePreset(page, "empty-partition");
    await playUntil(page, 5_000, 10);
    // Live actions while paused and while playing: silence, a set_param, an injected record.
    await page.click("svg.graph [data-silence='1']");
    await openControls(page);
    await setField(page, "#f-idle", "20 s");
    await playUntil(page, 12_000, 10);
    await page.click("#btn-step");
    await page.click("svg.graph [data-silence='1']");
    await playUntil(page, 30_000, 30);
    await page.click("#tab-export");
    const hash = (await page.locator("#trace-hash").textContent()).trim();
    const atMs = Number(await page.locator("#trace-hash").getAttribute("data-at-ms"));
    assert.match(hash, /^[0-9a-f]{16}$/);
    assert.ok(atMs >= 30_000, `hash taken at ${atMs}`);
    const exported = await page.inputValue("#export-json");
    const sc = JSON.parse(exported);
    assert.equal(sc.duration_ms, atMs);
    assert.equal(sc.commands.filter((c) => c.command === "silence" || c.command === "resume").length, 2);
    // The JS API in the same page, from the exported JSON, run to the same time.
    const replayed = await page.evaluate(
      ([json, at]) => {
        const w = window.wasmBindings.WatermarkPlayground.fromScenario(JSON.parse(json));
        w.runUntil(at);
        return w.traceHash;
      },
      [exported, atMs],
    );
    assert.equal(replayed, hash);
    // `wmp run` on the file, when the native runner is built.
    const wmp = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "..", "target", "release", "wmp");
    if (fs.existsSync(wmp)) {
      const file = path.join(shots, "exported-session.json");
      fs.writeFileSync(file, exported);
      const report = JSON.parse(execFileSync(wmp, ["run", file], { encoding: "utf8", maxBuffer: 64 << 20 }));
      assert.equal(report.trace_hash, hash);
    }
  });
});

/**
 * The Flink version select sets a release's switches together and restarts the job; a
 * scenario whose switches no release had shows "custom switches". 2.1.3 (no all-idle flush)
 * was reachable only in scenario JSON.
 */
test("the Flink version select runs the job as a release, and names a mix 'custom switches'", async () => {
  await app(async (page) => {
    const exportedFlink = async () => {
      await page.click("#tab-export");
      return JSON.parse(await page.inputValue("#export-json")).flink;
    };
    const defaults = await exportedFlink();
    await openControls(page);
    assert.equal(await page.inputValue("#f-flink-version"), "2.3.0", "the default is the newest");
    await playUntil(page, 10_000, 30);
    await page.selectOption("#f-flink-version", "2.1.3");
    await page.locator(".notice", { hasText: "Flink 2.1.3: " }).first().waitFor();
    assert.match(await page.locator(".notice", { hasText: "Flink 2.1.3: " }).first().textContent(), /\(restarted\)/);
    assert.ok((await clockMs(page)) < 10_000, "the job restarted");
    assert.equal(await page.inputValue("#f-flink-version"), "2.1.3");
    // The hint under it is its description: what the release changes, heard with the choice.
    const hint = page.locator("#" + (await page.getAttribute("#f-flink-version", "aria-describedby")));
    assert.match(await hint.textContent(), /no all-idle flush/);
    const v213 = await exportedFlink();
    assert.equal(v213.combined_all_idle_flush, false);
    assert.equal(v213.idleness_clock, undefined, "still the input-activity clock");
    await page.selectOption("#f-flink-version", "1.19.1");
    assert.equal((await exportedFlink()).idleness_clock, "wall");
    await page.selectOption("#f-flink-version", "2.3.0");
    assert.deepEqual(await exportedFlink(), defaults, "2.3.0 is the defaults again");
    assert.equal(await page.inputValue("#f-flink-version"), "2.3.0");
    // The wall clock of 1.19.1 with 2.x's idle-split skip: no release had both.
    const mixed = JSON.parse(await page.inputValue("#export-json"));
    mixed.flink = { ...mixed.flink, idleness_clock: "wall", alignment_skip_idle_splits: true };
    await page.click("#tab-import");
    await page.fill("#import-json", JSON.stringify(mixed));
    await page.click("#btn-import");
    assert.equal(await page.locator("#import-error").textContent(), "");
    assert.equal(await page.inputValue("#f-flink-version"), "custom");
    assert.equal(await page.locator("#f-flink-version option:checked").textContent(), "custom switches");
    assert.match(await hint.textContent(), /match no release/);
    await page.screenshot({ path: path.join(shots, "flink-version-custom.png") });
  });
});

// "Pick the preset again to start over" did nothing: the picker still showed it, and picking
// the option shown fires no `change`. The note has a button that does.
test("Start over in the changed job's note reloads the preset as it came", async () => {
  await app(async (page) => {
    await choosePreset(page, "late-data");
    await openControls(page);
    const par = await page.inputValue("#f-src-par");
    await page.fill("#f-src-par", String(Number(par) + 1));
    await page.click("#btn-apply-parallelism");
    await page.locator(".changed-note").waitFor({ state: "visible" });
    await page.click("[data-testid=start-over]");
    await page.locator(".changed-note").waitFor({ state: "hidden" });
    assert.equal(await page.inputValue("#f-src-par"), par, "the preset's parallelism again");
    assert.equal(await page.inputValue("#preset"), "late-data");
    // The button went away with the note: the focus is on the card's title, not on <body>.
    assert.equal(await page.evaluate(() => document.activeElement?.closest(".preset-card h2") !== null), true);
  });
});

/** The Flink version chosen in Controls (a restart). */
async function chooseFlink(page, version) {
  await openControls(page);
  await page.selectOption("#f-flink-version", version);
  await page.locator(".notice", { hasText: `Flink ${version}` }).first().waitFor();
}

// The footer said "Flink 2.3 semantics" and the download promised "the same window results"
// with 1.19.1 chosen; the job runs 2.3 and does not replay older releases' switches
// (docs/EXPORT.md).
test("the Flink version chosen reaches the footer and the download's promise", async () => {
  await app(async (page) => {
    await choosePreset(page, "empty-partition");
    const footer = () => page.locator("[data-testid=footer]").textContent();
    const promise = () => page.locator("#btn-download-job-java").getAttribute("title");
    assert.match(await footer(), /^Semantics of Flink 2\.3,/);
    assert.match(await promise(), /same window results/);
    for (const v of ["1.19.1", "2.1.3"]) {
      await chooseFlink(page, v);
      assert.match(await footer(), new RegExp(`^Semantics of Flink ${v.replace(/\./g, "\\.")},`));
      const title = await promise();
      assert.doesNotMatch(title, /same window results/);
      assert.match(title, new RegExp(`Flink 2\\.3 .*simulates Flink ${v.replace(/\./g, "\\.")}, so they can differ`));
    }
    await chooseFlink(page, "2.3.0");
    assert.match(await footer(), /^Semantics of Flink 2\.3,/);
    assert.match(await promise(), /same window results/);
  });
});

// On a phone a toast ("Flink 2.1.3: …") covered the foot of the help dialog. Hidden under the
// modal, toasts expired unseen and an error raised meanwhile sat in an inert role=alert: they
// stay live, drawn under the overlay.
test("no toast covers the help dialog on a phone, and one raised behind it is live", async () => {
  await app(
    async (page) => {
      await choosePreset(page, "empty-partition");
      await chooseFlink(page, "2.1.3");
      await page.click("#btn-controls-close");
      await page.click("#btn-help");
      const dialog = page.locator("[role=dialog]");
      await dialog.waitFor({ state: "visible" });
      // A notice raised while the dialog is open (a restart from a script; the keys go to the dialog).
      await page.evaluate(() => {
        const s = document.querySelector("#f-flink-version");
        s.value = "2.3.0";
        s.dispatchEvent(new Event("change"));
      });
      const raised = page.locator(".notice", { hasText: "Flink 2.3.0" });
      await raised.waitFor({ state: "attached" });
      const toasts = await page.locator(".notice").evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
          const top = document.elementFromPoint(x, y);
          return { text: e.textContent, inert: !!e.closest("[inert]"), shown: e.checkVisibility(), onTop: e.contains(top), underDialog: !!top?.closest(".overlay") };
        }),
      );
      assert.ok(toasts.length >= 2, `the toasts: ${JSON.stringify(toasts)}`);
      for (const t of toasts) {
        assert.ok(!t.inert && t.shown, `a toast hidden or inert under the dialog: ${JSON.stringify(t)}`);
        assert.ok(!t.onTop && t.underDialog, `a toast drawn over the dialog: ${JSON.stringify(t)}`);
      }
      // Live, but not reachable: focus that lands on a toast's button (the page's own Tab order,
      // after a click on the dialog's text left the focus on <body>) goes back into the dialog.
      const inDialog = () => page.evaluate(() => !!document.activeElement?.closest("[role=dialog]"));
      await page.evaluate(() => document.querySelector(".notice button").focus());
      assert.ok(await inDialog(), "the focus stayed on a toast under the dialog");
      await page.click("[role=dialog] p");
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press("Tab");
        assert.ok(await inDialog(), `Tab ${i + 1} left the dialog`);
      }
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.ok(await raised.isVisible());
    },
    { viewport: { width: 390, height: 844 } },
  );
});
