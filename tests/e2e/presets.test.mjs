// Every preset, end to end: load it from the picker, run it, and check that the WHY panel names
// the right culprit and that windows fire (or not) as the preset's text says; then apply the
// suggested fix and check that it works. Screenshots of each state go to artifacts/e2e/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { startServer, launch, openPage, gotoApp, choosePreset, playUntil, artifactsDir } from "./lib.mjs";

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

const results = async (page) => Number((await page.locator("#emissions-count").textContent()).split(" ")[0].replace(/,/g, ""));
const dropped = async (page) => Number((await page.locator("#late-dropped b").textContent()).replace(/,/g, ""));
const side = async (page) => Number((await page.locator("#late-side b").textContent()).replace(/,/g, ""));
const why = async (page) => (await page.locator(".why").textContent()).replace(/\s+/g, " ");
const step = (page, label) => page.locator(".preset-actions button", { hasText: label }).first().click();
const culprit = async (page) => page.locator(".why [data-culprit-partition]").first().getAttribute("data-culprit-partition");

async function withPreset(id, fn) {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  try {
    await gotoApp(page, baseUrl);
    await choosePreset(page, id);
    await fn(page);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
}

test("seed 001: partition 11 holds every window; the idle timeout releases them", async () => {
  await withPreset("seed-001-heartbeat", async (page) => {
    await playUntil(page, 20 * 60_000, 1000);
    assert.equal(await results(page), 0, "no window fires while partition 11 holds the watermark");
    assert.equal(await culprit(page), "11");
    assert.match(await why(page), /partition 11 has had no record for/);
    assert.equal(await page.locator("svg.graph .node.part.holding[data-partition='11']").count(), 1);
    await page.screenshot({ path: path.join(shots, "seed001-stalled.png") });
    await page.click(".why .btn.fix");
    await playUntil(page, 23 * 60_000, 1000);
    assert.ok((await results(page)) > 0, "windows fire once partition 11 is idle");
    assert.ok((await page.locator("#splits-table tr[data-partition='11']").textContent()).includes("IDLE"));
    await page.screenshot({ path: path.join(shots, "seed001-fixed.png") });
  });
});

test("seed 001: the burst lands with the next heartbeat at 90 minutes", async () => {
  await withPreset("seed-001-heartbeat", async (page) => {
    // 1000×, not 3000×: under load, pausing can lag the clock by a few hundred ms of wall time,
    // and at 3000× that overshot the 90-minute heartbeat.
    await playUntil(page, 80 * 60_000, 1000);
    assert.equal(await results(page), 0);
    await playUntil(page, 91 * 60_000, 300);
    assert.ok((await results(page)) > 1000, "ninety minutes of windows at once");
  });
});

test("empty partition: nothing fires; withIdleness fixes it; waking it up makes late records", async () => {
  await withPreset("empty-partition", async (page) => {
    await playUntil(page, 30_000, 30);
    assert.equal(await results(page), 0);
    assert.equal(await culprit(page), "3");
    assert.match(await why(page), /No Watermark/);
    await step(page, "Fix: withIdleness(5 s)");
    await playUntil(page, 75_000, 30);
    assert.ok((await results(page)) > 0);
    await step(page, "Wake partition 3 with 40 s old records");
    await playUntil(page, 110_000, 30);
    assert.ok((await dropped(page)) > 0, "the woken partition's records are late");
    await page.screenshot({ path: path.join(shots, "empty-partition-late.png") });
  });
});

test("more source subtasks than partitions: No Watermark until parallelism matches", async () => {
  await withPreset("more-subtasks-than-partitions", async (page) => {
    await playUntil(page, 15_000, 30);
    assert.equal(await results(page), 0);
    assert.match(await why(page), /owns no partition/);
    await step(page, "Fix: source parallelism 2 ↻");
    assert.equal(await page.locator("svg.graph .node.src").count(), 2);
    await playUntil(page, 15_000, 30);
    assert.ok((await results(page)) > 0);
  });
});

test("far-future outlier: everything after it is late; clamping fixes it", async () => {
  await withPreset("far-future-outlier", async (page) => {
    await playUntil(page, 45_000, 30);
    assert.ok((await side(page)) > 50, "records after the outlier go to the late side output");
    assert.match(await why(page), /ahead of processing time/);
    await page.screenshot({ path: path.join(shots, "far-future.png") });
    await step(page, "Fix: clamp timestamps ↻");
    await playUntil(page, 45_000, 30);
    assert.equal(await side(page), 0);
    assert.ok((await results(page)) > 0);
  });
});

test("seconds read as milliseconds: the watermark is in 1970 and nothing fires", async () => {
  await withPreset("timestamp-units", async (page) => {
    await playUntil(page, 30_000, 30);
    assert.equal(await results(page), 0);
    assert.match(await why(page), /1970/);
    assert.match(await why(page), /seconds read as milliseconds/);
    await step(page, "Fix: read the event time field ↻");
    await playUntil(page, 70_000, 30);
    assert.ok((await results(page)) > 0);
  });
});

test("bound too large: results arrive a minute late, then on time", async () => {
  await withPreset("bound-too-large", async (page) => {
    await playUntil(page, 100_000, 30);
    assert.ok((await results(page)) > 0);
    const delay = await page.locator("#emissions-table tbody tr:first-child td:nth-child(7)").textContent();
    assert.match(delay, /^(59|60)\.\d s$/, `delay ${delay}`);
    await step(page, "Fix: bound 1 s");
    await playUntil(page, 130_000, 30);
    const after = await page.locator("#emissions-table tbody tr:first-child td:nth-child(7)").textContent();
    assert.match(after, /^\d\.\d s$/, `delay ${after}`);
  });
});

test("late data: dropped silently, then re-fired with allowed lateness", async () => {
  await withPreset("late-data", async (page) => {
    await playUntil(page, 40_000, 30);
    assert.ok((await dropped(page)) > 0);
    await step(page, "Allowed lateness 10 s");
    await playUntil(page, 70_000, 30);
    assert.ok((await page.locator("#emissions-table").textContent()).includes("◇ late"), "late re-firings");
    assert.match(await page.locator("#emissions-count").textContent(), /[1-9][\d,]* duplicates/);
    await step(page, "Late side output on");
    await playUntil(page, 100_000, 30);
    assert.ok((await side(page)) > 0);
    await page.screenshot({ path: path.join(shots, "late-data.png"), fullPage: true });
  });
});

test("heartbeat defeats the idle timeout until heartbeats are filtered", async () => {
  await withPreset("heartbeat-idle-timeout", async (page) => {
    await playUntil(page, 100_000, 30);
    assert.equal(await culprit(page), "1");
    // The engine's own reason (KeptActiveBySparseRecords), in the sentence and as a reason line.
    assert.match(await why(page), /gets only heartbeats, one every 30\.0 s .*keep it active although the idle timeout is 60\.0 s: filter heartbeats before the generator/);
    assert.match(await why(page), /only heartbeats/i);
    assert.ok(!(await page.locator("#splits-table tr[data-partition='1']").textContent()).includes("IDLE"));
    await step(page, "Fix: filter heartbeats");
    await playUntil(page, 190_000, 30);
    assert.ok((await page.locator("#splits-table tr[data-partition='1']").textContent()).includes("IDLE"));
  });
});

test("MAX on silence: the watermark ends, later data is dropped; withIdleness is safe", async () => {
  await withPreset("max-on-silence", async (page) => {
    await playUntil(page, 150_000, 100);
    assert.match(await why(page), /end of input/);
    const fired = await results(page);
    await playUntil(page, 300_000, 100);
    assert.ok((await dropped(page)) > 100, "records after MAX are dropped");
    assert.equal(await results(page), fired, "nothing fires after MAX");
    await page.screenshot({ path: path.join(shots, "max-on-silence.png") });
    await step(page, "Fix: withIdleness(60 s) instead ↻");
    await playUntil(page, 300_000, 100);
    assert.equal(await dropped(page), 0);
  });
});

test("back-pressure: a back-pressured split never goes idle (Flink 2.x) until the window operator has capacity", async () => {
  await withPreset("backpressure-never-idle", async (page) => {
    await playUntil(page, 120_000, 30);
    // The channel into the window operator in the Web UI's HIGH colour, the source subtask's
    // badge saying so with its backPressuredTimeMsPerSecond, and the window's busy time.
    assert.deepEqual(await page.locator("svg.graph-edges.pressure path").evaluateAll((ps) => ps.map((p) => p.getAttribute("data-bp"))), ["HIGH"]);
    assert.ok(await page.locator("svg.graph-edges.pressure path.bp-high").count(), "coloured as HIGH");
    assert.match(await page.locator("svg.graph .bp-badge").getAttribute("aria-label"), /^back-pressured: HIGH, \d{3,4} ms\/s$/);
    assert.ok(Number(await page.locator("svg.graph .flow-line").getAttribute("data-busy")) > 0, "the window subtask is busy");
    assert.equal(await page.locator("svg.graph .flow-line .gauge-fill").count(), 1, "one gauge for its one channel");
    // Partition 3 stopped at 00:00:30: silent since, but never idle.
    const p3 = page.locator("#splits-table tr[data-partition='3']");
    const row = (await p3.textContent()).replace(/\s+/g, " ");
    assert.ok(!row.includes("IDLE"), row);
    assert.match(await p3.locator("td").nth(6).textContent(), /^(\d{2,}\.\d s|\d+(\.\d)? min) ago$/, "silent for a while");
    assert.match(await why(page), /back-pressured/);
    await page.screenshot({ path: path.join(shots, "backpressure-high.png") });
    const before = await results(page);
    await step(page, "Fix: window capacity 5,000/s");
    await playUntil(page, 180_000, 30);
    assert.ok((await p3.textContent()).includes("IDLE"), "partition 3 goes idle once back-pressure ends");
    assert.ok((await results(page)) > before, "the windows it held fire");
    await page.screenshot({ path: path.join(shots, "backpressure-fixed.png") });
  });
});

test("a step says on its button when it is in effect (a live change, a restart)", async () => {
  const inEffect = async (page, label) => {
    const b = page.locator(".preset-actions button", { hasText: label }).first();
    return { cls: (await b.getAttribute("class")).includes("in-effect"), heard: (await b.textContent()).includes("(in effect)") };
  };
  await withPreset("seed-001-heartbeat", async (page) => {
    assert.deepEqual(await inEffect(page, "Fix: idle timeout 15 s"), { cls: false, heard: false });
    assert.deepEqual(await inEffect(page, "Idle timeout off"), { cls: true, heard: true }, "the job starts with it off");
    await step(page, "Fix: idle timeout 15 s");
    await page.waitForFunction(() => document.querySelector(".preset-actions button.in-effect")?.textContent.includes("15 s"));
    assert.deepEqual(await inEffect(page, "Idle timeout off"), { cls: false, heard: false });
    // An event is done, not a state.
    await step(page, "Retire the heartbeat producer");
    assert.deepEqual(await inEffect(page, "Retire the heartbeat producer"), { cls: false, heard: false });
  });
  await withPreset("more-subtasks-than-partitions", async (page) => {
    await step(page, "Fix: source parallelism 2");
    await page.waitForFunction(() => [...document.querySelectorAll(".preset-actions button.in-effect")].some((b) => b.textContent.includes("parallelism 2")));
  });
});
