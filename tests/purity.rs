//! Purity of the engine: `src/engine/` must stay a deterministic, sans-IO core (see
//! `src/engine/mod.rs`). The same scenario has to give the same trace natively and in wasm, so
//! no engine file may
//! * name a web crate (`leptos`, `wasm_bindgen`, `web_sys`, `js_sys`, `gloo`): the UI lives in
//!   `src/web/`;
//! * read a clock (`SystemTime`, `Instant`, `chrono`), the environment (`std::env`,
//!   `env::var`) or OS randomness (`thread_rng`, `getrandom`, `rand::`);
//! * use `HashMap`/`HashSet` (their iteration order is arbitrary) except in
//!   `src/engine/fingerprint.rs`, which defines the lookup-only `LookupMap`;
//! * iterate a `LookupMap` (heuristic: names declared with type `LookupMap<` in a file may not be
//!   followed by `.iter(`, `.keys(`, `.values(`, `.drain(`, … nor appear as `in name`/`in &name`).
//!
//! Layering (`layering_*` below): the engine names neither the JS edge nor the UI (no
//! `crate::api`, `crate::web`, `super::super::web`, `wmp::api`, `use crate::{api, …}`), and
//! `src/web/` does not name `crate::api`: only `src/api/` is the JS edge, and it may mount the
//! UI, not the other way round.
//!
//! Comments, string literals and char literals are blanked before scanning, so prose such as
//! "synchronously" or "instant" never counts; matches are on identifier boundaries.

use std::fmt;
use std::path::{Path, PathBuf};

/// Identifiers forbidden everywhere in the engine (matched as whole identifiers).
const FORBIDDEN_IDENTS: &[(&str, &str)] = &[
    ("leptos", "web crate"),
    ("wasm_bindgen", "web crate"),
    ("web_sys", "web crate"),
    ("js_sys", "web crate"),
    ("gloo", "web crate"),
    ("SystemTime", "clock"),
    ("Instant", "clock"),
    ("chrono", "clock"),
    ("thread_rng", "OS randomness"),
    ("getrandom", "OS randomness"),
];

/// Paths forbidden everywhere in the engine (the first segment matched on an identifier boundary).
const FORBIDDEN_PATHS: &[(&str, &str)] = &[("std::env", "environment"), ("env::var", "environment"), ("rand::", "OS randomness")];

/// Hash containers: only `fingerprint.rs` may name them (to define `LookupMap`).
const HASH_CONTAINERS: &[&str] = &["HashMap", "HashSet"];
const HASH_EXEMPT_FILE: &str = "fingerprint.rs";

/// Methods that iterate a map (in arbitrary order for a hash map).
const ITERATING_METHODS: &[&str] =
    &["iter", "iter_mut", "keys", "values", "values_mut", "into_iter", "into_keys", "into_values", "drain", "retain"];

#[derive(Debug, PartialEq, Eq)]
struct Violation {
    file: String,
    line: usize,
    what: String,
    text: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}: {}", self.file, self.line, self.what, self.text.trim())
    }
}

/// The source with comments, string literals and char literals replaced by spaces (line breaks
/// kept, so line numbers still match).
fn blank_non_code(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(&c, i) {
            // r"..." / r#"..."# / br"...": skip `r`, hashes and quote, then find `"` + hashes.
            let open = c[i..].iter().position(|&ch| ch == '"').unwrap_or(0) + i;
            for &ch in &c[i..=open] {
                out.push(ch);
            }
            i = open + 1;
            while i < c.len() {
                if c[i] == '"' && (0..hashes).all(|k| c.get(i + 1 + k) == Some(&'#')) {
                    out.push('"');
                    i += 1;
                    break;
                }
                out.push(blank(c[i]));
                i += 1;
            }
        } else if c[i] == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' && i + 1 < c.len() {
                    out.push(' ');
                    i += 1;
                }
                out.push(blank(c[i]));
                i += 1;
            }
            if i < c.len() {
                out.push('"');
                i += 1;
            }
        } else if c[i] == '\'' && is_char_literal(&c, i) {
            out.push('\'');
            i += 1;
            while i < c.len() && c[i] != '\'' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                out.push(' ');
                i += 1;
            }
            out.push('\'');
            i += 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// `Some(number of #)` if a raw string literal starts at `i` (`r"`, `r#"`, `br"`, …).
fn raw_string_start(c: &[char], i: usize) -> Option<usize> {
    if i > 0 && is_ident_char(c[i - 1]) {
        return None;
    }
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (c.get(j) == Some(&'"')).then_some(hashes)
}

/// A `'` starts a char literal (`'x'`, `'\n'`, `'\u{1F600}'`) rather than a lifetime (`'a`).
fn is_char_literal(c: &[char], i: usize) -> bool {
    match c.get(i + 1) {
        Some('\\') => true,
        Some(_) => c.get(i + 2) == Some(&'\''),
        None => false,
    }
}

fn is_ident_char(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// Byte offsets where `needle` occurs in `hay` starting on an identifier boundary and, if
/// `whole` is set, also ending on one.
fn find_ident(hay: &str, needle: &str, whole: bool) -> Vec<usize> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(pos) = hay[from..].find(needle) {
        let at = from + pos;
        let before_ok = hay[..at].chars().next_back().is_none_or(|ch| !is_ident_char(ch));
        let end = at + needle.len();
        let after_ok = !whole || hay[end..].chars().next().is_none_or(|ch| !is_ident_char(ch));
        if before_ok && after_ok {
            found.push(at);
        }
        from = at + needle.len().max(1);
    }
    found
}

/// Names declared with type `LookupMap<…>` in this (blanked) source: `name: LookupMap<`.
fn lookup_map_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for at in find_ident(code, "LookupMap", false) {
        let before = code[..at].trim_end();
        let Some(before) = before.strip_suffix(':') else { continue };
        if before.ends_with(':') {
            continue; // a path such as `fingerprint::LookupMap`
        }
        let before = before.trim_end();
        let name: String = before.chars().rev().take_while(|&ch| is_ident_char(ch)).collect::<Vec<_>>().into_iter().rev().collect();
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Whether `line` has `in EXPR` where EXPR is `name`, `&name`, `&mut name` or a field path
/// ending in `.name` (`in &self.name`), i.e. a `for` loop over that map.
fn for_loop_over(line: &str, name: &str) -> bool {
    find_ident(line, "in", true).into_iter().any(|at| {
        let rest = line[at + 2..].split('{').next().unwrap_or("").trim();
        let expr = rest.strip_prefix("&mut ").or_else(|| rest.strip_prefix('&')).unwrap_or(rest).trim();
        let is_path = !expr.is_empty() && expr.chars().all(|ch| is_ident_char(ch) || ch == '.');
        is_path && expr.rsplit('.').next() == Some(name)
    })
}

/// Scans one file's text; `file` is the path shown in violations.
fn scan(file: &str, src: &str) -> Vec<Violation> {
    let code = blank_non_code(src);
    let is_fingerprint = Path::new(file).file_name().is_some_and(|n| n == HASH_EXEMPT_FILE);
    let maps = lookup_map_names(&code);
    let mut out = Vec::new();
    for (n, (line, orig)) in code.lines().zip(src.lines()).enumerate() {
        let mut flag = |what: String| out.push(Violation { file: file.to_string(), line: n + 1, what, text: orig.to_string() });
        for &(id, why) in FORBIDDEN_IDENTS {
            if !find_ident(line, id, true).is_empty() {
                flag(format!("{why} `{id}`"));
            }
        }
        for &(p, why) in FORBIDDEN_PATHS {
            if !find_ident(line, p, false).is_empty() {
                flag(format!("{why} `{p}`"));
            }
        }
        if !is_fingerprint {
            for &h in HASH_CONTAINERS {
                if !find_ident(line, h, true).is_empty() {
                    flag(format!("`{h}` outside {HASH_EXEMPT_FILE} (use LookupMap, never iterated, or a BTreeMap)"));
                }
            }
        }
        for m in &maps {
            for meth in ITERATING_METHODS {
                if !find_ident(line, &format!("{m}.{meth}("), false).is_empty() {
                    flag(format!("iterates LookupMap `{m}` with .{meth}()"));
                }
            }
            if for_loop_over(line, m) {
                flag(format!("iterates LookupMap `{m}` in a for loop"));
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Path roots after which a module of this crate is named: `crate::m`, `super::…::m`, and
/// `wmp::m` (the crate's own name, as the binaries and tests spell it).
const PATH_ROOTS: &[&str] = &["crate", "super", "wmp"];

/// The top-level modules of this crate that a path starting at `at` (just past a root such as
/// `crate`) names: `::api::x` gives `api`, `::super::web` gives `web`, `::{engine, api::y}`
/// gives `engine` and `api`. `code` is blanked source.
fn named_modules(code: &str, at: usize) -> Vec<String> {
    let rest = &code[at..];
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while rest[*i..].starts_with(char::is_whitespace) {
            *i += rest[*i..].chars().next().map_or(1, char::len_utf8);
        }
    };
    let ident = |i: &mut usize| -> String {
        let s: String = rest[*i..].chars().take_while(|&ch| is_ident_char(ch)).collect();
        *i += s.len();
        s
    };
    loop {
        skip_ws(&mut i);
        if !rest[i..].starts_with("::") {
            return Vec::new();
        }
        i += 2;
        skip_ws(&mut i);
        if rest[i..].starts_with('{') {
            // A use group: the first segment of each top-level item (nested groups skipped).
            let mut names = Vec::new();
            let mut depth = 0;
            let mut item_start = true;
            for (k, ch) in rest[i..].char_indices() {
                match ch {
                    '{' => {
                        depth += 1;
                        item_start = depth == 1;
                    }
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => item_start = true,
                    ch if item_start && depth == 1 && is_ident_char(ch) => {
                        let mut j = i + k;
                        let name = ident(&mut j);
                        if name == "super" || name == "self" {
                            names.extend(named_modules(code, at + j));
                        } else {
                            names.push(name);
                        }
                        item_start = false;
                    }
                    _ => {}
                }
            }
            return names;
        }
        let seg = ident(&mut i);
        if seg != "super" {
            return if seg.is_empty() { Vec::new() } else { vec![seg] };
        }
    }
}

/// Every place where blanked `src` names one of `modules` of this crate by path; `file` is the
/// path shown in violations and `why` the rule.
fn scan_layering(file: &str, src: &str, modules: &[&str], why: &str) -> Vec<Violation> {
    let code = blank_non_code(src);
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    for root in PATH_ROOTS {
        for at in find_ident(&code, root, true) {
            // `super` after `::` is part of a path already scanned from its root.
            if code[..at].trim_end().ends_with("::") && *root != "crate" && *root != "wmp" {
                continue;
            }
            for m in named_modules(&code, at + root.len()) {
                if modules.contains(&m.as_str()) {
                    let line = code[..at].matches('\n').count();
                    out.push(Violation {
                        file: file.to_string(),
                        line: line + 1,
                        what: format!("{why}: names `{m}`"),
                        text: lines.get(line).unwrap_or(&"").to_string(),
                    });
                }
            }
        }
    }
    out.sort_by_key(|v| v.line);
    out
}

/// Layering violations in every Rust file under `dir` (relative to the crate root).
fn layering_violations(dir: &str, modules: &[&str], why: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join(dir), &mut files);
    assert!(files.len() > 5, "expected the sources of {dir}, found {files:?}");
    let mut list = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let shown = f.strip_prefix(root).unwrap_or(f).display().to_string();
        list.extend(scan_layering(&shown, &text, modules, why).iter().map(|v| v.to_string()));
    }
    list
}

#[test]
fn layering_engine_names_neither_api_nor_web() {
    let list = layering_violations("src/engine", &["api", "web"], "the engine is below the JS edge and the UI");
    assert!(list.is_empty(), "layering violations:\n{}", list.join("\n"));
}

#[test]
fn layering_web_does_not_name_api() {
    let list = layering_violations("src/web", &["api"], "the UI is below the JS edge (src/api mounts it)");
    assert!(list.is_empty(), "layering violations:\n{}", list.join("\n"));
}

#[test]
fn layering_scanner_flags_synthetic_bad_lines() {
    let bad = r#"
use crate::api::session::Session;
use crate::{engine::scenario, web};
use super::super::api;
fn f() {
    let s = crate::api::share::decode(&v, "share");
    wmp::web::mount();
    use crate::{
        engine,
        api::events::Wants,
    };
}
"#;
    let found = scan_layering("src/engine/bad.rs", bad, &["api", "web"], "rule");
    let lines: Vec<usize> = found.iter().map(|v| v.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 6, 7, 8], "got {found:#?}");
    assert!(found.iter().all(|v| v.file == "src/engine/bad.rs" && v.what.starts_with("rule: names `")));
    assert!(found[0].to_string().contains("use crate::api::session::Session;"));
}

#[test]
fn layering_scanner_ignores_comments_strings_and_allowed_paths() {
    let ok = r#"
//! Mounted by crate::api::mount; see `crate::web::app`.
/* use crate::api; */
use crate::engine::scenario::{build, api_version};
use super::snippets;
use super::super::engine::api_like;
fn f() {
    let s = "crate::api::share";
    let api = crate::engine::api_name(); // a local named api is fine
    self::api::x();
}
"#;
    let found = scan_layering("src/web/ok.rs", ok, &["api"], "rule");
    assert!(found.is_empty(), "false positives: {found:#?}");
}

#[test]
fn engine_is_pure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/engine"), &mut files);
    assert!(files.len() > 10, "expected the engine's sources, found {files:?}");
    let mut violations = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let shown = f.strip_prefix(root).unwrap_or(f).display().to_string();
        violations.extend(scan(&shown, &text));
    }
    let list: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
    assert!(list.is_empty(), "engine purity violations:\n{}", list.join("\n"));
}

#[test]
fn scanner_flags_synthetic_bad_lines() {
    let bad = r#"
use std::collections::HashMap;
use std::time::Instant;
struct S { seen: LookupMap<u32, u64>, order: Vec<u32> }
fn f(s: &S) {
    let t = std::time::SystemTime::now();
    let v = std::env::var("X");
    let r = rand::random::<u8>();
    for (k, v) in &s.seen {}
    for x in s.seen.keys() {}
    let n = s.seen.values().count();
    web_sys::window();
}
"#;
    let found = scan("src/engine/bad.rs", bad);
    let lines: Vec<usize> = found.iter().map(|v| v.line).collect();
    for want in [2, 3, 6, 7, 8, 9, 10, 11, 12] {
        assert!(lines.contains(&want), "line {want} not flagged; got {found:#?}");
    }
    assert!(found.iter().all(|v| v.file == "src/engine/bad.rs"));
    assert!(found.iter().any(|v| v.what.contains("iterates LookupMap `seen`")));
}

#[test]
fn scanner_ignores_comments_strings_and_allowed_uses() {
    let ok = r#"
//! Delivered synchronously; no HashMap is iterated; reads no SystemTime or Instant.
/* a block comment naming std::env and thread_rng */
struct S { seen: LookupMap<u32, u64>, order: Vec<u32> }
fn f(s: &S) -> usize {
    let msg = "std::env and rand:: and HashMap in a string";
    let c = '"';
    let lifetime_ok: &'static str = "x";
    for x in &s.order {}
    let grand = operand::value(); // `rand::` only on an identifier boundary
    s.seen.get(&1).map_or(0, |v| *v as usize) + s.order.iter().count()
}
"#;
    let found = scan("src/engine/ok.rs", ok);
    assert!(found.is_empty(), "false positives: {found:#?}");
    let defining = "pub type LookupMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;";
    assert!(scan("src/engine/fingerprint.rs", defining).is_empty());
    assert_eq!(scan("src/engine/other.rs", defining).len(), 1);
}
