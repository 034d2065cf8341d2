// Phone-size tap targets (WCAG 2.2, 2.5.8: at least 24×24 CSS px): at 390×844, every preset's
// Silence / Resume buttons in the job graph (the whole row left of a pill is the button's: its
// rows are spaced for a finger on a phone, src/web/graph_layout.rs) and every lesson step's drag
// handles (a square around the mark, src/web/lesson_stage.rs). A tap anywhere in the 23×23 px
// square around the drawn button's or mark's centre reaches it, and no two buttons' hit areas
// overlap each other or the partition pills beside them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch, openPage, gotoApp, choosePreset } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** Half the side of the square that must be hit around a target's centre (24 px, less rounding). */
const HALF = 11.5;

/** In the page: what a tap at the corners and edges of the square around `el`'s centre reaches. */
function misses([selector, half, owner]) {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    el.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    const r = el.getBoundingClientRect();
    const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
    const mine = el.closest(owner);
    for (const [dx, dy] of [[-1, -1], [1, -1], [-1, 1], [1, 1], [0, -1], [0, 1], [-1, 0], [1, 0]]) {
      const hit = document.elementFromPoint(cx + dx * half, cy + dy * half)?.closest(owner);
      if (hit !== mine) out.push(`${mine.getAttribute("aria-label")}: (${dx * half}, ${dy * half}) from its centre reaches ${hit?.getAttribute("aria-label") ?? "nothing"}`);
    }
  }
  return out;
}

/** In the page: Silence buttons (each its hit area's box) under 24×24 px, or overlapping another's or a partition pill. */
function overlaps() {
  const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => ({ e, r: e.getBoundingClientRect() }));
  const buttons = boxes("svg.graph .silence-btn:not(.hidden)");
  const pills = boxes("svg.graph .node.part rect.box");
  const cross = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const out = [];
  buttons.forEach((a, i) => {
    if (a.r.width < 24 || a.r.height < 24) out.push(`${a.e.getAttribute("aria-label")}: ${a.r.width.toFixed(1)}×${a.r.height.toFixed(1)} px`);
    for (const b of buttons.slice(i + 1)) if (cross(a.r, b.r)) out.push(`${a.e.getAttribute("aria-label")} overlaps ${b.e.getAttribute("aria-label")}`);
    for (const p of pills) if (cross(a.r, p.r)) out.push(`${a.e.getAttribute("aria-label")} overlaps a pill`);
  });
  return out;
}

test("390 px: every preset's Silence / Resume buttons take a 24 px tap around them, without overlapping", async () => {
  const { context, page, problems } = await openPage(env.browser, PHONE);
  try {
    await gotoApp(page, env.baseUrl);
    const presets = (await page.$$eval("#preset option", (os) => os.map((o) => o.value))).filter((v) => v && !v.startsWith("lesson:"));
    assert.ok(presets.length >= 18, presets.join());
    let seen = 0;
    for (const id of presets) {
      await choosePreset(page, id);
      await page.locator("svg.graph .node.part").first().waitFor();
      seen += await page.locator("svg.graph .silence-btn:not(.hidden)").count();
      assert.deepEqual(await page.evaluate(overlaps), [], id);
      assert.deepEqual(await page.evaluate(misses, ["svg.graph .silence-btn:not(.hidden) > rect:not(.hit)", HALF, ".silence-btn"]), [], id);
    }
    assert.ok(seen >= 40, `buttons checked: ${seen}`);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("390 px: every lesson step's drag handles take a 24 px tap around their mark", async () => {
  const { context, page, problems } = await openPage(env.browser, PHONE);
  try {
    let seen = 0;
    for (const [lesson, steps] of [["idle-partitions", 5], ["lateness", 4]]) {
      for (let step = 1; step <= steps; step++) {
        await page.goto(`${env.baseUrl}?lesson=${lesson}&step=${step}`, { waitUntil: "load" });
        await page.locator('[data-testid="lesson"]').waitFor({ timeout: 20_000 });
        assert.equal(await page.locator('[data-testid="lesson"]').getAttribute("data-step"), String(step - 1));
        // Records a finger cannot tell apart (closer than a target) share their squares.
        const alone = await page.evaluate(() => {
          const marks = [...document.querySelectorAll(".lw-grab .lw-mark")];
          const at = marks.map((m) => m.getBoundingClientRect()).map((r) => [r.x + r.width / 2, r.y + r.height / 2]);
          marks.forEach((m, i) => m.classList.toggle("alone", at.every(([x, y], j) => j === i || Math.abs(x - at[i][0]) >= 26 || Math.abs(y - at[i][1]) >= 26)));
          return marks.filter((m) => m.classList.contains("alone")).length;
        });
        seen += alone;
        assert.deepEqual(await page.evaluate(misses, [".lw-grab .lw-mark.alone", HALF, ".lw-grab"]), [], `${lesson} step ${step}`);
      }
    }
    assert.ok(seen >= 15, `handles checked: ${seen}`);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});
