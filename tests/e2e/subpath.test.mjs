// The bundle served from a folder (/docs/playground/), as docs sites host it: every asset URL
// is relative (Trunk's public_url = "./"), so the page is styled and runs, and nothing is
// requested outside the folder.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, openPage } from "./lib.mjs";

const PREFIX = "/docs/playground";
let server;
let browser;
let base;

before(async () => {
  server = await startServer(undefined, PREFIX);
  base = `http://127.0.0.1:${server.address().port}${PREFIX}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

for (const entry of ["", "index.html", "index.html?embed=1&preset=seed-001"]) {
  test(`the playground runs and is styled under a sub-path: ${PREFIX}/${entry}`, async () => {
    const { context, page, problems } = await openPage(browser);
    const outside = [];
    page.on("request", (req) => {
      if (!new URL(req.url()).pathname.startsWith(PREFIX + "/") && !req.url().startsWith("data:")) outside.push(req.url());
    });
    try {
      await page.goto(base + entry, { waitUntil: "load" });
      await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
      // The stylesheet applied: the body has the app's font, not the browser default serif.
      const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
      assert.doesNotMatch(font, /^"?Times/, `unstyled page (font ${font})`);
      const logo = await page.locator("svg").first().boundingBox();
      assert.ok(logo && logo.height < 200, `a giant unstyled logo: ${JSON.stringify(logo)}`);
      assert.deepEqual(outside, [], "requests outside the sub-path");
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test("the embedding example page works under a sub-path", async () => {
  const { context, page, problems } = await openPage(browser);
  try {
    await page.goto(base + "pages/embed.html", { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
