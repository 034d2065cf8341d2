// End-to-end smoke test: serves the Trunk bundle in dist/ on 127.0.0.1 and loads it in
// Debian's headless Chromium through playwright-core.
// Run from the repo root after `trunk build --release`:  node --test tests/e2e/
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..", "..");
const DIST = path.join(ROOT, "dist");
const ARTIFACTS = path.join(ROOT, "artifacts", "e2e");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
// As root on this machine Chromium needs --no-sandbox; the networking flags stop it from
// phoning home (the closed network refuses those connections).
const CHROMIUM_ARGS = [
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

/** A tiny static file server for dist/ (no directory listing, no path traversal). */
function startServer(root) {
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      res.writeHead(400).end();
      return;
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
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

let server;
let browser;
let baseUrl;

before(async () => {
  assert.ok(
    fs.existsSync(path.join(DIST, "index.html")),
    `${DIST}/index.html is missing: run 'trunk build --release' first`,
  );
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/setup.sh`);
  server = await startServer(DIST);
  baseUrl = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

/** Opens a page that records every console error, page error and failed request. */
async function openPage(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 700 }, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("requestfailed", (req) =>
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`),
  );
  page.on("response", (resp) => {
    if (resp.status() >= 400) problems.push(`HTTP ${resp.status()}: ${resp.url()}`);
  });
  return { context, page, problems };
}

test("home page renders the App without errors", async () => {
  const { context, page, problems } = await openPage({ colorScheme: "light" });
  try {
    const response = await page.goto(baseUrl, { waitUntil: "load" });
    assert.equal(response.status(), 200);
    const heading = page.locator("h1");
    await heading.waitFor({ state: "visible", timeout: 15_000 });
    assert.equal((await heading.textContent()).trim(), "Watermark Playground");
    assert.equal(await page.title(), "Watermark Playground");

    const lead = (await page.locator("main p.lead").textContent()).replace(/\s+/g, " ");
    assert.match(lead, /faithful simulator of Apache Flink's event-time machinery/);
    assert.match(lead, /StatusWatermarkValve/);
    assert.equal(await page.locator("main code").textContent(), "wmp");

    // Mounted exactly once, and the wasm module's exports were handed to the page.
    assert.equal(await page.locator("h1").count(), 1);
    assert.equal(await page.evaluate(() => typeof window.wasmBindings), "object");

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, "home.png"), fullPage: true });
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
});

test("dark colour scheme is applied via prefers-color-scheme", async () => {
  const background = async (colorScheme) => {
    const { context, page, problems } = await openPage({ colorScheme });
    try {
      await page.goto(baseUrl, { waitUntil: "load" });
      await page.locator("h1").waitFor({ state: "visible", timeout: 15_000 });
      if (colorScheme === "dark") {
        fs.mkdirSync(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: path.join(ARTIFACTS, "home-dark.png"), fullPage: true });
      }
      assert.deepEqual(problems, [], problems.join("\n"));
      return await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    } finally {
      await context.close();
    }
  };
  const light = await background("light");
  const dark = await background("dark");
  assert.notEqual(light, dark, "body background should differ between light and dark");
  // The dark background is dark: every RGB channel below 64.
  const channels = dark.match(/\d+/g).slice(0, 3).map(Number);
  assert.ok(channels.every((c) => c < 64), `dark background is not dark: ${dark}`);
});
