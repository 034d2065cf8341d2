// The job shapes beyond one source, end to end: each of the four presets for two inputs and
// chained watermark operators (quiet side of a connect, union with a stopped stream, a mid-stream
// assigner, SQL's watermark operator) and an interval join. For each: the graph shows the shape
// (two topic bands, the chained operators, the two-input ports or the union's valve), the story
// shows once it has played (the culprit named in the WHY panel, marked in the graph), the
// preset's fix step is applied, and its outcome checked. Screenshots go to artifacts/e2e/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { serveAndLaunch, openPage, gotoApp, choosePreset, playUntil, artifactsDir, ROOT } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const shots = artifactsDir("e2e");

const num = (t) => Number(t.trim().split(" ")[0].replace(/,/g, ""));
const results = async (page) => num(await page.locator("#emissions-count").textContent());
const why = async (page) => (await page.locator(".why").textContent()).replace(/\s+/g, " ");
const step = (page, label) => page.locator(".preset-actions button", { hasText: label }).first().click();
const attr = (page, name) => page.locator(`.why [${name}]`).first().getAttribute(name);
const bands = async (page) => (await page.locator("svg.graph .band-heads text").allTextContents()).map((t) => t.split(" · ")[0]);

async function withPage(fn, viewport = { width: 1440, height: 900 }) {
  const { context, page, problems } = await openPage(env.browser, { viewport });
  try {
    await gotoApp(page, env.baseUrl);
    await fn(page);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
}

/** "1.4 s", "900 ms", "2.5 min" → ms. */
function parseDur(t) {
  const m = t.trim().match(/^(-?[\d.]+)\s*(ms|s|min|h)$/);
  if (!m) return NaN;
  return Number(m[1]) * { ms: 1, s: 1000, min: 60_000, h: 3_600_000 }[m[2]];
}

/** The emissions table's rows as {fired (ms since the start), delay (ms)}. */
async function emissionRows(page) {
  return page.$$eval("#emissions-table tbody tr", (trs) =>
    trs.map((tr) => {
      const c = [...tr.querySelectorAll("td")].map((td) => td.textContent.trim());
      return { fired: c[0], delay: c[6] };
    }),
  ).then((rows) =>
    rows.map((r) => {
      const [h, m, s] = r.fired.split(":").map(Number);
      return { fired: ((h * 60 + m) * 60 + s) * 1000, delay: parseDur(r.delay) };
    }),
  );
}

test("quiet side of a connect: the rates input holds both window subtasks at No Watermark; withIdleness lets them fire", async () => {
  await withPage(async (page) => {
    await choosePreset(page, "quiet-side-join");
    assert.deepEqual(await bands(page), ["orders", "rates"], "a band per topic");
    assert.equal(await page.locator("svg.graph .node.op .port.input").count(), 4, "two ports on each of the two window subtasks");
    assert.equal(await page.locator("svg.graph .node.part[data-partition='4'] text").textContent().then((t) => t.startsWith("rates-0")), true);
    await playUntil(page, 30_000, 30);
    assert.equal(await results(page), 0, "join never emits");
    assert.equal(await attr(page, "data-culprit-partition"), "4");
    assert.equal(await attr(page, "data-cause"), "empty_partition");
    assert.match(await why(page), /second input \(rates\) holds it/);
    assert.match(await why(page), /partition rates-0 has never received a record/);
    assert.equal(await page.locator(".why .chip[data-chain-input='1']").textContent(), "input 2 (rates)");
    // The input holding the minimum is marked like the minimum channel: in the graph and above the channels.
    assert.equal(await page.locator("svg.graph .node.op[data-operator='0'] .port.input.holding[data-input='1']").count(), 1);
    assert.equal(await page.locator("svg.graph .node.op[data-operator='0'] .port.input.holding[data-input='0']").count(), 0);
    assert.match(await page.locator("#inputs-strip li.holding").textContent(), /input 2 watermark \(rates\) No Watermark/);
    assert.equal(await page.locator("svg.graph .node.part.holding[data-partition='4']").count(), 1);
    await page.screenshot({ path: path.join(shots, "quiet-side-join-held.png") });
    await step(page, "Fix: withIdleness(5 s)");
    await playUntil(page, 60_000, 30);
    assert.ok((await results(page)) > 0, "windows fire once the rates source is idle");
    assert.equal(await page.locator("svg.graph .node.op[data-operator='0'] .port.input.idle[data-input='1']").count(), 1, "the idle input is hatched");
    await page.screenshot({ path: path.join(shots, "quiet-side-join-fixed.png") });
  });
});

test("union with an idle stream: one valve over both sources' channels; the stopped impressions hold it until an idle timeout", async () => {
  await withPage(async (page) => {
    await choosePreset(page, "union-idle-stream");
    assert.deepEqual(await bands(page), ["clicks", "impressions"]);
    assert.equal(await page.locator("svg.graph .node.op .port.valve").count(), 2, "one valve per window subtask");
    assert.equal(await page.locator("svg.graph .node.op .port.input").count(), 0);
    await playUntil(page, 60_000, 30);
    const stuck = await results(page);
    assert.ok(stuck > 0, "the windows before the stop fired");
    assert.equal(await attr(page, "data-culprit-partition"), "3");
    assert.match(await why(page), /partition impressions-0 has had no record for/);
    assert.equal(await page.locator("#channels-table tbody tr").count(), 2, "one valve: both sources' channels in one table");
    assert.match(await page.locator("#channels-table tbody tr.holding").textContent(), /impressions/);
    await page.screenshot({ path: path.join(shots, "union-idle-stream-held.png") });
    await step(page, "Fix: idle timeout 2.5 s");
    await playUntil(page, 75_000, 30);
    assert.ok((await results(page)) > stuck + 10, "the windows catch up");
    assert.equal(await page.locator("svg.graph .node.src.idle[data-source='1']").count(), 1, "the impressions source is idle");
  });
});

test("mid-stream assigner: the source goes idle, the Timestamps/Watermarks after it stays active and holds; generating watermarks in the source fixes it", async () => {
  await withPage(async (page) => {
    await choosePreset(page, "midstream-assigner");
    assert.equal(await page.locator("svg.graph .node.chained").count(), 2, "a chained operator after each source subtask");
    assert.equal(await page.locator("svg.graph .col-heads .chained-head").textContent(), "CHAINED OPERATOR");
    assert.match(await page.locator("svg.graph .node.chained[data-chained='0'] text.name").textContent(), /^Timestamps\/Watermarks$/);
    await playUntil(page, 60_000, 30);
    const stuck = await results(page);
    assert.equal(await attr(page, "data-cause"), "midstream_assigner_holds");
    assert.match(await why(page), /source subtask 0 is idle, but the assignTimestampsAndWatermarks after it swallows that status/);
    // The contrast: the source subtask idle (hatched), the operator after it active and holding.
    assert.equal(await page.locator("svg.graph .node.src.idle[data-source='0']").count(), 1);
    const chained = page.locator("svg.graph .node.chained[data-chained='0']");
    assert.match(await chained.getAttribute("class"), /\bholding\b/);
    assert.doesNotMatch(await chained.getAttribute("class"), /\bidle\b/);
    assert.equal(await chained.locator("text.state").textContent(), "● ACTIVE");
    assert.equal(await page.locator(".why .chip[data-chain-chained='0']").textContent(), "Timestamps/Watermarks");
    await page.screenshot({ path: path.join(shots, "midstream-assigner-held.png") });
    await step(page, "Fix: generate watermarks in the source");
    await page.waitForFunction(() => document.querySelectorAll("svg.graph .node.chained").length === 0);
    await playUntil(page, 60_000, 30);
    assert.ok((await results(page)) > stuck + 10, "the source's idleness reaches the windows");
  });
});

test("SQL watermark operator: each row re-activates it and the 60 s idle timeout never passes; 5 s lets the busy partitions drive", async () => {
  await withPage(async (page) => {
    await choosePreset(page, "sql-idle-reactivates");
    assert.equal(await page.locator("svg.graph .node.chained").count(), 2);
    assert.match(await page.locator("svg.graph .node.chained[data-chained='0'] text.name").textContent(), /^WatermarkAssigner$/);
    assert.equal(await page.locator("svg.graph .col-heads .chained-head").textContent(), "SQL WATERMARK OP.");
    await playUntil(page, 120_000, 30);
    assert.equal(await attr(page, "data-cause"), "midstream_assigner_holds");
    assert.match(await why(page), /the SQL watermark operator after source subtask \d decides its watermark/);
    assert.match(await why(page), /table\.exec\.source\.idle-timeout \(60\.0 s\)/);
    const before = await emissionRows(page);
    assert.ok(Math.max(...before.map((r) => r.delay)) > 30_000, "results wait for the device's rows");
    await page.screenshot({ path: path.join(shots, "sql-idle-reactivates-held.png") });
    await step(page, "Fix: table.exec.source.idle-timeout = 5 s");
    await playUntil(page, 230_000, 30);
    const after = (await emissionRows(page)).filter((r) => r.fired > 140_000);
    assert.ok(after.length > 0, "windows fire after the fix");
    assert.ok(Math.max(...after.map((r) => r.delay)) < 12_000, `each row holds the job for at most the timeout: ${JSON.stringify(after.slice(0, 5))}`);
    await page.click("#tab-sql");
    assert.match(await page.locator("#sql-code").textContent(), /SET 'table\.exec\.source\.idle-timeout' = '5 s';/);
    assert.match(await page.locator("#sql-code").textContent(), /runs as an operator after the source \(WatermarkAssigner\)/);
  });
});

test("interval join: its bounds in the graph, joined pairs instead of window emissions, per-input watermarks and the Java between()", async () => {
  const scenario = JSON.parse(fs.readFileSync(path.join(ROOT, "tests/scenarios/interval_join_orders_payments.json"), "utf8"));
  await withPage(async (page) => {
    await page.goto(env.baseUrl + "#scenario=" + encodeURIComponent(JSON.stringify(scenario)));
    await page.waitForFunction(() => document.querySelector("svg.graph .col-heads")?.textContent.includes("INTERVAL JOIN"));
    assert.match(await page.locator("svg.graph .col-heads").textContent(), /INTERVAL JOIN \[−2 s, 5 s\)/);
    assert.deepEqual(await bands(page), ["orders", "payments"]);
    assert.equal(await page.locator("#emissions-table").count(), 0, "a join job has no window emissions");
    await playUntil(page, 50_000, 30);
    const pairs = num(await page.locator("#joins-count").textContent());
    assert.ok(pairs > 100, `pairs joined: ${pairs}`);
    assert.ok((await page.locator("#joins-table tbody tr").count()) > 0);
    assert.match(await page.locator("svg.graph .node.sink").textContent(), /joined pairs/);
    assert.match(await page.locator("#inputs-strip").textContent(), /input 1 watermark \(orders\).*input 2 watermark \(payments\)/);
    assert.match(await page.locator(".why .headline").textContent(), /^Join subtask/);
    assert.match(await page.locator("canvas.timeline").getAttribute("data-marks"), /inputs=2/);
    assert.equal(await page.locator("#join-bounds").count() + (await page.locator("#btn-apply-window").count()), 1, "join settings, not window controls");
    await page.click("#tab-java");
    const java = await page.locator("#java-code").textContent();
    assert.match(java, /\.intervalJoin\(payments\.keyBy\(OtherEvent::getKey\)\)\s+\.between\(Duration\.ofSeconds\(-2\), Duration\.ofSeconds\(5\)\)/);
    assert.match(java, /\.upperBoundExclusive\(\)/);
    await page.screenshot({ path: path.join(shots, "interval-join.png"), fullPage: true });
  });
});

test("keyboard: the graph is one Tab stop, its nodes are reached with the arrow keys and Enter explains them, the chained operator too", async () => {
  await withPage(async (page) => {
    await choosePreset(page, "midstream-assigner");
    await playUntil(page, 5_000, 30);
    assert.equal(await page.locator(".graph-wrap [tabindex='0']").count(), 1, "one Tab stop: the graph");
    assert.equal(await page.locator("svg.graph .node[tabindex='-1']").count(), 4 + 2 + 2 + 2, "partitions, sources, chained operators, window subtasks");
    await page.locator("svg.graph").focus();
    const at = () => page.evaluate(() => document.activeElement?.getAttribute("data-chained"));
    for (let i = 0; i < 6 && (await at()) !== "0"; i++) await page.keyboard.press("ArrowRight");
    assert.equal(await at(), "0", "ArrowRight reaches the chained operators' column");
    await page.keyboard.press("ArrowDown");
    assert.equal(await at(), "1", "ArrowDown: the chained operator after source subtask 1");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector(".why .subject")?.textContent.includes("Source subtask 1"));
    assert.match(await page.locator(".why .subject").textContent(), /Timestamps\/Watermarks chained after it replaces that/);
    await page.keyboard.press("ArrowRight");
    assert.match(await page.evaluate(() => document.activeElement?.getAttribute("data-operator")), /^[01]$/, "then a window subtask");
    await page.keyboard.press("End");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-operator")), "1", "End: the last node");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector(".why select")?.value === "1");
  });
});
