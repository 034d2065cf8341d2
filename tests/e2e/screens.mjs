// Takes screenshots of the main states at 1280×800 and 1920×1080 (or the sizes given as
// arguments, e.g. `390x844 1440x900`) into artifacts/ui/, with the WHY panel's advisor and lag
// tabs and the embed layout. Run after `trunk build --release`:  node tests/e2e/screens.mjs
import path from "node:path";
import { startServer, launch, openPage, gotoApp, choosePreset, playUntil, artifactsDir } from "./lib.mjs";

const out = artifactsDir("ui");
const server = await startServer();
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const shots = [];
try {
  const sizes = process.argv.slice(2).map((a) => a.split("x").map(Number));
  for (const [w, h] of sizes.length ? sizes : [[1280, 800], [1920, 1080]]) {
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
