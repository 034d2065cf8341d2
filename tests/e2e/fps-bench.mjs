// FPS bench: 64 partitions, source and window parallelism 16, 100× speed, in headless Chromium.
// Prints frames per second (requestAnimationFrame callbacks while the simulation plays) and the
// playground's own frame-time estimate.  Run after `trunk build --release`:
//   node tests/e2e/fps-bench.mjs [seconds] [rate-per-partition]
import { startServer, launch, openPage } from "./lib.mjs";

const seconds = Number(process.argv[2] || 8);
const rate = Number(process.argv[3] || 50);
const scenario = {
  name: "fps bench: 64 partitions, parallelism 16",
  seed: 7,
  duration_ms: 3_600_000,
  topic: { name: "bench", partitions: 64 },
  source: { parallelism: 16, watermark: { generator: { kind: "bounded_out_of_orderness", bound_ms: 2000 }, idle_timeout_ms: 30000 } },
  window: { assigner: { type: "tumbling", size_ms: 10000 }, parallelism: 16, aggregate: "count" },
  producers: [{ partitions: "all", kind: "steady", rate_per_s: rate, jitter_ms: 1000, keys: { count: 500, prefix: "k-" } }],
  trace: { capacity: 2000, records: false },
};
const server = await startServer();
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
try {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 1920, height: 1080 } });
  const hash = "scenario=" + encodeURIComponent(JSON.stringify(scenario)) + "&speed=100&play=1";
  await page.goto(base + "#" + hash, { waitUntil: "load" });
  await page.locator("svg.graph .node.op").first().waitFor({ timeout: 20_000 });
  await page.waitForTimeout(2000); // warm up
  const r = await page.evaluate(async (ms) => {
    const clock = () => {
      const [h, m, s] = document.querySelector("#clock").textContent.trim().split(":");
      return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000;
    };
    let frames = 0;
    let worst = 0;
    let last = performance.now();
    const c0 = clock();
    const t0 = performance.now();
    await new Promise((resolve) => {
      const tick = (now) => {
        frames++;
        worst = Math.max(worst, now - last);
        last = now;
        if (now - t0 < ms) requestAnimationFrame(tick);
        else resolve();
      };
      requestAnimationFrame(tick);
    });
    const wall = performance.now() - t0;
    const perf = document.querySelector("#perf");
    return { fps: (frames * 1000) / wall, worst, simSpeed: (clock() - c0) / wall, status: perf.textContent, engine: perf.dataset.engineMs, refresh: perf.dataset.refreshMs };
  }, seconds * 1000);
  console.log(`64 partitions, parallelism 16, 100x, ${rate} records/s per partition (${64 * rate * 100} records per wall second):`);
  console.log(`  ${r.fps.toFixed(1)} frames/s over ${seconds} s, worst frame ${r.worst.toFixed(1)} ms, simulated speed reached ${r.simSpeed.toFixed(1)}x, status "${r.status}"`);
  console.log(`  per frame: engine ${r.engine} ms, snapshot + views ${r.refresh} ms (the rest is the browser's layout and paint); machine load ${(await import("node:os")).loadavg()[0].toFixed(2)}`);
  if (problems.length) console.log(problems.join("\n"));
  await context.close();
} finally {
  await browser.close();
  server.close();
}
