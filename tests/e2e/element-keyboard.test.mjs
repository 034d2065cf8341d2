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

// A host's restart during a browse of the Flink version set the select to the release that now
// runs, while the line under it still described the one browsed ("Enter restarts the job as …").
test("a host's restart during a browse of the Flink version ends the browse and its line", async () => {
  const { context, page, problems } = await open();
  try {
    await add(page, "v", { preset: "late-data", layout: "full", loading: "eager" });
    await page.locator("#v svg.graph .node.op").first().waitFor();
    await page.locator("#v #btn-controls").click();
    const select = page.locator("#v #f-flink-version");
    const line = page.locator("#v #f-flink-version-msg");
    const running = await select.inputValue();
    await select.focus();
    await page.keyboard.press("ArrowDown");
    assert.notEqual(await select.inputValue(), running);
    await page.waitForFunction(() => /Enter restarts/.test(document.getElementById("v").shadowRoot.querySelector("#f-flink-version-msg").textContent));
    // Switches of no release: the select then shows "custom". The same select stays (a new one
    // would know nothing of the browse).
    await page.evaluate(async () => {
      const { WatermarkPlayground } = await import("/wmp.js");
      const sc = WatermarkPlayground.presetScenario("late-data");
      sc.flink = { ...sc.flink, idleness_clock: "wall", alignment_skip_idle_splits: true };
      const root = document.getElementById("v").shadowRoot;
      root.querySelector("#f-flink-version").dataset.mark = "same";
      document.getElementById("v").playground.load(sc);
    });
    await page.waitForFunction(() => document.getElementById("v").shadowRoot.querySelector("#f-flink-version").value === "custom");
    assert.equal(await select.getAttribute("data-mark"), "same");
    assert.equal(await page.evaluate(() => document.getElementById("v").shadowRoot.activeElement?.id), "f-flink-version");
    await page.waitForFunction(() => /match no release/.test(document.getElementById("v").shadowRoot.querySelector("#f-flink-version-msg").textContent), null, { timeout: 3_000 });
    assert.doesNotMatch(await line.textContent(), /Enter restarts/);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});
