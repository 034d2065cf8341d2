//! `wmp export` (its flags: `wmp --help`, from `args.rs`): writes the scenario as a runnable
//! Flink 2.3 job (`engine::export`) into `--out` DIR, prints the notes (what the job does
//! differently) to stderr and the files written to stdout. Native only: it writes files. The
//! replay is written gzipped as the run goes (`replay.tsv.gz`), so a scenario of many millions
//! of records exports too.
//!
//! DIR must be new or empty; `--force` writes into a non-empty one and then removes every file an
//! export can write that this one did not (a stale `replay.tsv` would be replayed before the new
//! `replay.tsv.gz`, a stale `job.sql` run). A refused scenario leaves DIR as it was.

use flate2::write::GzEncoder;
use flate2::Compression;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use wmp::engine::export::{export_job_streaming, EXPECTED_PATH, JAVA_PATH, REPLAY_GZ_PATH, REPLAY_PATH, SQL_PATH};
use wmp::engine::limits::MAX_EXPORT_FILE_RECORDS;
use wmp::engine::scenario::build;

/// `--sql`'s copy of the script, at the project's root.
const ROOT_SQL_PATH: &str = "job.sql";

/// Every file an export (this one, the JS API's, an earlier version's) can write, relative to DIR.
const EXPORT_FILES: &[&str] = &["pom.xml", "README.md", JAVA_PATH, REPLAY_PATH, REPLAY_GZ_PATH, EXPECTED_PATH, SQL_PATH, ROOT_SQL_PATH];

/// Where the replay is written until the scenario is accepted: a refused one leaves DIR as it was.
const PARTIAL_SUFFIX: &str = ".partial";

pub fn run(a: &super::Args) -> Result<String, String> {
    let file = a.file()?;
    let out = a.os("--out").ok_or("wmp export needs --out DIR (the directory to write the project into)")?;
    if out.is_empty() {
        return Err("--out needs a directory, got \"\"".into());
    }
    let root = Path::new(out);
    let existed = check_target(root, a.switch("--force"))?;
    let text = super::read_input(file)?;
    let scenario = build::parse(&text).map_err(|e| format!("{}: {e}", super::shown(file)))?;
    let replay_file = root.join(REPLAY_GZ_PATH);
    let partial = with_suffix(&replay_file, PARTIAL_SUFFIX);
    let mut replay = GzEncoder::new(BufWriter::new(create(root, &partial)?), Compression::fast());
    let mut progress = Progress::new(scenario.duration_ms);
    let mut sink = |text: &str| replay.write_all(text.as_bytes()).map_err(|e| format!("{}: {e}", replay_file.display()));
    let job = match export_job_streaming(&scenario, &mut sink, MAX_EXPORT_FILE_RECORDS, REPLAY_GZ_PATH, &mut |at, n| progress.show(at, n)) {
        Ok(job) => job,
        Err(e) => {
            // Nothing half-written is left behind for a refused scenario.
            progress.clear();
            drop(replay);
            undo(root, existed, &partial);
            return Err(format!("{}: {e}", super::shown(file)));
        }
    };
    progress.clear();
    replay.finish().and_then(|mut w| w.flush()).map_err(|e| format!("{}: {e}", replay_file.display()))?;
    std::fs::rename(&partial, &replay_file).map_err(|e| format!("{}: {e}", replay_file.display()))?;
    let mut written = vec![REPLAY_GZ_PATH.to_string()];
    for f in &job.files {
        write(root, &root.join(&f.path), &f.text)?;
        written.push(f.path.clone());
    }
    if a.switch("--sql") {
        match &job.sql {
            Some(text) => {
                write(root, &root.join(ROOT_SQL_PATH), text)?;
                written.push(ROOT_SQL_PATH.into());
            }
            // The one reason (`job_java::is_sql_window`): "see the notes" pointed at none.
            None => eprintln!(
                "wmp: note: no SQL script: the scenario's window is a DataStream window (window.api \"datastream\"); a SQL window TVF (window.api \"sql\", or cumulate) has one"
            ),
        }
    }
    remove_stale(root, &written)?;
    for n in &job.notes {
        eprintln!("wmp: note: {n}");
    }
    Ok(written.iter().map(|p| root.join(p).display().to_string()).collect::<Vec<_>>().join("\n"))
}

/// Whether DIR exists; refuses a file, and a non-empty directory without `--force` (the user's
/// own `README.md` or `pom.xml` would be replaced, an earlier export's files mixed in).
fn check_target(root: &Path, force: bool) -> Result<bool, String> {
    if !root.exists() {
        return Ok(false);
    }
    let mut entries = std::fs::read_dir(root).map_err(|e| format!("--out {}: {e}", root.display()))?;
    if entries.next().is_some() && !force {
        return Err(format!(
            "--out {}: the directory is not empty; give --force to write the project into it (replacing the files an export writes, removing the ones this export does not)",
            root.display()
        ));
    }
    Ok(true)
}

/// `path` + `suffix`, byte for byte (DIR need not be UTF-8).
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_os_string();
    p.push(suffix);
    PathBuf::from(p)
}

/// After a refused scenario: the partial replay goes, and so does every directory it made.
fn undo(root: &Path, existed: bool, partial: &Path) {
    if !existed {
        let _ = std::fs::remove_dir_all(root);
        return;
    }
    let _ = std::fs::remove_file(partial);
    // `src/main/resources`, `src/main`, `src`: removed only if empty (they may be the user's).
    let mut dir = partial.parent();
    while let Some(d) = dir.filter(|d| *d != root) {
        if std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// Removes the files an export can write that this one did not (only with `--force` can any be
/// there): the job reads `replay.tsv` before `replay.tsv.gz`, and would run a stale `job.sql`.
fn remove_stale(root: &Path, written: &[String]) -> Result<(), String> {
    for stale in EXPORT_FILES.iter().filter(|f| !written.iter().any(|w| w == *f)) {
        let path = root.join(stale);
        no_link_below(root, &path)?;
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(format!("{}: {e}", path.display())),
            _ => {}
        }
    }
    Ok(())
}

fn write(root: &Path, path: &Path, text: &str) -> Result<(), String> {
    create(root, path)?.write_all(text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Refuses a symbolic link on the way from `root` to `path` (`--force` into a directory whose
/// `README.md` or `src` links elsewhere would write or delete outside it).
fn no_link_below(root: &Path, path: &Path) -> Result<(), String> {
    let Ok(rest) = path.strip_prefix(root) else { return Ok(()) };
    let mut at = root.to_path_buf();
    for part in rest.components() {
        at.push(part);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!("{}: a symbolic link; the export writes and removes only files of its own inside --out", at.display()));
        }
    }
    Ok(())
}

/// A new file at `path` under `root`, its directories made.
fn create(root: &Path, path: &Path) -> Result<File, String> {
    no_link_below(root, path)?;
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
