// Takes screenshots of the main states at 1280×800 and 1920×1080 (or the sizes given as
// arguments, e.g. `390x844 1440x900`) into artifacts/ui/, with the WHY panel's advisor and lag
// tabs and the embed layout. Run after `trunk build --release`:  node tests/e2e/screens.mjs
// With `--shapes`: the presets for two inputs, chained watermark operators and early firings, and the interval
// join scenario, each played a minute (the viewport and the whole page), instead. Both modes also take the
// flow-control states: back-pressure (preset backpressure-never-idle, before and after its fix, with the
// metrics panel open) and watermark alignment (tests/scenarios/aligned_backfill.json). With `--flow`:
// the checkpoint / failure / restore presets (restart-stalls-until-idle, backfill-taskmanager-lost,
// backfill-aligned with TaskManager 0 killed), each at its point, with the state-size card.
// With `--sizes`: seed-001 (at 20 min, then after its fix), the 2-partition late-data preset and the
// embed at every size given (default: 1440x900 1280x720 1024x768 720x420 360x640 2560x1440), the first
// screen of each, and seed-001 with the controls drawer open (issue 14's layout at every size).
import fs from "node:fs";
import path from "node:path";
import { startServer, launch, openPage, gotoApp, choosePreset, playUntil, artifactsDir, ROOT } from "./lib.mjs";

const out = artifactsDir("ui");
const server = await startServer();
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const shots = [];
const shapes = process.argv.includes("--shapes");
const flow = process.argv.includes("--flow");
const sized = process.argv.includes("--sizes");
try {
  const sizes = process.argv.slice(2).filter((a) => !a.startsWith("--")).map((a) => a.split("x").map(Number));
  const all = [[1440, 900], [1280, 720], [1024, 768], [720, 420], [360, 640], [2560, 1440]];
  for (const [w, h] of sizes.length ? sizes : sized ? all : [[1280, 800], [1920, 1080]]) {
    if (sized) {
      await sizeShots(w, h);
      continue;
    }
    if (shapes) {
      await shapeShots(w, h);
      continue;
    }
    if (flow) {
      await restoreShots(w, h);
      continue;
    }
    for (const scheme of ["light", "dark"]) {
      const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h }, colorScheme: scheme });
      await gotoApp(page, base);
      await playUntil(page, 20 * 60_000, 1000);
      const name = `seed001-${w}x${h}-${scheme}.png`;
      await page.screenshot({ path: path.join(out, name) });
      shots.push(name);
      if (scheme === "light") {
        await page.screenshot({ path: path.join(out, `seed001-${w}x${h}-full.png`), fullPage: true });
        await diagnosisTabs(page, `${w}x${h}`);
        await choosePreset(page, "late-data");
        await playUntil(page, 40_000, 30);
        await page.click("text=Allowed lateness 10 s");
        await playUntil(page, 70_000, 30);
        await page.screenshot({ path: path.join(out, `late-${w}x${h}.png`), fullPage: true });
        await flowShots(page, w, h);
      }
      if (problems.length) console.log(problems.join("\n"));
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
console.log("screenshots:", shots.join(", "), "in", out);

/** Issue 14's sizes: the first screen of seed-001 (stalled, then fixed), late-data, the embed. */
async function sizeShots(w, h) {
  const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h } });
  const shot = async (name) => {
    await page.screenshot({ path: path.join(out, `${name}-${w}x${h}.png`) });
    shots.push(`${name}-${w}x${h}.png`);
  };
  await page.goto(base + "?preset=seed-001-heartbeat", { waitUntil: "load" });
  await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
  await playUntil(page, 20 * 60_000, 1000);
  await shot("size-seed001");
  await page.click(".why .btn.fix");
  await playUntil(page, 3 * 60_000, 60);
  await page.waitForTimeout(800);
  await shot("size-seed001-fixed");
  await page.evaluate(() => window.scrollTo(0, 0));
  if ((await page.getAttribute("#btn-controls", "aria-expanded")) !== "true") await page.click("#btn-controls");
  await page.waitForTimeout(200);
  await shot("size-seed001-controls");
  await page.click("#btn-controls");
  await choosePreset(page, "late-data");
  await playUntil(page, 60_000, 30);
  await shot("size-late");
  await page.goto(base + "?embed=1&preset=seed-001-heartbeat", { waitUntil: "load" });
  await page.locator(".embed svg.graph.compact .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
  await playUntil(page, 20 * 60_000, 1000);
  await shot("size-embed");
  await page.click(".embed-why-text");
  await shot("size-embed-why");
  if (problems.length) console.log(problems.join("\n"));
  await context.close();
}

/** The WHY panel's advisor and lag tabs (with an alert threshold), then the embed layout. */
async function diagnosisTabs(page, size) {
  const why = page.locator(".why");
  await page.click("#why-tab-advisor");
  await why.screenshot({ path: path.join(out, `why-advisor-${size}.png`) });
  await page.click("#why-tab-lag");
  await page.fill("#f-lag-alert", "5 min");
  await page.press("#f-lag-alert", "Enter");
  await why.screenshot({ path: path.join(out, `why-lag-${size}.png`) });
  await page.click("#why-tab-why");
  await why.screenshot({ path: path.join(out, `why-findings-${size}.png`) });
  const url = page.url().split("#")[0];
  const embed = await page.context().newPage();
  await embed.setViewportSize({ width: 720, height: 420 });
  await embed.goto(url + "?embed=1&preset=seed-001-heartbeat&speed=300");
  await embed.locator(".embed-why").waitFor();
  await embed.click("#btn-play");
  await embed.waitForTimeout(1500);
  await embed.click("#btn-play");
  await embed.screenshot({ path: path.join(out, `embed-${size}.png`) });
  await embed.close();
}

/** Presets 10–13 and the interval join scenario at one size, after a minute of play. */
async function shapeShots(w, h) {
  const join = JSON.parse(fs.readFileSync(path.join(ROOT, "tests/scenarios/interval_join_orders_payments.json"), "utf8"));
  const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h } });
  await gotoApp(page, base);
  for (const id of ["quiet-side-join", "union-idle-stream", "midstream-assigner", "sql-idle-reactivates", "continuous-trigger", "backpressure-never-idle", "interval-join"]) {
    if (id === "interval-join") {
      await page.goto(base + "#scenario=" + encodeURIComponent(JSON.stringify(join)));
      await page.waitForFunction(() => document.querySelector("svg.graph .col-heads")?.textContent.includes("INTERVAL JOIN"));
    } else {
      await choosePreset(page, id);
    }
    await playUntil(page, 60_000, 30);
    for (const [suffix, fullPage] of [["", false], ["-full", true]]) {
      const name = `${id}-${w}x${h}${suffix}.png`;
      await page.screenshot({ path: path.join(out, name), fullPage });
      shots.push(name);
    }
  }
  await flowShots(page, w, h);
  if (problems.length) console.log(problems.join("\n"));
  await context.close();
}

/** Back-pressure (HIGH, then fixed) with the metrics panel, and watermark alignment (paused splits). */
async function flowShots(page, w, h) {
  const shot = async (name, fullPage = false) => {
    await page.screenshot({ path: path.join(out, `${name}-${w}x${h}.png`), fullPage });
    shots.push(`${name}-${w}x${h}.png`);
  };
  await choosePreset(page, "backpressure-never-idle");
  await playUntil(page, 120_000, 30);
  await shot("backpressure-high");
  await page.locator(".graph-card").screenshot({ path: path.join(out, `backpressure-graph-${w}x${h}.png`) });
  await page.click(".metrics-card summary");
  await page.locator(".metrics-card").screenshot({ path: path.join(out, `backpressure-metrics-${w}x${h}.png`) });
  await page.click(".metrics-card summary");
  await page.click(".preset-actions button:has-text('Fix: window capacity')");
  await playUntil(page, 180_000, 30);
  await shot("backpressure-fixed");
  const aligned = JSON.parse(fs.readFileSync(path.join(ROOT, "tests/scenarios/aligned_backfill.json"), "utf8"));
  await page.goto(base + "#scenario=" + encodeURIComponent(JSON.stringify(aligned)));
  await page.waitForFunction(() => document.querySelector(".preset-card h2")?.textContent.includes("Aligned backfill"));
  await playUntil(page, 16_000, 5);
  await shot("aligned-backfill");
  await page.locator(".graph-card").screenshot({ path: path.join(out, `aligned-graph-${w}x${h}.png`) });
  // The controls' flow section, with a refused restart naming the scenario field.
  if (!(await page.locator(".controls-drawer").isVisible())) await page.keyboard.press("c");
  const flow = page.locator("section[aria-labelledby='ctl-flow']");
  await flow.scrollIntoViewIfNeeded();
  await page.fill("#f-align-group", "");
  await page.click("#btn-apply-flow");
  await flow.screenshot({ path: path.join(out, `controls-flow-${w}x${h}.png`) });
  await page.keyboard.press("Escape");
}

/** The checkpoint / failure / restore presets at one size, each at its point (issue 13). */
async function restoreShots(w, h) {
  const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h } });
  await gotoApp(page, base);
  const shot = async (name) => {
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const [suffix, fullPage] of [["", false], ["-full", true]]) {
      await page.screenshot({ path: path.join(out, `${name}-${w}x${h}${suffix}.png`), fullPage });
      shots.push(`${name}-${w}x${h}${suffix}.png`);
    }
    await page.locator(".state-card").screenshot({ path: path.join(out, `${name}-${w}x${h}-state.png`) });
  };
  await choosePreset(page, "restart-stalls-until-idle");
  await playUntil(page, 121_000, 10);
  await shot("restart-stalls-restarting");
  await playUntil(page, 135_000, 10);
  await shot("restart-stalls-stalled");
  await choosePreset(page, "backfill-taskmanager-lost");
  await playUntil(page, 150_000, 60);
  await shot("backfill-taskmanager-lost");
  await choosePreset(page, "backfill-aligned");
  await playUntil(page, 120_000, 60);
  await page.click("#kill-tm-0");
  await playUntil(page, 150_000, 60);
  await shot("backfill-aligned-killed");
  if (problems.length) console.log(problems.join("\n"));
  await context.close();
}
