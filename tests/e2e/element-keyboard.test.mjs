// The keyboard in <watermark-playground>: shortcuts answer only inside the focused element of
// two, and the job graph keeps the focus when its node goes away (in a shadow root Chrome blurs
// a removed node), also when the element is removed within a frame of a redraw. The placeholder
// of a lazy element is a Tab stop: element.test.mjs. Page: www/pages/element-test.html.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch } from "./lib.mjs";
import { cspHeaders, elementHelpers } from "./element-lib.mjs";

const env = serveAndLaunch({ before, after }, cspHeaders);
const { open, add } = elementHelpers(env);

test("full layouts in two elements: shortcuts answer only inside the focused one", async () => {
  const { context, page, problems } = await open();
  try {
    await add(page, "k1", { preset: "late-data", layout: "full", loading: "eager" });
    await add(page, "k2", { preset: "late-data", layout: "full", loading: "eager" });
    await page.locator("#k2 .app .node.op").first().waitFor();
    await page.locator("#k1 #btn-step").focus();
    await page.keyboard.press("k");
    await page.waitForFunction(() => document.getElementById("k1").playground.playing);
    assert.equal(await page.evaluate(() => document.getElementById("k2").playground.playing), false, "the other element does not react");
    assert.equal(await page.evaluate(() => document.getElementById("first").playground.playing), false);
    // A key typed in the host page reaches none of them.
    await page.locator("#host-button").focus();
    await page.keyboard.press("k");
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => document.getElementById("k1").playground.playing), true);
    assert.equal(await page.evaluate(() => document.getElementById("k2").playground.playing), false);
    // T cycles the theme of that element only, on its root; the page's <html> is untouched.
    await page.locator("#k2 #btn-step").focus();
    await page.keyboard.press("t");
    assert.equal(await page.locator("#k2 .wmp-root").getAttribute("data-theme"), "light");
    assert.equal(await page.locator("#k1 .wmp-root").getAttribute("data-theme"), "system");
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-theme")), null);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("in the element, the graph keeps the keyboard when its node goes away, and a frame after removal is harmless", async () => {
  const { context, page, problems } = await open();
  try {
    await add(page, "k", { preset: "seed-001-heartbeat", layout: "full", loading: "eager" });
    await page.locator("#k svg.graph .node.op").first().waitFor();
    const root = "document.getElementById('k').shadowRoot";
    // Seed 001's partition 11 (of 16), then a preset with four partitions.
    await page.evaluate(`${root}.querySelector("svg.graph .node.part[data-partition='11']").focus()`);
    assert.equal(await page.evaluate(`${root}.activeElement?.dataset.partition`), "11");
    await page.evaluate(() => document.getElementById("k").setAttribute("preset", "empty-partition"));
    await page.waitForFunction(`!${root}.querySelector("svg.graph .node.part[data-partition='11']")`);
    await page.waitForFunction(`${root}.activeElement?.matches("svg.graph")`, null, { timeout: 2_000 });
    // A redraw, then the element removed before the next frame (whose check reads its state).
    for (let i = 1; i <= 5; i++) {
      await page.evaluate(async (i) => {
        const el = document.getElementById("k");
        el.playground.runUntil(i * 10_000);
        await new Promise((r) => setTimeout(r, 0));
        el.remove();
        document.getElementById("more").append(el);
      }, i);
      await page.locator("#k svg.graph .node.op").first().waitFor();
    }
    await page.waitForTimeout(200);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});
