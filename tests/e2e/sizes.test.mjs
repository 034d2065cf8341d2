// Every size (issue 14): at 1440×900, 1280×720, 1024×768, 720×420 and 360×640, for every
// preset, nothing is wider than the window (no horizontal scrolling, no element of the header,
// the graph or the WHY panel past the right edge, no graph node cut by its card), and the key
// elements are on the first screen: the play button everywhere; at 1280×720 and up, the graph,
// the WHY panel and the window subtasks' fired / dropped counts. Also the controls drawer open
// at 1280 and 1440, the embed at 360×640 and 720×420, and training.html on a phone. What a graph
// node's text fits into is in graph-nodes.test.mjs.
// One browser, one page per size; presets are chosen in the header's picker (the first one is
// loaded by URL), each played for about half a second of wall time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch, openPage, onGraph, choosePreset, playUntil } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const SIZES = [
  [1440, 900],
  [1280, 720],
  [1024, 768],
  [720, 420],
  [360, 640],
];

/** What sticks out, measured in the page: a list of problems (empty when all fits). */
function overflowProblems() {
  const W = window.innerWidth;
  const out = [];
  if (document.documentElement.scrollWidth > W) out.push(`page scrolls sideways: scrollWidth ${document.documentElement.scrollWidth} > ${W}`);
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && getComputedStyle(e).visibility !== "hidden" ? r : null;
  };
  for (const e of document.querySelectorAll(".app-header *, .graph-card *, .why *, .preset-card *, .embed *, .lesson-card *")) {
    // Inside a scroller (a table, a code block, the graph on a phone) a wide child is fine:
    // the scroller is checked (the graph's nodes below).
    if (e.closest(".scroll, pre, .why-scroll, .graph-wrap") && !e.matches(".scroll, pre, .graph-wrap")) continue;
    const r = visible(e);
    if (r && r.right > W + 0.5) out.push(`${e.tagName.toLowerCase()}.${e.className?.baseVal ?? e.className} ends at ${r.right.toFixed(0)} > ${W}`);
    if (out.length > 6) break;
  }
  // A graph node cut by its card (the card clips its content). On a phone the full graph's card
  // scrolls across (the graph is not drawn smaller than 80%): its content is what counts there.
  for (const wrap of document.querySelectorAll(".graph-wrap, .compact-graph-wrap")) {
    const box = wrap.getBoundingClientRect();
    const scrolls = W <= 600 && wrap.matches(".graph-wrap");
    const left = scrolls ? box.left - wrap.scrollLeft : box.left;
    const right = scrolls ? left + wrap.scrollWidth : box.right;
    for (const n of wrap.querySelectorAll(".node")) {
      const r = n.getBoundingClientRect();
      if (r.width > 0 && (r.right > right + 0.5 || r.left < left - 0.5)) out.push(`graph node ${n.getAttribute("class")} cut: ${r.left.toFixed(0)}–${r.right.toFixed(0)} outside ${left.toFixed(0)}–${right.toFixed(0)}`);
      if (out.length > 10) break;
    }
  }
  // A table's column head cut short ("align…") or squeezed to nothing, and the channels' names
  // ("ch3 ◀ min"): a table too wide for its card scrolls instead.
  for (const cell of document.querySelectorAll("table.data thead th, table.channels tbody th, table.channels tbody td:first-child")) {
    const table = cell.closest("table");
    if (visible(table) && cell.scrollWidth > cell.clientWidth + 1) out.push(`${table.id || "table"}: "${cell.textContent}" cut (${cell.scrollWidth} > ${cell.clientWidth})`);
    if (out.length > 12) break;
  }
  // On a phone the full graph is drawn at 80% of its size or more: below, its text was 5–6 px.
  const svg = document.querySelector(".graph-wrap svg.graph");
  if (W <= 600 && svg && svg.viewBox.baseVal.width > 0 && visible(svg)) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (scale < 0.795) out.push(`the job graph is drawn at ${(scale * 100).toFixed(0)}%`);
  }
  return out;
}

/** Whether the element's box is entirely on the first screen (the page scrolled to the top). */
function onScreen(sel) {
  const all = [...document.querySelectorAll(sel)];
  if (!all.length) return `${sel}: missing`;
  for (const e of all) {
    const r = e.getBoundingClientRect();
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5) {
      return `${sel} at ${r.left.toFixed(0)},${r.top.toFixed(0)}–${r.right.toFixed(0)},${r.bottom.toFixed(0)} is off the ${window.innerWidth}×${window.innerHeight} screen`;
    }
  }
  return null;
}

/** The menu's presets and, apart, its lessons (options `lesson:ID`, which open `?lesson=ID`). */
async function menuIds(page) {
  const all = await page.$$eval("#preset option", (os) => os.map((o) => o.value).filter(Boolean));
  const lesson = (v) => v.startsWith("lesson:");
  return { presets: all.filter((v) => !lesson(v)), lessons: all.filter(lesson).map((v) => v.slice("lesson:".length)) };
}

async function checkFits(page, what) {
  const problems = await page.evaluate(overflowProblems);
  assert.deepEqual(problems, [], `${what}:\n${problems.join("\n")}`);
}

async function checkFirstScreen(page, what, w, h) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const must = ["#btn-play"];
  if (w >= 1280 && h >= 720) {
    // The graph's card head and the WHY panel's top, and every window subtask's counts (a job
    // with at most 8 of them: a larger one scrolls inside its card).
    must.push(".graph-card .card-head", ".why .card-head");
    const ops = await page.locator("svg.graph .node.op").count();
    if (ops <= 8) must.push("svg.graph .node.op text.counts");
  }
  for (const sel of must) {
    const miss = await page.evaluate(onScreen, sel);
    assert.equal(miss, null, `${what}: ${miss}`);
  }
}

for (const [w, h] of SIZES) {
  test(`${w}×${h}: every preset fits the width; the key elements are on the first screen`, async () => {
    const { context, page, problems } = await openPage(env.browser, { viewport: { width: w, height: h } });
    try {
      await page.goto(env.baseUrl + "?preset=seed-001-heartbeat", { waitUntil: "load" });
      await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
      assert.equal(await page.locator("h1").count(), 1, "one h1");
      const { presets, lessons } = await menuIds(page);
      assert.ok(presets.length >= 18 && lessons.length >= 2, `menu: ${presets} / ${lessons}`);
      for (const id of presets) {
        if ((await page.locator("#preset").inputValue()) !== id) await choosePreset(page, id);
        await page.waitForTimeout(120); // the graph measures its width after a frame
        await checkFits(page, `${id} at ${w}×${h}, before playing`);
        await playUntil(page, 20_000, 60);
        await checkFits(page, `${id} at ${w}×${h}`);
        await checkFirstScreen(page, `${id} at ${w}×${h}`, w, h);
      }
      for (const id of lessons) {
        await page.goto(env.baseUrl + `?lesson=${id}`, { waitUntil: "load" });
        await page.locator('[data-testid="lesson"]').waitFor({ state: "visible", timeout: 20_000 });
        await page.waitForTimeout(120);
        await checkFits(page, `lesson ${id} at ${w}×${h}`);
        const miss = await page.evaluate(onScreen, '[data-testid="lesson-progress"]');
        assert.equal(miss, null, `lesson ${id} at ${w}×${h}: ${miss}`);
      }
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await context.close();
    }
  });
}

test("controls drawer open at 1440 and 1280: the window subtasks and the sink stay in the card", async () => {
  for (const [w, h] of [
    [1440, 900],
    [1280, 720],
  ]) {
    const { context, page } = await openPage(env.browser, { viewport: { width: w, height: h } });
    try {
      for (const id of ["seed-001-heartbeat", "midstream-assigner", "quiet-side-join"]) {
        await page.goto(env.baseUrl + `?preset=${id}`, { waitUntil: "load" });
        await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
        if ((await page.getAttribute("#btn-controls", "aria-expanded")) !== "true") await page.click("#btn-controls");
        await page.waitForTimeout(150);
        await checkFits(page, `${id} at ${w}×${h} with the controls open`);
        const sink = await page.locator("svg.graph .node.sink").boundingBox();
        const card = await page.locator(".graph-wrap").boundingBox();
        assert.ok(sink && sink.x + sink.width <= card.x + card.width + 0.5, `${id}: the sink is inside the card`);
      }
    } finally {
      await context.close();
    }
  }
});

test("controls open at 1000 px and below: a sheet at the bottom of the screen, over nothing, closed by its ✕", async () => {
  for (const [w, h] of [
    [360, 640],
    [720, 420],
    [800, 1000],
  ]) {
    const { context, page } = await openPage(env.browser, { viewport: { width: w, height: h } });
    try {
      await page.goto(env.baseUrl + "?preset=seed-001-heartbeat", { waitUntil: "load" });
      await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
      await page.click("#btn-controls");
      await page.locator("#f-bound").waitFor({ state: "visible" });
      // The focus goes into the sheet, to its ✕, and Tab goes on to its controls (the sheet
      // comes after the whole page in the Tab order).
      await page.waitForFunction(() => document.activeElement?.id === "btn-controls-close");
      await page.keyboard.press("Tab");
      assert.ok(await page.evaluate(() => !!document.activeElement?.closest(".controls-drawer .controls")), `${w}×${h}: Tab from the ✕ reaches the sheet's controls`);
      // Scrolled anywhere, the sheet's first field is on screen and nothing lies on it; the
      // preset card and the graph are not under the sheet when the page starts.
      for (const y of [0, 900, 1e6]) {
        await page.evaluate((y) => window.scrollTo(0, y), y);
        const seen = await page.evaluate(() => {
          const f = document.querySelector("#f-bound");
          const r = f.getBoundingClientRect();
          const sheet = document.querySelector(".controls-drawer").getBoundingClientRect();
          return { hit: document.elementFromPoint(r.left + 4, r.top + 4) === f, bottom: sheet.bottom, top: sheet.top };
        });
        assert.ok(seen.hit, `${w}×${h} scrolled to ${y}: the bound field is on top`);
        assert.ok(Math.abs(seen.bottom - h) <= 1, `${w}×${h} scrolled to ${y}: the sheet ends at the screen's bottom (${seen.bottom})`);
        assert.ok(seen.top >= h / 2 - 1, `${w}×${h} scrolled to ${y}: the sheet takes at most half the screen (top ${seen.top})`);
      }
      // What the keyboard focuses in the page is scrolled into view above the sheet.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.focus("#btn-controls");
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press(i < 45 ? "Tab" : "Shift+Tab");
        const f = await page.evaluate(() => {
          const a = document.activeElement;
          const r = a.getBoundingClientRect();
          const sheet = document.querySelector(".controls-drawer").getBoundingClientRect().top;
          // Inside a scroll box of its own (a table, the WHY panel), it shows within that box.
          const box = a.parentElement?.closest(".scroll, .why")?.getBoundingClientRect();
          const inBox = !box || (r.top >= box.top - 1 && r.bottom <= box.bottom + 1) || r.height > box.height;
          return { inMain: !!a.closest(".main"), what: a.id || a.tagName, top: r.top, bottom: r.bottom, fits: r.height <= sheet, sheet, inBox };
        });
        if (!f.inMain) continue;
        assert.ok(f.inBox, `${w}×${h}: the focused ${f.what} shows within its scroll box`);
        // Whole when it fits above the sheet (the graph at 720×420 does not: its top shows).
        const seen = f.fits ? f.bottom <= f.sheet + 1 : f.top < f.sheet;
        assert.ok(seen, `${w}×${h}: the focused ${f.what} is above the sheet (${f.top}–${f.bottom}, the sheet at ${f.sheet})`);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      const title = await page.locator(".preset-card h2").boundingBox();
      assert.equal(await page.evaluate(({ x, y }) => !!document.elementFromPoint(x, y)?.closest(".preset-card"), { x: title.x + 4, y: title.y + 4 }), true, "the preset card's title is not under the sheet");
      // The ✕ closes it and gives the focus back to the Controls button, where the page is.
      await page.evaluate(() => window.scrollTo(0, 900));
      const y = await page.evaluate(() => window.scrollY);
      await page.click("#btn-controls-close");
      assert.equal(await page.locator(".controls-drawer").isVisible(), false);
      assert.equal(await page.evaluate(() => document.activeElement?.id), "btn-controls");
      assert.equal(await page.evaluate(() => window.scrollY), y, "closing did not scroll");
      // So does C with the focus on a control in the sheet; C opens it with the focus on the ✕.
      await page.keyboard.press("c");
      await page.waitForFunction(() => document.activeElement?.id === "btn-controls-close");
      assert.equal(await page.evaluate(() => window.scrollY), y, "opening did not scroll");
      await page.focus("#btn-add-partition");
      await page.keyboard.press("c");
      assert.equal(await page.locator(".controls-drawer").isVisible(), false);
      assert.equal(await page.evaluate(() => document.activeElement?.id), "btn-controls", "C from inside the sheet");
      // And Esc, with the focus in it.
      await page.keyboard.press("c");
      await page.waitForFunction(() => document.activeElement?.id === "btn-controls-close");
      await page.keyboard.press("Escape");
      assert.equal(await page.locator(".controls-drawer").isVisible(), false, "Esc closes the sheet");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "btn-controls", "Esc from inside the sheet");
    } finally {
      await context.close();
    }
  }
});

test("on a phone the job graph scrolls across its card, and a node reached with the arrow keys comes into view", async () => {
  const { context, page } = await openPage(env.browser, { viewport: { width: 390, height: 844 } });
  try {
    await page.goto(env.baseUrl + "?preset=seed-001-heartbeat", { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "attached", timeout: 20_000 });
    const wrap = page.locator(".graph-wrap");
    const [client, scroll] = await wrap.evaluate((w) => [w.clientWidth, w.scrollWidth]);
    assert.ok(scroll > client + 50, `the graph is wider than its card: ${scroll} > ${client}`);
    await page.focus("svg.graph [data-partition='0']");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    const op = page.locator("svg.graph .node.op:focus");
    await page.waitForFunction(() => {
      const w = document.querySelector(".graph-wrap").getBoundingClientRect();
      const n = document.querySelector("svg.graph .node.op:focus")?.getBoundingClientRect();
      return n && n.left >= w.left - 0.5 && n.right <= w.right + 0.5;
    }, null, { timeout: 3_000 });
    assert.equal(await op.count(), 1, "a window subtask has the focus, in view");
  } finally {
    await context.close();
  }
});

test("on a phone the splits table shows each split's watermark, status and Silence without scrolling sideways", async () => {
  const { context, page } = await openPage(env.browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    await page.goto(env.baseUrl + "?preset=heartbeat-idle-timeout&start-at=60s", { waitUntil: "load" });
    const table = page.locator("table.splits");
    await table.locator("tbody tr").first().waitFor({ state: "attached", timeout: 20_000 });
    await table.scrollIntoViewIfNeeded();
    // It was 1,082 px wide in a 352 px box, the watermark and status off to the right.
    const [client, scroll] = await table.evaluate((t) => [t.parentElement.clientWidth, t.scrollWidth]);
    assert.ok(scroll <= client + 1, `the table fits its card: ${scroll} <= ${client}`);
    const headers = await table.locator("thead th").evaluateAll((ths) => ths.filter((th) => th.offsetParent !== null).map((th) => th.textContent));
    assert.deepEqual(headers, ["partition", "split watermark", "status", "producers"]);
  } finally {
    await context.close();
  }
});

test("on a phone the 'Now:' line keeps its height as the headline changes from 2 lines to 3 (the graph stays put)", async () => {
  const { context, page } = await openPage(env.browser, { viewport: { width: 390, height: 844 } });
  try {
    // "Nothing has been read yet: …" takes 2 lines at 390 px, "The watermark is in January 1970 …" 3.
    await page.goto(env.baseUrl + "?preset=timestamp-units", { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "attached", timeout: 20_000 });
    const graphTop = () => page.locator(".graph-wrap").evaluate((g) => g.getBoundingClientRect().top + window.scrollY);
    const before = await graphTop();
    assert.match(await page.locator("[data-testid=live-line]").textContent(), /Nothing has been read yet/);
    await page.click("#btn-play");
    await page.waitForFunction(() => /January 1970/.test(document.querySelector("[data-testid=live-line]").textContent), null, { timeout: 20_000 });
    await page.click("#btn-play");
    assert.equal(await graphTop(), before, "the graph did not move");
  } finally {
    await context.close();
  }
});

test("a 2-partition job gets a short graph card, seed-001 a taller one", async () => {
  const { context, page } = await openPage(env.browser, { viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(env.baseUrl + "?preset=seed-001-heartbeat", { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    const heights = {};
    for (const id of (await menuIds(page)).presets) {
      if ((await page.locator("#preset").inputValue()) !== id) await choosePreset(page, id);
      await page.waitForTimeout(80);
      heights[id] = {
        nodes: await page.locator("svg.graph .node:not(.sink)").count(),
        h: (await page.locator(".graph-wrap").boundingBox()).height,
      };
    }
    // At most 2 partitions, 2 source and 2 window subtasks (late-data, timestamp-units, …).
    const small = Object.entries(heights).filter(([, v]) => v.nodes <= 6);
    assert.ok(small.length > 0, "a preset with at most 2 partitions, 2 source and 2 window subtasks");
    for (const [id, v] of small) assert.ok(v.h < heights["seed-001-heartbeat"].h - 100, `${id}: ${v.h} px, seed-001 ${heights["seed-001-heartbeat"].h} px`);
  } finally {
    await context.close();
  }
});

test("the closed metrics card takes its whole row (no blank half-card beside the share card); opened, half", async () => {
  const { context, page } = await openPage(env.browser, { viewport: { width: 1366, height: 850 } });
  try {
    await page.goto(env.baseUrl + "?preset=seed-001-heartbeat", { waitUntil: "load" });
    await page.locator(".metrics-card").waitFor({ state: "visible", timeout: 20_000 });
    const widths = async () => ({ metrics: (await page.locator(".metrics-card").boundingBox()).width, share: (await page.locator(".share-card").boundingBox()).width });
    const closed = await widths();
    assert.ok(Math.abs(closed.metrics - closed.share) < 2, `closed: ${JSON.stringify(closed)}`);
    await page.click(".metrics-card summary");
    await page.waitForFunction(() => document.querySelector(".metrics-card").getBoundingClientRect().width < 800);
    const open = await widths();
    assert.ok(Math.abs(open.metrics - open.share) < 2 && open.metrics < closed.metrics * 0.6, `open: ${JSON.stringify(open)}`);
  } finally {
    await context.close();
  }
});

test("embed at 360×640 and 720×420: fits the width, nothing cut; the WHY line expands on tap", async () => {
  for (const [w, h] of [
    [360, 640],
    [720, 420],
  ]) {
    const { context, page, problems } = await openPage(env.browser, { viewport: { width: w, height: h } });
    try {
      for (const id of ["seed-001-heartbeat", "quiet-side-join", "late-data"]) {
        await page.goto(env.baseUrl + `?embed=1&preset=${id}`, { waitUntil: "load" });
        await page.locator(".embed svg.graph.compact .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
        await playUntil(page, 20_000, 60);
        await checkFits(page, `embed ${id} at ${w}×${h}`);
        for (const sel of ["#btn-play", ".embed-why"]) {
          const b = await page.locator(sel).boundingBox();
          assert.ok(b.x >= 0 && b.x + b.width <= w + 0.5, `${sel} within the width`);
        }
      }
      const why = page.locator(".embed-why-text");
      assert.equal(await why.getAttribute("aria-expanded"), "false");
      assert.ok(await page.locator("#embed-why-full").isHidden());
      await why.click();
      assert.equal(await why.getAttribute("aria-expanded"), "true");
      assert.ok(await page.locator("#embed-why-full").isVisible(), "the whole explanation shows");
      assert.ok((await page.locator("#embed-why-full").textContent()).length > 20);
      await checkFits(page, `embed expanded at ${w}×${h}`);
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await context.close();
    }
  }
});

test("training.html at 390 px fits, and its stall lasts long enough to be seen", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 390, height: 844 } });
  try {
    await page.goto(env.baseUrl + "pages/training.html", { waitUntil: "load" });
    await page.waitForFunction(() => /processing time \+0[0-9]:/.test(document.querySelector("#clock")?.textContent ?? ""));
    await page.waitForTimeout(2_500);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390, "no horizontal scrolling");
    const clock = await page.locator("#clock").textContent();
    const [, mm, ss] = clock.match(/\+(\d\d):(\d\d)/);
    assert.ok(Number(mm) * 60 + Number(ss) > 20, `the simulation runs (${clock})`);
    assert.ok(Number(mm) < 10, `after 2.5 s the stall is still on (${clock})`);
    assert.equal(await page.locator("#error").textContent(), "", "no error");
    assert.equal(await page.locator("#windows td.muted").count(), 1, "no window has fired yet");
    // The splits table fits its box (its note column was cut at the edge), and partition 11's
    // watermark of the day before says its day.
    const table = await page.locator("#splits").evaluate((b) => ({ table: b.closest("table").offsetWidth, box: b.closest(".table-wrap").clientWidth }));
    assert.ok(table.table <= table.box, JSON.stringify(table));
    assert.match(await page.locator("#splits tr.holds td:nth-child(3)").textContent(), /^12-31 23:59:\d\d$/);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

/**
 * How much an edge of a scroll box is shaded, in its head row and in its first row: the colour
 * difference between the pixel 3 px inside that edge and one mid-row, with the text hidden, read
 * from a screenshot on a blank page (so nothing of the app's page is in the way).
 */
async function edgeShade(page, region) {
  const hidden = await page.addStyleTag({ content: ".scroll table, .scroll table * { color: transparent !important; }" });
  const shot = await region.screenshot();
  const geo = await region.evaluate((r) => {
    const [head, row] = [r.querySelector("thead th"), r.querySelector("tbody tr")];
    const top = r.getBoundingClientRect().top;
    const mid = (e) => Math.round(e.getBoundingClientRect().top - top + e.getBoundingClientRect().height / 2);
    return { w: r.clientWidth, ys: { head: mid(head), row: mid(row) } };
  });
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      async ({ b64, w, ys }) => {
        const img = new Image();
        img.src = "data:image/png;base64," + b64;
        await img.decode();
        const c = new OffscreenCanvas(img.width, img.height).getContext("2d");
        c.drawImage(img, 0, 0);
        const px = (x, y) => c.getImageData(x, y, 1, 1).data;
        const diff = (a, b) => Math.max(...[0, 1, 2].map((i) => Math.abs(a[i] - b[i])));
        const at = (y) => ({ left: diff(px(3, y), px(w >> 1, y)), right: diff(px(w - 4, y), px(w >> 1, y)) });
        return { head: at(ys.head), row: at(ys.row) };
      },
      { b64: shot.toString("base64"), ...geo },
    );
  } finally {
    await blank.close();
    await hidden.evaluate((style) => style.remove());
  }
}

test("the late records table shows a shade at the edge that has more columns, over its head row too, takes the keyboard, and scrolls to its last column", async () => {
  for (const [w, h, scheme] of [
    [1366, 900, "light"],
    [1366, 900, "dark"],
    [390, 844, "light"],
  ]) {
    const { context, page, problems } = await openPage(env.browser, { viewport: { width: w, height: h }, colorScheme: scheme });
    const where = `${w} px, ${scheme}`;
    try {
      // "wm then" was cut at 1366 px, and a phone showed four of the seven columns with nothing
      // saying there were more.
      await page.goto(env.baseUrl + "?preset=late-data&start-at=40s", { waitUntil: "load" });
      await page.locator("#late-table tbody tr").first().waitFor({ state: "attached", timeout: 20_000 });
      const region = page.locator("#late-table").locator("xpath=..");
      assert.deepEqual(
        await region.evaluate((r) => [r.getAttribute("tabindex"), r.getAttribute("role"), r.getAttribute("aria-label")]),
        ["0", "region", "late records table"],
        `${where}: a named Tab stop`,
      );
      const box = await region.evaluate((r) => ({ client: r.clientWidth, scroll: r.scrollWidth }));
      assert.ok(box.scroll > box.client, `${where}: the table is wider than its card here (${JSON.stringify(box)})`);
      await region.scrollIntoViewIfNeeded();
      // The shade at the right edge only, over the rows and the sticky head row alike (the head
      // row's background hid it, and the head looked cut).
      let shade = await edgeShade(page, region);
      assert.ok(shade.row.right > 12 && shade.head.right > 12, `${where}: a shade at the right edge (${JSON.stringify(shade)})`);
      assert.ok(shade.row.left < 4 && shade.head.left < 4, `${where}: none at the left (${JSON.stringify(shade)})`);
      // The arrows scroll it; at the end, every column head is whole inside the box.
      await region.focus();
      const atEnd = () => region.evaluate((r) => r.scrollLeft + r.clientWidth >= r.scrollWidth - 1);
      for (let i = 0; i < 60 && !(await atEnd()); i++) {
        await page.keyboard.press("ArrowRight");
        await page.waitForTimeout(30);
      }
      const cut = await region.evaluate((r) => {
        const b = r.getBoundingClientRect();
        return [...r.querySelectorAll("thead th")].filter((th) => th.getBoundingClientRect().right > b.right + 0.5).map((th) => th.textContent);
      });
      assert.ok(await region.evaluate((r) => r.scrollLeft > 0), `${where}: the arrow keys scroll it across`);
      assert.deepEqual(cut, [], `${where}: column heads past the box once scrolled to the end`);
      shade = await edgeShade(page, region);
      assert.ok(shade.row.left > 12 && shade.head.left > 12, `${where}: at the end, the shade is at the left (${JSON.stringify(shade)})`);
      assert.ok(shade.row.right < 4 && shade.head.right < 4, `${where}: and none at the right (${JSON.stringify(shade)})`);
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await context.close();
    }
  }
});

// At 1366×900 the Advisor's "Apply advice" was half hidden, nothing saying there was more.
test("the WHY panel scrolls inside: a fade at its foot while there is more, a named Tab stop, and its end reachable", async () => {
  await onGraph(env, "?preset=seed-001-heartbeat&start-at=600s", async (page) => {
    await page.click("#why-tab-advisor");
    const why = page.locator(".card.why");
    await page.locator("#btn-apply-advice").waitFor({ state: "attached" });
    assert.ok(await why.evaluate((w) => w.scrollHeight > w.clientHeight + 20), "the panel has more than it shows");
    const fade = await why.evaluate((w) => {
      const s = getComputedStyle(w, "::after");
      return { position: s.position, image: s.backgroundImage, height: parseFloat(s.height) };
    });
    assert.equal(fade.position, "sticky", JSON.stringify(fade));
    assert.match(fade.image, /linear-gradient/);
    assert.ok(fade.height >= 16, JSON.stringify(fade));
    assert.equal(await why.getAttribute("tabindex"), "0", "a Tab stop");
    assert.equal(await page.locator(`#${await why.getAttribute("aria-labelledby")}`).textContent(), "Why", "named");
    await why.focus();
    await page.keyboard.press("End");
    await page.waitForFunction(() => {
      const w = document.querySelector(".card.why");
      return w.scrollTop + w.clientHeight >= w.scrollHeight - 1;
    }, null, { timeout: 3_000 });
    const apply = await page.locator("#btn-apply-advice").boundingBox();
    const box = await why.boundingBox();
    assert.ok(apply.y >= box.y && apply.y + apply.height <= box.y + box.height, `"Apply advice" ${JSON.stringify(apply)} inside ${JSON.stringify(box)}`);
    // On a phone (narrower padding, no fade, no scroll box of its own) nothing is wider than it.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => document.querySelector(".card.why").clientWidth < 400);
    assert.ok(await why.evaluate((w) => w.scrollWidth <= w.clientWidth), "the panel does not scroll across");
  });
});
