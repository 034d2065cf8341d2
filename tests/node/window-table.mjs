#!/usr/bin/env node
// The Node example: runs a scenario through the JS API and prints a table of window emissions.
//
//   node tests/node/window-table.mjs [SCENARIO.json | PRESET-ID] [--limit N]
//
// Default: the seed-001 preset with an idle timeout of 60 s set before the start, run for
// 10 minutes. Loads the same wmp.js/wmp_bg.wasm the page uses (dist/ after `trunk build`;
// WMP_DIST points elsewhere).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.env.WMP_DIST ?? path.join(here, "../../dist"));
const { initSync, WatermarkPlayground } = await import(path.join(dist, "wmp.js"));
initSync({ module: fs.readFileSync(path.join(dist, "wmp_bg.wasm")) });

const args = process.argv.slice(2);
const limitAt = args.indexOf("--limit");
const limit = limitAt >= 0 ? Number(args.splice(limitAt, 2)[1]) : 20;
const source = args[0];

let wmp;
if (source && fs.existsSync(source)) {
  wmp = new WatermarkPlayground(JSON.parse(fs.readFileSync(source, "utf8")));
} else {
  wmp = WatermarkPlayground.fromPreset(source ?? "seed-001-heartbeat");
  if (!source) wmp.setParam("idle_timeout_ms", 60_000);
}

const emissions = [];
wmp.on("window", (w) => emissions.push(w));
if (!source) wmp.runUntil(600_000);
else wmp.runToEnd();

const utc = (ms) => new Date(ms).toISOString().slice(11, 23);
const rows = emissions.slice(0, limit).map((w) => ({
  "#": w.index,
  subtask: w.subtask,
  key: w.key,
  window: `[${utc(w.start)}, ${utc(w.end)})`,
  value: w.value,
  firing: w.firing,
  watermark: w.watermark.ms === null ? WatermarkPlayground.describeWatermark(w.watermark) : utc(w.watermark.ms),
  "fired at": `+${((w.time - wmp.startTime) / 1000).toFixed(3)} s`,
}));

const cols = Object.keys(rows[0] ?? { "#": 0 });
const width = (c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length));
const line = (cells) => cells.map((s, i) => String(s).padEnd(width(cols[i]))).join("  ");
console.log(`${wmp.name}`);
console.log(`${emissions.length} window emissions in ${(wmp.elapsedMs / 1000).toFixed(0)} s of processing time; trace hash ${wmp.traceHash}`);
console.log(line(cols));
console.log(cols.map((c) => "-".repeat(width(c))).join("  "));
for (const r of rows) console.log(line(cols.map((c) => r[c])));
if (emissions.length > rows.length) console.log(`… ${emissions.length - rows.length} more (--limit N)`);
wmp.free();
