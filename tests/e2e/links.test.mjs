// Bad links and bad imports are explained in words: a link that cannot be opened opens a
// modal that says why and what is shown instead (no silent default behind a corner toast);
// the Import tab says what the text is instead of quoting the JSON parser.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch, openPage, gotoApp } from "./lib.mjs";

const env = serveAndLaunch({ before, after });

async function openLink(suffix) {
  const { context, page } = await openPage(env.browser);
  await page.goto(env.baseUrl + suffix, { waitUntil: "load" });
  await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
  return { context, page };
}

for (const [suffix, words] of [
  ["?share=garbage", /This is not a share string: share strings start with “wmp1\.”, and this one starts with “garbage”/],
  ["?share=wmp1.eyJzb3VyY2U", /This share string (is damaged|holds no valid scenario)/],
  ["#preset=seed-999", /There is no preset “seed-999”\. The presets are: seed-001/],
  ["?preset=empty-partition&start-at=soon", /The parameter “start-at” is wrong/],
  // Named as the link spells it (it said “start-at” whatever the spelling).
  ["?preset=empty-partition&startAt=160h", /The parameter “startAt” cannot be reached/],
  ["#preset=empty-partition&start_at=160h", /The parameter “start_at” cannot be reached/],
  ["#scenario=%7B%22source%22%3A", /This scenario is cut off/],
]) {
  test(`a bad link opens an explanation: ${suffix}`, async () => {
    const { context, page } = await openLink(suffix);
    try {
      const dialog = page.locator("dialog.link-problem[open]");
      await dialog.waitFor({ state: "visible", timeout: 5_000 });
      assert.match(await dialog.textContent(), words);
      const shown = (await dialog.textContent()).match(/You are looking at the preset “([^”]+)” instead/);
      assert.ok(shown, "the dialog says what is on screen instead");
      assert.equal(await page.locator(".notice.error").count(), 0, "no corner toast for a link problem");
      // Modal: focus is inside, Escape closes it and the page is usable.
      assert.equal(await page.evaluate(() => document.activeElement?.id), "link-problem-ok");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden", timeout: 5_000 });
      assert.equal(await page.locator("#preset").inputValue(), shown[1]);
    } finally {
      await context.close();
    }
  });
}

test("a link naming a lesson as the picker does (preset=lesson:ID) opens the lesson", async () => {
  const { context, page } = await openPage(env.browser);
  try {
    await page.goto(env.baseUrl + "?preset=lesson:idle-partitions", { waitUntil: "load" });
    await page.waitForURL(/\?lesson=idle-partitions$/, { timeout: 20_000 });
    await page.locator(".lesson-title").waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await page.locator("dialog.link-problem[open]").count(), 0);
  } finally {
    await context.close();
  }
});

test("the full page opens a link at its start-at, as an embed does", async () => {
  const { context, page } = await openLink("?preset=empty-partition&start-at=90s");
  try {
    await page.waitForFunction(() => document.querySelector("#clock")?.textContent.startsWith("00:01:30"), null, { timeout: 20_000 });
    assert.equal(await page.locator("dialog.link-problem[open]").count(), 0);
    // The address the page writes keeps the state, not the parameter that ran it there.
    await page.waitForFunction(() => location.hash.startsWith("#s=") && !/start-at/.test(location.search), null, { timeout: 10_000 });
  } finally {
    await context.close();
  }
});

test("an embed's start-at that cannot be reached is named as its link spells it", async () => {
  const { context, page } = await openLink("?embed=1&preset=empty-partition&Start_At=160h");
  try {
    await page.locator("#link-problem-text").waitFor({ state: "attached", timeout: 10_000 });
    assert.match(await page.locator("#link-problem-text").textContent(), /The parameter “Start_At” cannot be reached/);
  } finally {
    await context.close();
  }
});

test("a query's start-at applies to what the fragment opened", async () => {
  const { context, page } = await openLink("?start-at=90s#preset=late-data");
  try {
    await page.waitForFunction(() => document.querySelector("#clock")?.textContent.startsWith("00:01:30"), null, { timeout: 20_000 });
    assert.equal(await page.locator("#preset").inputValue(), "late-data");
    assert.equal(await page.locator("dialog.link-problem[open]").count(), 0);
  } finally {
    await context.close();
  }
});

test("a good link opens no dialog", async () => {
  const { context, page } = await openLink("#preset=late-data");
  try {
    assert.equal(await page.locator("dialog.link-problem[open]").count(), 0);
    assert.equal(await page.locator("#preset").inputValue(), "late-data");
  } finally {
    await context.close();
  }
});

test("import errors read as sentences, not parser output", async () => {
  const { context, page } = await openPage(env.browser);
  try {
    await gotoApp(page, env.baseUrl);
    await page.click("#tab-import");
    const tryImport = async (text) => {
      await page.fill("#import-json", text);
      await page.click("#btn-import");
      return (await page.locator("#import-error").textContent()).trim();
    };
    assert.match(await tryImport(""), /^Nothing to import: the text is empty/);
    assert.match(await tryImport("hello"), /^This is not a scenario: a scenario is JSON that starts with “\{”/);
    assert.match(await tryImport('{"topic": {"partitions": 2}'), /^This scenario is cut off/);
    for (const text of ["", "hello", "{"]) assert.doesNotMatch(await tryImport(text), /EOF while parsing|expected value at/);
  } finally {
    await context.close();
  }
});
