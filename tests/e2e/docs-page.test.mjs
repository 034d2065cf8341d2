// The docs page pages/idle-partitions.html (issue 15): a lesson on idle partitions with three
// live embeds — an iframe, the element with attributes only, a scripted element that reacts
// to its events — and snippets to copy. Every embed renders and runs, the scripted one's
// events reach the page's log, its buttons drive the simulation through el.playground, and
// the copy buttons copy. Screenshots in light and dark go to artifacts/docs/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { serveAndLaunch, openPage, artifactsDir } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const PAGE = "pages/idle-partitions.html";

async function openDocs(options = {}) {
  const opened = await openPage(env.browser, { viewport: { width: 1280, height: 900 }, ...options });
  await opened.page.goto(env.baseUrl + PAGE, { waitUntil: "load" });
  await opened.page.waitForFunction(() => customElements.get("watermark-playground") !== undefined, null, { timeout: 20_000 });
  return opened;
}

/** The element's graph, drawn inside its shadow root (Playwright's locators pierce it); the
 * elements start when scrolled into view (loading=lazy is the default), so scroll first. */
function graphIn(page, id) {
  const g = page.locator(`#${id} svg.graph .node.op`).first();
  return { waitFor: async (o) => (await page.locator(`#${id}`).scrollIntoViewIfNeeded(), g.waitFor(o)) };
}

test("the three embeds render: the iframe, the element with attributes, the scripted element", async () => {
  const { context, page, problems } = await openDocs();
  try {
    await graphIn(page, "scripted").waitFor({ state: "visible", timeout: 20_000 });
    await page.locator("#seed001").scrollIntoViewIfNeeded();
    await graphIn(page, "seed001").waitFor({ state: "visible", timeout: 20_000 });
    const frame = page.frameLocator("iframe");
    await frame.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.match(await frame.locator(".embed-title, .embed h2, .embed").first().textContent(), /partition/i);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("the scripted element: its events reach the page's log, its buttons drive el.playground", async () => {
  const { context, page, problems } = await openDocs();
  try {
    await graphIn(page, "scripted").waitFor({ state: "visible", timeout: 20_000 });
    await page.click("#btn-play");
    await page.waitForFunction(() => Number(document.querySelector("#count-windows").textContent) > 0, null, { timeout: 30_000 });
    assert.ok(await page.evaluate(() => document.getElementById("scripted").playground.playing), "playing");
    await page.click("#btn-play");
    assert.equal(await page.evaluate(() => document.getElementById("scripted").playground.playing), false, "paused");
    await page.click("#btn-silence");
    assert.equal(await page.locator("#error").textContent(), "", "silence worked");
    assert.ok((await page.locator("#log li").count()) > 0, "the log shows events");
    // Silenced, partition 1 goes idle after the 60 s timeout: the page's log hears it.
    await page.click("#btn-play");
    await page.waitForFunction(() => [...document.querySelectorAll("#log li")].some((li) => li.textContent.includes("idle: partition 1")), null, {
      timeout: 40_000,
    });
    await page.click("#btn-play");
    // The page's button follows the embed's own ▶ / ‖ button.
    const pageButton = () => page.evaluate(() => document.querySelector("#btn-play").textContent);
    await page.evaluate(() => document.getElementById("scripted").shadowRoot.querySelector("#btn-play").click());
    await page.waitForFunction(() => document.querySelector("#btn-play").textContent.includes("Pause"), null, { timeout: 2_000 });
    await page.evaluate(() => document.getElementById("scripted").shadowRoot.querySelector("#btn-play").click());
    await page.waitForFunction(() => document.querySelector("#btn-play").textContent.includes("Play"), null, { timeout: 2_000 });
    assert.match(await pageButton(), /▶ Play/);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("on a phone, each embed shows its whole job graph (the embed scrolls rather than cutting it)", async () => {
  const { context, page, problems } = await openDocs({ viewport: { width: 390, height: 844 } });
  try {
    const elements = await page.locator("watermark-playground").evaluateAll((els) => els.map((e) => e.id));
    for (const id of elements) {
      await graphIn(page, id).waitFor({ state: "visible", timeout: 20_000 });
      const fit = await page.evaluate((id) => {
        const root = document.getElementById(id).shadowRoot;
        const card = root.querySelector(".embed-graph").getBoundingClientRect();
        const svg = root.querySelector("svg.graph").getBoundingClientRect();
        return { card: [card.top, card.bottom], svg: [svg.top, svg.bottom] };
      }, id);
      assert.ok(fit.svg[0] >= fit.card[0] - 1 && fit.svg[1] <= fit.card[1] + 1, `${id}: the graph ${fit.svg} within its card ${fit.card}`);
    }
    const frame = page.frameLocator(".embed-frame iframe");
    await frame.locator("svg.graph .node.op").first().waitFor({ timeout: 20_000 });
    const inFrame = await frame.locator(".embed-graph").evaluate((card) => {
      const c = card.getBoundingClientRect();
      const s = card.querySelector("svg.graph").getBoundingClientRect();
      return s.top >= c.top - 1 && s.bottom <= c.bottom + 1;
    });
    assert.ok(inFrame, "the iframe's graph within its card");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("copy buttons copy the snippet", async () => {
  const { context, page } = await openDocs({ permissions: ["clipboard-read", "clipboard-write"] });
  try {
    await page.click('button[data-copy="snippet-element"]');
    await page.waitForFunction(() => document.querySelector('button[data-copy="snippet-element"]').textContent.includes("Copied"));
    const text = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(text, /<watermark-playground preset="seed-001-heartbeat"/);
  } finally {
    await context.close();
  }
});

for (const scheme of ["light", "dark"]) {
  test(`screenshot of the docs page (${scheme})`, async () => {
    const { context, page } = await openDocs({ colorScheme: scheme });
    try {
      await graphIn(page, "scripted").waitFor({ state: "visible", timeout: 20_000 });
      const dir = artifactsDir("docs");
      await page.screenshot({ path: path.join(dir, `idle-partitions-${scheme}.png`), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no horizontal overflow at 390 px (${overflow} px)`);
      await page.screenshot({ path: path.join(dir, `idle-partitions-${scheme}-390.png`), fullPage: true });
    } finally {
      await context.close();
    }
  });
}
