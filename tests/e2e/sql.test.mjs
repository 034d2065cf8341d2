// The SQL panel (issue 16, SQL in): pasted SQL with an idle timeout changes the scenario's idle
// timeout (Ctrl+Enter, and it survives a reload); a control change rewrites the SQL, but never an
// edit in progress; an error names its line:column and selects it in the text; a clause read but
// not modelled is a note with its line:column; applying the scenario's own SQL changes nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { serveAndLaunch, openPage, gotoApp, choosePreset, playUntil, clockMs, artifactsDir, openControls } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const shots = artifactsDir("e2e");

async function app(fn, viewport = { width: 1600, height: 1000 }) {
  const { context, page, problems } = await openPage(env.browser, { viewport });
  try {
    await gotoApp(page, env.baseUrl);
    await fn(page);
    const real = problems.filter((p) => !p.includes("clipboard"));
    assert.deepEqual(real, [], real.join("\n"));
  } finally {
    await context.close();
  }
}

const sqlText = (page) => page.inputValue("#sql-text");
const status = (page) => page.locator("#sql-status").textContent();
/** The text the textarea has selected, and whether it has the focus. */
const selected = (page) =>
  page.evaluate(() => {
    const t = document.querySelector("#sql-text");
    return { text: t.value.slice(t.selectionStart, t.selectionEnd), focused: document.activeElement === t };
  });

test("pasted SQL with an idle timeout sets the scenario's idle timeout (Ctrl+Enter), and a reload keeps it", async () => {
  await app(async (page) => {
    await openControls(page);
    assert.equal(await page.inputValue("#f-idle"), "off", "seed 001 starts without an idle timeout");
    const before = await page.evaluate(() => location.hash);
    await page.fill("#sql-text", "-- the fix of seed 001, question 2\nSET 'table.exec.source.idle-timeout' = '60 s';\n");
    assert.match(await status(page), /Edited/);
    await page.press("#sql-text", "Control+Enter");
    await page.waitForFunction(() => document.querySelector("#f-idle").value !== "off");
    assert.equal(await page.inputValue("#f-idle"), "1 min");
    assert.match(await status(page), /applied/);
    assert.match(await sqlText(page), /^-- the fix of seed 001/, "the applied script stays in the box (its notes point into it)");
    // The address records the new scenario: a reload opens it.
    await page.waitForFunction((b) => location.hash.startsWith("#s=2.") && location.hash !== b, before, { timeout: 5_000 });
    await page.waitForTimeout(400);
    await page.reload({ waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    await openControls(page);
    assert.equal(await page.inputValue("#f-idle"), "1 min");
    assert.match(await sqlText(page), /idle-timeout' = '1 min'/, "after the reload the box shows the scenario's SQL");
  });
});

test("a control change rewrites the SQL; an edit in progress is kept and the panel offers to reset", async () => {
  await app(async (page) => {
    await openControls(page);
    await page.fill("#f-idle", "30 s");
    await page.press("#f-idle", "Enter");
    await page.waitForFunction(() => document.querySelector("#sql-text").value.includes("'30 s'"));
    assert.match(await status(page), /follows the controls/);
    // The user edits; then a control changes the scenario again.
    const edited = (await sqlText(page)) + "\n-- my edit\n";
    await page.fill("#sql-text", edited);
    await page.fill("#f-idle", "45 s");
    await page.press("#f-idle", "Enter");
    await page.waitForFunction(() => document.querySelector("#sql-status").classList.contains("stale"));
    assert.equal(await sqlText(page), edited, "the edit is not overwritten");
    assert.match(await status(page), /scenario changed \(a preset, the controls or a fix\)/);
    await page.click("#btn-reset-sql");
    assert.match(await sqlText(page), /'45 s'/);
    assert.doesNotMatch(await sqlText(page), /my edit/);
    assert.equal(await page.locator("#btn-reset-sql").isDisabled(), true);
  });
});

test("an error names its line and column and selects the token there", async () => {
  await app(async (page) => {
    const hash = await page.locator("#trace-hash").textContent();
    const sql = "SET 'parallelism.default' = '2';\nCREATE TABLE t (\n  ts TIMESTAMP(3)\n) WITH ('connector' = 'filesystem');\n";
    await page.fill("#sql-text", sql);
    await page.click("#btn-apply-sql");
    await page.locator("#sql-error button.sql-place").waitFor({ state: "visible" });
    const msg = await page.locator("#sql-error").textContent();
    assert.match(msg, /^line 4, column 23: 'connector' = 'filesystem': the playground models Kafka sources only/);
    assert.deepEqual(await selected(page), { text: "'filesystem'", focused: true });
    assert.equal(await page.locator("#trace-hash").textContent(), hash, "nothing was applied");
    // A syntax error, from the keyboard: the token where the reader stopped.
    await page.fill("#sql-text", "SET 'a' = 'b';\nCREATE TABLE t (ts TIMESTAMP(3)) WITH ('connector' 'kafka');");
    await page.press("#sql-text", "Control+Enter");
    await page.waitForFunction(() => /line 2, column \d+/.test(document.querySelector("#sql-error").textContent));
    const col = Number((await page.locator("#sql-error").textContent()).match(/line 2, column (\d+)/)[1]);
    assert.equal(col, 52, await page.locator("#sql-error").textContent());
    assert.deepEqual(await selected(page), { text: "'kafka'", focused: true });
    // Typing clears the message (its position may no longer be right).
    await page.type("#sql-text", " ");
    assert.equal((await page.locator("#sql-error").textContent()).trim(), "");
    // A typo in the FOR column is named there (it steered toward the typo: "must use tss").
    await page.fill("#sql-text", "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR tss AS ts) WITH ('connector' = 'kafka');");
    await page.click("#btn-apply-sql");
    await page.waitForFunction(() => /no column tss/.test(document.querySelector("#sql-error").textContent));
    assert.deepEqual(await selected(page), { text: "tss", focused: true });
    // An empty box is not "applied".
    await page.fill("#sql-text", "  ");
    await page.click("#btn-apply-sql");
    await page.waitForFunction(() => /Nothing to apply: the box is empty/.test(document.querySelector("#sql-error").textContent));
    assert.equal(await page.locator(".notice").count(), 0, "no ✓ for an empty box");
    assert.doesNotMatch(await status(page), /applied/);
    assert.equal(await page.locator("#trace-hash").textContent(), hash, "nothing was applied");
    // On a phone a long line's bad token is scrolled into view (the box does not wrap).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click("#btn-reset-sql");
    const scenarioSql = await page.locator("#sql-text").inputValue();
    const typo = scenarioSql.replace(/INTERVAL '(\d+)' (SECOND|MINUTE)/, (m, n) => `${" ".repeat(150)}INTERVAL '${n}' SECND`);
    assert.notEqual(typo, scenarioSql, scenarioSql);
    await page.fill("#sql-text", typo);
    await page.click("#btn-apply-sql");
    await page.waitForFunction(() => /SECND/.test(document.querySelector("#sql-error").textContent));
    assert.equal((await selected(page)).text, "SECND");
    const box = await page.locator("#sql-text").evaluate((a) => ({ left: a.scrollLeft, width: a.clientWidth, scroll: a.scrollWidth }));
    assert.ok(box.scroll > box.width && box.left > 0, JSON.stringify(box));
  });
});

test("a clause read but not modelled is a note with its line and column; clicking it selects it", async () => {
  await app(async (page) => {
    const sql = [
      "CREATE TABLE clickstream (",
      "  user_id STRING,",
      "  event_time TIMESTAMP(3),",
      "  WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND",
      ") WITH (",
      "  'connector' = 'kafka',",
      "  'topic' = 'clickstream',",
      "  'scan.startup.mode' = 'earliest-offset',",
      "  'format' = 'json'",
      ");",
      "INSERT INTO dashboard",
      "SELECT window_start, window_end, user_id, COUNT(*) AS clicks",
      "FROM TABLE(TUMBLE(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '30' SECOND))",
      "GROUP BY window_start, window_end, user_id;",
    ].join("\n");
    await page.fill("#sql-text", sql);
    await page.click("#btn-apply-sql");
    await page.locator("#sql-notes li").first().waitFor({ state: "visible" });
    const notes = await page.locator("#sql-notes li").allTextContents();
    const format = notes.find((n) => n.includes("'format' = 'json'"));
    assert.ok(format, notes.join("\n"));
    assert.match(format, /^line 9, column 3: 'format' = 'json' is read but not modelled/);
    assert.ok(notes.some((n) => /^line 11, column \d+: .*dashboard/.test(n)), notes.join("\n"));
    await page.locator("#sql-notes li", { hasText: "'format'" }).locator("button.sql-place").click();
    assert.deepEqual(await selected(page), { text: "'format'", focused: true });
    // The window follows the query.
    await page.screenshot({ path: path.join(shots, "sql-notes.png"), fullPage: false });
    await openControls(page);
    assert.equal(await page.inputValue("#f-wsize"), "30 s");
  });
});

test("applying the scenario's own SQL changes nothing (a SQL job), and a DataStream job once becomes its SQL job", async () => {
  await app(async (page) => {
    await choosePreset(page, "sql-idle-reactivates");
    const first = await sqlText(page);
    await page.click("#btn-apply-sql");
    await page.waitForFunction(() => /applied/.test(document.querySelector("#sql-status").textContent));
    assert.equal(await sqlText(page), first, "the same settings, written the same way");
    await page.click("#btn-reset-sql");
    assert.equal(await sqlText(page), first, "the SQL of the SQL job is the SQL it was read from");
    await playUntil(page, 8_000, 10);
    const picture = async () => [await page.locator("#trace-hash").textContent(), await clockMs(page)];
    const before = await picture();
    await page.click("#btn-apply-sql");
    await page.locator(".notices", { hasText: "nothing changed" }).waitFor({ state: "visible" });
    assert.deepEqual(await picture(), before, "no restart: the same run at the same time");
  });
});
