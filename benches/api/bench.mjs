#!/usr/bin/env node
// Throughput of the JS API: the seed-001 topology at full rate (45,000 records/s over 15 busy
// partitions plus the heartbeat partition, parallelism 8, 1,000 keys, 1-minute windows) through
// `new WatermarkPlayground(scenario).runToEnd()`, in Node.js and in headless Chromium. The same
// workload as `cargo bench --bench seed_001 -- MINUTES` (the native figure). A bench, not a test.
//
//   node benches/api/bench.mjs [MINUTES] [--node-only | --chromium-only]     (default 10)
//
// Needs the release bundle in dist/ (`trunk build --release`; or WMP_DIST) and, for Chromium,
// tests/e2e/node_modules/playwright-core (scripts/setup.sh) and /usr/bin/chromium.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const dist = path.resolve(process.env.WMP_DIST ?? path.join(root, "dist"));
const args = process.argv.slice(2);
const minutes = Number(args.find((a) => /^\d+$/.test(a)) ?? 10);

/** The scenario `benches/seed_001.rs` runs. */
function scenario() {
  const sc = JSON.parse(fs.readFileSync(path.join(root, "tests/scenarios/seed_001_heartbeat.json"), "utf8"));
  sc.duration_ms = minutes * 60_000;
  sc.producers[0].rate_per_s = 3000;
  sc.producers[0].keys = { count: 1000, prefix: sc.producers[0].keys?.prefix ?? "user-" };
  sc.trace = { capacity: 10_000, records: false, late_records_retained: 1000, window_results_retained: 10_000 };
  return sc;
}

/** Runs in Node and in the page alike: returns records, seconds, windows and the trace hash. */
async function runBench(WatermarkPlayground, sc, now) {
  const p = new WatermarkPlayground(sc);
  const t0 = now();
  p.runToEnd();
  const secs = (now() - t0) / 1000;
  const snap = p.snapshot({ openWindows: 0 });
  const records = snap.splits.reduce((n, s) => n + s.produced, 0);
  const out = { records, secs, windows: snap.windowsFired, hash: snap.traceHash };
  p.free();
  return out;
}

function report(where, r) {
  console.log(
    `${where}: ${minutes} simulated min, ${r.records} records in ${r.secs.toFixed(2)} s → ` +
      `${(r.records / r.secs / 1e6).toFixed(2)} M records/s (windows fired ${r.windows}, trace hash ${r.hash})`,
  );
}

async function inNode(sc) {
  const { initSync, WatermarkPlayground } = await import(path.join(dist, "wmp.js"));
  initSync({ module: fs.readFileSync(path.join(dist, "wmp_bg.wasm")) });
  report(`node ${process.version}`, await runBench(WatermarkPlayground, sc, () => performance.now()));
}

async function inChromium(sc) {
  const require = createRequire(path.join(root, "tests/e2e/package.json"));
  const { chromium } = require("playwright-core");
  const types = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    if (url.pathname === "/bench.html") {
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>bench</title>");
      return;
    }
    const file = path.join(dist, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ""));
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    // Playwright gives the browser a fresh temporary profile (--user-data-dir) itself.
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/bench.html`);
    const r = await page.evaluate(
      async ({ sc, fn }) => {
        const { default: init, WatermarkPlayground } = await import("/wmp.js");
        await init();
        const run = new Function(`return (${fn})`)();
        return run(WatermarkPlayground, sc, () => performance.now());
      },
      { sc, fn: runBench.toString() },
    );
    report(`chromium ${browser.version()}`, r);
  } finally {
    await browser.close();
    server.close();
  }
}

const sc = scenario();
if (!args.includes("--chromium-only")) await inNode(sc);
if (!args.includes("--node-only")) await inChromium(sc);
console.log(`native: cargo bench --bench seed_001 -- ${minutes}`);
