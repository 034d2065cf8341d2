// Load bench for issue 15's budgets (load-budget.mjs), on the release bundle in dist/:
//   1. sizes: what the playground page downloads before its first render, and the engine-only
//      module, raw and gzip -9;
//   2. time to first render: navigation start to the first `svg.graph` operator node, in a fresh
//      (cold-cache) headless Chromium context served from 127.0.0.1, median of N loads;
//   3. memory per extra embed: JS heap (CDP Performance.getMetrics JSHeapUsedSize, after a GC)
//      plus every WebAssembly.Memory, with 1 and then 1+K embeds on one page, both as mount()
//      calls sharing one wasm instance and as `index.html?embed=1` iframes (one each); and
//      mount() calls after play: each run to 10 h of seed 001 with a `window` listener (the
//      window results, timeline and events an embed holds once it has played).
// Run after `trunk build --release`:   node tests/e2e/load-bench.mjs [loads=7] [extra-embeds=5]
import os from "node:os";
import { DIST, startServer, launch } from "./lib.mjs";
import { BUDGETS, firstLoadFiles, engineFiles, measure, kb } from "./load-budget.mjs";

const loads = Number(process.argv[2] || 7);
const extra = Number(process.argv[3] || 5);
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const verdict = (ok) => (ok ? "within budget" : "OVER budget");

function sizes() {
  for (const [label, names, budget] of [
    ["full playground, first load", firstLoadFiles(DIST), BUDGETS.fullFirstLoadGzip],
    ["engine-only module", engineFiles(DIST), BUDGETS.engineGzip],
  ]) {
    const m = measure(DIST, names);
    console.log(`${label}: ${kb(m.gzip)} gzipped (${kb(m.bytes)} raw), budget ${kb(budget)}: ${verdict(m.gzip <= budget)}`);
    for (const f of m.files) console.log(`  ${f.name.padEnd(40)} ${kb(f.bytes).padStart(10)} ${kb(f.gzip).padStart(10)} gz`);
  }
}

// Stamps performance.now() (ms since navigation start) when the first operator node appears
// in the DOM, and the first contentful paint: index.html's body is empty, so that is the first
// frame of the playground, graph included (its style, layout and paint come after the DOM).
const FIRST_RENDER = () => {
  new PerformanceObserver((list) => {
    const fcp = list.getEntries().find((e) => e.name === "first-contentful-paint");
    if (fcp) window.__firstPaint = fcp.startTime;
  }).observe({ type: "paint", buffered: true });
  const seen = () => {
    if (window.__firstRender === undefined && document.querySelector("svg.graph .node.op")) {
      window.__firstRender = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(seen);
  observer.observe(document, { childList: true, subtree: true });
};

async function firstRender(browser, base) {
  const times = [];
  const frames = [];
  const wasmDone = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(FIRST_RENDER);
    await page.goto(base, { waitUntil: "load" });
    await page.waitForFunction(() => window.__firstRender !== undefined && window.__firstPaint !== undefined, null, { timeout: 20_000 });
    times.push(await page.evaluate(() => window.__firstRender));
    frames.push(await page.evaluate(() => window.__firstPaint));
    // When the wasm's last byte arrived: the rest is compiling it, instantiating and rendering.
    wasmDone.push(await page.evaluate(() => performance.getEntriesByType("resource").find((e) => e.name.endsWith("_bg.wasm"))?.responseEnd ?? NaN));
    await context.close();
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const median = med(times);
  times.sort((a, b) => a - b);
  console.log(`time to first render (navigation start -> graph drawn), ${loads} cold loads: median ${median.toFixed(0)} ms, ` +
    `min ${times[0].toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms; budget ${BUDGETS.firstRenderMs} ms: ${verdict(median <= BUDGETS.firstRenderMs)}`);
  console.log(`  of which the wasm downloaded by ${med(wasmDone).toFixed(0)} ms (median); compile, instantiate and first render after it`);
  console.log(`  painted (first contentful paint: the playground's first frame, graph included): median ${med(frames).toFixed(0)} ms`);
}

// JS heap after a GC plus the wasm memories of the page and its frames.
async function memory(page, cdp) {
  await cdp.send("HeapProfiler.collectGarbage");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const heap = metrics.find((m) => m.name === "JSHeapUsedSize").value;
  let wasm = 0;
  for (const frame of page.frames()) {
    // init() of an instantiated module returns its exports, memory among them.
    wasm += await frame.evaluate(async () => {
      if (!window.wasmBindings && !window.wmpMount) return 0;
      const href = document.querySelector('link[rel="modulepreload"]')?.href ?? new URL("../wmp.js", location.href).href;
      const exports = await (await import(href)).default();
      return exports.memory.buffer.byteLength;
    });
  }
  return { heap, wasm, total: heap + wasm };
}

async function perEmbed(browser, base, label, setup, add) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await setup(page);
  await page.waitForTimeout(1500);
  const one = await memory(page, cdp);
  await add(page);
  await page.waitForTimeout(1500);
  const many = await memory(page, cdp);
  const per = (many.total - one.total) / extra;
  console.log(`memory per extra embed (${label}): ${mb(per)} (1 embed: heap ${mb(one.heap)} + wasm ${mb(one.wasm)}; ` +
    `${1 + extra}: heap ${mb(many.heap)} + wasm ${mb(many.wasm)}); budget ${mb(BUDGETS.perEmbedBytes)}: ${verdict(per <= BUDGETS.perEmbedBytes)}`);
  await context.close();
}

const server = await startServer();
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
try {
  console.log(`load bench on ${DIST} (machine load ${os.loadavg()[0].toFixed(2)})`);
  sizes();
  await firstRender(browser, base);
  const waitGraphs = (page, n) =>
    page.waitForFunction((k) => document.querySelectorAll("svg.graph").length >= k, n, { timeout: 30_000 });
  await perEmbed(browser, base, "mount() calls, one shared wasm instance",
    async (page) => {
      await page.goto(base + "pages/embed.html", { waitUntil: "load" });
      await waitGraphs(page, 1);
    },
    async (page) => {
      await page.evaluate((k) => {
        for (let i = 0; i < k; i++) {
          const div = document.createElement("div");
          div.style.cssText = "width:720px;height:420px";
          document.querySelector("main").append(div);
          window.wmpMount(div, { layout: "embed", preset: "seed-001-heartbeat" });
        }
      }, extra);
      await waitGraphs(page, 1 + extra);
    });
  // After play: a page of its own (not in dist/) that mounts embeds and runs each to 10 h.
  const played = `<!doctype html><body><script type="module">
import init, { mount } from "./wmp.js";
await init();
window.wmpMount = (k) => {
  for (let i = 0; i < k; i++) {
    const div = document.createElement("div");
    div.style.cssText = "width:720px;height:420px";
    document.body.append(div);
    div.addEventListener("window", () => {});
    mount(div, { layout: "embed", preset: "seed-001-heartbeat", eventTarget: div }).runUntil(36_000_000);
  }
  return true;
};
</script></body>`;
  await perEmbed(browser, base, "mount() calls, each run to 10 h of seed 001",
    async (page) => {
      await page.route(base + "played.html", (route) => route.fulfill({ contentType: "text/html", body: played }));
      await page.goto(base + "played.html");
      await page.waitForFunction(() => window.wmpMount, null, { timeout: 30_000 });
      await page.evaluate(() => window.wmpMount(1));
    },
    (page) => page.evaluate((k) => window.wmpMount(k), extra));
  const frameGraphs = async (page, n) => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await page.waitForTimeout(200)) {
      let drawn = 0;
      for (const f of page.frames().slice(1)) drawn += await f.evaluate(() => document.querySelectorAll("svg.graph").length);
      if (drawn >= n) return;
    }
    throw new Error(`fewer than ${n} iframes drew their graph`);
  };
  const addFrames = (page, k) => page.evaluate((k) => {
    for (let i = 0; i < k; i++) {
      const f = document.createElement("iframe");
      f.src = "index.html?embed=1&preset=seed-001-heartbeat";
      f.style.cssText = "width:720px;height:420px";
      document.body.append(f);
    }
  }, k);
  await perEmbed(browser, base, "index.html?embed=1 iframes, one wasm instance each",
    async (page) => {
      // An empty host page of the same origin (not in dist/): the iframes are its only wasm.
      await page.route(base + "frames.html", (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><body></body>" }));
      await page.goto(base + "frames.html");
      await addFrames(page, 1);
      await frameGraphs(page, 1);
    },
    async (page) => {
      await addFrames(page, extra);
      await frameGraphs(page, 1 + extra);
    });
} finally {
  await browser.close();
  server.close();
}
