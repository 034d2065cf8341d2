// Checkpoints, failures and restore, end to end (issue 13): the job status strip, the ✕ / ↻
// marks on the timeline, the WHY panel after a restore, the kill buttons, and the state-size
// chart with the TaskManager memory line. Each test logs the wall time its preset took to reach
// its point at the preset's own speed. Screenshots go to artifacts/e2e/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { startServer, launch, openPage, gotoApp, choosePreset, playUntil, clockMs, artifactsDir } from "./lib.mjs";

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
const why = async (page) => (await page.locator(".why").textContent()).replace(/\s+/g, " ");
const strip = async (page) => (await page.locator("#job-strip").textContent()).replace(/\s+/g, " ");
const status = (page) => page.locator("#job-strip").getAttribute("data-status");
const jobMarks = (page) => page.locator("canvas.timeline").getAttribute("data-job");
const step = (page, label) => page.locator(".preset-actions button", { hasText: label }).first().click();

async function withPreset(id, fn) {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 1440, height: 900 } });
  try {
    await gotoApp(page, baseUrl);
    await choosePreset(page, id);
    await fn(page);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
}

test("restart-stalls-until-idle: failure, RESTARTING, the restore stalls 30 s; with a 5 s idle timeout a kill stalls seconds", async () => {
  await withPreset("restart-stalls-until-idle", async (page) => {
    assert.equal(await status(page), "RUNNING");
    const t0 = Date.now();
    // The scripted failure is at 00:02:00 and the restart strategy waits 5 s.
    await playUntil(page, 120_500, 10);
    console.log(`restart-stalls-until-idle: past the failure at 00:02:00 (10×) after ${Date.now() - t0} ms of wall time`);
    assert.equal(await status(page), "RESTARTING");
    assert.match(await strip(page), /RESTARTING until 00:02:05\.000 \(in /);
    assert.match(await strip(page), /✕ TaskManager 0 was killed \(command\) at 00:02:00/);
    assert.match(await jobMarks(page), /failures=1 restarts=0 down=1/);
    const fail = page.locator(".tl-jm.fail").first();
    assert.match(await fail.getAttribute("title"), /✕ failure \(the job restarts\): TaskManager 0 was killed .* at 00:02:00/);
    assert.ok(await page.locator("#kill-tm-0").isDisabled(), "nothing to kill while the job is down");
    assert.match(await page.locator("#job-strip .tm-why").textContent(), /RESTARTING/);
    // The preset's own "Kill" step says the same (it said "Applied" and killed nothing).
    const presetKill = page.locator(".preset-actions button", { hasText: "Kill TaskManager 0" }).first();
    assert.ok(await presetKill.isDisabled(), "the preset's kill step is disabled too");
    assert.match(await presetKill.getAttribute("title"), /RESTARTING/);
    assert.match(await page.locator(".preset-actions .step-why").textContent(), /RESTARTING/, "said as text, for touch screens");
    assert.match(await why(page), /the job is RESTARTING/i);
    // No task runs: the graph shows the failed attempt's last state, dimmed and said so.
    assert.match(await page.locator("svg.graph").getAttribute("class"), /\bdown\b/);
    assert.match(await page.locator("svg.graph").getAttribute("aria-label"), /no task runs/);
    await page.screenshot({ path: path.join(shots, "restore-restarting.png") });

    await playUntil(page, 126_000, 10);
    assert.equal(await status(page), "RUNNING");
    assert.doesNotMatch(await page.locator("svg.graph").getAttribute("class"), /\bdown\b/);
    const afterRestore = await results(page);
    await playUntil(page, 135_000, 10);
    assert.match(await strip(page), /attempt 2 · 1 restart/);
    assert.match(await page.locator(".tl-jm.restart").first().getAttribute("title"), /restored checkpoint 11 at 00:02:05/);
    assert.match(await jobMarks(page), /failures=1 restarts=1 down=1/);
    const w = await why(page);
    assert.match(w, /stalled after the restore/);
    assert.match(w, /partition 3 has had no record since, so it needs the idle timeout \(30\.0 s\) again/);
    assert.equal(await results(page), afterRestore, "nothing fires while partition 3 waits out its 30 s again");
    await page.screenshot({ path: path.join(shots, "restore-stalled.png") });

    // The fix the WHY panel proposes, then a failure of our own.
    await step(page, "Fix: idle timeout 5 s");
    await page.focus("#kill-tm-0");
    await page.keyboard.press("Enter");
    const killed = await clockMs(page);
    assert.equal(await status(page), "RESTARTING");
    // The button is disabled now: the focus goes to the status that says what happened, not
    // to the page.
    assert.match(await page.evaluate(() => document.activeElement?.className), /job-badge/);
    assert.match(await jobMarks(page), /failures=2 restarts=1 down=2/);
    await playUntil(page, killed + 5_500, 10);
    assert.equal(await status(page), "RUNNING", "restored 5 s after the kill");
    const restored = await results(page);
    await playUntil(page, killed + 14_000, 10);
    assert.ok((await results(page)) > restored, "windows fire again within seconds of the second restore");
    assert.doesNotMatch(await why(page), /stalled after the restore/);
    assert.match(await strip(page), /attempt 3 · 2 restarts/);
    // One count of duplicates: the strip's (replayed results) are in the emissions header's.
    const dup = (await strip(page)).match(/([\d,]+) duplicate results/);
    assert.ok(dup && dup[1] !== "0", await strip(page));
    assert.match(await page.locator("#emissions-count").textContent(), new RegExp(`\\b${dup[1]} (duplicates? in the append sink|from the replay)`));
    await page.screenshot({ path: path.join(shots, "restore-short-stall.png") });
  });
});

test("backfill-taskmanager-lost: the state climbs to the memory line, TaskManager 0 is lost, the job restarts", async () => {
  await withPreset("backfill-taskmanager-lost", async (page) => {
    const chart = page.locator("svg.state-chart");
    assert.equal(await chart.getAttribute("data-limit"), String(4 * 1024 ** 3));
    assert.match(await page.locator(".state-card").textContent(), /TaskManager memory 4 GiB/);
    const t0 = Date.now();
    await page.click("#btn-play");
    await page.locator(".tl-jm.fail").first().waitFor({ timeout: 30_000 });
    await page.click("#btn-play");
    const wall = Date.now() - t0;
    console.log(`backfill-taskmanager-lost: "TaskManager 0 lost" (00:01:53) shown after ${wall} ms of wall time at 60×, paused at ${(await clockMs(page)) / 1000} s`);
    assert.ok(wall < 10_000, `the preset reaches its point in ${wall} ms`);
    assert.match(await page.locator(".tl-jm.fail").first().getAttribute("title"), /TaskManager 0 lost: its keyed state/);
    assert.match(await strip(page), /✕ TaskManager 0 lost at 00:0\d:\d\d/);
    // The chart shows the state that killed it: over the memory line.
    await page.waitForFunction(() => Number(document.querySelector("svg.state-chart")?.dataset.failures) >= 1);
    assert.ok(Number(await chart.getAttribute("data-peak")) >= Number(await chart.getAttribute("data-limit")));
    assert.equal(await page.locator("svg.state-chart .st-fail").count() >= 1, true);
    assert.ok(["RESTARTING", "RUNNING"].includes(await status(page)));
    await page.locator(".state-card").screenshot({ path: path.join(shots, "state-chart-lost.png") });
    // Again after the restart: a loop of failures.
    await playUntil(page, 150_000, 60);
    assert.match(await jobMarks(page), /failures=[2-9]/);
    assert.match(await strip(page), /restored #3/);
    await page.screenshot({ path: path.join(shots, "backfill-lost.png") });
  });
});

// `tests/restore_ended.rs`'s split alignment run: partition 0 is read again up to where its
// input had ended and waits there, out of its subtask's watermark; every view says so.
test("a split read again to its end: the pill, the split table and its tooltip say it is not counted", async () => {
  const fail = (at_ms) => ({ at_ms, command: "fail", target: { keyed_subtask: 0 } });
  const scenario = {
    duration_ms: 12_000,
    topic: { partitions: 2 },
    source: {
      read_rate_per_s: 20,
      watermark: {
        generator: { kind: "bounded_out_of_orderness", bound_ms: 2000 },
        alignment: { group: "g", max_drift_ms: 1000, update_interval_ms: 100 },
      },
    },
    window: { assigner: { type: "tumbling", size_ms: 1000 } },
    producers: [{ partitions: 1, kind: "steady", rate_per_s: 10 }],
    checkpointing: { interval_ms: 2000, restart: { type: "fixed_delay", delay_ms: 600, attempts: 5 } },
    commands: [
      { at_ms: 1000, command: "produce", partition: 0, records: [{ ts_offset_ms: 3900 }] },
      { at_ms: 4010, command: "produce", partition: 0, records: [{ ts_offset_ms: -3900 }] },
      { at_ms: 5900, command: "end_of_input" },
      fail(5950),
    ],
  };
  const { context, page, problems } = await openPage(browser, { viewport: { width: 1440, height: 900 } });
  try {
    await page.goto(`${baseUrl}#scenario=${encodeURIComponent(JSON.stringify(scenario))}&start-at=7000`);
    const pill = page.locator('svg.graph g.part[data-partition="0"]');
    await pill.waitFor();
    assert.equal(await pill.getAttribute("data-state"), "at its end");
    assert.match(await pill.getAttribute("aria-label"), /at its end, not counted in its subtask's watermark/);
    assert.equal(await page.locator('svg.graph g.part[data-partition="1"]').getAttribute("data-state"), "active");
    // Nothing writes to partition 0: no Silence / Resume beside its pill.
    assert.match(await page.locator('svg.graph g.silence-btn[data-silence="0"]').getAttribute("class"), /\bhidden\b/);
    assert.doesNotMatch(await page.locator('svg.graph g.silence-btn[data-silence="1"]').getAttribute("class"), /\bhidden\b/);
    const cell = page.locator('#splits-table tr[data-partition="0"] td.status');
    assert.match(await cell.textContent(), /at its end · not counted/);
    assert.match(await cell.getAttribute("title"), /leaves it out until the input ends again/);
    assert.equal(await page.locator('#splits-table tr[data-partition="1"] td.status').getAttribute("title"), null);
    // Its WHY says so too, and offers no Resume: nobody writes to it.
    await pill.click();
    await page.waitForFunction(() => /It is at its end/.test(document.querySelector(".why")?.textContent ?? ""));
    assert.doesNotMatch(await why(page), /producers are silenced/);
    assert.ok(await page.locator(".why .row-actions button", { hasText: "producers" }).isHidden());
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

// A record without a timestamp (Long.MIN_VALUE) makes the window operator throw: the job is
// FAILED at that instant. The page drew the legend of a failure but no ✕ (the run stopped
// before its observer saw the instant), offered a "↻ restart" that never came, and its header
// said "catching up" beside the stopped job.
test("an operator's exception: FAILED with its ✕ on the timeline, no restart in the legend, not 'catching up'", async () => {
  const scenario = {
    name: "operator-throws",
    duration_ms: 3000,
    topic: { partitions: 1 },
    source: { parallelism: 1, watermark: { generator: { kind: "bounded_out_of_orderness", bound_ms: 100 } } },
    window: { assigner: { type: "tumbling", size_ms: 500 } },
    producers: [{ partitions: "all", kind: "steady", rate_per_s: 20, keys: { count: 3 } }],
    commands: [{ at_ms: 1000, command: "produce", partition: 0, records: [{ ts: "MIN", key: "k" }] }],
  };
  const text = JSON.stringify(scenario).replace('"MIN"', "-9223372036854775808");
  const { context, page } = await openPage(browser, { viewport: { width: 1366, height: 900 } });
  try {
    await page.goto(`${baseUrl}#scenario=${encodeURIComponent(text)}`);
    await page.locator("#btn-play").click();
    await page.waitForFunction(() => document.querySelector("#job-strip")?.dataset.status === "FAILED", null, { timeout: 20_000 });
    await page.waitForFunction(() => /failures=1/.test(document.querySelector("canvas.timeline")?.dataset.job ?? ""), null, { timeout: 5_000 });
    assert.equal(await page.locator("#clock").textContent(), "00:00:01.000");
    assert.doesNotMatch(await page.locator("#perf").textContent(), /catching up/);
    assert.ok(await page.locator(".timeline-card .lg-fail").isVisible());
    assert.ok(await page.locator(".timeline-card .lg-restart").isHidden(), "no restart to explain");
    await page.waitForFunction(() => /The job FAILED: an operator threw: Record has Long.MIN_VALUE/.test(document.querySelector(".why")?.textContent ?? ""));
    assert.doesNotMatch(await why(page), /restart strategy allows no more restarts/);
    // The graph shows the same instant as the WHY panel (it stayed at the frame before: No Watermark).
    assert.match(await page.locator("svg.graph g[data-operator]").first().getAttribute("aria-label"), /watermark 00:00:00\.699/);
  } finally {
    await context.close();
  }
});
