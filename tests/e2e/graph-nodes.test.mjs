// What a job graph node says fits inside it, and says in full what its short line abbreviates:
// a watermark ahead of processing time, 12 million window states at 1366×900 and 390×844, a
// two-input node's count. (Moved out of sizes.test.mjs, which checks every size of the page.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch, openPage, onGraph } from "./lib.mjs";

const env = serveAndLaunch({ before, after });

test("a watermark ahead of processing time says so in its node, inside the node", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1366, height: 900 } });
  try {
    // "1767312028999 · lag -24.0 h" ran out of the window subtask's node.
    await page.goto(env.baseUrl + "?preset=far-future-outlier&start-at=45s", { waitUntil: "load" });
    const node = page.locator("svg.graph .node.op").first();
    await node.waitFor({ state: "visible", timeout: 20_000 });
    const line = await node.evaluate((n) => {
      const t = n.querySelector("text.raw");
      const [a, b] = [t.getBoundingClientRect(), n.querySelector("rect.box").getBoundingClientRect()];
      return { text: t.textContent, right: a.right, boxRight: b.right, title: n.querySelector("title").textContent };
    });
    assert.match(line.text, /^(\d+ · )?24\.0 h ahead$/, JSON.stringify(line));
    assert.ok(line.right <= line.boxRight - 2, `inside its node: ${JSON.stringify(line)}`);
    assert.match(line.title, /\d{13} · 24\.0 h ahead/, "the title has the raw value too");
    // What sits at it pushed it there: "held by partition 0" in red read as the opposite.
    assert.match(await page.locator(".why .chain").textContent(), /^pushed ahead by /);
    assert.match(await page.locator(".finding[data-kind='far_future_timestamp'] .badge.hold").textContent(), /pushed the watermark ahead/);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

// A review: "win 0 · 12,350,000 states" ran past its node's border at 1366×900 on the lost
// TaskManager's backfill. Every text box of every node lies inside the node's rect.
test("every graph node's text stays inside its node (12 million window states, 1366×900 and 390×844)", async () => {
  for (const [width, height] of [[1366, 900], [390, 844]]) {
    const { context, page, problems } = await openPage(env.browser, { viewport: { width, height } });
    try {
      await page.goto(env.baseUrl + "?preset=backfill-taskmanager-lost&start-at=00:01:00", { waitUntil: "load" });
      await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
      await page.waitForFunction(() => /\bstates?\b/.test(document.querySelector("svg.graph .node.op text.name")?.textContent ?? ""));
      const out = await page.evaluate(() => {
        const bad = [];
        let texts = 0;
        for (const n of document.querySelectorAll("svg.graph .node")) {
          const box = n.querySelector(":scope > rect.box, :scope > rect");
          if (!box) continue;
          const b = box.getBoundingClientRect();
          for (const t of n.querySelectorAll("text")) {
            const r = t.getBoundingClientRect();
            if (r.width < 1 || getComputedStyle(t).display === "none" || t.closest(".hidden")) continue;
            // Ports and badges drawn on the border (a valve, a Silence button) are their own rects.
            if (t.closest(".port, .silence-btn")) continue;
            texts++;
            if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) {
              bad.push(`${n.getAttribute("class")}: "${t.textContent}" at ${r.left.toFixed(0)}..${r.right.toFixed(0)} × ${r.top.toFixed(0)}..${r.bottom.toFixed(0)}, node ${b.left.toFixed(0)}..${b.right.toFixed(0)} × ${b.top.toFixed(0)}..${b.bottom.toFixed(0)}`);
            }
          }
        }
        const name = document.querySelector("svg.graph .node.op text.name").textContent;
        const title = document.querySelector("svg.graph .node.op title").textContent;
        return { bad, texts, name, title };
      });
      assert.ok(out.texts > 10, `texts measured: ${out.texts}`);
      assert.deepEqual(out.bad, [], `${width}×${height}:\n${out.bad.join("\n")}`);
      // Given short on the node, in full in its title.
      assert.match(out.name, /^win 0 · [\d.]+ [kM] states$/, out.name);
      assert.match(out.title, /\d{1,3}(,\d{3})+ \(key, window\) states, one per key and open window/, out.title);
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await context.close();
    }
  }
});

// A review: a two-input node's name line gives its count short, or without its noun ("join 12 ·
// IDLE · 123 k"), and its title and label had no full count, unlike a one-input node's.
test("a two-input node says what it holds in full in its title and label", async () => {
  await onGraph(env, "?preset=quiet-side-join", async (page) => {
    await page.click("#btn-play");
    await page.waitForFunction(() => / · \d/.test(document.querySelector("svg.graph .node.op text.name")?.textContent ?? ""), null, { timeout: 30_000 });
    await page.click("#btn-play");
    const node = await page.evaluate(() => {
      const n = document.querySelector("svg.graph .node.op");
      return { name: n.querySelector("text.name").textContent, title: n.querySelector("title").textContent, label: n.getAttribute("aria-label") };
    });
    const holds = String.raw`[\d,]+ (records? buffered|\(key, window\) states?(, one per key and open window)?)`;
    assert.match(node.title, new RegExp(`two-input operator.*; ${holds}; click`), JSON.stringify(node));
    assert.match(node.label, new RegExp(`, ${holds}; press Enter`), JSON.stringify(node));
  });
});
