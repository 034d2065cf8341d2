// Accessibility (issue 14): the WHY panel's live region, and axe-core (the npm package, injected
// into the page) finds no serious or critical violation in the seed-001 story, paused and after
// playing, in the light and the dark theme, with the controls drawer open, with the timeline's
// table open, with the help dialog open, and in the embed layout.
// Run after `trunk build --release`:  node --test tests/e2e/a11y.test.mjs
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serveAndLaunch, openPage, gotoApp, playUntil, recordAnnouncements, announced } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const AXE = path.join(path.dirname(fileURLToPath(import.meta.url)), "node_modules", "axe-core", "axe.min.js");

// Known and owned elsewhere: the job graph's nodes (graph*.rs, the layout work of issue 14) are
// named "partition p0: explain" while they show "p0 No Watermark" (WCAG 2.5.3, label in name).
// Only these nodes are excused, only for this rule; remove once the graph's names carry their
// visible text.
const EXCUSED = { "label-content-name-mismatch": "svg.graph g[role=button]" };

/** Runs axe on the page; returns the serious and critical violations, one line per node. */
async function serious(page) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async (excused) => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    const kept = (v, n) => !(excused[v.id] && n.target.length === 1 && document.querySelector(n.target[0])?.matches(excused[v.id]));
    return r.violations
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.filter((n) => kept(v, n)).map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1, 2).join(" ").trim()}`) }))
      .filter((v) => v.nodes.length > 0);
  }, EXCUSED);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

function report(violations) {
  return violations.map((v) => `${v.impact} ${v.id} (${v.help}):\n  ${v.nodes.slice(0, 8).join("\n  ")}${v.nodes.length > 8 ? `\n  … ${v.nodes.length - 8} more` : ""}`).join("\n");
}

async function assertClean(page, where) {
  const v = await serious(page);
  assert.equal(v.length, 0, `${where}: ${v.length} serious/critical axe violations\n${report(v)}`);
}

/**
 * The WHY panel's live region named the culprit (recorded since the page opened: it clears
 * itself after), and stays still while the verdict does: two seconds of playing (many readings,
 * whose counts and times move) make it say something new at most once.
 */
async function liveRegion(page) {
  const live = page.locator("[data-testid=why-live]");
  assert.equal(await live.getAttribute("aria-live"), "polite");
  // The only one for the diagnosis: the "Now:" line's times change every frame.
  assert.equal(await page.locator("[data-testid=live-line]").getAttribute("aria-live"), null);
  // It says when it was true ("At …:"), then is cleared: read later, its times ("the last …
  // ago") would be of that moment.
  assert.match(await announced(page), /^At \d\d:\d\d:\d\d\.\d{3}: Partition 11 /m, "the live region named the culprit");
  const said = await page.evaluate(async () => {
    const el = document.querySelector("[data-testid=why-live]");
    let n = 0;
    const mo = new MutationObserver(() => (n += el.textContent ? 1 : 0));
    mo.observe(el, { subtree: true, childList: true, characterData: true });
    document.querySelector("#btn-play").click();
    await new Promise((r) => setTimeout(r, 2000));
    document.querySelector("#btn-play").click();
    mo.disconnect();
    return n;
  });
  assert.ok(said <= 1, `the live region said something new ${said} times in 2 s`);
}

/** Opens the seed-001 story in a colour scheme and runs `fn` on it. */
async function withSeed(scheme, fn, viewport = { width: 1440, height: 900 }) {
  const { context, page, problems } = await openPage(env.browser, { viewport, colorScheme: scheme });
  try {
    await gotoApp(page, env.baseUrl, "preset=seed-001-heartbeat");
    await recordAnnouncements(page);
    await fn(page);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
}

for (const scheme of ["light", "dark"]) {
  test(`axe: seed-001 paused, after playing and with the controls open (${scheme})`, async () => {
    await withSeed(scheme, async (page) => {
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).colorScheme), scheme);
      await assertClean(page, `${scheme}, paused at t = 0`);
      await playUntil(page, 20 * 60_000, 1000);
      await assertClean(page, `${scheme}, after 20 minutes`);
      await liveRegion(page);
      if ((await page.getAttribute("#btn-controls", "aria-expanded")) !== "true") await page.click("#btn-controls");
      await page.locator(".controls-drawer").waitFor({ state: "visible" });
      await assertClean(page, `${scheme}, controls open`);
      // The timeline's text alternative, opened.
      await page.click(".tl-table summary");
      await page.locator("#timeline-now tbody tr").first().waitFor({ state: "visible" });
      assert.match(await page.getAttribute("canvas.timeline", "aria-label"), /slowest/);
      await assertClean(page, `${scheme}, timeline as a table`);
    });
  });

  test(`axe: the help dialog (${scheme})`, async () => {
    await withSeed(scheme, async (page) => {
      await page.click("#btn-help");
      await page.locator("[role=dialog]").waitFor({ state: "visible" });
      await assertClean(page, `${scheme}, help open`);
    });
  });

  test(`axe: the embed (${scheme})`, async () => {
    const { context, page, problems } = await openPage(env.browser, { viewport: { width: 720, height: 420 }, colorScheme: scheme });
    try {
      await page.goto(env.baseUrl + "?embed=1&preset=seed-001-heartbeat", { waitUntil: "load" });
      await page.locator(".embed svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
      await assertClean(page, `${scheme}, embed at t = 0`);
      await page.click("#btn-play");
      await page.waitForFunction(() => /^00:(0[5-9]|[1-5]\d):/.test(document.querySelector("#clock").textContent), null, { timeout: 30_000 });
      await page.click("#btn-play");
      await assertClean(page, `${scheme}, embed after playing`);
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await context.close();
    }
  });
}

/**
 * The live region is emptied once it has spoken: browsed to minutes later, it still said "(1 so
 * far, the last 1.7 s ago)" of the first heartbeat (a walk). The panel has the current words.
 */
test("the live region is emptied once it has spoken, not left saying what was true minutes ago", async () => {
  await withSeed("light", async (page) => {
    await playUntil(page, 5 * 60_000, 1000);
    assert.match(await announced(page), /^At \d\d:\d\d:\d\d\.\d{3}: Partition 11 /m);
    // 7 s after it spoke (SAID_MS in src/web/explain.rs).
    await page.waitForFunction(() => document.querySelector("[data-testid=why-live]").textContent === "", null, { timeout: 12_000 });
    const sentence = await page.locator("[data-testid=why-sentence]").textContent();
    assert.match(sentence, /partition 11/i);
    // Its times as the panel writes them ("23:59:54.999 -1d"), not the API's full dates.
    assert.match(sentence, /watermark is 23:59:54\.999 -1d because/);
    assert.doesNotMatch(sentence, /\d{4}-\d\d-\d\d/);
  });
});

/**
 * What a screen reader hears (an accessibility walk): a table's status marks are seen and not
 * heard ("black circle active"), a missing value is "none" (not "en dash"), a group says
 * "restarts the job" once (it said it three times), no region sits in a region of its own
 * name, and card titles are words in the DOM (capitals only on screen: "LATE RECORDS" was
 * spelled out).
 */
test("a reader hears words, not glyphs, once each", async () => {
  await withSeed("light", async (page) => {
    await playUntil(page, 2 * 60_000, 1000);
    const splits = await page.locator("table.splits tbody").ariaSnapshot();
    assert.match(splits, /active/);
    assert.doesNotMatch(splits, /[●◌–]/, splits);
    if ((await page.getAttribute("#btn-controls", "aria-expanded")) !== "true") await page.click("#btn-controls");
    const windows = page.locator(".ctl-group[aria-labelledby=ctl-window]");
    const heard = (await windows.ariaSnapshot()).match(/restarts? the job/g) ?? [];
    assert.equal(heard.length, 1, await windows.ariaSnapshot());
    const apply = page.locator("#btn-apply-window");
    assert.equal(await page.getByRole("button", { name: "Apply window", exact: true }).getAttribute("id"), "btn-apply-window");
    const described = await apply.evaluate((b) => document.getElementById(b.getAttribute("aria-describedby"))?.textContent);
    assert.match(described, /restarts the job from time zero/);
    const nested = await page.evaluate(() => {
      const name = (el) =>
        el.getAttribute("aria-label") ??
        (el.getAttribute("aria-labelledby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent ?? "").join(" ").trim();
      const regions = [...document.querySelectorAll("[role=region], section[aria-label], section[aria-labelledby]")];
      return regions
        .filter((r) => name(r) && regions.some((o) => o !== r && o.contains(r) && name(o) === name(r)))
        .map((r) => name(r));
    });
    assert.deepEqual(nested, [], "regions inside a region of the same name");
    const shouted = await page.$$eval(".card-head h2, .drawer-head h2, .card summary h2", (hs) =>
      hs.map((h) => h.textContent.trim()).filter((t) => /[A-Z]{3}/.test(t) && t === t.toUpperCase() && !/^(SQL|REST)$/.test(t)),
    );
    assert.deepEqual(shouted, [], "card titles in capitals in the DOM");
    assert.equal(await page.locator(".card-head h2").first().evaluate((h) => getComputedStyle(h).textTransform), "uppercase");
  });
});

/**
 * A partition's pill names its cause (silenced, no producer) and its hatching says idle; its
 * name for a reader says both: "no producer" alone hid that the split is idle, which is what
 * the watermark reads.
 */
test("a partition's name says idle beside its cause", async () => {
  const { context, page } = await openPage(env.browser, { viewport: { width: 1366, height: 900 } });
  try {
    await gotoApp(page, env.baseUrl, "preset=restart-stalls-until-idle&start-at=60s");
    const label = page.locator('svg.graph g[data-partition="3"]');
    await label.waitFor();
    assert.equal(await label.getAttribute("data-state"), "no producer");
    assert.match(await label.getAttribute("aria-label"), /^Partition 3: no producer, idle, watermark/);
    assert.match(await label.locator("title").textContent(), /: no producer, idle; click to explain/);
    assert.match(await page.locator('svg.graph g[data-partition="0"]').getAttribute("aria-label"), /^Partition 0: active, watermark/);
  } finally {
    await context.close();
  }
});

/**
 * Paused, the live region states the moment shown: it said "At 00:00:03.575: …" with the clock
 * at 00:25:45 after a play and a pause (a review). Also after a restart (R) while paused.
 */
test("the live region states the moment of a pause and of a restart", async () => {
  await withSeed("light", async (page) => {
    const saysNow = () =>
      page.waitForFunction(
        () => {
          const said = document.querySelector("[data-testid=why-live]").textContent;
          return said.startsWith(`At ${document.querySelector("#clock").textContent.trim()}: `);
        },
        null,
        { timeout: 5_000 },
      );
    await playUntil(page, 25 * 60_000, 1000);
    await saysNow();
    await page.locator("body").click({ position: { x: 2, y: 2 } });
    await page.keyboard.press("r");
    await page.waitForFunction(() => document.querySelector("#clock").textContent.trim() === "00:00:00.000");
    await saysNow();
  });
});

// A review: paused, `N` held stepped many times a second and the live region said each step; it
// says the first step, and the moment where the keys settle.
test("paused, steps in quick succession are announced at most twice: the first, and where the keys settle", async () => {
  await withSeed("light", async (page) => {
    await playUntil(page, 60_000, 1000);
    await page.waitForTimeout(1_000);
    const before = (await announced(page)).split("\n").length;
    const clock = await page.locator("#clock").textContent();
    // "." steps one engine instant, at once (`N` may compute for longer than the settling).
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(".");
      await page.waitForTimeout(40);
    }
    await page.waitForFunction((c) => document.querySelector("#clock").textContent !== c, clock);
    await page.waitForTimeout(1_200);
    const said = (await announced(page)).split("\n").slice(before);
    assert.ok(said.length >= 1 && said.length <= 2, `said after 8 steps: ${JSON.stringify(said)}`);
    const shown = (await page.locator("#clock").textContent()).trim();
    assert.ok(said.at(-1).startsWith(`At ${shown}: `), `the last said is the moment shown (${shown}): ${said.at(-1)}`);
  });
});
