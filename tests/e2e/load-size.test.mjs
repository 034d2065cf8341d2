// The download sizes of issue 15's budgets (load-budget.mjs), gzipped, of the bundle in dist/:
// what the playground page loads before its first render, and the engine-only module. A budget
// the bundle meets is asserted; one it does not meet yet is held at today's size (CEILINGS) so
// that it can only shrink. The page's real requests up to the first render must be the files
// counted. Times and memory are in load-bench.mjs (never asserted: they depend on the machine).
import { test } from "node:test";
import assert from "node:assert/strict";
import { DIST, startServer, launch, openPage } from "./lib.mjs";
import { BUDGETS, firstLoadFiles, engineFiles, measure, kb } from "./load-budget.mjs";

// Today's gzipped sizes of a release build, rounded up (README.md, "Size and load"); the full
// load was 967.5 KB before the custom element and the URL state joined it (1,040 KB after, 1,053
// with the iframe bridge and the SQL reader, 952 once Leptos's erase_components cut it, 1,023.7
// with the live-job card, the SQL panel and the job export, 1,031.6 once the export ran connect
// and max_on_silence and the live tables showed late records: raised to 1,035 deliberately;
// 1,039.5 once the live graph drew back-pressure and got its WHY panel: raised to 1,041);
// the engine-only module 366.5 KB before the SQL reader (issue 16) joined it (408 KB after,
// 423.5 with the job export; 426.3 once the export wrote its replay through std::io::Write for
// wmp export's streamed, gzipped replay: raised to 427 deliberately; 425.8 with a text callback
// instead and the replay's clock lines: lowered to 426; the full load is then 1,040.9).
// Replaying the job's failures (C/F lines, the job's checkpoint waits and failure marker) took
// the engine to 428.9 and the full load to 1,043.5: both raised deliberately, to 429 and 1,044.
// Exporting SQL's watermark operator (a paced replay) and one name per source subtask over every
// view took them to 431.5 and 1,047.2, and the review's fixes (input checks of the mid-stream
// operator, interval precision in SQL, names cut in the middle) to 432.8 and 1,048.3: raised
// deliberately, to 433 and 1,049; a second review's input checks (the SQL reader checks an
// interval's precision) took the engine to 433.2 (full 1,048.7): raised to 434. Leaving the
// SQL reader and the job export (cargo feature `tools`) out of the engine-only module took it to
// 355.9: lowered to 356. Counting a source subtask without a split in its own source, naming
// source subtasks in messages and reading sizes in a ResizeObserver took the full load to
// 1,049.4: raised deliberately to 1,050.
const CEILINGS = { fullFirstLoadGzip: 1050 * 1024, engineGzip: 356 * 1024 };
const limit = (key, size) => (size <= BUDGETS[key] ? BUDGETS[key] : CEILINGS[key]);

test("the playground's first load is within its budget (or today's size)", () => {
  const m = measure(DIST, firstLoadFiles(DIST));
  const names = m.files.map((f) => f.name);
  assert.ok(names.some((n) => /^wmp-[0-9a-f]{16}_bg\.wasm$/.test(n)), `the hashed wasm is counted: ${names}`);
  assert.ok(names.some((n) => /^style-[0-9a-f]+\.css$/.test(n)), `the stylesheet is counted: ${names}`);
  assert.ok(m.gzip <= limit("fullFirstLoadGzip", m.gzip), `first load ${kb(m.gzip)} gzipped: ${JSON.stringify(m.files)}`);
});

test("the engine-only module is within its budget (or today's size)", () => {
  const m = measure(DIST, engineFiles(DIST));
  assert.ok(m.gzip <= limit("engineGzip", m.gzip), `engine-only ${kb(m.gzip)} gzipped: ${JSON.stringify(m.files)}`);
  const full = measure(DIST, firstLoadFiles(DIST).filter((n) => /_bg\.wasm$/.test(n)));
  assert.ok(m.gzip < full.gzip, `the engine-only module (${kb(m.gzip)}) is smaller than the full wasm (${kb(full.gzip)})`);
});

test("the page requests only the counted files before its first render, all content-hashed", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const { context, page, problems } = await openPage(browser);
    const requested = [];
    page.on("request", (req) => requested.push(new URL(req.url()).pathname.slice(1) || "index.html"));
    await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor({ state: "visible", timeout: 20_000 });
    const counted = new Set(firstLoadFiles(DIST));
    const before = [...new Set(requested)];
    assert.deepEqual(before.filter((n) => !counted.has(n)), [], `requested but not counted (counted: ${[...counted]})`);
    assert.ok(!before.includes("wmp.js") && !before.includes("wmp_bg.wasm"), `the page loads the hashed names: ${before}`);
    // Ours are 16 hex digits; Trunk's (style, favicon) print a u64 without leading zeros, so
    // one in sixteen builds has 15 (CI met style-757762df682d091.css).
    for (const n of before.filter((n) => n !== "index.html")) assert.match(n, /-[0-9a-f]{12,16}(_bg)?\.\w+$/, `${n} is content-hashed`);
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    await browser.close();
    server.close();
  }
});
