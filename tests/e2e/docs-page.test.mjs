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
    assert.ok(await page.evaluate(() => [...document.querySelectorAll("#log li")].every((li) => !li.textContent.includes("‖"))), "the log says idle in words");
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

/** In the page: each embed's box and the natural height of its content (the lowest card's
 * bottom plus the embed's padding, whatever the box), and whether it scrolls inside. */
function embedHeights() {
  const natural = (embed) => {
    const top = embed.getBoundingClientRect().top - embed.scrollTop;
    let bottom = top;
    for (const c of embed.children) if (getComputedStyle(c).display !== "none") bottom = Math.max(bottom, c.getBoundingClientRect().bottom);
    return bottom - top + parseFloat(getComputedStyle(embed).paddingBottom);
  };
  const of = (name, box, embed) => ({ name, box: box.getBoundingClientRect().height, inner: embed.clientHeight, content: natural(embed), scrolls: embed.scrollHeight > embed.clientHeight + 1 });
  const frame = document.querySelector(".embed-frame iframe");
  return [
    { ...of("iframe", frame, frame.contentDocument.querySelector(".embed")), box: frame.clientHeight },
    ...[...document.querySelectorAll("watermark-playground")].map((el) => of(el.id, el, el.shadowRoot.querySelector(".embed"))),
  ];
}

/** A one-finger swipe up from (x, y): what a reader does to scroll the page on. */
async function swipeUp(page, x, y) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  for (let i = 1; i <= 10; i++) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y: y - i * 20 }] });
    await page.waitForTimeout(16);
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await page.waitForTimeout(400);
}

test("on a phone, each embed is as tall as its content: nothing scrolls inside it, a swipe on it scrolls the page", async () => {
  const { context, page, problems } = await openDocs({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    for (const id of ["seed001", "scripted"]) await graphIn(page, id).waitFor({ state: "visible", timeout: 20_000 });
    await page.locator(".embed-frame iframe").scrollIntoViewIfNeeded();
    await page.frameLocator(".embed-frame iframe").locator("svg.graph .node.op").first().waitFor({ timeout: 20_000 });
    for (const e of await page.evaluate(embedHeights)) {
      // The stacked embed is ~680 px (it was a 480 px box scrolling inside, or 60 px of empty
      // band under a 420 px element); a little slack for a header that wraps less.
      assert.ok(!e.scrolls && e.inner >= e.content - 1, `${e.name}: its box (${e.inner} px) holds its content (${e.content} px)`);
      assert.ok(e.inner - e.content <= 32, `${e.name}: no empty band under its content (${e.inner} px for ${e.content} px)`);
    }
    // A swipe on the iframe's graph (not the timeline, which pans sideways) moves the page.
    for (const target of [".embed-frame iframe", "#seed001"]) {
      await page.locator(target).evaluate((e) => e.scrollIntoView({ block: "start" }));
      await page.waitForTimeout(300);
      const at = await page.locator(target).evaluate((e) => {
        const root = e.contentDocument ?? e.shadowRoot;
        const g = root.querySelector(".embed-graph").getBoundingClientRect();
        const off = e.contentDocument ? e.getBoundingClientRect() : { x: 0, y: 0 };
        return { x: Math.round(off.x + g.x + g.width / 2), y: Math.round(off.y + g.y + g.height / 2) };
      });
      const before = await page.evaluate(() => scrollY);
      await swipeUp(page, at.x, at.y);
      const after = await page.evaluate(() => scrollY);
      assert.ok(after > before + 50, `${target}: a swipe on it scrolls the page (${before} → ${after})`);
    }
    // 320 px: a long identifier in the text breaks rather than widening the page.
    await page.setViewportSize({ width: 320, height: 700 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no horizontal overflow at 320 px (${overflow} px)`);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("the iframe takes the height its embed posts: a taller job (update({ preset })) does not scroll inside it", async () => {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 390, height: 844 } });
  try {
    // Every height the frame posts to the page, from its first.
    await page.addInitScript(() => {
      window.resizes = [];
      addEventListener("message", (ev) => ev.data?.event === "resize" && ev.source !== window && window.resizes.push(ev.data.detail.height));
    });
    await page.goto(env.baseUrl + PAGE, { waitUntil: "load" });
    await page.locator(".embed-frame iframe").scrollIntoViewIfNeeded();
    await page.frameLocator(".embed-frame iframe").locator("svg.graph .node.op").first().waitFor({ timeout: 20_000 });
    // The frame's height once it is the last one posted.
    const followed = (above) =>
      page
        .waitForFunction((above) => {
          const h = window.resizes.at(-1);
          return h > above && document.querySelector(".embed-frame iframe").clientHeight === h ? h : null;
        }, above, { timeout: 10_000 })
        .then((h) => h.jsonValue());
    const first = await followed(0);
    assert.ok(first > 440 && first < 800, `a plausible height for the stacked embed: ${first}`);
    // The page drives its own frame (same origin: the bridge answers it) to a taller job.
    await page.evaluate(() =>
      document.querySelector(".embed-frame iframe").contentWindow.postMessage({ wmp: 1, id: 1, method: "update", args: [{ preset: "seed-001-heartbeat" }] }, location.origin),
    );
    const taller = await followed(first + 50);
    await page.waitForTimeout(600);
    const inner = await page.frameLocator(".embed-frame iframe").locator(".embed").evaluate((e) => ({ box: e.clientHeight, content: e.scrollHeight }));
    assert.ok(inner.content <= inner.box + 1 && inner.box === taller, `the frame (${inner.box} px) holds its content (${inner.content} px)`);
    const all = await page.evaluate(() => window.resizes);
    assert.equal(all.at(-1), taller, `nothing more once the frame took it (no loop): ${all}`);
    assert.ok(all.every((h, i) => i === 0 || h !== all[i - 1]), `never the same height twice in a row: ${all}`);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("side by side (768 and 1280 px), each embed is its 420 px box, nothing scrolls inside", async () => {
  const { context, page, problems } = await openDocs();
  try {
    for (const width of [1280, 768]) {
      await page.setViewportSize({ width, height: 900 });
      for (const id of ["seed001", "scripted"]) await graphIn(page, id).waitFor({ state: "visible", timeout: 20_000 });
      await page.locator(".embed-frame iframe").scrollIntoViewIfNeeded();
      await page.frameLocator(".embed-frame iframe").locator("svg.graph .node.op").first().waitFor({ timeout: 20_000 });
      for (const e of await page.evaluate(embedHeights)) {
        assert.equal(Math.round(e.inner), 420, `${width} px: ${e.name} is 420 px`);
        assert.ok(!e.scrolls, `${width} px: ${e.name} does not scroll inside`);
      }
    }
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("pages/embed.html: the mounted embed's box holds it, 720×420 and on a phone (no inner scrolling, nothing cut)", async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
    const { context, page, problems } = await openPage(env.browser, { viewport, isMobile: viewport.width < 500, hasTouch: viewport.width < 500 });
    try {
      await page.goto(env.baseUrl + "pages/embed.html", { waitUntil: "load" });
      await page.locator("#embed svg.graph .node.op").first().waitFor({ timeout: 20_000 });
      const m = await page.evaluate(() => {
        const box = document.getElementById("embed"), embed = box.querySelector(".embed");
        return { box: box.clientHeight, outer: box.getBoundingClientRect().height, embed: embed.getBoundingClientRect().height, scrolls: embed.scrollHeight > embed.clientHeight + 1 };
      });
      assert.ok(!m.scrolls, `${viewport.width} px: the embed does not scroll inside`);
      assert.ok(m.box >= m.embed - 0.5, `${viewport.width} px: the box (${m.box} px inside) does not cut the embed (${m.embed} px)`);
      if (viewport.width > 760) assert.equal(Math.round(m.outer), 420, "the snippet's 720×420 box");
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await context.close();
    }
  }
});

// A phone shows the WHY line's start, with ▾: a tap opens it whole (the embed keeps its height
// for the graph; the line was read as cut off).
test("the WHY line of the Seed 001 element opens whole on a phone with a tap", async () => {
  const { context, page, problems } = await openDocs({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    await graphIn(page, "seed001").waitFor({ state: "visible", timeout: 20_000 });
    // Past the first heartbeat: the headline names partition 11 and offers its fix.
    await page.evaluate(() => document.getElementById("seed001").playground.runUntil(20 * 60_000));
    const why = await page.waitForFunction(
      () => {
        const root = document.getElementById("seed001").shadowRoot;
        const line = root.querySelector(".embed-why-line");
        if (!/Partition 11/.test(line?.textContent ?? "") || !root.querySelector(".embed-why .fix")) return null;
        if (!root.querySelector(".embed-why.expanded")) {
          root.querySelector(".embed-why-text").click();
          return null;
        }
        const w = root.querySelector(".embed-why").getBoundingClientRect(), l = line.getBoundingClientRect();
        return { scroll: line.scrollWidth, client: line.clientWidth, width: l.width, whyWidth: w.width, inside: l.left >= w.left - 0.5 && l.right <= w.right + 0.5 };
      },
      null,
      { timeout: 20_000 },
    ).then((h) => h.jsonValue());
    assert.ok(why.scroll <= why.client + 1, `the line wraps: ${why.scroll} px of text in ${why.client} px`);
    assert.ok(why.width >= why.whyWidth * 0.6, `the line has the row's width, not a few words beside the fix (${why.width} of ${why.whyWidth} px)`);
    assert.ok(why.inside, "the line is inside its box");
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("the page says in words what it means: no “‖” (in the app: paused by split alignment) for a partition without records", async () => {
  const { context, page } = await openDocs();
  try {
    const text = await page.locator("main").evaluate((m) => m.innerText);
    assert.ok(!text.includes("‖"), "no ‖ in the page's text");
    assert.match(text, /partition 3 \(p3\), the one that gets no records/);
    // The scripted element's log and the page's button: words, not the app's glyphs.
    await graphIn(page, "scripted").waitFor({ state: "visible", timeout: 20_000 });
    await page.click("#btn-play");
    await page.waitForFunction(() => document.querySelector("#btn-play").textContent === "Pause", null, { timeout: 2_000 });
    await page.click("#btn-play");
  } finally {
    await context.close();
  }
});

// Pasted as written into a docs page read on a phone, an iframe snippet's width="720" made the
// page 732 px wide: the embed was cut and the page scrolled sideways.
test("the iframe snippets, pasted into a page 390 px wide, fit it", async () => {
  const { context, page } = await openDocs({ viewport: { width: 390, height: 844 } });
  try {
    const frames = await page.$$eval("#snippet-iframe, #snippet-bridge", (pres) => pres.map((p) => p.textContent.split("</iframe>")[0] + "</iframe>"));
    assert.equal(frames.length, 2);
    for (const html of frames) {
      await page.setContent(`<!doctype html><meta name="viewport" content="width=device-width"><body>${html.replaceAll("https://YOUR-SITE/playground/", env.baseUrl)}</body>`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `${overflow} px wider than the page: ${html.slice(0, 80)}`);
    }
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

test("no snippet to copy holds a template literal: MDX (Docusaurus) reads “${” as an expression and the page breaks", async () => {
  const { context, page } = await openDocs();
  try {
    const snippets = await page.$$eval("button.copy", (bs) => bs.map((b) => ({ id: b.dataset.copy, text: document.getElementById(b.dataset.copy)?.textContent ?? "" })));
    assert.ok(snippets.length >= 4 && snippets.every((s) => s.text.length > 0), JSON.stringify(snippets.map((s) => s.id)));
    assert.deepEqual(snippets.filter((s) => s.text.includes("${")).map((s) => s.id), [], "snippets with ${");
    // Still the frame's height from its posted one, as a string joined with +.
    assert.match(snippets.find((s) => s.id === "snippet-iframe").text, /frame\.style\.height = ev\.data\.detail\.height \+ "px";/);
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
