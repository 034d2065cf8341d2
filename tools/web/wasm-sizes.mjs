// Where the bytes of a .wasm go: section sizes, the biggest functions and the bytes per crate
// (from the `name` section, so give it a wasm that still has one, e.g. cargo's output before
// wasm-bindgen strips it). A small `twiggy top` / `cargo bloat` for the size work in README.md.
//   node tools/web/wasm-sizes.mjs target/wasm32-unknown-unknown/web/wmp.wasm [top=40]
import fs from "node:fs";

const buf = fs.readFileSync(process.argv[2]);
const top = Number(process.argv[3] ?? 40);
let pos = 8;

function leb() {
  let result = 0, shift = 0, byte;
  do { byte = buf[pos++]; result += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
  return result;
}
function str() { const n = leb(); const s = buf.toString("utf8", pos, pos + n); pos += n; return s; }

const sectionNames = ["custom", "type", "import", "function", "table", "memory", "global", "export",
  "start", "element", "code", "data", "datacount"];
const sections = [];
let importedFuncs = 0;
const bodySizes = [];
const names = new Map();
while (pos < buf.length) {
  const id = buf[pos++];
  const size = leb();
  const start = pos;
  let name = sectionNames[id] ?? `id${id}`;
  if (id === 0) name = `custom:${str()}`;
  sections.push({ name, size });
  if (id === 2) {
    for (let n = leb(); n > 0; n--) {
      str(); str();
      const kind = buf[pos++];
      if (kind === 0) { leb(); importedFuncs++; }
      else if (kind === 1) { pos++; const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 3) { pos += 2; }
    }
  } else if (id === 10) {
    for (let n = leb(); n > 0; n--) { const s = leb(); bodySizes.push(s); pos += s; }
  } else if (name === "custom:name") {
    while (pos < start + size) {
      const sub = buf[pos++]; const len = leb(); const end = pos + len;
      if (sub === 1) for (let n = leb(); n > 0; n--) { const i = leb(); names.set(i, str()); }
      pos = end;
    }
  }
  pos = start + size;
}

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`${process.argv[2]}: ${kb(buf.length)}`);
for (const s of sections.sort((a, b) => b.size - a.size)) console.log(`  ${s.name.padEnd(28)} ${kb(s.size)}`);

const funcs = bodySizes.map((size, i) => ({ size, name: names.get(i + importedFuncs) ?? `func[${i + importedFuncs}]` }));
console.log(`\nbiggest ${top} functions:`);
for (const f of [...funcs].sort((a, b) => b.size - a.size).slice(0, top)) console.log(`  ${kb(f.size).padStart(10)}  ${demangle(f.name).slice(0, 150)}`);

// Rust's legacy mangling (`_ZN` len-prefixed segments `E`), enough to read paths; v0 names
// (`_R…`) keep their mangled form but still show their crate.
function demangle(name) {
  if (!name.startsWith("_ZN")) return name;
  const parts = [];
  let i = 3;
  while (i < name.length && name[i] !== "E") {
    const len = Number(name.slice(i).match(/^\d+/)?.[0]);
    if (!len) break;
    i += String(len).length;
    parts.push(name.slice(i, i + len));
    i += len;
  }
  if (/^h[0-9a-f]{16}$/.test(parts.at(-1) ?? "")) parts.pop();
  return parts.join("::").replace(/^_/, "")
    .replace(/\$LT\$/g, "<").replace(/\$GT\$/g, ">").replace(/\$u20\$/g, " ").replace(/\$RF\$/g, "&")
    .replace(/\$C\$/g, ",").replace(/\$BP\$/g, "*").replace(/\$u7b\$/g, "{").replace(/\$u7d\$/g, "}").replace(/\.\./g, "::");
}

// The crate of a function: the first `ident::` of its path (for `wmp`, also its module: engine,
// web, api), or a v0 name's first crate.
function crateOf(name) {
  const v0 = name.match(/^_R.*?C(?:s[0-9A-Za-z_]*_)?\d+([A-Za-z_][A-Za-z0-9_]*)/);
  if (v0) return v0[1];
  const m = demangle(name).match(/([A-Za-z_][A-Za-z0-9_]*)::(?:([A-Za-z_][A-Za-z0-9_]*)::)?/);
  if (!m) return "?";
  return m[1] === "wmp" && m[2] ? `wmp::${m[2]}` : m[1];
}

const byCrate = new Map();
for (const f of funcs) byCrate.set(crateOf(f.name), (byCrate.get(crateOf(f.name)) ?? 0) + f.size);
console.log("\ncode bytes by crate:");
for (const [c, n] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${kb(n).padStart(10)}  ${c}`);
