// One truth per frame (issue 11): for every preset, at t = 0, mid-story and right after each fix
// the WHY panel offers, the preset card's live line, the graph highlight, the WHY panel (its
// chain and its first finding) name the same culprit partition and cause; the embed line names
// the same as the embed's own graph; nothing names a culprit before anything is read. Also: the
// findings list and the advisor render, and "Apply advice" changes the settings.
import { test } from "node:test";
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch, openPage, gotoApp, choosePreset, playUntil } from "./lib.mjs";

const env = serveAndLaunch({ before, after });

// Every preset of src/engine/scenario/catalog.rs, with a mid-story time and a speed to reach it.
const PRESETS = [
  ["seed-001-heartbeat", 20 * 60_000, 1000],
  ["empty-partition", 60_000, 30],
  ["more-subtasks-than-partitions", 60_000, 30],
  ["far-future-outlier", 60_000, 30],
  ["timestamp-units", 60_000, 30],
  ["bound-too-large", 60_000, 30],
  ["late-data", 60_000, 30],
  ["heartbeat-idle-timeout", 60_000, 30],
  ["max-on-silence", 60_000, 30],
  ["quiet-side-join", 30_000, 30],
  ["union-idle-stream", 60_000, 30],
  ["midstream-assigner", 60_000, 30],
  ["sql-idle-reactivates", 120_000, 30],
  ["continuous-trigger", 120_000, 30],
  ["backpressure-never-idle", 60_000, 30],
  ["backfill-taskmanager-lost", 100_000, 60],
  ["backfill-aligned", 100_000, 60],
  ["restart-stalls-until-idle", 140_000, 30],
];

/** What each view names: culprit partition and cause, from their data attributes. */
function named(page) {
  return page.evaluate(() => {
    const at = (sel) => {
      const e = document.querySelector(sel);
      return e && { p: e.getAttribute("data-culprit-partition"), c: e.getAttribute("data-cause") };
    };
    const first = document.querySelector(".why .finding");
    return {
      card: at(".live-line"),
      graph: at(".graph-wrap"),
      why: at(".why-main"),
      first: first && { kind: first.dataset.kind, p: first.dataset.partition ?? null, holds: first.classList.contains("holds") },
      chip: document.querySelector(".why [data-chain-partition]")?.getAttribute("data-chain-partition") ?? null,
      held: [...document.querySelectorAll("svg.graph .node.part.holding")].map((e) => e.getAttribute("data-partition")),
      clock: document.querySelector("#clock")?.textContent,
    };
  });
}

/** The four views agree; `where` says which moment, for the message. */
function assertOneTruth(n, where) {
  const msg = `${where}: ${JSON.stringify(n)}`;
  assert.ok(n.card && n.graph && n.why, `every view is there (${msg})`);
  assert.deepEqual(n.graph, n.card, `graph = card (${msg})`);
  assert.deepEqual(n.why, n.card, `WHY = card (${msg})`);
  // No cause: no finding at all, or none that matters (a healthy job after its fix).
  if (n.card.c) assert.equal(n.first?.kind, n.card.c, `the first finding is the cause (${msg})`);
  if (n.card.p) {
    assert.deepEqual(n.held, [n.card.p], `the graph marks the culprit partition (${msg})`);
    assert.equal(n.chip, n.card.p, `the WHY chain ends at the culprit (${msg})`);
  } else {
    assert.deepEqual(n.held, [], `no partition marked (${msg})`);
    assert.equal(n.chip, null, `no partition in the chain (${msg})`);
  }
  if (n.first?.holds && n.first.p !== null) assert.equal(n.first.p, n.card.p, `a holding finding names the culprit (${msg})`);
}

async function assertNothingNamed(page, where) {
  const n = await named(page);
  assertOneTruth(n, where);
  assert.deepEqual(n.card, { p: "", c: "nothing_read_yet" }, `${where}: nothing is read, nobody is blamed`);
  assert.match(await page.locator(".live-line").textContent(), /Nothing has been read yet/);
  assert.equal(await page.locator("svg.graph-edges .edge.min, svg.graph-edges .edge.culprit").count(), 0, `${where}: no edge marked`);
  assert.equal(await page.locator("#channels-table .min-mark", { hasText: "◀" }).count(), 0, `${where}: no channel marked`);
}

const fixLabels = (page) => page.locator(".why-main .fixes .btn.fix").allTextContents();

async function withPreset(id, fn) {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await gotoApp(page, env.baseUrl);
    await choosePreset(page, id);
    await fn(page);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
}

for (const [id, mid, speed] of PRESETS) {
  test(`${id}: card, graph, WHY and findings name one culprit at t = 0, mid-story and after each fix`, async () => {
    let labels = [];
    await withPreset(id, async (page) => {
      await assertNothingNamed(page, "t = 0");
      await playUntil(page, mid, speed);
      const n = await named(page);
      assertOneTruth(n, "mid-story");
      assert.notEqual(n.card.c, "nothing_read_yet", "records were read by mid-story");
      assert.ok((await page.locator(".why .finding").count()) >= 1, "the findings list renders");
      labels = await fixLabels(page);
    });
    for (const [i, label] of labels.entries()) {
      await withPreset(id, async (page) => {
        await playUntil(page, mid, speed);
        const now = await fixLabels(page);
        const at = now.indexOf(label);
        assert.ok(at >= 0, `fix ${label} offered again (${now})`);
        await page.locator(".why-main .fixes .btn.fix").nth(at).click();
        assertOneTruth(await named(page), `right after fix ${i} "${label}"`);
        if (label.includes("↻")) await assertNothingNamed(page, `restarted by "${label}"`);
        await playUntil(page, (await clockAfter(page)) + 15_000, speed);
        assertOneTruth(await named(page), `15 s after fix "${label}"`);
      });
    }
  });
}

/** The clock in ms (the header's hh:mm:ss.mmm). */
async function clockAfter(page) {
  const [h, m, s] = (await page.locator("#clock").textContent()).trim().split(":");
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000;
}

/** The embed's WHY line and the embed's graph, from one reading. */
function embedNamed(page) {
  return page.evaluate(() => {
    const line = document.querySelector(".embed-why");
    return {
      p: line.getAttribute("data-culprit-partition"),
      c: line.getAttribute("data-cause"),
      held: [...document.querySelectorAll(".embed svg.graph.compact .node.part.holding")].map((e) => e.getAttribute("data-partition")),
      text: document.querySelector(".embed-why-text").textContent,
    };
  });
}

function assertEmbedOneTruth(e, where) {
  assert.deepEqual(e.held, e.p ? [e.p] : [], `${where}: the embed graph marks what the line names: ${JSON.stringify(e)}`);
}

for (const [id, mid, speed] of PRESETS) {
  test(`${id}: the embed line and the embed graph name one culprit`, async () => {
    const { context, page, problems } = await openPage(env.browser, { viewport: { width: 720, height: 420 } });
    try {
      await page.goto(`${env.baseUrl}?embed=1&preset=${id}`, { waitUntil: "load" });
      await page.locator(".embed svg.graph.compact .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
      const zero = await embedNamed(page);
      assert.deepEqual([zero.p, zero.c, zero.held], ["", "nothing_read_yet", []], "t = 0: nobody is blamed");
      assert.match(zero.text, /Nothing has been read yet/);
      assert.equal(await page.locator(".embed svg.graph.compact .edge.min, .embed svg.graph.compact .edge.culprit").count(), 0);
      await playUntil(page, mid, speed);
      const e = await embedNamed(page);
      assertEmbedOneTruth(e, "mid-story");
      assert.notEqual(e.c, "nothing_read_yet");
      if ((await page.locator(".embed-why .btn.fix").count()) > 0) {
        await page.click(".embed-why .btn.fix");
        assertEmbedOneTruth(await embedNamed(page), "right after the fix");
      }
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await context.close();
    }
  });
}

test("advisor: recommendations, constraints, and Apply advice changes the settings", async () => {
  await withPreset("seed-001-heartbeat", async (page) => {
    await playUntil(page, 60_000, 30);
    await page.click("#why-tab-advisor");
    assert.equal(await page.locator("#advisor .rec").count(), 3);
    assert.ok((await page.locator("#advisor .constraints tbody tr").count()) >= 3);
    const idle = await page.locator("#advisor .rec[data-param='idle']").getAttribute("data-recommended");
    assert.ok(Number(idle) > 0, "an idle timeout is recommended");
    assert.match(await page.locator("#splits-h + span").textContent(), /idle timeout off/);
    const bound = await page.locator("#advisor .rec[data-param='bound']").getAttribute("data-recommended");
    await page.click("#btn-apply-advice");
    await page.locator(".notice", { hasText: "Applied the advice" }).waitFor();
    // The settings now are the advised ones (the advice itself may move on: the idle timeout
    // is advised against the bound that is set, and the bound just changed).
    const secs = (ms) => `${Number(ms) / 1000}(\\.0)? s`;
    assert.match(await page.locator("#splits-h + span").textContent(), new RegExp(`idle timeout ${secs(idle)}`));
    assert.match(await page.locator("#advisor .rec[data-param='bound']").textContent(), new RegExp(`^out-of-orderness bound ${secs(bound)}`));
    // Keyboard: the tolerated delay is a labelled field; the tabs are buttons.
    assert.equal(await page.locator("label[for='f-tolerated']").textContent(), "delay you tolerate");
    await page.focus("#why-tab-lag");
    await page.keyboard.press("Enter");
    assert.equal(await page.getAttribute("#why-tab-lag", "aria-selected"), "true");
    await page.fill("#f-lag-alert", "10 s");
    await page.press("#f-lag-alert", "Enter");
    await page.waitForFunction(() => Number(document.querySelector("svg.lag-chart")?.getAttribute("data-crossings")) > 0);
    await page.click("#why-tab-why");
    // The alert shows as a finding (while some subtask is over it).
    const lagNow = await page.locator(".lag-table tr.over").count();
    assert.equal(await page.locator(".why .finding[data-kind='event_time_lag']").count(), lagNow > 0 ? 1 : 0);
  });
});

test("while playing, the graph and the slow views name different holders for a frame at most, not for a refresh period", async () => {
  // These presets' culprit changes many times a second at their speed: the graph (refreshed
  // every 100 ms) and the preset card's line (every 250 ms) disagreed for up to 28 frames in a row.
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  try {
    for (const id of ["union-idle-stream"]) {
      await gotoApp(page, env.baseUrl, `preset=${id}`);
      const r = await page.evaluate(async () => {
        const graph = document.querySelector(".graph-wrap");
        const line = document.querySelector("[data-testid=live-line]");
        const key = (e) => `${e.getAttribute("data-culprit-partition")}/${e.getAttribute("data-cause")}`;
        let changes = 0, since = null, longest = 0, last = key(graph);
        document.querySelector("#btn-play").click();
        const end = performance.now() + 4000;
        await new Promise((done) => {
          const tick = (t) => {
            const g = key(graph);
            if (g !== last) (changes++, (last = g));
            if (g === key(line)) since = null;
            else longest = Math.max(longest, t - (since ??= t));
            if (t < end) requestAnimationFrame(tick);
            else done();
          };
          requestAnimationFrame(tick);
        });
        document.querySelector("#btn-play").click();
        return { changes, longest };
      });
      assert.ok(r.changes >= 5, `${id}: the culprit changes while playing (${r.changes} times)`);
      // In wall time, not frames: other test files load the machine. Before, the two disagreed
      // for more than a slow period (630 ms in this preset, unloaded); now for a frame (up to
      // 350 ms seen in CI with the whole suite running beside it). The rule itself, frame by
      // frame and under load, is tested natively (`web::view_pacing`).
      assert.ok(r.longest <= 500, `${id}: the graph and the preset card disagreed for ${r.longest.toFixed(0)} ms in a row`);
    }
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

/**
 * What sits at a watermark a day ahead of processing time pushed it there: the WHY chain says
 * "pushed ahead by", and the graph's and the tables' marks on that chain said it "holds the
 * minimum" in the same orange, the opposite. They say the chain's words (before the outlier
 * too, when it does hold it).
 */
test("the graph's and the tables' marks say the chain's words: holds the watermark, or pushed it ahead", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1366, height: 900 } });
  const marks = () =>
    page.evaluate(() => {
      const mark = (row) => {
        const m = document.querySelector(`${row} .min-mark`);
        const glyph = m?.querySelector("[aria-hidden=true]");
        // A title a screen reader reaches repeats the words it hears from the text for it.
        const spokenTitles = [m, ...(m?.querySelectorAll("[title]") ?? [])].filter((e) => e?.hasAttribute("title") && !e.closest("[aria-hidden=true]"));
        return m && { seen: glyph.textContent, heard: m.querySelector(".sr-only").textContent, title: glyph.getAttribute("title"), spokenTitles: spokenTitles.length };
      };
      return {
        chain: document.querySelector(".why .chain > .muted")?.textContent,
        split: mark("#splits-table tr.holding"),
        channel: mark("#channels-table tr.holding"),
        partition: document.querySelector('svg.graph g[data-partition="0"]').getAttribute("aria-label"),
        source: document.querySelector('svg.graph g[data-source="0"]').getAttribute("aria-label"),
        legend: document.querySelector(".graph-card .lg-min").textContent,
        timeline: document.querySelector(".timeline-card .lg-min")?.textContent,
        // Every word the page shows or says for the holder, titles and names too.
        words: [document.body.innerText, ...[...document.querySelectorAll("[title], [aria-label]")].map((e) => `${e.getAttribute("title")} ${e.getAttribute("aria-label")}`), ...[...document.querySelectorAll("svg title")].map((t) => t.textContent)].join("\n"),
      };
    });
  try {
    for (const [at, chain, seen, words] of [
      ["20s", "held by ", " ◀ min", "holds the watermark"],
      ["45s", "pushed ahead by ", " ◀ ahead", "pushed the watermark ahead"],
    ]) {
      await page.goto(env.baseUrl + `?preset=far-future-outlier&start-at=${at}`, { waitUntil: "load" });
      await page.locator("#channels-table tr.holding").waitFor({ state: "attached", timeout: 20_000 });
      const m = await marks();
      const where = `at ${at}: ${JSON.stringify(m)}`;
      assert.equal(m.chain, chain, where);
      for (const row of [m.split, m.channel]) assert.deepEqual(row, { seen, heard: ` (${words})`, title: words, spokenTitles: 0 }, where);
      for (const label of [m.partition, m.source]) assert.ok(label.includes(`, ${words};`), where);
      assert.equal(m.legend, `━ ${words}`, where);
      // The timeline's legend keeps its short "pushed ahead"; held, it says the graph's words.
      assert.equal(m.timeline, at === "20s" ? `━ ${words}` : "━ pushed ahead", where);
      assert.doesNotMatch(m.words, /holds (the )?min|holding the min/, `${where}: one phrase for the holder`);
      if (at === "45s") assert.ok(![m.partition, m.source, m.legend].some((t) => /holds/.test(t)), where);
    }
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});
