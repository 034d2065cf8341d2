//! `wmp export SCENARIO --out DIR [--sql]`: writes the scenario as a runnable Flink 2.3 job
//! (`engine::export`) into DIR, prints the notes (what the job does differently) to stderr and
//! the files written to stdout. Native only: it writes files. The replay is written gzipped as
//! the run goes (`replay.tsv.gz`), so a scenario of many millions of records exports too.

use flate2::write::GzEncoder;
use flate2::Compression;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::Path;
use wmp::engine::export::{export_job_streaming, REPLAY_GZ_PATH};
use wmp::engine::limits::MAX_EXPORT_FILE_RECORDS;
use wmp::engine::scenario::build;

pub fn run(args: impl Iterator<Item = String>) -> Result<String, String> {
    let (mut out, mut file, mut sql) = (None, None, false);
    let mut args = args;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = Some(args.next().ok_or("--out needs a directory")?),
            "--sql" => sql = true,
            _ if file.is_none() => file = Some(a),
            _ => return Err(format!("unexpected argument {a:?} (usage: wmp export SCENARIO --out DIR [--sql])")),
        }
    }
    let file = file.ok_or("usage: wmp export SCENARIO --out DIR [--sql]")?;
    let out = out.ok_or("wmp export needs --out DIR (the directory to write the project into)")?;
    let text = super::read_input(&file)?;
    let scenario = build::parse(&text).map_err(|e| format!("{file}: {e}"))?;
    let root = Path::new(&out);
    let existed = root.exists();
    let replay_file = root.join(REPLAY_GZ_PATH);
    let mut replay = GzEncoder::new(BufWriter::new(create(&replay_file)?), Compression::fast());
    let mut progress = Progress::new(scenario.duration_ms);
    let mut sink = |text: &str| replay.write_all(text.as_bytes()).map_err(|e| format!("{}: {e}", replay_file.display()));
    let job = match export_job_streaming(&scenario, &mut sink, MAX_EXPORT_FILE_RECORDS, REPLAY_GZ_PATH, &mut |at, n| progress.show(at, n)) {
        Ok(job) => job,
        Err(e) => {
            // Nothing half-written is left behind for a refused scenario.
            progress.clear();
            drop(replay);
            let _ = if existed { std::fs::remove_file(&replay_file) } else { std::fs::remove_dir_all(root) };
            return Err(format!("{file}: {e}"));
        }
    };
    progress.clear();
    replay.finish().and_then(|mut w| w.flush()).map_err(|e| format!("{}: {e}", replay_file.display()))?;
    let mut written = vec![REPLAY_GZ_PATH.to_string()];
    for f in &job.files {
        write(&root.join(&f.path), &f.text)?;
        written.push(f.path.clone());
    }
    if sql {
        match &job.sql {
            Some(text) => {
                write(&root.join("job.sql"), text)?;
                written.push("job.sql".into());
            }
            None => eprintln!("wmp: note: no SQL script: the scenario is not expressible as a Flink SQL job (see the notes)"),
        }
    }
    for n in &job.notes {
        eprintln!("wmp: note: {n}");
    }
    Ok(written.iter().map(|p| format!("{out}/{p}")).collect::<Vec<_>>().join("\n"))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    create(path)?.write_all(text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// A new file at `path`, its directories made.
fn create(path: &Path) -> Result<File, String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    File::create(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// A one-line progress display on a terminal's stderr (nothing when stderr is a file or a pipe,
/// so scripts and tests read only the notes): a long export (seed 001: ~6 s) shows it is moving.
struct Progress {
    duration_ms: i64,
    shown: bool,
    /// The whole percent last shown: the line changes at most a hundred times.
    last_pct: i64,
}

impl Progress {
    fn new(duration_ms: i64) -> Self {
        Progress { duration_ms, shown: false, last_pct: -1 }
    }

    fn show(&mut self, at_ms: i64, records: usize) {
        if !std::io::stderr().is_terminal() || self.duration_ms <= 0 {
            return;
        }
        let pct = (at_ms.saturating_mul(100) / self.duration_ms).min(100);
        if pct != self.last_pct {
            eprint!("\rwmp: export: {pct:3} % of the run, {records} records written");
            (self.shown, self.last_pct) = (true, pct);
        }
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r{:60}\r", "");
            self.shown = false;
        }
    }
}
