// End-to-end smoke test: serves the Trunk bundle in dist/ on 127.0.0.1 and loads it in
// Debian's headless Chromium through playwright-core.
// Run from the repo root after `trunk build --release`:  node --test tests/e2e/
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { DIST, CHROMIUM, startServer, launch, openPage, gotoApp, artifactsDir } from "./lib.mjs";

let server;
let browser;
let baseUrl;

before(async () => {
  assert.ok(fs.existsSync(path.join(DIST, "index.html")), `${DIST}/index.html is missing: run 'trunk build --release' first`);
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/setup.sh`);
  server = await startServer(DIST);
  baseUrl = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

test("home page renders the playground without errors", async () => {
  const { context, page, problems } = await openPage(browser, { colorScheme: "light" });
  try {
    const response = await page.goto(baseUrl, { waitUntil: "load" });
    assert.equal(response.status(), 200);
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 15_000 });
    assert.equal(await page.title(), "Watermark Playground");
    assert.equal((await page.locator(".brand .title").textContent()).trim(), "Watermark Playground");
    // The first preset is loaded: 16 partitions, 8 source and 8 window subtasks.
    assert.equal(await page.locator("svg.graph .node.part").count(), 16);
    assert.equal(await page.locator("svg.graph .node.src").count(), 8);
    assert.equal(await page.locator("svg.graph .node.op").count(), 8);
    assert.match(await page.locator(".why").textContent(), /Window subtask \d/);
    // Mounted exactly once, and the wasm module's exports were handed to the page.
    assert.equal(await page.locator(".app").count(), 1);
    assert.equal(await page.evaluate(() => typeof window.wasmBindings), "object");
    await page.screenshot({ path: path.join(artifactsDir("e2e"), "home.png") });
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("dark colour scheme is applied via prefers-color-scheme", async () => {
  const background = async (colorScheme) => {
    const { context, page, problems } = await openPage(browser, { colorScheme });
    try {
      await gotoApp(page, baseUrl);
      if (colorScheme === "dark") {
        await page.screenshot({ path: path.join(artifactsDir("e2e"), "home-dark.png") });
      }
      assert.deepEqual(problems, [], problems.join("\n"));
      return await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    } finally {
      await context.close();
    }
  };
  const light = await background("light");
  const dark = await background("dark");
  assert.notEqual(light, dark, "body background should differ between light and dark");
  const channels = dark.match(/\d+/g).slice(0, 3).map(Number);
  assert.ok(channels.every((c) => c < 64), `dark background is not dark: ${dark}`);
});
