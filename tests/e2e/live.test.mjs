// The live link against a fake JobManager: a tiny Node HTTP server replays the answers recorded
// from a real Flink 2.3 MiniCluster (tests/fixtures/live/running.json, whose split-1 went quiet)
// with `Access-Control-Allow-Origin: *`. The page connects, lists the job, polls it (every 2 s),
// names source subtask 1 as the holder of the minimum and draws the job with the playground's
// graph and tables (split ids, vertex names, watermarks, the holder marked), Stop stops the
// requests, "Turn into a scenario" loads a 2-partition scenario. Variants: no CORS header, 404 everywhere, garbage, an
// unreachable host, each with its message; and the offline paste of the bundle (and of a
// cancelled job's); a back-pressured job's bundle (pressure.json): the HIGH badge, and the WHY
// panel of a node clicked, then of one reached with the keyboard.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { ROOT, serveAndLaunch, openPage, gotoApp } from "./lib.mjs";

const FIX = path.join(ROOT, "tests", "fixtures", "live");
const RUNNING = fs.readFileSync(path.join(FIX, "running.json"), "utf8");
const PRESSURE = fs.readFileSync(path.join(FIX, "pressure.json"), "utf8");
const CANCELLED = fs.readFileSync(path.join(FIX, "cancelled.json"), "utf8");
const NOT_FOUND = JSON.parse(fs.readFileSync(path.join(FIX, "not_found.json"), "utf8"));
const bundle = JSON.parse(RUNNING);

/** A fake JobManager in `mode` ok | nocors | 404 | garbage; counts the job-details requests. */
function fakeJobManager(mode) {
  const seen = { details: 0 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const cors = mode === "nocors" ? {} : { "access-control-allow-origin": "*" };
    const send = (status, body, type = "application/json; charset=UTF-8") =>
      res.writeHead(status, { "content-type": type, ...cors }).end(typeof body === "string" ? body : JSON.stringify(body));
    if (mode === "404") return send(404, NOT_FOUND.body);
    if (mode === "garbage") return send(200, "<html><body>Welcome to nginx!</body></html>", "text/html");
    const p = url.pathname;
    if (/^\/jobs\/[0-9a-f]{32}$/.test(p)) seen.details++;
    const answer = bundle[p];
    if (answer === undefined) return send(404, { errors: [`Not found: ${p}`] });
    if (p.endsWith("/metrics")) {
      const get = url.searchParams.get("get");
      if (get === null) return send(200, answer.map((m) => ({ id: m.id })));
      const names = new Set(get.split(","));
      return send(200, answer.filter((m) => names.has(m.id)));
    }
    return send(200, answer);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, seen, url: `http://127.0.0.1:${server.address().port}` })));
}

const app = serveAndLaunch({ before, after });

async function openLive(t) {
  const { context, page } = await openPage(app.browser, { viewport: { width: 1366, height: 900 } });
  t.after(() => context.close());
  await gotoApp(page, app.baseUrl);
  await page.locator("#live summary").first().click();
  return page;
}

async function connect(page, url) {
  await page.fill("#live-url", url);
  await page.click("#live-connect");
}

/** The live card's graph and tables for the recorded job (split-1 on source subtask 1 quiet). */
async function checkLiveGraph(page) {
  const g = page.locator("#live-graph");
  await g.locator("svg.graph .node.part").first().waitFor({ timeout: 10_000 });
  assert.match(await page.locator("#live-banner").textContent(), /^LIVE: live-fixture: one quiet split/);
  assert.equal(await g.locator("svg.graph .node.part").count(), 2);
  assert.equal(await g.locator("svg.graph .node.src").count(), 2);
  assert.equal(await g.locator("svg.graph .node.op").count(), 2);
  assert.match(await g.locator("svg.graph .col-heads").textContent(), /Window\(TumblingEventTimeW… · HASH/);
  const src = bundle[Object.keys(bundle).find((k) => /\/vertices\/bc76[0-9a-f]+\/metrics$/.test(k))];
  const low = src.find((m) => m.id === "1.Source__events.split.split-1.watermark.currentWatermark").value;
  const high = src.find((m) => m.id === "0.Source__events.split.split-0.watermark.currentWatermark").value;
  assert.match(await g.locator("svg.graph .node.part.holding text.mono").textContent(), /^split-1 active/);
  assert.match(await g.locator("svg.graph .node.src.holding").textContent(), new RegExp(`src 1 · 1 split.*${low}`));
  assert.match(await g.locator("svg.graph [data-source='0']").textContent(), new RegExp(high));
  assert.match(await g.locator("svg.graph .node.op.focus").textContent(), new RegExp(`win 0.*${low}`));
  assert.equal(await g.locator(".graph-edges.marked path.culprit").count(), 2);
  assert.match(await page.locator("#live-splits-table tr.holding").textContent(), /^split-1 ◀ min/);
  assert.match(await page.locator("#live-channels-table tr.holding").textContent(), /^ch1 ◀ min/);
}

test("connects, polls, names the quiet subtask, stops, turns into a scenario", async (t) => {
  const jm = await fakeJobManager("ok");
  t.after(() => jm.server.close());
  const page = await openLive(t);
  await connect(page, jm.url);
  await page.locator(".live-job").first().waitFor({ timeout: 10_000 });
  assert.match(await page.locator(".live-jobs").textContent(), /live-fixture: one quiet split/);
  await page.locator(".live-job").first().click();
  await page.locator("#live-explain li").first().waitFor({ timeout: 10_000 });
  assert.match(await page.locator("#live-explain").textContent(), /"Source: events" subtask 1 holds the watermark/);
  assert.match(await page.locator("#live-explain").textContent(), /held back by it/);
  assert.match(await page.locator("#live-status").textContent(), /polling · last update \d\d:\d\d:\d\d UTC/);
  assert.match(await page.locator("#live tr.holding").first().textContent(), /1 ◀ min/);
  // The real job in the playground's own graph: its split ids, source subtasks and the window
  // vertex (named in the column head) with the watermarks Flink reported; the quiet split-1 and
  // source subtask 1 carry the "holds the watermark" mark, window subtask 0 is the one explained.
  await checkLiveGraph(page);
  // It polls again, then Stop stops the requests.
  const t0 = Date.now();
  while (jm.seen.details < 2 && Date.now() - t0 < 8_000) await new Promise((r) => setTimeout(r, 100));
  assert.ok(jm.seen.details >= 2, `polled ${jm.seen.details} times`);
  await page.click("#live-stop");
  assert.match(await page.locator("#live-status").textContent(), /stopped at/);
  const after = jm.seen.details;
  await new Promise((r) => setTimeout(r, 3_000));
  assert.ok(jm.seen.details <= after + 1, `no polling after Stop: ${after} then ${jm.seen.details}`);
  // Turn into a scenario: 2 partitions, 2 source and 2 window subtasks.
  await page.click("#live-scenario");
  await page.waitForFunction(() => document.querySelectorAll(".graph-row svg.graph .node.part").length === 2, null, { timeout: 10_000 });
  assert.equal(await page.locator(".graph-row svg.graph .node.op").count(), 2);
  // The new scenario's graph, far above the card, takes the focus (it stayed on the button).
  await page.waitForFunction(() => document.activeElement?.matches(".graph-row svg.graph"), null, { timeout: 5_000 });
});

for (const [mode, pattern] of [
  ["nocors", /CORS.*web\.access-control-allow-origin must allow this origin/],
  ["404", /404 Not Found.*Flink says: Job 0+ not found/],
  ["garbage", /not JSON/],
]) {
  test(`a JobManager answering ${mode} gets a clear message`, async (t) => {
    const jm = await fakeJobManager(mode);
    t.after(() => jm.server.close());
    const page = await openLive(t);
    await connect(page, jm.url);
    await page.locator("#live-error").waitFor({ timeout: 15_000 });
    assert.match(await page.locator("#live-error").textContent(), pattern);
  });
}

test("an unreachable host gets a clear message", async (t) => {
  const jm = await fakeJobManager("ok");
  const url = jm.url;
  await new Promise((r) => jm.server.close(r));
  const page = await openLive(t);
  await connect(page, url);
  await page.locator("#live-error").waitFor({ timeout: 15_000 });
  assert.match(await page.locator("#live-error").textContent(), /Cannot reach .*no answer/);
});

test("offline: a pasted bundle is explained; a cancelled job says so", async (t) => {
  const page = await openLive(t);
  await page.locator(".live-offline summary").click();
  // The script that records a bundle is served beside the page, where the card links it.
  const script = await page.locator('.live-offline a[download="flink-bundle.sh"]').evaluate(async (a) => (await fetch(a.href)).text());
  assert.match(script, /^#!\/usr\/bin\/env bash\n# usage: flink-bundle.sh/);
  await page.fill("#live-bundle", RUNNING);
  await page.click("#live-read");
  await page.locator("#live-explain li").first().waitFor({ timeout: 10_000 });
  assert.match(await page.locator("#live-explain").textContent(), /subtask 1 holds the watermark/);
  assert.match(await page.locator("#live-status").textContent(), /offline bundle/);
  await checkLiveGraph(page);
  // The window vertex's late records (numLateRecordsDropped, 0 in the recording), not the source's.
  const heads = await page.locator("table.live-vertex").evaluateAll((ts) => ts.map((t) => [...t.querySelectorAll("th[scope=col]")].map((h) => h.textContent)));
  assert.deepEqual(heads.map((h) => h.includes("Late dropped")), [false, true]);
  const late = await page.locator("table.live-vertex").last().locator("tbody tr td:nth-last-child(1)").allTextContents();
  assert.deepEqual(late, ["0", "0"]);
  await page.fill("#live-bundle", CANCELLED);
  await page.click("#live-read");
  await page.locator("#live-error").waitFor({ timeout: 10_000 });
  assert.match(await page.locator("#live-error").textContent(), /is CANCELED in this bundle/);
  assert.doesNotMatch(await page.locator("#live-error").textContent(), /polling|URL/, "a paste has no URL and nothing polls");
  assert.equal(await page.locator("#live-explain li").count(), 0, "the previous job's drawing is gone");
  await page.fill("#live-bundle", "{\"/jobs/overview\": ");
  await page.click("#live-read");
  await page.waitForFunction(() => /The pasted text is not JSON/.test(document.querySelector("#live-error")?.textContent ?? ""));
  await page.fill("#live-bundle", "  ");
  await page.click("#live-read");
  await page.waitForFunction(() => /Paste a bundle first/.test(document.querySelector("#live-error")?.textContent ?? ""));
});

test("offline: a back-pressured job is coloured as Flink's Web UI and a node's WHY panel says what its metrics say", async (t) => {
  const page = await openLive(t);
  await page.locator(".live-offline summary").click();
  await page.fill("#live-bundle", PRESSURE);
  await page.click("#live-read");
  const badge = page.locator("#live-graph [data-source='0'] .bp-badge");
  await badge.waitFor({ timeout: 10_000 });
  assert.equal(await badge.getAttribute("data-bp-level"), "HIGH");
  assert.equal(await page.locator("#live-graph [data-source='1'] .bp-badge").getAttribute("data-bp-level"), "OK");
  assert.ok((await page.locator("#live-graph .graph-edges.pressure path.bp-high").count()) >= 1);
  assert.match(await page.locator("#live-why").textContent(), /^Click a split/);
  await page.locator("#live-graph svg.graph [data-source='0']").click();
  await page.waitForFunction(() => /Back-pressure: HIGH, 1000 ms\/s/.test(document.querySelector("#live-why")?.textContent ?? ""));
  assert.match(await page.locator("#live-why h3").textContent(), /^WHY · "Source: events" subtask 0/);
  // Keyboard only: focus the keyed subtask 0 node and press Enter.
  await page.locator("#live-graph svg.graph [data-operator='0']").focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /busyTimeMsPerSecond/.test(document.querySelector("#live-why")?.textContent ?? ""));
  assert.match(await page.locator("#live-why h3").textContent(), /^WHY · "Slow/);
});

test("#live opens the card and brings it into view (docs/LIVE.md)", async (t) => {
  const { context, page } = await openPage(app.browser, { viewport: { width: 1366, height: 900 } });
  t.after(() => context.close());
  await gotoApp(page, app.baseUrl, "live");
  await page.waitForFunction(() => document.querySelector("#live details")?.open === true);
  await page.waitForFunction(() => {
    const r = document.querySelector("#live").getBoundingClientRect();
    return r.top < innerHeight && r.bottom > 0;
  }, null, { timeout: 5_000 });
});
