// <watermark-playground> and the playground's own pages under a strict Content-Security-Policy
// (no unsafe-inline, no unsafe-eval; only wasm-unsafe-eval), sent by the test server for `csp=1`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch, openPage } from "./lib.mjs";
import { CSP, cspHeaders, elementHelpers } from "./element-lib.mjs";

const env = serveAndLaunch({ before, after }, cspHeaders);
const { add } = elementHelpers(env);

/** Records the page's Content-Security-Policy violations in `window.__csp`. */
const watchCsp = (page) =>
  page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });

test("a strict Content-Security-Policy (no unsafe-inline, no unsafe-eval) works without violations", async () => {
  const o = await openPage(env.browser, { viewport: { width: 1000, height: 900 } });
  const { context, page, problems } = o;
  try {
    await watchCsp(page);
    const resp = await page.goto(env.baseUrl + "pages/element-test.html?csp=1", { waitUntil: "load" });
    assert.equal(resp.headers()["content-security-policy"], CSP);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { timeout: 20_000 });
    await page.locator("#first .node.op").first().waitFor();
    await add(page, "full", { preset: "late-data", layout: "full", loading: "eager", autoplay: "", speed: "600" });
    await page.locator("#full .app .node.op").first().waitFor();
    await page.waitForFunction(() => document.getElementById("full").playground.elapsedMs() > 120_000, null, { timeout: 20_000 });
    assert.notEqual(await page.locator("#first .wmp-root").evaluate((e) => getComputedStyle(e).backgroundColor), "rgba(0, 0, 0, 0)", "the stylesheet loaded");
    const sheet = await page.evaluate(() => document.getElementById("first").shadowRoot.querySelector("link[rel=stylesheet]").href);
    assert.match(sheet, /\/wmp-style-[0-9a-f]{16}\.css$/, "the element's stylesheet is content-hashed");
    await page.locator("#first #btn-play").click();
    await page.waitForTimeout(500);
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems.filter((p) => /Content Security Policy|Refused/i.test(p)), []);
  } finally {
    await context.close();
  }
});

test("the playground page and its ?embed=1 iframe page work under the same strict Content-Security-Policy", async () => {
  for (const query of ["?embed=1&preset=late-data&autoplay=1&csp=1", "?csp=1"]) {
    const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1000, height: 700 } });
    try {
      await watchCsp(page);
      const resp = await page.goto(env.baseUrl + "index.html" + query, { waitUntil: "load" });
      assert.equal(resp.headers()["content-security-policy"], CSP);
      await page.locator("svg.graph .node.op").first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(500);
      assert.deepEqual(await page.evaluate(() => window.__csp), [], query);
      assert.deepEqual(problems.filter((p) => /Content Security Policy|Refused/i.test(p)), [], query);
    } finally {
      await context.close();
    }
  }
});

test("the docs page (three live embeds) works under the same strict Content-Security-Policy", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1000, height: 900 } });
  try {
    await watchCsp(page);
    const resp = await page.goto(env.baseUrl + "pages/idle-partitions.html?csp=1", { waitUntil: "load" });
    assert.equal(resp.headers()["content-security-policy"], CSP);
    // Each starts when scrolled into view (loading="lazy").
    for (const id of ["frame-empty", "seed001", "scripted"]) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
    }
    await page.waitForFunction(() => ["seed001", "scripted"].every((id) => document.getElementById(id).playground?.running), null, { timeout: 20_000 });
    await page.frameLocator("#frame-empty").locator("svg.graph .node.op").first().waitFor({ timeout: 20_000 });
    await page.waitForTimeout(500);
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems.filter((p) => /Content Security Policy|Refused/i.test(p)), []);
  } finally {
    await context.close();
  }
});
