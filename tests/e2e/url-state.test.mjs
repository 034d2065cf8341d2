// The page's state in its address (issue 15): `#s=2.…` follows the session at commit moments
// (play, pause, an action, a selection, a zoom — not every frame, counted), a reload and a
// shared link reproduce the trace hash, the clock, the selection and the zoom; old links
// (`wmp1.`, `#preset=`, `#scenario=`) still open; hostile links (huge, malformed, deeply
// nested, a deflate bomb, markup in every string) give the link dialog and run nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { serveAndLaunch, openPage, gotoApp, choosePreset, playUntil, clockMs, artifactsDir, ROOT } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const shots = artifactsDir("e2e");

// Counts history.replaceState calls from the first script on.
const COUNT_REPLACE = () => {
  window.__replaced = 0;
  const orig = history.replaceState.bind(history);
  history.replaceState = (...a) => {
    window.__replaced += 1;
    return orig(...a);
  };
};

const b64url = (buf) => Buffer.from(buf).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const state = (obj) => "2." + b64url(zlib.deflateRawSync(Buffer.from(JSON.stringify(obj))));
const replaced = (page) => page.evaluate(() => window.__replaced);
const hashOf = (page) => page.evaluate(() => location.hash);

/** Waits until the address changes from `before` to a `#s=2.` state; returns it. */
async function addressAfter(page, before) {
  await page.waitForFunction((b) => location.hash.startsWith("#s=2.") && location.hash !== b, before, { timeout: 5_000 });
  return hashOf(page);
}

/** What a reload must reproduce: the trace hash and its time, the clock, the selection, the zoom. */
async function picture(page) {
  return {
    hash: (await page.locator("#trace-hash").textContent()).trim(),
    atMs: await page.locator("#trace-hash").getAttribute("data-at-ms"),
    clock: await clockMs(page),
    selected: await page.evaluate(() => [...document.querySelectorAll("svg.graph .node.op")].findIndex((n) => n.classList.contains("selected"))),
    view: await page.locator("canvas.timeline").getAttribute("data-view"),
    speed: await page.inputValue("#speed"),
    preset: await page.inputValue("#preset"),
  };
}

test("the address follows play, pause, an action, a selection and a zoom — not every frame — and a reload reproduces it", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1440, height: 900 } });
  try {
    await page.addInitScript(COUNT_REPLACE);
    await gotoApp(page, env.baseUrl);
    await choosePreset(page, "empty-partition");
    let addr = await addressAfter(page, "");
    // Playing for two seconds of wall time: the play is one commit, the frames none.
    await page.selectOption("#speed", "10");
    addr = await addressAfter(page, addr);
    const beforePlay = await replaced(page);
    await page.click("#btn-play");
    await page.waitForTimeout(2_000);
    const whilePlaying = (await replaced(page)) - beforePlay;
    assert.ok(whilePlaying <= 2, `${whilePlaying} replaceState calls while playing 2 s (about 120 frames)`);
    await page.click("#btn-play");
    addr = await addressAfter(page, addr);
    assert.ok(await clockMs(page) >= 5_000, "it played");
    // An action, a selection, a zoom: each a new address.
    await page.click("svg.graph [data-silence='1']");
    addr = await addressAfter(page, addr);
    await page.locator("svg.graph .node.op").nth(1).click();
    addr = await addressAfter(page, addr);
    await page.click("button[aria-label='Zoom in']");
    addr = await addressAfter(page, addr);
    assert.ok(addr.length < 2000, `${addr.length} characters`);
    await page.waitForTimeout(400);
    const was = await picture(page);
    assert.equal(was.selected, 1);
    assert.match(was.hash, /^[0-9a-f]{16}$/);

    await page.reload({ waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    await page.waitForTimeout(400);
    assert.deepEqual(await picture(page), was, "a reload gives the same hash, clock, selection, zoom and speed");
    assert.equal(await page.locator("#splits-table tr[data-partition='1'] button").textContent().then((t) => t.trim()), "resume");
    await page.screenshot({ path: path.join(shots, "url-state-reloaded.png") });

    // The same link in a new context (another user).
    const other = await openPage(env.browser, { viewport: { width: 1440, height: 900 } });
    try {
      await other.page.goto(env.baseUrl + addr, { waitUntil: "load" });
      await other.page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
      await other.page.waitForTimeout(400);
      assert.deepEqual(await picture(other.page), was, "a shared link gives the same hash and view");
      assert.deepEqual(other.problems, [], other.problems.join("\n"));
    } finally {
      await other.context.close();
    }
    // The Link tab gives the same state.
    await page.click("#tab-link");
    const link = await page.locator("#share input[aria-label='Share link']").inputValue();
    assert.ok(link.endsWith(addr), `${link} ends with the address`);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a link of a playing page plays after it opens, from the same moment", async () => {
  const { context, page } = await openPage(env.browser);
  try {
    await page.goto(env.baseUrl + "#s=" + state({ p: "late-data", t: 20_000, v: 10, g: true }), { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await page.locator("#btn-play").getAttribute("aria-pressed"), "true");
    assert.ok((await clockMs(page)) >= 20_000);
    assert.equal(await page.inputValue("#speed"), "10");
  } finally {
    await context.close();
  }
});

const preset = JSON.parse(fs.readFileSync(path.join(ROOT, "presets", "late_data.json"), "utf8"));

for (const [name, suffix, id] of [
  ["a wmp1. share string", "#share=wmp1." + b64url(JSON.stringify(preset)), "late-data"],
  ["#preset= with a speed", "#preset=late-data&speed=30", "late-data"],
  ["#scenario= JSON", "#scenario=" + encodeURIComponent(JSON.stringify(preset)), "late-data"],
  ["?share= in the query", "?share=wmp1." + b64url(JSON.stringify(preset)), "late-data"],
]) {
  test(`an old link still opens: ${name}`, async () => {
    const { context, page, problems } = await openPage(env.browser);
    try {
      await page.goto(env.baseUrl + suffix, { waitUntil: "load" });
      await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
      assert.equal(await page.locator("dialog.link-problem[open]").count(), 0);
      assert.equal(await page.inputValue("#preset"), id);
      await addressAfter(page, "");
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await context.close();
    }
  });
}

test("a fragment's speed and play apply with embed=1 beside them (only the query's embed=1 is an iframe's)", async () => {
  const { context, page, problems } = await openPage(env.browser);
  try {
    await page.goto(env.baseUrl + "#preset=late-data&speed=30&play=1&embed=1", { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await page.inputValue("#speed"), "30");
    assert.equal(await page.getAttribute("#btn-play", "aria-pressed"), "true");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("iframe parameter scenario= (JSON) opens that scenario in the embed layout", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 720, height: 420 } });
  try {
    const own = { ...structuredClone(preset), name: "My late data" };
    own.window.assigner.size_ms = 20_000;
    await page.goto(env.baseUrl + "index.html?embed=1&theme=dark&scenario=" + encodeURIComponent(JSON.stringify(own)), { waitUntil: "load" });
    await page.locator(".embed .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await page.locator("dialog.link-problem[open]").count(), 0);
    assert.match(await page.locator(".embed-title").textContent(), /My late data/);
    assert.equal(await page.locator("body > .wmp-root").getAttribute("data-theme"), "dark", "the embed's other parameters apply");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

const XSS = ['<script>window.__xss=1</script>', '<img src=x onerror="window.__xss=1">', '"><svg onload="window.__xss=1">'];

function hostileScenario(payload) {
  const sc = structuredClone(preset);
  sc.name = payload;
  sc.description = payload;
  sc.topic = { ...(sc.topic || {}), name: "t" + payload };
  for (const p of sc.producers) p.keys = { count: 3, prefix: payload };
  return sc;
}

const HOSTILE = [
  ["a 1 MB state", "#s=2." + "A".repeat(1 << 20), /too long/],
  ["a 1 MB scenario", "#scenario=" + "%7B".repeat(350_000), /too long/],
  ["a malformed state", "#s=2.@@not*base64", /damaged.*invalid character/],
  ["a state of another version", "#s=9.abc", /version 9/],
  ["a state that does not inflate", "#s=2.AAAAAAAA", /damaged/],
  ["deeply nested scenario JSON", "#scenario=" + encodeURIComponent("[".repeat(15_000) + "]".repeat(15_000)), /nested more than/],
  ["a deeply nested state", "#s=" + "2." + b64url(zlib.deflateRawSync(Buffer.from('{"p":"late-data","sc":' + "[".repeat(50_000) + "]".repeat(50_000) + "}"))), /nested more than/],
  ["a deflate bomb", "#s=2." + b64url(zlib.deflateRawSync(Buffer.alloc(64 << 20, 32), { level: 9 })), /more than 1024 KB/],
  ["a position past the work budget", "#s=" + state({ p: "late-data", t: 300_000_000_000 }), /engine operations/],
  ["a position that would keep the page busy", "#s=" + state({ p: "seed-001-heartbeat", t: 86_400_000 }), /a link may ask for at most/],
  ["an unknown preset with markup", "#s=" + state({ p: XSS[1] }), /There is no preset/],
];

for (const [name, suffix, words] of HOSTILE) {
  test(`a hostile link is explained and the page stays responsive: ${name}`, async () => {
    const { context, page } = await openPage(env.browser);
    try {
      const t0 = Date.now();
      await page.goto(env.baseUrl + suffix, { waitUntil: "load", timeout: 20_000 });
      const dialog = page.locator("dialog.link-problem[open]");
      await dialog.waitFor({ state: "visible", timeout: 10_000 });
      assert.match(await dialog.textContent(), words);
      assert.ok(Date.now() - t0 < 20_000, `answered in ${Date.now() - t0} ms`);
      // Responsive: the dialog closes and the page plays.
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden", timeout: 5_000 });
      await playUntil(page, 2_000, 10);
      assert.equal(await page.evaluate(() => window.__xss), undefined);
    } finally {
      await context.close();
    }
  });
}

test("a query's preset gives way to the state the address follows: a reload opens what was chosen", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(env.baseUrl + "?preset=late-data&x=1", { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ timeout: 20_000 });
    const first = await addressAfter(page, "");
    assert.equal(await page.evaluate(() => location.search), "?x=1", "the state replaces the preset; other parameters stay");
    await choosePreset(page, "empty-partition");
    await addressAfter(page, first);
    await page.reload({ waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ timeout: 20_000 });
    assert.equal(await page.inputValue("#preset"), "empty-partition");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a state whose run fails on the way opens its scenario at the start, not a run halted half-way", async () => {
  const { context, page } = await openPage(env.browser);
  try {
    // The scenario's record at Long.MIN_VALUE stops the engine at 2 s, on the way to 5 s.
    const failing = { at_ms: 2000, command: "produce", partition: 0, records: [{ ts: "MIN" }] };
    const sc = { name: "fails at 2 s", topic: { partitions: 1 }, window: { assigner: { type: "tumbling", size_ms: 1000 } }, commands: [failing] };
    const json = JSON.stringify({ sc, t: 5000 }).replace('"MIN"', "-9223372036854775808");
    await page.goto(env.baseUrl + "#s=2." + b64url(zlib.deflateRawSync(Buffer.from(json))), { waitUntil: "load" });
    const dialog = page.locator("dialog.link-problem[open]");
    await dialog.waitFor({ state: "visible", timeout: 10_000 });
    assert.match(await dialog.textContent(), /cannot be replayed: .*Long\.MIN_VALUE.*open at the start, without them/);
    await page.keyboard.press("Escape");
    assert.equal(await clockMs(page), 0);
    await playUntil(page, 1_000, 1);
  } finally {
    await context.close();
  }
});

for (const payload of XSS) {
  test(`markup in every string of a linked scenario renders as text: ${payload}`, async () => {
    const { context, page, problems } = await openPage(env.browser);
    try {
      const sc = hostileScenario(payload);
      sc.commands = [{ at_ms: 1000, command: "produce", partition: 0, records: [{ ts_offset_ms: -500, key: payload, value: 1 }] }];
      const st = { sc, p: null, c: [{ at_ms: 1500, command: "produce", partition: 1, records: [{ ts_offset_ms: 0, key: payload, value: 2 }] }], t: 30_000, k: "w0:0:10000:" + payload };
      for (const suffix of ["#s=" + state(st), "#scenario=" + encodeURIComponent(JSON.stringify(sc)), "#share=wmp1." + b64url(JSON.stringify(sc))]) {
        await page.goto(env.baseUrl + suffix, { waitUntil: "load" });
        await page.reload({ waitUntil: "load" });
        await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
        await playUntil(page, 40_000, 100);
        assert.equal(await page.locator("dialog.link-problem[open]").count(), 0, suffix.slice(0, 40));
        assert.equal(await page.evaluate(() => window.__xss), undefined, "nothing ran");
        assert.equal(await page.locator("img[src='x'], svg[onload]").count(), 0, "no element made of the payload");
        assert.ok((await page.evaluate(() => document.body.innerText)).includes(payload), "the payload shows as text");
      }
      assert.deepEqual(problems.filter((p) => !p.includes("HTTP 404")), [], problems.join("\n"));
    } finally {
      await context.close();
    }
  });
}

// Every attribute of the element as an iframe parameter (`?embed=1&…`), read by the one options
// parser: good values open without a dialog, a bad one names the parameter.
const IFRAME_OK =
  "?embed=1&preset=late-data&speed=30&autoplay=1&layout=embed&theme=dark&controls=minimal&view=timeline&readonly&start-at=00:01:00&loading=eager";

test("iframe parameters: every attribute of the element opens and applies, start-at runs there and autoplay plays", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 720, height: 420 } });
  try {
    await page.addInitScript(COUNT_REPLACE);
    await page.goto(env.baseUrl + IFRAME_OK, { waitUntil: "load" });
    await page.locator(".embed canvas.timeline").waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await page.locator("dialog.link-problem[open]").count(), 0);
    // view=timeline, theme=dark, controls=minimal, readonly: as the element applies them.
    const root = page.locator("body > .wmp-root");
    assert.equal(await root.getAttribute("data-theme"), "dark");
    assert.equal(await root.evaluate((e) => getComputedStyle(e).backgroundColor), "rgb(13, 17, 23)");
    assert.equal(await page.locator(".embed-graph").isVisible(), false, "view=timeline: no graph");
    assert.equal(await page.locator(".embed-head .speed").isVisible(), false, "controls=minimal: no speed picker");
    assert.equal(await page.locator("#btn-play").isVisible(), true, "controls=minimal: play stays");
    assert.equal(await root.getAttribute("data-readonly"), "");
    assert.equal((await root.boundingBox()).height, 420, "the root fills the frame");
    assert.equal(await page.locator("#btn-play").getAttribute("aria-pressed"), "true", "autoplay");
    assert.ok((await clockMs(page)) >= 60_000, "start-at=00:01:00 ran to a minute");
    assert.equal(await page.inputValue("#speed"), "30");
    await page.waitForTimeout(600);
    assert.equal(await hashOf(page), "", "an embed leaves its address alone");
    assert.equal(await replaced(page), 0);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("iframe parameters: a bad speed is a link problem naming it, and the other parameters still apply", async () => {
  const { context, page } = await openPage(env.browser, { viewport: { width: 720, height: 420 } });
  try {
    await page.goto(env.baseUrl + "index.html?embed=1&preset=late-data&speed=fast&theme=dark&view=graph", { waitUntil: "load" });
    await page.locator("dialog.link-problem[open]").waitFor({ timeout: 20_000 });
    assert.match(await page.locator("#link-problem-text").textContent(), /“speed” is wrong: .*fast/);
    assert.equal(await page.locator("body > .wmp-root").getAttribute("data-theme"), "dark", "theme still applies");
    assert.equal(await page.locator(".timeline-card").isVisible(), false, "view=graph still applies");
  } finally {
    await context.close();
  }
});

test("iframe parameter full-url: open full and Share point there", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 720, height: 420 } });
  try {
    await page.goto(env.baseUrl + "index.html?embed=1&preset=late-data&full-url=" + encodeURIComponent("https://example.org/full/"), { waitUntil: "load" });
    await page.locator("#open-full").hover({ timeout: 20_000 });
    assert.match(await page.locator("#open-full").getAttribute("href"), /^https:\/\/example\.org\/full\/#s=2\./);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("iframe parameter layout=full gives the whole playground in the frame, its shortcuts page-wide", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(env.baseUrl + "?embed=1&preset=late-data&layout=full&theme=light", { waitUntil: "load" });
    await page.locator(".app svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await page.locator("body > .wmp-root").getAttribute("data-theme"), "light");
    await page.keyboard.press("Space");
    assert.equal(await page.locator("#btn-play").getAttribute("aria-pressed"), "true", "Space plays");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a full-layout frame without the drawer (readonly, controls=minimal) leaves no room for it, and C does not open it", async () => {
  for (const extra of ["readonly", "controls=minimal"]) {
    const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1600, height: 900 } });
    try {
      await page.goto(env.baseUrl + `?embed=1&preset=late-data&layout=full&${extra}`, { waitUntil: "load" });
      await page.locator(".app svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
      assert.equal(await page.locator(".app.with-controls").count(), 0, `${extra}: no column for a drawer (1600 px opens it elsewhere)`);
      assert.equal(await page.locator("#btn-controls").isVisible(), false, `${extra}: no Controls button`);
      await page.keyboard.press("c");
      assert.equal(await page.locator(".app.with-controls").count(), 0, `${extra}: C`);
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await context.close();
    }
  }
});

for (const [param, words] of [
  ["layout=sideways", /“layout” is wrong: "sideways" is not one of "embed", "full"/],
  ["theme=purple", /“theme” is wrong/],
  ["controls=some", /“controls” is wrong/],
  ["view=both", /“view” is wrong/],
  ["readonly=maybe", /“readonly” is wrong: "maybe" is not a boolean/],
  ["start-at=soon", /“start-at” is wrong: "soon" is not a processing time/],
  ["start-at=9999h", /“start-at” is wrong: .*more than a week/],
  ["loading=later", /“loading” is wrong/],
  ["full-url=javascript:alert(1)", /“full-url” is wrong: .*not an http\(s\) or relative address/],
  ["play=often", /“play” is wrong: "often" is not a boolean/],
]) {
  test(`iframe parameter refused in words: ${param}`, async () => {
    const { context, page } = await openPage(env.browser, { viewport: { width: 720, height: 420 } });
    try {
      await page.goto(env.baseUrl + "?embed=1&preset=late-data&" + param, { waitUntil: "load" });
      const dialog = page.locator("dialog.link-problem[open]");
      await dialog.waitFor({ state: "visible", timeout: 10_000 });
      assert.match(await dialog.textContent(), words);
    } finally {
      await context.close();
    }
  });
}

test("an element's scenario attribute and an iframe's scenario= open the page's link state: the same run at the same moment", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1280, height: 900 } });
  try {
    await gotoApp(page, env.baseUrl);
    await choosePreset(page, "late-data");
    await playUntil(page, 20_000, 10);
    await page.locator('svg.graph [data-silence="0"]').click();
    await addressAfter(page, await hashOf(page));
    await playUntil(page, 40_000, 10);
    // The pause's commit is written a moment after it.
    await page.waitForTimeout(800);
    const addr = await hashOf(page);
    const want = { hash: (await page.locator("#trace-hash").textContent()).trim(), atMs: Number(await page.locator("#trace-hash").getAttribute("data-at-ms")) };
    assert.ok(addr.length > 10 && want.atMs >= 40_000, JSON.stringify({ addr, want }));
    // The whole address, as a docs author copies it from the bar.
    const link = await page.evaluate(() => location.href);
    await page.goto(env.baseUrl + "pages/element-test.html");
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    await page.evaluate((link) => {
      const el = document.createElement("watermark-playground");
      el.id = "linked";
      el.setAttribute("loading", "eager");
      el.setAttribute("scenario", link);
      document.getElementById("more").append(el);
    }, link);
    await page.locator("#linked .node.op").first().waitFor();
    const got = await page.evaluate(() => ({ hash: document.getElementById("linked").playground.traceHash(), atMs: document.getElementById("linked").playground.elapsedMs() }));
    assert.deepEqual(got, want, "the element runs the link's commands to its moment");
    // A later start-at replays the link's commands to it; without it, the link's own moment
    // again; the same link given again is what runs (no reload).
    const moved = await page.evaluate(async ([link, atMs]) => {
      const el = document.getElementById("linked");
      const settle = () => new Promise((r) => setTimeout(r, 300));
      el.setAttribute("start-at", "30s");
      await settle();
      const at30 = { atMs: el.playground.elapsedMs(), commands: el.playground.toScenario().commands.map((c) => c.command) };
      el.removeAttribute("start-at");
      await settle();
      const back = { hash: el.playground.traceHash(), atMs: el.playground.elapsedMs() };
      el.playground.runUntil(atMs + 5_000);
      el.setAttribute("scenario", link);
      await settle();
      return { at30, back, again: el.playground.elapsedMs() };
    }, [link, want.atMs]);
    assert.deepEqual(moved.at30, { atMs: 30_000, commands: ["silence"] }, "the link's silence at 20 s is replayed to start-at");
    assert.deepEqual(moved.back, want, "start-at removed: the link's own moment");
    assert.equal(moved.again, want.atMs + 5_000, "the same link again: nothing reloads");
    // An iframe's scenario= takes the state too.
    await page.goto(env.baseUrl + "index.html?embed=1&layout=full&scenario=" + encodeURIComponent(addr.slice("#s=".length)));
    await page.locator("svg.graph .node.op").first().waitFor();
    await page.waitForFunction(() => document.querySelector("#trace-hash")?.textContent.trim().length === 16);
    assert.deepEqual({ hash: (await page.locator("#trace-hash").textContent()).trim(), atMs: Number(await page.locator("#trace-hash").getAttribute("data-at-ms")) }, want);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a #s= link pasted into the address bar of an open page opens with its selection and zoom", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1440, height: 900 } });
  try {
    await gotoApp(page, env.baseUrl);
    const link = "#s=" + state({ p: "late-data", t: 30_000, v: 30, k: "o0", z: "20000:-" });
    await page.evaluate((h) => (location.hash = h), link);
    await page.waitForFunction(() => document.querySelector("#preset")?.value === "late-data");
    await page.waitForTimeout(300);
    assert.equal(await clockMs(page), 30_000);
    assert.equal(await page.inputValue("#speed"), "30");
    const [x0, x1] = (await page.locator("canvas.timeline").getAttribute("data-view")).split(" ").map(Number);
    assert.equal(x1 - x0, 20_000, "the zoom's span");
    assert.ok(await page.locator("svg.graph .node.op").nth(0).evaluate((n) => n.classList.contains("selected")), "the selection");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("the Share button goes to the Share card without touching the address; an anchor fragment is not a link to open", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await gotoApp(page, env.baseUrl);
    await page.click("#btn-share");
    await page.waitForFunction(() => document.activeElement?.id === "share");
    assert.ok(await page.locator("#share").isVisible());
    assert.ok(!(await hashOf(page)).startsWith("#share"), "the address is the page's state, not an anchor");
    // A docs page linking to #share (an anchor, no `=`): no dialog, nothing reloaded.
    const before = (await page.locator("#trace-hash").textContent()).trim();
    await page.evaluate(() => (location.hash = "#share"));
    await page.waitForTimeout(300);
    assert.equal(await page.locator("dialog.link-problem").isVisible(), false);
    assert.equal((await page.locator("#trace-hash").textContent()).trim(), before);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("a link whose selection or zoom names nothing opens the rest and says what it left out", async () => {
  const { context, page } = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(env.baseUrl + "#s=" + state({ p: "late-data", t: 5_000, k: "w9:0:10000:user-1", z: "abc" }), { waitUntil: "load" });
    const notice = page.locator(".notice", { hasText: "This link opened, but" });
    await notice.waitFor({ timeout: 20_000 });
    const text = await notice.textContent();
    assert.match(text, /its selection “w9:0:10000:user-1” names nothing in this scenario/);
    assert.match(text, /its zoom “abc” is not one this playground wrote/);
    assert.equal(await clockMs(page), 5_000, "the rest of the link opened");
  } finally {
    await context.close();
  }
});

test("a link whose zoom shows no time of the run says so and follows the present", async () => {
  const { context, page } = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(env.baseUrl + "#s=" + state({ p: "late-data", t: 5_000, z: "200:99999999999999" }), { waitUntil: "load" });
    const notice = page.locator(".notice", { hasText: "This link opened, but" });
    await notice.waitFor({ timeout: 20_000 });
    assert.match(await notice.textContent(), /its zoom “200:99999999999999” shows no time of this run/);
    assert.equal(await clockMs(page), 5_000, "the rest of the link opened");
  } finally {
    await context.close();
  }
});
