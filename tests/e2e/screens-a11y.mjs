// Screenshots of what keyboard users see (issue 14), light and dark, into artifacts/ui/: the
// focus ring on the header's buttons, on a fix in the WHY panel and on a scrolling table, the
// help dialog, and the timeline's table. Run after `trunk build --release`:
//   node tests/e2e/screens-a11y.mjs [1440x900]
import path from "node:path";
import { startServer, launch, openPage, gotoApp, playUntil, artifactsDir } from "./lib.mjs";

const out = artifactsDir("ui");
const server = await startServer();
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const [w, h] = (process.argv[2] ?? "1440x900").split("x").map(Number);

/** Presses Tab until the focused element matches `sel`. */
async function tabTo(page, sel, max = 250) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s), sel)) return;
  }
  throw new Error(`${sel}: not reached by Tab`);
}

/** A screenshot of the box around the focused element (with some margin). */
async function shotFocused(page, name, pad = 60) {
  const b = await page.evaluate(() => {
    const r = document.activeElement.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  const x = Math.max(0, b.x - pad);
  const y = Math.max(0, b.y - pad);
  await page.screenshot({ path: path.join(out, name), clip: { x, y, width: Math.min(w - x, b.width + 2 * pad + 200), height: Math.min(h - y, b.height + 2 * pad) } });
  console.log(name);
}

try {
  for (const scheme of ["light", "dark"]) {
    const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h }, colorScheme: scheme });
    await gotoApp(page, base, "preset=seed-001-heartbeat");
    await playUntil(page, 20 * 60_000, 1000);
    await page.evaluate(() => document.activeElement?.blur());
    await tabTo(page, "#btn-play");
    await shotFocused(page, `a11y-focus-play-${w}x${h}-${scheme}.png`);
    await tabTo(page, "#btn-controls");
    await shotFocused(page, `a11y-focus-controls-${w}x${h}-${scheme}.png`);
    await tabTo(page, ".why .finding .btn.fix");
    await shotFocused(page, `a11y-focus-fix-${w}x${h}-${scheme}.png`, 120);
    await tabTo(page, ".tl-table summary");
    await page.keyboard.press("Enter");
    await shotFocused(page, `a11y-focus-timeline-table-${w}x${h}-${scheme}.png`, 20);
    await page.screenshot({ path: path.join(out, `a11y-timeline-table-${w}x${h}-${scheme}.png`), fullPage: true });
    await page.keyboard.press("?");
    await page.locator("[role=dialog]").waitFor({ state: "visible" });
    await page.keyboard.press("Tab");
    await page.screenshot({ path: path.join(out, `a11y-help-${w}x${h}-${scheme}.png`) });
    console.log(`a11y-help-${w}x${h}-${scheme}.png`);
    if (problems.length) console.log(problems.join("\n"));
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
