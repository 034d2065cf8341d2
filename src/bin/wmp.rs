//! `wmp`: the command-line runner. Runs a scenario file (or `-` for stdin) and prints JSON.
//!
//! ```text
//! wmp run [--format native|oracle|oracle2|oracle3] [--trace] FILE|-
//! wmp validate [--format native|oracle|oracle2|oracle3] FILE|-
//! wmp diagnose [--at MS] [--text] FILE|-
//! wmp serve [--speed N] [--port P] [--until MS] FILE|-
//! wmp sql [--base SCENARIO | --preset ID] SQLFILE|-
//! wmp export SCENARIO|- --out DIR [--sql]
//! ```
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
//! Bad input gives a one-line error naming the field (for SQL: `line L, column C`), and exit
//! code 2.

// The crate root looks for modules beside it (src/bin/), where another file would be a binary.
// Native only: the crate's tests also build this binary for wasm32, which has no sockets.
#[cfg(not(target_arch = "wasm32"))]
#[path = "wmp/export.rs"]
mod export;
#[cfg(not(target_arch = "wasm32"))]
#[path = "wmp/serve.rs"]
mod serve;

use std::io::{Read, Write};
use std::process::ExitCode;
use wmp::engine::limits::MAX_INPUT_BYTES;
use wmp::engine::report::write_report;
use wmp::engine::scenario::{build, catalog, oracle, oracle2, oracle3, oracle3_report};
use wmp::engine::session::Session;
use wmp::engine::sql::sql_to_scenario;

const USAGE: &str = "usage: wmp run|validate [--format native|oracle|oracle2|oracle3] [--trace] FILE|- · wmp diagnose [--at MS] [--text] FILE|- · wmp serve [--speed N] [--port P] [--until MS] FILE|- · wmp sql [--base SCENARIO|--preset ID] SQLFILE|- · wmp export SCENARIO|- --out DIR [--sql]";

/// What a command prints: text, or the native report (streamed, it can be large).
enum Output {
    Text(String),
    Report(Box<Session>, bool),
}

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
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

fn run(args: Vec<String>) -> Result<Output, String> {
    let mut args = args.into_iter();
    let cmd = args.next().ok_or(USAGE)?;
    if cmd == "--help" || cmd == "-h" {
        return Ok(Output::Text(USAGE.to_string()));
    }
    if cmd == "serve" {
        #[cfg(not(target_arch = "wasm32"))]
        return serve::run(args).map(Output::Text);
        #[cfg(target_arch = "wasm32")]
        return Err("serve needs a native build (it listens on a socket)".to_string());
    }
    if cmd == "export" {
        #[cfg(not(target_arch = "wasm32"))]
        return export::run(args).map(Output::Text);
        #[cfg(target_arch = "wasm32")]
        return Err("export needs a native build (it writes files)".to_string());
    }
    if cmd == "sql" {
        return sql(args.collect()).map(Output::Text);
    }
    let (mut format, mut trace, mut file) = ("native".to_string(), false, None);
    let (mut at_ms, mut text_out) = (None, false);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--format" => format = args.next().ok_or("--format needs native, oracle, oracle2 or oracle3")?,
            "--trace" => trace = true,
            "--text" => text_out = true,
            "--at" => {
                at_ms = Some(args.next().and_then(|v| v.parse::<i64>().ok()).filter(|&v| v >= 0).ok_or("--at needs a time in ms >= 0")?)
            }
            _ if file.is_none() => file = Some(a),
            _ => return Err(format!("unexpected argument {a:?} ({USAGE})")),
        }
    }
    let file = file.ok_or(USAGE)?;
    let text = read_input(&file)?;
    let at = |e: wmp::engine::error::InputError| format!("{file}: {e}");
    match (cmd.as_str(), format.as_str()) {
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
        ("run", "oracle3") => {
            let mut sc = oracle3::parse(&text).map_err(at)?;
            if sc.name.is_empty() {
                // The oracle names a run after its file.
                let stem = std::path::Path::new(&file).file_stem().map(|s| s.to_string_lossy().to_string());
                sc.name = stem.filter(|_| file != "-").unwrap_or_default();
            }
            let run = sc.run().map_err(at)?;
            let mut out = oracle3_report::report(&sc, &run);
            if trace {
                out["trace"] = wmp::engine::report::trace(&run.sim);
            }
            Ok(Output::Text(out.to_string()))
        }
        ("diagnose", "native") => {
            let mut session = Session::from_json(&text).map_err(at)?;
            let until = at_ms.unwrap_or(session.scenario().duration_ms);
            session.run_until(until, &mut ()).map_err(at)?;
            let d = session.sim().diagnose(&Default::default());
            Ok(Output::Text(if text_out {
                wmp::engine::diagnosis::text::render(&d)
            } else {
                serde_json::to_string(&d).map_err(|e| e.to_string())?
            }))
        }
        // The same checks `run` makes before it runs (the scenario and every scripted command).
        ("validate", "native") => Session::from_json(&text).map(|_| Output::Text("ok".into())).map_err(at),
        ("validate", "oracle") => oracle::parse(&text).map(|_| Output::Text("ok".into())).map_err(at),
        ("validate", "oracle2") => oracle2::parse(&text).map(|_| Output::Text("ok".into())).map_err(at),
        ("validate", "oracle3") => oracle3::parse(&text).map(|_| Output::Text("ok".into())).map_err(at),
        (_, "native" | "oracle" | "oracle2" | "oracle3") => Err(format!("unknown command {cmd:?} ({USAGE})")),
        _ => Err(format!("--format must be native, oracle, oracle2 or oracle3, got {format:?}")),
    }
}

/// `wmp sql`: the scenario JSON the script gives on its base; the notes go to stderr.
fn sql(args: Vec<String>) -> Result<String, String> {
    let (mut base, mut file) = (None, None);
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--base" | "--preset" if base.is_some() => return Err("give one of --base and --preset".into()),
            "--base" => base = Some((true, args.next().ok_or("--base needs a scenario file")?)),
            "--preset" => base = Some((false, args.next().ok_or("--preset needs a preset id")?)),
            _ if file.is_none() => file = Some(a),
            _ => return Err(format!("unexpected argument {a:?} ({USAGE})")),
        }
    }
    let file = file.ok_or(USAGE)?;
    let base = match base {
        Some((true, path)) => {
            let text = read_input(&path)?;
            build::parse(&text).map_err(|e| format!("{path}: {e}"))?
        }
        Some((false, id)) => {
            let p = catalog::preset(&id).ok_or_else(|| format!("no preset {id:?} (see the README's list)"))?;
            build::parse(p.json).map_err(|e| e.to_string())?
        }
        None => build::parse(catalog::presets()[0].json).map_err(|e| e.to_string())?,
    };
    let text = read_input(&file)?;
    let (scenario, notes) = sql_to_scenario(&text, &base).map_err(|e| e.to_string())?;
    for n in notes {
        eprintln!("wmp: note: {n}");
    }
    serde_json::to_string_pretty(&scenario).map_err(|e| e.to_string())
}

/// The input text, at most [`MAX_INPUT_BYTES`] of it (`wmp run /dev/zero` must not fill memory).
fn read_input(file: &str) -> Result<String, String> {
    let name = if file == "-" { "stdin" } else { file };
    let reader: Box<dyn Read> =
        if file == "-" { Box::new(std::io::stdin()) } else { Box::new(std::fs::File::open(file).map_err(|e| format!("{file}: {e}"))?) };
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!("{name}: larger than {} MiB; a scenario is far smaller", MAX_INPUT_BYTES >> 20));
    }
    String::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))
}
