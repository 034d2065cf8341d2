// The iframe's postMessage bridge (src/api/bridge.rs): a host page on another origin
// (http://localhost:PORT, while the embed is http://127.0.0.1:PORT) drives an `?embed=1` frame
// with el.playground's methods and receives its events, only when the frame's `origins`
// parameter allows the host; a refused origin gets a refusal and nothing else. Host page:
// www/pages/bridge-test.html (+ .js).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch, openPage } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const port = () => new URL(env.baseUrl).port;
const hostOrigin = () => `http://localhost:${port()}`;

/** Opens the host page at `host` framing `index.html?embed=1&{query}` on 127.0.0.1. */
async function openHost(query, host = hostOrigin()) {
  const o = await openPage(env.browser, { viewport: { width: 900, height: 700 } });
  const frame = `${env.baseUrl}index.html?embed=1&${query}`;
  await o.page.goto(`${host}/pages/bridge-test.html?frame=${encodeURIComponent(frame)}`, { waitUntil: "load" });
  await o.page.frameLocator("#embed").locator(".embed .node.op").first().waitFor({ timeout: 20_000 });
  return o;
}

const call = (page, method, ...args) =>
  page.evaluate(([m, a]) => window.call(m, ...a).then((result) => ({ result }), (e) => ({ error: { name: e.name, message: e.message } })), [method, args]);
const received = (page) => page.evaluate(() => window.received);

test("an allowed origin drives the embed: methods, answers, errors in words, events, subscribe, update", async () => {
  const { context, page, problems } = await openHost(`preset=late-data&origins=${encodeURIComponent(hostOrigin())}`);
  try {
    await page.evaluate(() => window.ready);
    const ready = (await received(page)).find((m) => m.event === "ready");
    assert.equal(ready.origin, "http://127.0.0.1:" + port());
    assert.ok(ready.detail.methods.includes("runUntil") && ready.detail.methods.includes("subscribe"));

    assert.deepEqual(await call(page, "runUntil", 60_000), { result: undefined });
    assert.deepEqual(await call(page, "elapsedMs"), { result: 60_000 });
    assert.match((await call(page, "traceHash")).result, /^[0-9a-f]{16}$/);
    const events = await received(page);
    for (const kind of ["window", "watermark", "late"]) {
      assert.ok(events.some((m) => m.event === kind), `a ${kind} event was posted`);
    }
    const win = events.find((m) => m.event === "window").detail;
    assert.equal(typeof win.end, "number", JSON.stringify(win));

    // Only the subscribed kinds from now on.
    assert.deepEqual(await call(page, "subscribe", ["window"]), { result: undefined });
    const before = (await received(page)).length;
    await call(page, "runUntil", 120_000);
    const later = (await received(page)).slice(before).filter((m) => m.event);
    assert.ok(later.length > 0 && later.every((m) => m.event === "window"), JSON.stringify(later.map((m) => m.event)));

    // Errors: the method and argument in words.
    assert.deepEqual((await call(page, "setSpeed", -1)).error.name, "RangeError");
    assert.match((await call(page, "setSpeed", -1)).error.message, /setSpeed: speed: .*not a speed/);
    assert.match((await call(page, "fly")).error.message, /"fly" is not a method/);
    assert.match((await call(page, "subscribe", ["windows"])).error.message, /kinds\[0\]: the string "windows" is not an event \(the events are window, join, late, watermark, idle, active, resize\)/);
    assert.match((await call(page, "silence", 99)).error.message, /partition: no partition 99 \(the topic has /);

    // The snapshot crosses the frame; live options apply in the frame.
    const snap = (await call(page, "snapshot")).result;
    assert.ok(Array.isArray(snap.splits) && snap.splits.length > 0);
    // Every method `ready` names is one (the list is mounted.rs's, the dispatch bridge.rs's), and
    // the JS API's reads answer across the frame.
    for (const m of ready.detail.methods.filter((m) => m !== "play")) {
      assert.doesNotMatch((await call(page, m)).error?.message ?? "", /is not a method/, m);
    }
    assert.ok((await call(page, "windows", 0)).result.length > 0);
    assert.match((await call(page, "explain", 0)).result.text, /watermark/i);
    assert.match((await call(page, "explain", 7)).error.message, /explain: subtask: no window subtask 7/);
    assert.deepEqual(await call(page, "update", { theme: "dark", view: "timeline" }), { result: true });
    const root = page.frameLocator("#embed").locator(".wmp-root");
    assert.equal(await root.getAttribute("data-theme"), "dark");
    assert.equal(await page.frameLocator("#embed").locator(".embed-graph").isVisible(), false);
    // An update changes what it names only: the theme stays dark.
    assert.deepEqual(await call(page, "update", { view: "graph" }), { result: true });
    assert.equal(await root.getAttribute("data-theme"), "dark");
    assert.equal(await page.frameLocator("#embed").locator(".embed-graph").isVisible(), true);
    // The frame's own preset (from its URL) is what runs: nothing reloads.
    const ran = (await call(page, "elapsedMs")).result;
    assert.deepEqual(await call(page, "update", { preset: "late-data" }), { result: true });
    assert.deepEqual(await call(page, "elapsedMs"), { result: ran }, "the same run");
    // A new start-at runs what runs from zero to it; that run's events are not posted (as at a
    // mount), later ones are.
    const before2 = (await received(page)).length;
    assert.deepEqual(await call(page, "update", { "start-at": "00:01:00" }), { result: true });
    assert.deepEqual(await call(page, "elapsedMs"), { result: 60_000 });
    assert.deepEqual((await received(page)).slice(before2).filter((m) => m.event), [], "no window event of the run to start-at");
    await call(page, "runUntil", 120_000);
    assert.ok((await received(page)).slice(before2).some((m) => m.event === "window"), "the windows after it are posted");
    // Another preset loads live, from time zero; and the one loadPreset loaded counts as running.
    assert.deepEqual(await call(page, "update", { preset: "empty-partition", "start-at": null }), { result: true });
    assert.deepEqual(await call(page, "elapsedMs"), { result: 0 });
    assert.match(await page.frameLocator("#embed").locator(".embed-title").textContent(), /empty partition/i);
    assert.deepEqual(await call(page, "loadPreset", "seed-001-heartbeat"), { result: undefined });
    await call(page, "runUntil", 5_000);
    assert.deepEqual(await call(page, "update", { preset: "seed-001-heartbeat", "start-at": null }), { result: true });
    assert.deepEqual(await call(page, "elapsedMs"), { result: 5_000 }, "what runs already: kept");
    assert.deepEqual(await call(page, "update", { "start-at": "00:00:20" }), { result: true });
    assert.deepEqual(await call(page, "elapsedMs"), { result: 20_000 }, "a new start-at runs what runs from zero to it");
    // A refused update changes nothing (start-at over the links' work budget, checked first).
    const refused = await call(page, "update", { preset: "empty-partition", "start-at": "160h", theme: "light" });
    assert.match(refused.error?.message ?? "", /update: start-at: .*engine operations/);
    assert.deepEqual(await call(page, "elapsedMs"), { result: 20_000 });
    assert.match(await page.frameLocator("#embed").locator(".embed-title").textContent(), /seed 001/i);
    assert.equal(await root.getAttribute("data-theme"), "dark");
    // Nor does one whose run to start-at fails on the way (a record at Long.MIN_VALUE fails the
    // job): the new job is run beside the old one, which is left as it was (it was swapped in
    // first and left halted).
    const failing = `{"name":"fails at 0","topic":{"partitions":1},"window":{"assigner":{"type":"sliding","size_ms":2000,"slide_ms":1000}},"commands":[{"at_ms":0,"command":"produce","partition":0,"records":[{"ts":-9223372036854775808}]}]}`;
    const failed = await call(page, "update", { scenario: failing, "start-at": "00:00:01" });
    assert.match(failed.error?.message ?? "", /update: start-at: .*Long\.MIN_VALUE timestamp/);
    assert.deepEqual(await call(page, "elapsedMs"), { result: 20_000 });
    assert.match(await page.frameLocator("#embed").locator(".embed-title").textContent(), /seed 001/i);
    await call(page, "runUntil", 21_000);
    assert.deepEqual(await call(page, "elapsedMs"), { result: 21_000 }, "it still runs");
    // ... nor is it kept: a new preset runs to the start-at given before (20 s).
    assert.deepEqual(await call(page, "update", { preset: "empty-partition" }), { result: true });
    assert.deepEqual(await call(page, "elapsedMs"), { result: 20_000 });
    // undefined is absent (a spread), null clears: the source stays, the theme goes back to auto.
    assert.deepEqual(await call(page, "update", { preset: undefined, scenario: undefined, theme: null }), { result: true });
    assert.match(await page.frameLocator("#embed").locator(".embed-title").textContent(), /empty partition/i);
    assert.equal(await root.getAttribute("data-theme"), "system");
    assert.deepEqual(await call(page, "update", { layout: "full" }), { result: false }, "a new layout needs a new frame");
    await call(page, "play");
    assert.equal(await page.frameLocator("#embed").locator("#btn-play").getAttribute("aria-pressed"), "true");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

// The frame's content height (`resize`): what a host sets its iframe's height from, so that a
// taller job never scrolls inside the frame (src/api/frame_height.rs).
test("the frame posts its content height: once laid out, at each change, never the same twice, never for its own size; subscribe names it", async () => {
  const { context, page, problems } = await openHost(`preset=empty-partition&origins=${encodeURIComponent(hostOrigin())}`);
  try {
    await page.evaluate(() => window.ready);
    const heights = () => page.evaluate(() => window.received.filter((m) => m.event === "resize").map((m) => m.detail.height));
    const after = (n) => page.waitForFunction((n) => window.received.filter((m) => m.event === "resize").length > n, n, { timeout: 10_000 });
    const frameSize = (width, height) => page.evaluate(([w, h]) => Object.assign(document.getElementById("embed"), { width: String(w), height: String(h) }).height, [width, height]);
    const scrollsInside = () => page.frameLocator("#embed").locator(".embed").evaluate((e) => e.scrollHeight > e.clientHeight + 1);
    await after(0);
    // Side by side (a 720 px frame) the embed fills any frame: the height is the layout's own,
    // whatever the frame's (the frame's looped with a border-box host, 2 borders less a round).
    assert.deepEqual(await heights(), [420]);
    await frameSize(720, 500);
    await page.waitForTimeout(500);
    assert.deepEqual(await heights(), [420], "a side-by-side frame's own height is not told");
    // Stacked (a 390 px frame): its content's own height, which the host gives the frame.
    await frameSize(390, 420);
    await after(1);
    await page.waitForTimeout(500);
    const short = (await heights()).at(-1);
    assert.ok(Number.isInteger(short) && short > 440 && short < 800, `a stacked embed's height: ${short}`);
    await frameSize(390, short);
    assert.equal(await scrollsInside(), false, "as tall as it says, the frame holds it");
    // A taller job (sixteen partitions) is told, and the frame that follows holds it.
    const n = (await heights()).length;
    assert.deepEqual(await call(page, "update", { preset: "seed-001-heartbeat" }), { result: true });
    await after(n);
    await page.waitForTimeout(500);
    const tall = (await heights()).at(-1);
    assert.ok(tall > short + 50, `seed-001 is taller: ${short} → ${tall}`);
    await frameSize(390, tall);
    assert.equal(await scrollsInside(), false);
    // The frame's own height is not the content's: a taller frame changes nothing (no loop).
    const told = (await heights()).length;
    await frameSize(390, tall + 200);
    await page.waitForTimeout(600);
    assert.equal((await heights()).length, told, "no resize for a taller frame");
    await frameSize(390, tall);
    // Left out of subscribe, it is not posted; named again, the current height is told at once.
    await call(page, "subscribe", ["window"]);
    await call(page, "update", { preset: "empty-partition" });
    await page.waitForTimeout(800);
    assert.equal((await heights()).length, told, "not subscribed: not posted");
    await call(page, "subscribe", ["window", "resize"]);
    await after(told);
    assert.equal((await heights()).at(-1), short, "the height it missed");
    const all = await heights();
    assert.ok(all.every((h, i) => i === 0 || h !== all[i - 1]), `never the same height twice in a row: ${all}`);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a frame opened with start-at and a bare autoplay plays, and takes an update of another option", async () => {
  const { context, page, problems } = await openHost(`preset=late-data&start-at=30s&autoplay&speed=2&origins=${encodeURIComponent(hostOrigin())}`);
  try {
    await page.evaluate(() => window.ready);
    assert.deepEqual(await call(page, "update", { theme: "dark" }), { result: true }, "start-at is kept, so nothing restarts");
    assert.equal(await page.frameLocator("#embed").locator(".wmp-root").getAttribute("data-theme"), "dark");
    assert.deepEqual(await call(page, "playing"), { result: true }, "autoplay is kept: still playing");
    assert.deepEqual(await call(page, "speed"), { result: 2 });
    // A named speed applies even when it is the one last given (setSpeed changed it since).
    await call(page, "setSpeed", 7);
    assert.deepEqual(await call(page, "update", { speed: 2 }), { result: true });
    assert.deepEqual(await call(page, "speed"), { result: 2 });
    assert.deepEqual(await call(page, "update", { speed: null }), { result: true });
    assert.deepEqual(await call(page, "speed"), { result: 5 }, "null: the preset's own speed");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a frame opened with the older play=1 plays, and update({ autoplay: false }) pauses it", async () => {
  const { context, page, problems } = await openHost(`preset=late-data&play=1&origins=${encodeURIComponent(hostOrigin())}`);
  try {
    await page.evaluate(() => window.ready);
    assert.deepEqual(await call(page, "playing"), { result: true });
    assert.deepEqual(await call(page, "update", { autoplay: false }), { result: true });
    assert.deepEqual(await call(page, "playing"), { result: false });
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a frame whose start-at cannot be reached does not keep it for later updates", async () => {
  const { context, page } = await openHost(`preset=empty-partition&start-at=160h&origins=${encodeURIComponent(hostOrigin())}`);
  try {
    await page.evaluate(() => window.ready);
    assert.match(await page.frameLocator("#embed").locator("#link-problem-text").textContent(), /“start-at” cannot be reached/);
    assert.deepEqual(await call(page, "update", { preset: "late-data" }), { result: true });
    assert.deepEqual(await call(page, "elapsedMs"), { result: 0 });
  } finally {
    await context.close();
  }
});

test("a frame whose run to start-at fails keeps its scenario at the start, not a job halted half-way", async () => {
  const failing = `{"name":"fails at 2 s","topic":{"partitions":1},"window":{"assigner":{"type":"tumbling","size_ms":1000}},"commands":[{"at_ms":2000,"command":"produce","partition":0,"records":[{"ts":-9223372036854775808}]}]}`;
  const { context, page } = await openHost(`scenario=${encodeURIComponent(failing)}&start-at=3s&origins=${encodeURIComponent(hostOrigin())}`);
  try {
    await page.evaluate(() => window.ready);
    assert.match(await page.frameLocator("#embed").locator("#link-problem-text").textContent(), /“start-at” cannot be reached: .*Long\.MIN_VALUE/);
    assert.deepEqual(await call(page, "elapsedMs"), { result: 0 });
    assert.deepEqual(await call(page, "runUntil", 1_000), { result: undefined });
  } finally {
    await context.close();
  }
});

test("a frame whose autoplay a link problem stopped plays on update({ autoplay: true })", async () => {
  const { context, page } = await openHost(`preset=late-data&autoplay=1&theme=purple&origins=${encodeURIComponent(hostOrigin())}`);
  try {
    await page.evaluate(() => window.ready);
    assert.deepEqual(await call(page, "playing"), { result: false }, "the link dialog stops it");
    assert.deepEqual(await call(page, "update", { autoplay: true }), { result: true });
    assert.deepEqual(await call(page, "playing"), { result: true });
    // A named autoplay applies whatever happened since: paused, the same update plays again.
    await call(page, "pause");
    assert.deepEqual(await call(page, "update", { autoplay: true }), { result: true });
    assert.deepEqual(await call(page, "playing"), { result: true });
  } finally {
    await context.close();
  }
});

for (const [what, query] of [
  ["an origin not in the list", "origins=" + encodeURIComponent("https://docs.example.com")],
  ["no origins parameter (the embed's own origin only)", ""],
]) {
  test(`a refused origin (${what}) gets a refusal and nothing else`, async () => {
    const { context, page } = await openHost(`preset=late-data&${query}`);
    try {
      const answer = await call(page, "play");
      assert.equal(answer.error?.name, "SecurityError", JSON.stringify(answer));
      assert.match(answer.error.message, /the origin "http:\/\/localhost:\d+" may not drive this embed/);
      assert.equal(await page.frameLocator("#embed").locator("#btn-play").getAttribute("aria-pressed"), "false", "not run");
      await page.frameLocator("#embed").locator("#btn-play").click();
      await page.waitForTimeout(800);
      const got = await received(page);
      assert.deepEqual(got.map((m) => m.event ?? "answer"), ["answer"], "no ready, no events: " + JSON.stringify(got).slice(0, 300));
    } finally {
      await context.close();
    }
  });
}

test("a same-origin host needs no origins parameter", async () => {
  const { context, page } = await openHost("preset=late-data", env.baseUrl.replace(/\/$/, ""));
  try {
    await page.evaluate(() => window.ready);
    assert.deepEqual(await call(page, "runUntil", 30_000), { result: undefined });
    assert.deepEqual(await call(page, "elapsedMs"), { result: 30_000 });
  } finally {
    await context.close();
  }
});

for (const [value, words] of [
  ["*", /“origins” is wrong: "\*" is not allowed/],
  ["docs.example.com", /“origins” is wrong: "docs.example.com" is not an origin/],
]) {
  test(`a bad origins parameter is a link problem in words: ${value}`, async () => {
    const { context, page } = await openPage(env.browser, { viewport: { width: 720, height: 420 } });
    try {
      await page.goto(`${env.baseUrl}?embed=1&preset=late-data&origins=${encodeURIComponent(value)}`, { waitUntil: "load" });
      const dialog = page.locator("dialog.link-problem[open]");
      await dialog.waitFor({ state: "visible", timeout: 10_000 });
      assert.match(await dialog.textContent(), words);
    } finally {
      await context.close();
    }
  });
}
