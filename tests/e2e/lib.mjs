// Shared helpers for the end-to-end tests, the screenshot script and the FPS bench: a tiny
// static server for dist/ on 127.0.0.1 and Debian's headless Chromium via playwright-core.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, "..", "..");
export const DIST = path.join(ROOT, "dist");
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
// As root on this machine Chromium needs --no-sandbox; the networking flags stop it from
// phoning home (the closed network refuses those connections).
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * A tiny static file server for dist/ (no directory listing, no path traversal). With a
 * `prefix` such as "/docs/playground", it serves the bundle only under that folder, the way
 * a docs site hosts it, and answers 404 everywhere else. `headersFor(pathname, req)` adds
 * response headers (a Content-Security-Policy for a test's page).
 */
export function startServer(root = DIST, prefix = "", headersFor = () => ({})) {
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (prefix) {
      if (!pathname.startsWith(prefix + "/")) {
        res.writeHead(404, { "content-type": "text/plain" }).end("outside the sub-path");
        return;
      }
      pathname = pathname.slice(prefix.length);
    }
    if (pathname.endsWith("/")) pathname += "index.html";
    const file = path.resolve(root, "." + pathname);
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const type = MIME[path.extname(file).toLowerCase()] || "application/octet-stream";
      res.writeHead(200, { "content-type": type, "cache-control": "no-store", ...headersFor(pathname, req) });
      res.end(req.method === "HEAD" ? undefined : body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** Opens a page that records every console error, page error and failed request. */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("requestfailed", (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
  page.on("response", (resp) => {
    if (resp.status() >= 400) problems.push(`HTTP ${resp.status()}: ${resp.url()}`);
  });
  return { context, page, problems };
}

/** Opens a page at `viewport`, runs `fn(page)` on it, and checks that it logged no problem. */
export async function onPage(browser, viewport, fn) {
  const { context, page, problems } = await openPage(browser, { viewport });
  try {
    await fn(page);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
}

/** Opens the playground at 1366×900 on `query`, runs `fn(page)` once its graph is drawn, and
 * checks that the page logged no problem (`env`: what `serveAndLaunch` returned). */
export const onGraph = (env, query, fn) =>
  onPage(env.browser, { width: 1366, height: 900 }, async (page) => {
    await page.goto(env.baseUrl + query, { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    await fn(page);
  });

/**
 * Opens the playground at 1600×1000 (`options`: the browser context's, a viewport or colour
 * scheme of its own) on its first preset, runs `fn(page, context)` once its graph is drawn, and
 * checks that the page logged no problem but a refused clipboard (`env`: what `serveAndLaunch`
 * returned). The controls tests' page.
 */
export async function onApp(env, fn, options = {}) {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1600, height: 1000 }, ...options });
  try {
    await gotoApp(page, env.baseUrl);
    await fn(page, context);
    const real = problems.filter((p) => !p.includes("clipboard"));
    assert.deepEqual(real, [], real.join("\n"));
  } finally {
    await context.close();
  }
}

/** Types `value` into the field `id` (a selector) and commits it with Enter. */
export async function setField(page, id, value) {
  await page.fill(id, value);
  await page.press(id, "Enter");
}

/** Loads the playground (optionally with a #hash) and waits until the graph is drawn. */
export async function gotoApp(page, baseUrl, hash = "") {
  await page.goto(baseUrl + (hash ? "#" + hash : ""), { waitUntil: "load" });
  await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
}

/** Opens the controls drawer (if closed) and waits until it shows. */
export async function openControls(page) {
  if ((await page.locator("#btn-controls").getAttribute("aria-expanded")) !== "true") await page.click("#btn-controls");
  await page.locator("#controls").waitFor({ state: "visible" });
}

/** Chooses a preset in the header's picker. */
export async function choosePreset(page, id) {
  await page.selectOption("#preset", id);
  await page.waitForFunction((pid) => document.querySelector("#preset")?.value === pid, id);
}

/** The simulated processing time since the start, in ms, from the header clock. */
export async function clockMs(page) {
  const t = (await page.locator("#clock").textContent()).trim();
  const [h, m, s] = t.split(":");
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000;
}

/** Plays at `speed` until the clock passes `ms` of processing time, then pauses. */
export async function playUntil(page, ms, speed, timeout = 60_000) {
  await page.selectOption("#speed", String(speed));
  if ((await page.locator("#btn-play").getAttribute("aria-pressed")) !== "true") await page.click("#btn-play");
  await page.waitForFunction(
    (target) => {
      const t = document.querySelector("#clock")?.textContent?.trim() ?? "0:0:0";
      const [h, m, s] = t.split(":");
      return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 >= target;
    },
    ms,
    { timeout, polling: 50 },
  );
  if ((await page.locator("#btn-play").getAttribute("aria-pressed")) === "true") await page.click("#btn-play");
}

/**
 * Starts recording what the WHY panel's live region says (with what it says now): it clears
 * itself 7 s after each announcement (src/web/explain.rs, WhyAnnouncer), so a test reads what
 * was said with `announced(page)` (one announcement a line), not what is there when it looks.
 */
export async function recordAnnouncements(page) {
  await page.evaluate(() => {
    window.__said = [];
    const hear = () => {
      for (const el of document.querySelectorAll("[data-testid=why-live]")) {
        const t = el.textContent;
        if (t && window.__said.at(-1) !== t) window.__said.push(t);
      }
    };
    hear();
    new MutationObserver(hear).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** What the live region said since `recordAnnouncements(page)`, one announcement a line. */
export const announced = (page) => page.evaluate(() => window.__said.join("\n"));

export function artifactsDir(sub) {
  const dir = path.join(ROOT, "artifacts", sub);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * For a test file: starts the dist/ server and Chromium before its tests and stops them after.
 * Returns an object whose `baseUrl` and `browser` are set once the tests run.
 */
export function serveAndLaunch(hooks, headersFor = undefined) {
  const env = { server: null, browser: null, baseUrl: "" };
  hooks.before(async () => {
    env.server = await startServer(DIST, "", headersFor);
    env.baseUrl = `http://127.0.0.1:${env.server.address().port}/`;
    env.browser = await launch();
  });
  hooks.after(async () => {
    await env.browser?.close();
    await new Promise((r) => (env.server ? env.server.close(r) : r()));
  });
  return env;
}
