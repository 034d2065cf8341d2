// Takes screenshots of the main states at 1280×800 and 1920×1080 into artifacts/ui/.
// Run after `trunk build --release`:  node tests/e2e/screens.mjs
import path from "node:path";
import { startServer, launch, openPage, gotoApp, choosePreset, playUntil, artifactsDir } from "./lib.mjs";

const out = artifactsDir("ui");
const server = await startServer();
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const shots = [];
try {
  for (const [w, h] of [[1280, 800], [1920, 1080]]) {
    for (const scheme of ["light", "dark"]) {
      const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h }, colorScheme: scheme });
      await gotoApp(page, base);
      await playUntil(page, 20 * 60_000, 1000);
      const name = `seed001-${w}x${h}-${scheme}.png`;
      await page.screenshot({ path: path.join(out, name) });
      shots.push(name);
      if (scheme === "light") {
        await page.screenshot({ path: path.join(out, `seed001-${w}x${h}-full.png`), fullPage: true });
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
