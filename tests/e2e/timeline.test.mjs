// Timeline interactions: wheel zoom centred on the pointer, and a click on a window band
// explains that window in the WHY panel (and marks the band).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { serveAndLaunch, openPage, gotoApp, choosePreset, playUntil, openControls, artifactsDir } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const shots = artifactsDir("e2e");

// Must match src/web/timeline_plot.rs.
const LEFT = 92, RIGHT = 16, TOP = 10, PLOT_H = 260;
const view = async (page) => (await page.getAttribute("canvas.timeline", "data-view")).split(" ").map(Number);
/** The view once the timeline has stopped redrawing (after a pause the last redraw may follow). */
async function stableView(page) {
  let last = await view(page);
  for (;;) {
    await page.waitForTimeout(300);
    const v = await view(page);
    if (v.join() === last.join()) return v;
    last = v;
  }
}

async function withApp(fn, preset = "bound-too-large", untilMs = 150_000) {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await gotoApp(page, env.baseUrl);
    await choosePreset(page, preset);
    await playUntil(page, untilMs, 100);
    await page.locator("canvas.timeline").scrollIntoViewIfNeeded();
    await fn(page);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
}

test("mouse wheel zooms the timeline around the pointer", async () => {
  await withApp(async (page) => {
    const box = await page.locator("canvas.timeline").boundingBox();
    const [x0, x1] = await stableView(page);
    const px = box.x + LEFT + (box.width - LEFT - RIGHT) * 0.25;
    const tAt = (v) => v[0] + ((px - box.x - LEFT) / (box.width - LEFT - RIGHT)) * (v[1] - v[0]);
    const before = tAt([x0, x1]);
    await page.mouse.move(px, box.y + TOP + PLOT_H / 2);
    await page.mouse.wheel(0, -100); // zoom in
    await page.waitForFunction((old) => document.querySelector("canvas.timeline").getAttribute("data-view").split(" ")[1] !== String(old), x1);
    const zoomed = await view(page);
    const span = zoomed[1] - zoomed[0];
    assert.ok(Math.abs(span - (x1 - x0) * 0.8) <= 2, `span ${span} is 0.8 × ${x1 - x0}`);
    assert.ok(Math.abs(tAt(zoomed) - before) <= 0.01 * span, `the time under the pointer stays (${tAt(zoomed)} vs ${before})`);
    // The page did not scroll: the wheel belongs to the timeline.
    assert.equal(Math.round((await page.locator("canvas.timeline").boundingBox()).y), Math.round(box.y));
    await page.mouse.wheel(0, 100); // and out again
    await page.mouse.wheel(0, 100);
    await page.waitForFunction((s) => {
      const v = document.querySelector("canvas.timeline").getAttribute("data-view").split(" ").map(Number);
      return v[1] - v[0] > s * 1.2;
    }, span);
    // "fit" goes back to everything since the start.
    await page.click(".timeline-card button:has-text('fit')");
    const fit = await view(page);
    assert.ok(fit[1] - fit[0] >= 150_000);
  });
});

test("clicking a window band explains that window", async () => {
  await withApp(async (page) => {
    const box = await page.locator("canvas.timeline").boundingBox();
    const v = await stableView(page);
    const size = 10_000; // the preset's tumbling windows
    // A window that fired long ago: its band sits near the bottom of the plot.
    const x = box.x + LEFT + 40;
    const e = v[2] + (v[3] - v[2]) * 0.3;
    const y = box.y + TOP + PLOT_H - ((e - v[2]) / (v[3] - v[2])) * PLOT_H;
    await page.mouse.click(x, y);
    const subject = page.locator(".why [data-testid='window-range']");
    await subject.waitFor();
    const start = Number(await subject.getAttribute("data-start"));
    const end = Number(await subject.getAttribute("data-end"));
    assert.equal(end - start, size);
    assert.ok(start <= e + size * 0.05 && e - size * 0.05 < end, `clicked event time ${e} is in [${start}, ${end})`);
    assert.match(await subject.textContent(), /^Window \[.*\) (fired for \d+ keys?|has not fired|has no results)/);
    await page.waitForFunction(() => /\bpicked=1\b/.test(document.querySelector("canvas.timeline").dataset.marks));
    await page.screenshot({ path: path.join(shots, "timeline-band-picked.png") });
    // A window in the future has not fired, and says what it waits for.
    const yTop = box.y + TOP + 4;
    await page.mouse.click(box.x + box.width - RIGHT - 10, yTop);
    await page.waitForFunction((s) => document.querySelector(".why [data-testid='window-range']")?.getAttribute("data-start") !== String(s), start);
    assert.match(await page.locator(".why [data-testid='window-range']").textContent(), /has not fired: each window subtask fires it when its watermark reaches/);
    // Clicking the picked band again clears the pick; a new click picks again.
    await page.mouse.click(box.x + box.width - RIGHT - 10, yTop);
    await page.locator(".why [data-testid='window-range']").waitFor({ state: "detached" });
    await page.waitForFunction(() => /\bpicked=0\b/.test(document.querySelector("canvas.timeline").dataset.marks));
    await page.mouse.click(box.x + box.width - RIGHT - 10, yTop);
    await page.locator(".why [data-testid='window-range']").waitFor();
    // A drag pans and does not pick.
    const pickedStart = await page.locator(".why [data-testid='window-range']").getAttribute("data-start");
    await page.mouse.move(x + 200, y);
    await page.mouse.down();
    await page.mouse.move(x + 100, y, { steps: 5 });
    await page.mouse.up();
    assert.equal(await page.locator(".why [data-testid='window-range']").getAttribute("data-start"), pickedStart);
  });
});

test("the keyboard picks windows too: the timeline's arrows, the emissions table's rows", async () => {
  await withApp(async (page) => {
    const range = page.locator(".why [data-testid='window-range']");
    const bounds = async () => [Number(await range.getAttribute("data-start")), Number(await range.getAttribute("data-end"))];
    await page.focus(".timeline-wrap");
    assert.match(await page.getAttribute(".timeline-wrap", "aria-label"), /← and → pick the window/);
    // The first arrow picks the window the slowest watermark waits for: not fired yet.
    await page.keyboard.press("ArrowLeft");
    await range.waitFor();
    const [s0, e0] = await bounds();
    assert.equal(e0 - s0, 10_000);
    assert.match(await range.textContent(), /has not fired/);
    // Left: the window before it, which has fired (the arrows do not step the run).
    const clock = await page.locator("#clock").textContent();
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction((s) => document.querySelector(".why [data-testid='window-range']")?.getAttribute("data-start") === String(s), s0 - 10_000);
    assert.match(await range.textContent(), /fired for \d+ keys?/);
    assert.equal(await page.locator("#clock").textContent(), clock, "the arrow picked a window and did not step");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.deepEqual(await bounds(), [s0 + 10_000, e0 + 10_000]);
    await page.keyboard.press("Home");
    assert.deepEqual(await bounds(), [s0, e0]);
    await page.waitForFunction(() => /\bpicked=1\b/.test(document.querySelector("canvas.timeline").dataset.marks));
    await page.keyboard.press("Escape");
    await range.waitFor({ state: "detached" });

    // The emissions table: one Tab stop for its rows' windows, Up / Down between them.
    const picks = page.locator("#emissions-table button.row-pick");
    assert.ok((await picks.count()) > 2);
    assert.deepEqual((await picks.evaluateAll((bs) => bs.map((b) => b.tabIndex))).slice(0, 3), [0, -1, -1]);
    await picks.first().focus();
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.evaluate(() => [...document.querySelectorAll("#emissions-table button.row-pick")].indexOf(document.activeElement)), 1);
    const second = await picks.nth(1).textContent();
    await page.keyboard.press("Enter");
    const subject = page.locator(".why .subject").first();
    await page.waitForFunction((w) => document.querySelector(".why .subject")?.textContent.includes(w.trim()), second);
    assert.equal(await picks.nth(1).getAttribute("tabindex"), "0", "the row last focused is the Tab stop");
    assert.ok(await subject.isVisible());
    // The timeline marks that window, and its arrows step from it.
    await page.waitForFunction(() => /\bpicked=1\b/.test(document.querySelector("canvas.timeline").dataset.marks));
    const rowStart = Number(await page.getAttribute(".why [data-testid='window']", "data-start"));
    await page.focus(".timeline-wrap");
    await page.keyboard.press("ArrowRight");
    await range.waitFor();
    const [after] = await bounds();
    assert.match(await page.locator(".timeline-card [role=status]").textContent(), /^Window \[.*\) picked/);
    // Space stays the play shortcut on the focused timeline.
    await page.keyboard.press(" ");
    await page.waitForFunction(() => document.querySelector("#btn-play").getAttribute("aria-pressed") === "true");
    await page.keyboard.press(" ");
    assert.equal(after, rowStart + 10_000, "→ from the row's window: the next one");
  });
});

test("a window whose records all came late says so, not 'no record fell into it'", async () => {
  await withApp(async (page) => {
    // After Long.MAX_VALUE (at 00:02:00) every record is dropped (traffic resumes at 00:04:00):
    // walk the windows from the timeline's middle to there.
    await page.focus(".timeline-wrap");
    await page.keyboard.press("Home");
    const range = page.locator(".why [data-testid='window-range']");
    await range.waitFor();
    const said = [];
    for (let i = 0; i < 30 && !/came after/.test(said.at(-1) ?? ""); i++) {
      said.push(await range.textContent());
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction((n) => document.querySelector(".why [data-testid='window-range']")?.textContent !== n, said.at(-1));
    }
    assert.ok(said.some((t) => /has no results: (at least )?[\d,]+ of its records came after the watermark had passed it \([\d,]+ dropped as late\)/.test(t)), said.join("\n"));
  }, "max-on-silence", 300_000);
});

test("a replay's day-old watermarks: fit and a keyboard pick move event time to them, not processing time", async () => {
  await withApp(async (page) => {
    const before = await stableView(page);
    // The window subtasks' watermarks are about a day behind processing time: below the view.
    await page.click(".timeline-card button:has-text('fit')");
    await page.waitForFunction((y0) => Number(document.querySelector("canvas.timeline").dataset.view.split(" ")[2]) < y0 - 3_600_000, before[2]);
    const fit = await stableView(page);
    assert.ok(fit[0] <= before[0] && fit[1] >= before[1] - 1_000, "fit shows all of processing time");
    // A backfill reads hours of event time in a minute and a half: fit shows them all (it
    // showed as much event time as processing time, and the lines hugged the bottom edge).
    assert.ok(fit[3] - fit[2] > 10 * (fit[1] - fit[0]), `event time ${fit[3] - fit[2]} ms over processing time ${fit[1] - fit[0]} ms`);
    // Home picks the window the watermark waits for; it is in view, processing time unmoved.
    await page.focus(".timeline-wrap");
    await page.keyboard.press("Home");
    const range = page.locator(".why [data-testid='window-range']");
    await range.waitFor();
    const start = Number(await range.getAttribute("data-start"));
    const v = await stableView(page);
    assert.ok(start >= v[2] && start <= v[3], `the band [${start}) is in the view's event time ${v[2]}..${v[3]}`);
    assert.equal(v[0], fit[0], "processing time did not move");
  }, "backfill-aligned", 90_000);
});

// The page keeps the newest 24,000 window results (`TraceSpec::in_page`): a window whose keys
// fire at one instant past that is split by the cut. Its WHY sentence counts every result, not
// only the kept ones as if they were all, and says what is not kept of an older window.
test("a window the page keeps only part of says how many results it fired and how many are kept", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await gotoApp(page, env.baseUrl);
    await openControls(page);
    await page.click("#tab-import");
    const sc = {
      topic: { partitions: 1 },
      window: { assigner: { type: "tumbling", size_ms: 10_000 }, parallelism: 1 },
      producers: [
        { partitions: 0, kind: "steady", rate_per_s: 10_000, keys: { count: 30_000 }, stop_ms: 10_000 },
        { partitions: 0, kind: "steady", rate_per_s: 10, keys: ["hb"] },
      ],
    };
    await page.fill("#import-json", JSON.stringify(sc));
    await page.click("#btn-import");
    assert.equal(await page.locator("#import-error").textContent(), "");
    await page.keyboard.press("Escape");
    await playUntil(page, 25_000, 100);
    await page.locator("canvas.timeline").scrollIntoViewIfNeeded();
    await page.focus(".timeline-wrap");
    const range = page.locator(".why [data-testid='window-range']");
    // Back from the window the watermark waits for to the first, [0, 10 s) (the clock ran on
    // past 25 s before the pause took, so how many windows lie between is not fixed).
    const partly = /fired [\d,]+ results; the page keeps/;
    for (let i = 0; i < 8 && !partly.test((await range.count()) ? await range.textContent() : ""); i++) {
      await page.keyboard.press("ArrowLeft");
      await page.waitForTimeout(150);
    }
    const text = await range.textContent();
    const [, fired, kept, keys] = text.match(/fired ([\d,]+) results; the page keeps the newest ([\d,]+) results \(([\d,]+) keys\): the oldest kept at /).map((s) => Number(s.replaceAll(",", "")));
    assert.ok(fired > 24_000 && kept < 24_000 && keys === kept, text);
    await page.locator(".why").screenshot({ path: path.join(shots, "timeline-window-partly-kept.png") });
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

// On a phone the WHY panel sits above the timeline and is taller than the screen: a tapped
// window brings the panel's top, where the window is explained, into view (scrolled to its
// nearest edge, the panel showed its bottom and the answer stayed above the screen).
test("on a phone a tapped window brings the top of the WHY panel into view", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 390, height: 844 } });
  try {
    await gotoApp(page, env.baseUrl);
    await choosePreset(page, "bound-too-large");
    await playUntil(page, 150_000, 100);
    await page.locator("canvas.timeline").scrollIntoViewIfNeeded();
    const why = page.locator(".main .card.why");
    assert.ok((await why.boundingBox()).y < 0, "the panel's top is above the screen");
    const box = await page.locator("canvas.timeline").boundingBox();
    await page.mouse.click(box.x + box.width - RIGHT - 10, box.y + TOP + 4);
    const subject = page.locator(".why [data-testid='window-range']");
    await subject.waitFor();
    // The smooth scroll ends with the panel's top just below the screen's (its 8 px scroll
    // margin), the window's sentence under it.
    await page.waitForFunction(() => Math.abs(document.querySelector(".main .card.why").getBoundingClientRect().top - 8) < 2, null, { timeout: 5_000 });
    const r = await subject.boundingBox();
    assert.ok(r.y >= 0 && r.y + r.height <= 844, `the window's sentence ${JSON.stringify(r)} is on the screen`);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});
