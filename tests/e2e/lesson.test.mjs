// Lesson mode end to end: both lessons walked step by step with real mouse drags on the
// stage (an event's timestamp, the bound, the idle timeout, the allowed lateness), each step's
// check seen passing and Next advancing; the keyboard equivalent of a drag; the preset menu's
// "Lessons" group; and a bad ?lesson= id.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { serveAndLaunch, openPage, artifactsDir, openControls } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const shots = artifactsDir("e2e");
// LESSON_SIZE=390x844 walks the lessons at that size (screenshots named with it).
const [W, H] = (process.env.LESSON_SIZE || "1280x800").split("x").map(Number);

async function openLesson(id, viewport = { width: W, height: H }) {
  const opened = await openPage(env.browser, { viewport });
  await opened.page.goto(`${env.baseUrl}?lesson=${id}`, { waitUntil: "load" });
  await opened.page.locator('[data-testid="lesson"]').waitFor({ state: "visible", timeout: 20_000 });
  return opened;
}

const card = (page) => page.locator('[data-testid="lesson"]');

async function step(page) {
  return Number(await card(page).getAttribute("data-step"));
}

async function passed(page) {
  return (await card(page).getAttribute("data-passed")) === "true";
}

/** Drags a handle of the stage with the mouse to event time `ms` (where the stage draws it). */
async function drag(page, grab, ms) {
  const svg = page.locator('[data-testid="lesson-stage"]');
  await svg.scrollIntoViewIfNeeded();
  const handle = page.locator(`[data-testid="grab-${grab}"] .lw-mark`);
  const box = await handle.boundingBox();
  assert.ok(box, `handle ${grab} is drawn`);
  const svgBox = await svg.boundingBox();
  const origin = Number(await svg.getAttribute("data-origin"));
  const pxPerS = Number(await svg.getAttribute("data-px-per-s"));
  const [x0, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const x1 = svgBox.x + origin + (ms / 1000) * pxPerS;
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, y, { steps: 4 });
  // While dragging, the value shows beside the handle.
  assert.ok(await page.locator(`[data-testid="grab-${grab}"] .lw-value.shown`).isVisible(), `${grab}: value shown while dragging`);
  await page.mouse.move(x1, y, { steps: 4 });
  await page.mouse.up();
}

/**
 * No two of the stage's words sit on each other (a past note: "lesson stage labels overlap"):
 * the boxes of its visible texts, as drawn, intersect by at most a pixel.
 */
async function labelsApart(page, where) {
  const hits = await page.evaluate(() => {
    const svg = document.querySelector('[data-testid="lesson-stage"]');
    if (!svg) return [];
    const shown = [...svg.querySelectorAll("text")]
      .filter((t) => t.textContent.trim() && t.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
      .map((t) => ({ text: t.textContent.trim(), r: t.getBoundingClientRect() }))
      .filter((b) => b.r.width > 0);
    const out = [];
    for (const [i, a] of shown.entries())
      for (const b of shown.slice(i + 1)) {
        const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (x > 1 && y > 1) out.push(`"${a.text}" × "${b.text}"`);
      }
    return out;
  });
  assert.deepEqual(hits, [], `${where} at ${W}x${H}: labels overlap`);
}

/** The step must not pass before the manipulation, must pass after it, and Next goes on. */
async function doStep(page, n, manipulate, verify = async () => {}) {
  assert.equal(await step(page), n);
  assert.equal(await passed(page), false, `step ${n + 1} passes before the manipulation`);
  assert.ok(await page.locator('[data-testid="lesson-next"]').isDisabled());
  await labelsApart(page, `step ${n + 1}`);
  await manipulate();
  await page.waitForFunction(() => document.querySelector('[data-testid="lesson"]')?.dataset.passed === "true", null, { timeout: 10_000 });
  assert.match(await page.locator('[data-testid="lesson-done"]').textContent(), /^✓ /);
  await verify();
  await labelsApart(page, `step ${n + 1} passed`);
  await page.screenshot({ path: path.join(shots, `lesson-${await page.evaluate(() => new URLSearchParams(location.search).get("lesson"))}-${n + 1}-${W}x${H}.png`) });
  const last = (await page.locator('[data-testid="lesson-next"]').textContent()).trim() === "Finish";
  if (!last) {
    await page.click('[data-testid="lesson-next"]');
    await page.waitForFunction((want) => document.querySelector('[data-testid="lesson"]')?.dataset.step === String(want), n + 1);
  }
}

test("the idle-partitions lesson, walked with drags", async () => {
  const { context, page, problems } = await openLesson("idle-partitions");
  try {
    assert.match(await page.locator('[data-testid="lesson-progress"]').textContent(), /Step 1 of 5/);
    // Panels the step does not need are hidden.
    assert.equal(await page.locator(".graph-card").isVisible(), false);
    assert.equal(await page.locator(".metrics-card").isVisible(), false);
    // 1: bound 3 s → drag the bound handle (at the watermark, max − bound − 1) right to 10.5 s.
    await doStep(page, 0, () => drag(page, "bound", 10_500), async () =>
      assert.equal(await page.locator('.lw-window[data-window-start="0"]').getAttribute("data-fired"), "true"));
    // 2: partition 1's last record (index 4) to 12 s: the minimum passes 9.999 s.
    await doStep(page, 1, () => drag(page, "event-4", 12_000));
    // 3: the idle timeout from partition 1's last record (6 s) to 16 s: idle at 16 s < now.
    await doStep(page, 2, () => drag(page, "idle", 16_000), async () =>
      assert.match(await page.locator('.lw-row[data-partition="1"] .lw-label').textContent(), /IDLE/));
    // 4: keyBy: two window subtasks, both held by partition 1's channel.
    assert.ok(await page.locator(".graph-card").isVisible(), "the job graph shows the channels");
    assert.equal(await page.locator("svg.graph .silence-btn").first().isVisible(), false, "no Silence buttons on a stage");
    // A kill left the step's job FAILED with Reset hidden: no lesson is about failover.
    assert.equal(await page.locator("#kill-tm-0").count(), 1);
    assert.equal(await page.locator("#kill-tm-0").isVisible(), false, "no kill buttons in a lesson");
    await doStep(page, 3, () => drag(page, "event-5", 12_000), async () => {
      for (const q of [0, 1]) assert.ok(Number(await page.locator(`.lw-op[data-subtask="${q}"]`).getAttribute("data-watermark")) >= 9_999);
    });
    // 5: seed 001: the fix, then play.
    await doStep(page, 4, async () => {
      assert.equal(await page.locator(".lesson-stage").count(), 0);
      await page.click('[data-testid="lesson-fix"]');
      // The lesson's button says it is in effect, as the preset card's does (it said nothing).
      await page.waitForFunction(() => document.querySelector('[data-testid="lesson-fix"]').textContent.includes("✓"));
      await page.click("#btn-play");
    });
    assert.equal((await page.locator('[data-testid="lesson-next"]').textContent()).trim(), "Finish");
    // The fix does not scroll the card away: its ✓ and Finish are what the reader waits for.
    assert.ok(await page.locator('[data-testid="lesson-next"]').isVisible());
    const box = await page.locator('[data-testid="lesson-next"]').boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= H, `Finish is on the screen (y ${box.y})`);
    // Finish opens the playground on the run as it was left: the fix applied, the same moment.
    await page.evaluate(() => document.querySelector("#btn-play").click());
    await page.waitForFunction(() => document.querySelector("#btn-play").getAttribute("aria-pressed") === "false");
    const clock = await page.locator("#clock").textContent();
    await page.click('[data-testid="lesson-next"]');
    await page.waitForURL(/#s=/);
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await card(page).count(), 0);
    assert.equal(await page.inputValue("#preset"), "seed-001-heartbeat");
    assert.equal(await page.locator("#clock").textContent(), clock);
    assert.notEqual(await page.inputValue("#f-idle"), "", "the fix came along");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("the lateness lesson, walked with drags", async () => {
  const { context, page, problems } = await openLesson("lateness");
  try {
    // 1: the record arriving at 14 s (index 4, ts 11 s) dragged to 8 s: behind the watermark.
    await doStep(page, 0, () => drag(page, "event-4", 8_000), async () =>
      assert.match(await page.locator('[data-testid="grab-event-4"]').getAttribute("class"), /dropped/));
    // 2: the bound from 1 s to 5 s: the handle (at 20 s − bound − 1) to 15 s.
    await doStep(page, 1, () => drag(page, "bound", 15_000));
    // 3: allowedLateness 3.5 s: the handle after the window end to 13.5 s.
    await doStep(page, 2, () => drag(page, "lateness", 13_500));
    // 4: the side output catches the late record.
    await doStep(page, 3, () => drag(page, "event-4", 8_000), async () =>
      assert.match(await page.locator('[data-testid="grab-event-4"]').getAttribute("class"), /side/));
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a focused handle moves with the arrow keys; Back returns", async () => {
  const { context, page } = await openLesson("idle-partitions", { width: 390, height: 844 });
  try {
    const grab = page.locator('[data-testid="grab-bound"]');
    await grab.focus();
    // A slider of the bound's value: ↓ lowers it by 0.5 s (its handle moves right, to the
    // watermark), 3 s → 1 s in four presses; ↑ raised the handle and lowered the bound before.
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
    assert.equal(await passed(page), false);
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => document.querySelector('[data-testid="lesson"]')?.dataset.passed === "true");
    assert.match(await grab.getAttribute("aria-valuetext"), /bound 1 s/);
    assert.deepEqual(
      [await grab.getAttribute("aria-valuenow"), await grab.getAttribute("aria-valuemin"), await grab.getAttribute("aria-valuemax")],
      ["1000", "0", "12000"],
      "its value, and the values the stage shows: a bound of 12 s puts the handle at its left edge (-1 s)",
    );
    await page.keyboard.press("End");
    assert.match(await grab.getAttribute("aria-valuetext"), /bound 12 s/, "End stops at the stage's edge");
    await page.keyboard.press("Home");
    assert.match(await grab.getAttribute("aria-valuetext"), /bound 0 s/);
    for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    assert.match(await grab.getAttribute("aria-valuetext"), /bound 1.5 s/);
    await page.keyboard.press("ArrowDown");
    await page.locator('[data-testid="lesson-next"]').focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector('[data-testid="lesson"]')?.dataset.step === "1");
    // The new step's title has the focus: Next is disabled there, and the focus fell to <body>.
    assert.equal(await page.evaluate(() => document.activeElement?.className), "lesson-title");
    // The address names the step: a reload stays on it.
    assert.match(page.url(), /\?lesson=idle-partitions&step=2$/);
    await page.reload({ waitUntil: "load" });
    await card(page).waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await step(page), 1);
    await page.click('[data-testid="lesson-back"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="lesson"]')?.dataset.step === "0");
    assert.equal(await passed(page), false, "the step starts again as written");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal overflow at 390 px (${overflow})`);
    const [back, next] = [await page.locator('[data-testid="lesson-back"]').boundingBox(), await page.locator('[data-testid="lesson-next"]').boundingBox()];
    assert.ok(Math.abs(back.y - next.y) < 2 && next.x > back.x, `Back and Next on one row, Next after Back: ${JSON.stringify([back, next])}`);
  } finally {
    await context.close();
  }
});

test("the preset menu lists the lessons; a bad id lists them too", async () => {
  const { context, page } = await openPage(env.browser);
  try {
    await page.goto(`${env.baseUrl}?lesson=nope`, { waitUntil: "load" });
    const unknown = page.locator('[data-testid="lesson-unknown"]');
    await unknown.waitFor({ state: "visible", timeout: 20_000 });
    assert.match(await unknown.textContent(), /No lesson “nope”.*idle-partitions.*lateness/s);
    await page.selectOption("#preset", "lesson:lateness");
    await page.waitForURL(/\?lesson=lateness$/);
    await card(page).waitFor({ state: "visible", timeout: 20_000 });
    assert.match(await page.locator(".lesson-title").textContent(), /dropped/);
    // The menu names the lesson it is on (it said "Custom scenario").
    assert.equal(await page.locator("#preset").inputValue(), "lesson:lateness");
  } finally {
    await context.close();
  }
});

test("the page around a stage step does not drift from it: no transport, controls, fixes or preset keys; a preset leaves the lesson", async () => {
  // 1600 px: the controls drawer starts open on a wide screen.
  const { context, page, problems } = await openLesson("idle-partitions", { width: 1600, height: 900 });
  try {
    for (const sel of ["#btn-play", "#btn-reset", "#btn-next", "#speed", "#btn-controls", "#btn-share", "#controls-drawer"]) {
      assert.equal(await page.locator(sel).first().isVisible(), false, `${sel} is hidden on a stage step`);
    }
    // The WHY panel: a partition chosen from its chain offers no Silence / Send, nor the
    // Advisor its Apply (both were there, and changed the job behind the stage).
    await page.click(".why .chain [data-chain-partition]");
    await page.locator(".why .subject").waitFor();
    assert.equal(await page.locator(".why .subject .row-actions").isVisible(), false, "no partition actions");
    await page.click("#why-tab-advisor");
    await page.locator("#why-pane-advisor").waitFor();
    assert.equal(await page.locator("#btn-apply-advice").isVisible(), false, "no Apply advice");
    await page.click("#why-tab-why");
    const stage = () => page.locator('[data-testid="lesson-stage"]').innerHTML();
    const before = [await stage(), await page.locator("#clock").textContent()];
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    // Reset, step, next interesting, play, the controls, preset 7: none of them on a stage.
    for (const key of ["r", ".", "n", " ", "c", "7"]) await page.keyboard.press(key);
    await page.waitForTimeout(300);
    assert.deepEqual([await stage(), await page.locator("#clock").textContent()], before, "the stage and the clock are as they were");
    assert.equal(await step(page), 0);
    assert.equal(await page.locator(".app.with-controls").count(), 0, "no controls drawer");
    // Picking a preset from the menu leaves the lesson for it (before, the card stayed on its
    // step over the preset's job).
    await page.selectOption("#preset", "late-data");
    await page.waitForURL(/\?preset=late-data$/);
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await card(page).count(), 0);
    assert.ok(await page.locator("#btn-play").isVisible());
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a link pasted into the address during a lesson leaves the lesson for it", async () => {
  const { context, page, problems } = await openLesson("idle-partitions");
  try {
    await page.evaluate(() => (location.hash = "preset=late-data"));
    await page.waitForURL((u) => !u.search.includes("lesson="));
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await card(page).count(), 0, "no lesson card over the link's job");
    assert.equal(await page.inputValue("#preset"), "late-data");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

// A review: Start over in a preset step reloaded the preset under the step's card (the
// picker's pick leaves the lesson for it); it goes the picker's way.
test("Start over in a lesson's preset step leaves the lesson for the preset", async () => {
  const { context, page, problems } = await openLesson("idle-partitions");
  try {
    await page.goto(`${env.baseUrl}?lesson=idle-partitions&step=5`, { waitUntil: "load" });
    await card(page).waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await step(page), 4);
    // A restart from Controls changes the job: the note with Start over shows.
    await openControls(page);
    await page.fill("#f-src-par", String(Number(await page.inputValue("#f-src-par")) + 1));
    await page.click("#btn-apply-parallelism");
    await page.locator("[data-testid=start-over]").waitFor({ state: "visible" });
    await page.click("[data-testid=start-over]");
    await page.waitForURL(/\?preset=seed-001-heartbeat$/);
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await card(page).count(), 0, "no lesson card over the preset's job");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});
