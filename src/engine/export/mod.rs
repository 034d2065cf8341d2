//! A scenario as a runnable Flink 2.3 job (`wmp export`, the JS API's `exportJob`, the UI's
//! "Download runnable job"): a Maven project whose DataStream program replays, on a real
//! cluster, exactly the records the playground's sources emitted, through the scenario's
//! `WatermarkStrategy` (and its mid-stream operator, or a union's second source's) and keyed
//! event-time window or SQL window TVF (`job.sql`), and prints one line per window result — the
//! same lines the playground computes (`expected-output.txt`), so the two can be compared.
//!
//! Why a replay and not the producers: the playground's records come from seeded producers and
//! its reading from a model of Kafka; replaying what the sources *emitted* (with the timestamps
//! their assigners gave) leaves only Flink's watermark and window machinery to compare.
//! What the replay cannot reproduce is refused up front (`support`) or listed in `notes`.

mod failovers;
pub mod java_fragments;
mod job_java;
pub use job_java::is_sql_window;
mod job_sql;
mod pom;
mod readme;
pub mod replay;
pub mod result_line;
mod split_clocks;
pub mod sql_script;
mod support;
pub mod zip;

use crate::engine::error::InputError;
use crate::engine::limits::MAX_EXPORT_RECORDS;
use crate::engine::scenario::schema::Scenario;
use serde::Serialize;

/// One file of the exported project, its path relative to the project's root.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExportFile {
    pub path: String,
    pub text: String,
}

/// The exported project: its files, the Flink SQL script where the scenario has one, and what
/// the exported job does differently from the playground.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExportedJob {
    pub files: Vec<ExportFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sql: Option<String>,
    pub notes: Vec<String>,
}

/// Where the generated Java program lives in the project.
pub const JAVA_PATH: &str = "src/main/java/playground/PlaygroundJob.java";
/// The replayed records, on the job's classpath.
pub const REPLAY_PATH: &str = "src/main/resources/replay.tsv";
/// The same compressed with gzip (`wmp export`): the job reads either.
pub const REPLAY_GZ_PATH: &str = "src/main/resources/replay.tsv.gz";
/// The playground's window results, in the job's output format, sorted.
pub const EXPECTED_PATH: &str = "expected-output.txt";
/// The SQL script a SQL-window job runs, on the job's classpath.
pub const SQL_PATH: &str = "src/main/resources/job.sql";

/// Runs the scenario as `wmp run` does, recording what its sources emit, and writes the
/// project, the replay included (at most `MAX_EXPORT_RECORDS` records: it is held in memory).
/// An input error names the scenario field the export cannot reproduce.
pub fn export_job(scenario: &Scenario) -> Result<ExportedJob, InputError> {
    let mut text = String::new();
    let mut job = export_job_streaming(
        scenario,
        &mut |t| {
            text.push_str(t);
            Ok(())
        },
        MAX_EXPORT_RECORDS,
        REPLAY_PATH,
        &mut |_, _| {},
    )?;
    job.files.insert(3, ExportFile { path: REPLAY_PATH.into(), text });
    Ok(job)
}

/// The same, writing the replay to `replay` as the run goes (`wmp export`: a replay too long to
/// hold in memory, compressed); the files returned are the others. `replay_path` is where the
/// project will hold it (`REPLAY_PATH` or `REPLAY_GZ_PATH`); `progress` hears where the run is.
pub fn export_job_streaming(
    scenario: &Scenario,
    replay: replay::ReplaySink,
    max_records: usize,
    replay_path: &str,
    progress: replay::Progress,
) -> Result<ExportedJob, InputError> {
    let folded = scenario.fold_start_settings()?;
    let scenario = &folded.scenario;
    let user = |e| folded.user_error(e);
    support::check(scenario).map_err(user)?;
    let run = replay::record(scenario, replay, max_records, progress).map_err(user)?;
    support::check_failures(scenario, &run).map_err(user)?;
    let mut notes = support::notes(scenario, &run);
    if !folded.settings.is_empty() {
        notes.insert(0, support::start_settings_note(&folded.settings));
    }
    let cfg = scenario.job_config();
    let sql = job_java::is_sql_window(&cfg).then(|| job_sql::job_sql(&scenario.name, &cfg));
    let mut files = vec![
        ExportFile { path: "pom.xml".into(), text: pom::pom_xml(scenario, job_java::uses_table_api(&cfg)) },
        ExportFile { path: "README.md".into(), text: readme::readme(scenario, &run, &notes, replay_path) },
        ExportFile { path: JAVA_PATH.into(), text: job_java::java(scenario, &run) },
        ExportFile { path: EXPECTED_PATH.into(), text: run.expected_output() },
    ];
    if let Some(text) = &sql {
        files.push(ExportFile { path: SQL_PATH.into(), text: text.clone() });
    }
    Ok(ExportedJob { files, sql, notes })
}

impl ExportedJob {
    /// The project as one stored `.zip` under `root/` (the UI's download).
    pub fn to_zip(&self, root: &str) -> Vec<u8> {
        let paths: Vec<String> = self.files.iter().map(|f| format!("{root}/{}", f.path)).collect();
        let entries: Vec<(&str, &[u8])> = paths.iter().zip(&self.files).map(|(p, f)| (p.as_str(), f.text.as_bytes())).collect();
        zip::stored_zip(&entries)
    }
}
