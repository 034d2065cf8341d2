//! `wmp`: the command-line runner. Runs a scenario file (or `-` for stdin) and prints JSON.
//!
//! The subcommands, their usage lines and the flags each one takes live once, in `args.rs`
//! (`wmp --help` prints them); this file dispatches and runs `run`, `validate`, `diagnose` and `sql`.
//! `export` (native only, `export.rs`) writes the scenario as a runnable Flink 2.3 job: a Maven
//! project with a replay source, and the playground's results to compare (docs/EXPORT.md).
//! `diagnose` runs the scenario to `--at` ms (default: its duration, without the end of input)
//! and prints the job-level diagnosis: JSON (the JS API's `diagnose()` shape), or with
//! `--text` the headline, the findings with their evidence and fixes, and the advice.
//! `serve` (native only, `serve.rs`) runs the scenario paced by the wall clock and answers Flink's
//! REST endpoints and a Prometheus `/metrics` on 127.0.0.1 (docs/SERVE.md).
//! `sql` reads a Flink SQL script onto a base scenario (a file, a preset, or by default the
//! first preset, seed 001) and prints the scenario JSON; what it read but does not model goes to
//! stderr as `wmp: note: line L, column C: …` (`docs/SQL.md`).
//! Bad input gives a one-line error naming the field (for SQL: `line L, column C`) or the flag,
//! and exit code 2; `--help` and `--version` print to stdout with exit code 0.

// The crate root looks for modules beside it (src/bin/), where another file would be a binary.
#[path = "wmp/args.rs"]
mod args;
// Native only: the crate's tests also build this binary for wasm32, which has no sockets.
#[cfg(not(target_arch = "wasm32"))]
#[path = "wmp/export.rs"]
mod export;
#[path = "wmp/run_length.rs"]
mod run_length;
#[cfg(not(target_arch = "wasm32"))]
#[path = "wmp/serve.rs"]
mod serve;

use args::Args;
use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;
use wmp::engine::limits::MAX_INPUT_BYTES;
use wmp::engine::report::write_report;
use wmp::engine::scenario::{build, catalog, oracle, oracle2, oracle3, oracle3_report};
use wmp::engine::session::Session;
use wmp::engine::sql::sql_to_scenario;

/// What a command prints: text, or the native report (streamed, it can be large).
enum Output {
    Text(String),
    Report(Box<Session>, bool),
}

fn main() -> ExitCode {
    // `args_os`: `args` panics on an argument that is not UTF-8, and a file name may be one.
    match run(std::env::args_os().skip(1).collect()) {
        Ok(out) => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            let written = match out {
                Output::Text(t) => writeln!(stdout, "{t}"),
                Output::Report(s, trace) => write_report(&mut stdout, &s.scenario().name, s.sim(), trace).and_then(|()| writeln!(stdout)),
            };
            // A closed pipe (`wmp run x.json | head`) is the reader's choice, not an error.
            match written.and_then(|()| stdout.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("wmp: cannot write the output: {e}");
                    ExitCode::from(1)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(msg) => {
            eprintln!("wmp: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(words: Vec<OsString>) -> Result<Output, String> {
    let mut words = words.into_iter();
    let cmd = words.next().ok_or_else(args::usage_line)?.to_string_lossy().into_owned();
    match cmd.as_str() {
        "help" | "--help" | "-h" => return Ok(Output::Text(args::help())),
        "--version" | "-V" => return Ok(Output::Text(format!("wmp {}", env!("CARGO_PKG_VERSION")))),
        _ if args::usage_of(&cmd).is_empty() => return Err(format!("unknown command {cmd:?} ({})", args::usage_line())),
        _ => {}
    }
    let a = args::parse(&cmd, words)?;
    if a.help {
        return Ok(Output::Text(args::help()));
    }
    match cmd.as_str() {
        #[cfg(not(target_arch = "wasm32"))]
        "serve" => serve::run(&a).map(Output::Text),
        #[cfg(not(target_arch = "wasm32"))]
        "export" => export::run(&a).map(Output::Text),
        #[cfg(target_arch = "wasm32")]
        "serve" | "export" => Err(format!("{cmd} needs a native build (it uses sockets and files)")),
        "sql" => sql(&a).map(Output::Text),
        "diagnose" => diagnose(&a).map(Output::Text),
        _ => run_or_validate(&a),
    }
}

/// `--format`'s value: `native` unless given.
fn format(a: &Args) -> Result<String, String> {
    let format = a.text("--format").unwrap_or_else(|| "native".into());
    match format.as_str() {
        "native" | "oracle" | "oracle2" | "oracle3" => Ok(format),
        _ => Err(format!("--format must be native, oracle, oracle2 or oracle3, got {format:?}")),
    }
}

/// An input's name in every message about it: `stdin` for `-`, else the file's name (bytes that
/// are not UTF-8 shown as U+FFFD).
fn shown(file: &OsStr) -> String {
    if file == "-" {
        "stdin".into()
    } else {
        Path::new(file).display().to_string()
    }
}

/// `wmp run` and `wmp validate`, in every `--format`.
fn run_or_validate(a: &Args) -> Result<Output, String> {
    let format = format(a)?;
    let (file, trace) = (a.file()?, a.switch("--trace"));
    let text = read_input(file)?;
    let at = |e: wmp::engine::error::InputError| format!("{}: {e}", shown(file));
    match (a.cmd.as_str(), format.as_str()) {
        ("run", "native") => {
            let mut session = Session::from_json(&text).map_err(at)?;
            session.run_to_end(&mut ()).map_err(at)?;
            Ok(Output::Report(Box::new(session), trace))
        }
        ("run", "oracle") => {
            let sc = oracle::parse(&text).map_err(at)?;
            let sim = sc.run().map_err(at)?;
            let mut out = oracle::report(&sc, &sim);
            if trace {
                out["trace"] = wmp::engine::report::trace(&sim);
            }
            Ok(Output::Text(out.to_string()))
        }
        ("run", "oracle2") => {
            let sc = oracle2::parse(&text).map_err(at)?;
            let sim = sc.run().map_err(at)?;
            let mut out = oracle2::report(&sc, &sim);
            if trace {
                out["trace"] = wmp::engine::report::trace(&sim);
            }
            Ok(Output::Text(out.to_string()))
        }
        ("run", _) => {
            let mut sc = oracle3::parse(&text).map_err(at)?;
            if sc.name.is_empty() {
                // The oracle names a run after its file.
                let stem = Path::new(file).file_stem().map(|s| s.to_string_lossy().to_string());
                sc.name = stem.filter(|_| file != "-").unwrap_or_default();
            }
            let run = sc.run().map_err(at)?;
            let mut out = oracle3_report::report(&sc, &run);
            if trace {
                out["trace"] = wmp::engine::report::trace(&run.sim);
            }
            Ok(Output::Text(out.to_string()))
        }
        // The same checks `run` makes before it runs (the scenario and every scripted command).
        (_, "native") => Session::from_json(&text).map(|_| Output::Text("ok".into())).map_err(at),
        (_, "oracle") => oracle::parse(&text).map(|_| Output::Text("ok".into())).map_err(at),
        (_, "oracle2") => oracle2::parse(&text).map(|_| Output::Text("ok".into())).map_err(at),
        (_, _) => oracle3::parse(&text).map(|_| Output::Text("ok".into())).map_err(at),
    }
}

/// `wmp diagnose`: the diagnosis at `--at` (default: the scenario's duration), JSON or `--text`.
fn diagnose(a: &Args) -> Result<String, String> {
    let at_ms = match a.text("--at") {
        Some(v) => Some(v.parse::<i64>().ok().filter(|&v| v >= 0).ok_or(format!("--at needs a time in ms >= 0, got {v:?}"))?),
        None => None,
    };
    let file = a.file()?;
    let text = read_input(file)?;
    let at = |e: wmp::engine::error::InputError| format!("{}: {e}", shown(file));
    let mut session = Session::from_json(&text).map_err(at)?;
    let until = at_ms.unwrap_or(session.scenario().duration_ms);
    // Checked here so that a time past the budget names `--at`, not the scenario's duration_ms.
    run_length::check(session.scenario(), until, "--at", &shown(file))?;
    session.run_until(until, &mut ()).map_err(at)?;
    let d = session.sim().diagnose(&Default::default());
    if a.switch("--text") {
        return Ok(wmp::engine::diagnosis::text::render(&d));
    }
    serde_json::to_string(&d).map_err(|e| e.to_string())
}

/// `wmp sql`: the scenario JSON the script gives on its base; the notes go to stderr.
fn sql(a: &Args) -> Result<String, String> {
    let file = a.file()?;
    let base = match (a.os("--base"), a.text("--preset")) {
        (Some(_), Some(_)) => return Err("give one of --base and --preset".into()),
        // Both would read stdin: the second read would see nothing.
        (Some(path), None) if path == "-" && file == "-" => {
            return Err("the SQL script and --base both read stdin (-): give one of them as a file".into())
        }
        (Some(path), None) => {
            let text = read_input(path)?;
            build::parse(&text).map_err(|e| format!("{}: {e}", shown(path)))?
        }
        (None, Some(id)) => {
            let p = catalog::preset(&id).ok_or_else(|| format!("no preset {id:?}; the presets: {}", preset_ids()))?;
            build::parse(p.json).map_err(|e| e.to_string())?
        }
        (None, None) => build::parse(catalog::presets()[0].json).map_err(|e| e.to_string())?,
    };
    let text = read_input(file)?;
    let (scenario, notes) = sql_to_scenario(&text, &base).map_err(|e| e.to_string())?;
    for n in notes {
        eprintln!("wmp: note: {n}");
    }
    serde_json::to_string_pretty(&scenario).map_err(|e| e.to_string())
}

/// The preset ids, for an error naming a wrong one.
fn preset_ids() -> String {
    catalog::presets().iter().map(|p| p.id).collect::<Vec<_>>().join(", ")
}

/// The input text, at most [`MAX_INPUT_BYTES`] of it (`wmp run /dev/zero` must not fill memory).
fn read_input(file: &OsStr) -> Result<String, String> {
    let name = shown(file);
    let reader: Box<dyn Read> =
        if file == "-" { Box::new(std::io::stdin()) } else { Box::new(std::fs::File::open(file).map_err(|e| format!("{name}: {e}"))?) };
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!("{name}: larger than {} MiB; a scenario is far smaller", MAX_INPUT_BYTES >> 20));
    }
    String::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))
}
