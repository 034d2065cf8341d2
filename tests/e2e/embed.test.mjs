// The embed layout (~720×420): as a URL (?embed=1&preset=…, or &share=wmp1.…) and through the
// JS API's mount(element, options), with its errors. Screenshots go to artifacts/e2e/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { serveAndLaunch, openPage, artifactsDir, clockMs, recordAnnouncements, announced } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const shots = artifactsDir("e2e");

async function withPage(url, fn, options = {}) {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 720, height: 420 }, ...options });
  try {
    await page.goto(env.baseUrl + url, { waitUntil: "load" });
    await page.locator(".embed svg.graph.compact .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    await fn(page);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
}

/** Every part of the embed is inside the 720×420 box, and nothing scrolls. */
async function fits(page, box = { x: 0, y: 0, width: 720, height: 420 }) {
  for (const sel of [".embed-head", ".embed-graph", ".embed .timeline-card", ".embed-why", "#open-full", ".embed #btn-play"]) {
    const b = await page.locator(sel).boundingBox();
    assert.ok(b, `${sel} is shown`);
    assert.ok(b.x >= box.x - 0.5 && b.y >= box.y - 0.5 && b.x + b.width <= box.x + box.width + 0.5 && b.y + b.height <= box.y + box.height + 0.5, `${sel} ${JSON.stringify(b)} is inside ${JSON.stringify(box)}`);
  }
}

test("embed URL: compact view of a preset that plays, explains in one line and opens in full", async () => {
  await withPage("?embed=1&preset=seed-001-heartbeat", async (page) => {
    assert.equal(await page.locator(".app").count(), 0, "not the full layout");
    assert.match(await page.locator(".embed-title").textContent(), /Seed 001/);
    assert.equal(await page.locator(".embed svg.graph.compact .node.part").count(), 16);
    assert.equal(await page.locator(".embed svg.graph.compact .node.op").count(), 8);
    assert.equal(await page.evaluate(() => document.scrollingElement.scrollHeight), 420, "no vertical scrolling");
    await fits(page);
    await recordAnnouncements(page);
    await page.click("#btn-play");
    await page.waitForFunction(() => /^00:(0[5-9]|[1-5]\d):/.test(document.querySelector("#clock").textContent), null, { timeout: 30_000 });
    await page.click("#btn-play");
    // Partition 11 holds every window subtask: marked in the graph, named in the WHY line.
    await page.waitForFunction(() => document.querySelector(".embed svg.graph .node.part.holding")?.getAttribute("data-partition") === "11");
    assert.match(await page.locator(".embed-why-text").textContent(), /Partition 11 /);
    // One live region for the diagnosis, which speaks when the verdict changes: the line's
    // times change every frame and would be read out.
    assert.equal(await page.locator(".embed-why").getAttribute("aria-live"), null);
    assert.equal(await page.locator(".embed-why [data-testid=why-live]").getAttribute("aria-live"), "polite");
    assert.match(await announced(page), /Partition 11 /);
    assert.match(await page.locator(".embed-why .btn.fix").textContent(), /idle timeout/i);
    // A problem keeps the alarm colour; the cut line says a tap shows more.
    assert.equal(await page.locator(".embed-why.calm").count(), 0);
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector(".embed-why-text"), "::after").content), '"▾" / ""');
    await page.screenshot({ path: path.join(shots, "embed-720x420.png") });
    // "open full" opens the full playground where the embed is: scenario, speed, position.
    await page.hover("#open-full");
    assert.match(await page.getAttribute("#open-full", "href"), /\/(index\.html)?#s=2\./);
    assert.equal(await page.getAttribute("#open-full", "target"), "_blank");
    // After an action the link carries it too.
    await page.click(".embed-why .btn.fix");
    await page.hover("#open-full");
    const full = await page.getAttribute("#open-full", "href");
    const embedClock = await clockMs(page);
    const fullPage = await page.context().newPage();
    await fullPage.goto(full, { waitUntil: "load" });
    await fullPage.locator(".app svg.graph .node.op").first().waitFor();
    assert.equal(await fullPage.locator(".app svg.graph .node.part").count(), 16);
    assert.equal(await fullPage.inputValue("#preset"), "seed-001-heartbeat");
    assert.equal(await fullPage.inputValue("#speed"), "300");
    assert.equal(await clockMs(fullPage), embedClock, "the same position");
    assert.equal(await fullPage.locator("dialog.link-problem[open]").count(), 0);
    assert.notEqual(await fullPage.inputValue("#f-idle"), "", "the fix (an idle timeout) came along");
    // Fixed: once the idle timeout has passed, nothing is left to fix, and neither view keeps
    // the alarm colour (the chain still names the holder).
    await fullPage.click("#btn-play");
    await fullPage.waitForFunction(() => document.querySelector(".why-main.calm"), null, { timeout: 30_000 });
    await fullPage.click("#btn-play");
    assert.match(await fullPage.locator("[data-testid=live-line]").textContent(), /No problem found/);
    assert.ok((await fullPage.locator(".why-main.calm .chain .chip").count()) >= 2, "the chain is still there");
    // The graph marks the holder in the accent colour, not the alarm one.
    const strokes = await fullPage.evaluate(() => {
      const box = document.querySelector("svg.graph .node.holding .box");
      const accent = getComputedStyle(document.querySelector(".app")).getPropertyValue("--accent").trim();
      return [box && getComputedStyle(box).stroke, accent, document.querySelector(".app.calm") !== null];
    });
    assert.ok(strokes[0], "a node is still marked as holding");
    assert.equal(strokes[2], true, "the page is calm");
    assert.equal(await fullPage.evaluate(([s, a]) => { const d = document.createElement("i"); d.style.color = a; document.body.append(d); const c = getComputedStyle(d).color; d.remove(); return c === s; }, strokes), true, `holder stroke ${strokes[0]} is the accent ${strokes[1]}`);
    await fullPage.close();
    await page.click("#btn-play");
    await page.waitForFunction(() => document.querySelector(".embed-why.calm"), null, { timeout: 30_000 });
    await page.click("#btn-play");
    assert.match(await page.locator(".embed-why-text").textContent(), /^No problem found/);
  });
});

test("embed URL with a share string, dark", async () => {
  const share = await (async () => {
    const { context, page } = await openPage(env.browser);
    await page.goto(env.baseUrl, { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor();
    const s = await page.evaluate(() => {
      const w = window.wasmBindings.WatermarkPlayground.fromPreset("late-data");
      w.runUntil(30_000);
      w.setParam("allowed_lateness_ms", 10_000);
      return w.toShareString();
    });
    await context.close();
    return s;
  })();
  await withPage(`?embed=1&share=${encodeURIComponent(share)}&speed=30`, async (page) => {
    assert.equal(await page.inputValue(".embed #speed"), "30");
    assert.doesNotMatch(await page.locator(".embed-title").textContent(), /^\s*$/);
    await fits(page);
    await page.screenshot({ path: path.join(shots, "embed-share-dark.png") });
  }, { colorScheme: "dark" });
});

test("mount(element, options) places the embed into a page; bad options are errors naming the field", async () => {
  await withPage("pages/embed.html", async (page) => {
    const box = await page.locator("#embed").boundingBox();
    assert.equal(Math.round(box.width), 720);
    assert.equal(Math.round(box.height), 420);
    await fits(page, box);
    assert.match(await page.locator("#embed .embed-title").textContent(), /Seed 001/);
    assert.equal(await page.inputValue("#embed #speed"), "300");
    assert.match(await page.getAttribute("#open-full", "href"), /\/index\.html#s=2\./);
    await page.screenshot({ path: path.join(shots, "mount-embed.png") });
    const errors = await page.evaluate(() => {
      const el = document.createElement("div");
      document.body.append(el);
      const tryMount = (target, options) => {
        try {
          window.wmpMount(target, options).unmount();
          return null;
        } catch (e) {
          return { name: e.name, path: e.path, message: e.message };
        }
      };
      return {
        layout: tryMount(el, { layout: "tiny" }),
        speed: tryMount(el, { speed: -1 }),
        preset: tryMount(el, { preset: "nope" }),
        both: tryMount(el, { preset: "late-data", scenario: "late-data" }),
        scenario: tryMount(el, { scenario: { topic: { partitions: 1 }, window: { assigner: { type: "tumbling", size_ms: -5 } } } }),
        unknown: tryMount(el, { layuot: "embed" }),
        element: tryMount("#embed", {}),
        ok: tryMount(el, { layout: "full", preset: "late-data", autoplay: false }),
        left: el.childElementCount,
      };
    });
    assert.deepEqual(errors.layout && [errors.layout.name, errors.layout.path], ["RangeError", "options.layout"]);
    assert.match(errors.layout.message, /^mount: options\.layout: /);
    assert.deepEqual([errors.speed.name, errors.speed.path], ["RangeError", "options.speed"]);
    assert.deepEqual([errors.preset.name, errors.preset.path], ["RangeError", "options.preset"]);
    assert.equal(errors.both.path, "options.scenario");
    assert.equal(errors.scenario.path, "options.scenario.window.assigner.size_ms");
    assert.match(errors.unknown.message, /layuot/);
    assert.deepEqual([errors.element.name, errors.element.path], ["TypeError", "element"]);
    assert.equal(errors.ok, null, "a good full mount works and unmounts");
    assert.equal(errors.left, 0, "unmount() removed what mount() placed");
    // unmount() of the page's embed empties its element.
    await page.evaluate(() => window.embedded.unmount());
    assert.equal(await page.locator("#embed").evaluate((e) => e.childElementCount), 0);
    // A handle nobody keeps (the docs' `const embed = mount(...)` in a module) is collected;
    // the playground stays until unmount() (it vanished ~0.1 s after it appeared). A second
    // mount into the same box is an error, not a second playground below the first.
    const second = await page.evaluate(() => {
      const el = document.createElement("div");
      el.id = "kept";
      document.body.append(el);
      window.wmpMount(el, { layout: "embed", preset: "late-data" });
      try {
        window.wmpMount(el, { layout: "embed" });
        return null;
      } catch (e) {
        return { path: e.path, message: e.message };
      }
    });
    assert.equal(second?.path, "element");
    assert.match(second.message, /already holds a playground/);
    const cdp = await page.context().newCDPSession(page);
    for (let i = 0; i < 3; i++) {
      await cdp.send("HeapProfiler.collectGarbage");
      await page.waitForTimeout(300);
    }
    assert.equal(await page.locator("#kept > .wmp-root").count(), 1, "still mounted after garbage collection");
  }, { viewport: { width: 900, height: 800 } });
});
