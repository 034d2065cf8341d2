// The load budgets of issue 15 and how the size ones are measured, shared by the size test
// (load-size.test.mjs) and the bench (load-bench.mjs). Sizes are gzip -9 of the files in dist/,
// which are deterministic for a build; times and memory are measured by the bench only.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

export const BUDGETS = {
  /** Everything the playground page downloads before its first render (html, js, wasm, css). */
  fullFirstLoadGzip: 400 * 1024,
  /** The engine-only module: wmp-engine.js, its hashed JS and wasm. */
  engineGzip: 150 * 1024,
  /** Navigation start to the graph drawn, on 127.0.0.1 in headless Chromium. */
  firstRenderMs: 300,
  /** JS heap + wasm memory per extra embed on one page. */
  perEmbedBytes: 10 * 1024 * 1024,
};

export const gzipSize = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
export const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** The files index.html loads before the app renders: itself, what it links or imports, and
 * what those modules import in turn (the custom element's snippet). */
export function firstLoadFiles(dist) {
  const html = fs.readFileSync(path.join(dist, "index.html"), "utf8");
  const names = new Set(["index.html"]);
  // A release bundle's index.html and JS are minified: attributes may be unquoted, and an
  // import may have no spaces and share its line.
  for (const m of html.matchAll(/(?:href|src|from)\s*=?\s*["']?\.\/([^"'\s>?#]+)/g)) names.add(m[1]);
  for (const name of names) {
    if (!name.endsWith(".js")) continue;
    const js = fs.readFileSync(path.join(dist, name), "utf8");
    for (const m of js.matchAll(/\bimport\s*[^;]*?\bfrom\s*["']\.\/([^"']+\.js)["']/g)) names.add(m[1]);
  }
  return [...names];
}

/** The engine-only module's files: the stable alias and the hashed JS and wasm it names. */
export function engineFiles(dist) {
  const alias = fs.readFileSync(path.join(dist, "wmp-engine.js"), "utf8");
  const js = alias.match(/from "\.\/(wmp-engine-[0-9a-f]{16}\.js)"/)?.[1];
  if (!js) throw new Error(`wmp-engine.js names no hashed module:\n${alias}`);
  return ["wmp-engine.js", js, js.replace(/\.js$/, "_bg.wasm")];
}

/** [{ name, bytes, gzip }] for files of dist/, and their totals. */
export function measure(dist, names) {
  const files = names.map((name) => {
    const buf = fs.readFileSync(path.join(dist, name));
    return { name, bytes: buf.length, gzip: gzipSize(buf) };
  });
  const sum = (k) => files.reduce((a, f) => a + f[k], 0);
  return { files, bytes: sum("bytes"), gzip: sum("gzip") };
}
