//! The exported Flink job (`engine::export`, docs/EXPORT.md), without Java: every preset either
//! exports into a well-formed project or is refused naming the field, and the window results
//! the playground computes equal those the exported job printed on real Flink 2.3
//! (`tests/fixtures/export/<preset>.txt`, recorded by `tools/oracle/export-check.sh`), except
//! for the presets named in `KNOWN_DIFFERENT`, whose difference is explained there and must stay.

// It runs the `wmp` binary or the SQL reader / export: the `tools` feature's (on by default).
#![cfg(feature = "tools")]

use std::path::Path;
use wmp::engine::command::{Command, Param};
use wmp::engine::export::result_line::comparable;
use wmp::engine::export::{export_job, export_job_streaming, ExportedJob, EXPECTED_PATH, JAVA_PATH, REPLAY_GZ_PATH, REPLAY_PATH, SQL_PATH};
use wmp::engine::job::TwoInputMode;
use wmp::engine::limits::MAX_EXPORT_FILE_RECORDS;
use wmp::engine::operator::midstream::MidstreamSpec;
use wmp::engine::operator::sql_window::WindowApi;
use wmp::engine::scenario::build;
use wmp::engine::scenario::schema::{Scenario, TimedCommand};

/// Presets whose exported job prints other results than the playground, and why (docs/EXPORT.md).
/// None today: the last one (`backfill_taskmanager_lost`) agrees since failures replay.
const KNOWN_DIFFERENT: &[(&str, &str)] = &[];

/// Presets the export refuses, and the field its error names.
const REFUSED: &[(&str, &str)] = &[];

/// Presets whose replay is too long to hold in memory (the JS API and the UI refuse them naming
/// `duration_ms`); `wmp export` streams them to a gzipped replay.
const ONLY_STREAMED: &[&str] = &["seed_001_heartbeat"];

/// The presets, then the scenarios only the export's check has (SQL windows: no preset has one).
fn presets() -> Vec<(String, Scenario)> {
    let mut files: Vec<_> = std::fs::read_dir("presets").unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut extra: Vec<_> = std::fs::read_dir("tests/fixtures/export/scenarios").unwrap().map(|e| e.unwrap().path()).collect();
    extra.sort();
    files.extend(extra);
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let id = p.file_stem().unwrap().to_string_lossy().to_string();
            (id, build::parse(&std::fs::read_to_string(&p).unwrap()).unwrap())
        })
        .collect()
}

fn file<'a>(job: &'a ExportedJob, path: &str) -> &'a str {
    &job.files.iter().find(|f| f.path == path).unwrap_or_else(|| panic!("no {path}")).text
}

/// The project holds what a build and a run need, with this scenario's settings and records.
fn assert_well_formed(id: &str, s: &Scenario, job: &ExportedJob) {
    let pom = file(job, "pom.xml");
    assert!(
        pom.contains("<flink.version>2.3.0</flink.version>") && pom.contains("<artifactId>flink-streaming-java</artifactId>"),
        "{id}: pom"
    );
    assert!(pom.contains("<scope>provided</scope>") && pom.contains("<mainClass>playground.PlaygroundJob</mainClass>"), "{id}: pom");
    // Maven 3.8 binds maven-compiler-plugin 3.1, which ignores maven.compiler.release (read since 3.6).
    assert!(
        pom.contains("<artifactId>maven-compiler-plugin</artifactId>\n        <version>3.13.0</version>")
            && pom.contains("<maven.compiler.release>17<"),
        "{id}: the compiler plugin that reads maven.compiler.release"
    );
    let java = file(job, JAVA_PATH);
    assert!(java.starts_with("package playground;") && java.contains("public class PlaygroundJob"), "{id}: java");
    assert!(!java.contains("{{"), "{id}: a placeholder was left in the Java");
    assert!(java.contains("ReplayWatermarks.of("), "{id}: java");
    assert_sql_or_datastream_window(id, s, job, java, pom);
    let sql_midstream = matches!(s.source.midstream, Some(MidstreamSpec::SqlWatermarkAssigner { .. }));
    let midstream = java.contains(".assignTimestampsAndWatermarks(midstream)");
    assert_eq!(
        midstream,
        s.source.midstream.is_some() && !sql_midstream,
        "{id}: a DataStream watermark operator after each replay source iff the scenario has one"
    );
    // SQL's operator is Flink's own, after a view with a WATERMARK expression, on a paced replay.
    assert_eq!(java.contains(".watermark(\"event_time\", \"event_time - INTERVAL "), sql_midstream, "{id}: SQL's watermark operator");
    assert!(java.contains(&format!("PACED = {sql_midstream};")), "{id}: the replay is paced iff SQL's operator runs on wall-clock timers");
    assert!(!sql_midstream || pom.contains("<artifactId>flink-table-planner-loader</artifactId>"), "{id}: the pom brings the planner");
    assert_eq!(
        java.contains("new ByInput(watermarks, watermarks2)"),
        s.second_input.is_some(),
        "{id}: a union's splits get their input's strategy"
    );
    let idle = s.source.watermark.idle_timeout_ms.is_some();
    assert_eq!(java.contains(",  // withIdleness"), idle, "{id}: withIdleness iff the scenario sets it");
    let connect = s.second_input.as_ref().is_some_and(|i| i.mode == TwoInputMode::Connect);
    assert_eq!(java.contains(".process(new TwoInputs())"), connect, "{id}: a connect job's inputs go through the two-input operator");
    let max_on_silence = format!("{:?} {:?}", s.source.watermark.generator, s.source.midstream).contains("MaxOnSilence");
    assert_eq!(
        java.contains("new MaxOnSilenceGenerator(ctx.getInputActivityClock(), "),
        max_on_silence,
        "{id}: the home-made generator on the context's (the replay's) clock"
    );
    // A window that reached Long.MAX_VALUE without an end of input: no firing is the end's.
    let never_marked = java.contains("END_OF_INPUT_ABOVE = 9223372036854775807L;");
    assert!(!never_marked || (max_on_silence && !s.end_of_input), "{id}: END_OF_INPUT_ABOVE");
    assert!(never_marked || id != "max_on_silence", "{id}: its window reaches Long.MAX_VALUE by itself");
    let replay = file(job, REPLAY_PATH);
    let records = replay.lines().filter(|l| l.starts_with("R\t")).count();
    assert!(job.notes[0].contains(&format!("replays the {records} records")), "{id}: notes[0] counts the records");
    let (mut previous, mut checkpoint, mut failures) = (0, "0", 0);
    for l in replay.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        let split_known = || java.contains(&format!("\"{}\"", f[2]));
        let ok = match f[0] {
            "R" => f.len() == 6 && f[3].parse::<i64>().is_ok() && split_known(),
            "T" => f.len() == 2,
            "P" => f.len() == 4 && (f[3] == "1" || f[3] == "0") && split_known(),
            "C" => f.len() == 3 && f[2].parse::<u64>().is_ok_and(|id| id > 0) && std::mem::replace(&mut checkpoint, f[2]) != f[2],
            // A failure restores the last checkpoint before it.
            "F" => {
                f.len() == 3 && f[2] == checkpoint && {
                    failures += 1;
                    true
                }
            }
            _ => false,
        };
        assert!(ok, "{id}: bad replay line {l:?} (or its split is not in SPLITS)");
        let time = f[1].parse::<i64>().unwrap_or_else(|_| panic!("{id}: bad time in {l:?}"));
        assert!(time >= previous, "{id}: the replay goes back in time at {l:?}");
        previous = time;
    }
    assert!(java.contains(&format!("FAILURES = {failures};")), "{id}: the job fails as often as the replay says");
    assert_eq!(java.contains(".trigger(new FailOnMarker("), failures > 0, "{id}: the window task throws on the failure markers");
    assert!(failures > 0 || !["backfill_taskmanager_lost", "restart_stalls_until_idle"].contains(&id), "{id}: its job fails");
    // Flink 2.3 stops a back-pressured split's idleness clock (FLIP-471): the replay says when.
    let clock_lines = replay.lines().any(|l| l.starts_with("P\t"));
    assert!(clock_lines || id != "backpressure_never_idle", "{id}: its back-pressure stops the split clocks");
    let readme = file(job, "README.md");
    assert!(readme.contains("flink run") && readme.contains("end_of_input"), "{id}: README");
    for n in &job.notes {
        assert!(readme.contains(n.as_str()), "{id}: the README states every note");
    }
}

/// A SQL window runs job.sql over a view of the replay (and the pom brings the Table API); a
/// DataStream window is `keyBy(..).window(..)` and has no SQL script.
fn assert_sql_or_datastream_window(id: &str, s: &Scenario, job: &ExportedJob, java: &str, pom: &str) {
    if s.window.as_ref().is_some_and(|w| w.api == WindowApi::Sql) {
        let sql = job.sql.as_deref().unwrap_or_else(|| panic!("{id}: a SQL window has a SQL script"));
        assert_eq!(file(job, SQL_PATH), sql, "{id}: job.sql on the classpath is the sql field");
        assert!(
            java.contains("SOURCE_WATERMARK()") && java.contains("SqlScript.run(tEnv)") && !java.contains("      .window("),
            "{id}: java"
        );
        assert!(pom.contains("<artifactId>flink-table-planner-loader</artifactId>"), "{id}: pom");
        assert!(sql.contains("SET 'table.local-time-zone' = 'UTC';\n"), "{id}: {sql}");
        // The commented Kafka script is the SQL tab's, and the query the job runs its window TVF.
        let tab = wmp::engine::export::sql_script::sql(&s.job_config());
        assert!(tab.lines().all(|l| sql.contains(l)), "{id}: job.sql carries the SQL tab's script: {sql}");
        let tvf = tab.lines().find(|l| l.contains("(TABLE ")).unwrap();
        assert_eq!(sql.matches(tvf).count(), 2, "{id}: the job's query uses the tab's window {tvf:?}");
        assert!(
            sql.lines().filter(|l| !l.starts_with("--") && !l.is_empty()).all(|l| !l.contains("CREATE TABLE")),
            "{id}: the Kafka table stays commented"
        );
    } else {
        assert!(job.sql.is_none() && java.contains("      .window("), "{id}: a DataStream window");
        let sql_midstream = matches!(s.source.midstream, Some(MidstreamSpec::SqlWatermarkAssigner { .. }));
        assert_eq!(pom.contains("flink-table"), sql_midstream, "{id}: the Table API only for SQL's watermark operator");
    }
}

#[test]
fn every_preset_exports_or_is_refused_naming_the_field() {
    for (id, s) in presets() {
        if ONLY_STREAMED.contains(&id.as_str()) {
            let e = export_job(&s).unwrap_err().to_string();
            assert!(
                e.starts_with("duration_ms") && e.contains("run `wmp export` on the scenario's JSON, which keeps 20,000,000"),
                "{id}: {e}"
            );
            continue;
        }
        match (export_job(&s), REFUSED.iter().find(|(p, _)| *p == id)) {
            (Ok(job), None) => assert_well_formed(&id, &s, &job),
            (Err(e), Some((_, field))) => assert!(e.to_string().starts_with(field), "{id}: {e}"),
            (Ok(_), Some(_)) => panic!("{id} now exports: run tools/oracle/export-check.sh {id} and drop it from REFUSED"),
            (Err(e), None) => panic!("{id}: {e}"),
        }
    }
}

#[test]
fn the_playground_prints_what_the_exported_job_printed_on_flink() {
    let mut compared = 0;
    for (id, s) in presets() {
        let Ok(job) = export_job_streaming(&s, &mut |_| Ok(()), MAX_EXPORT_FILE_RECORDS, REPLAY_GZ_PATH, &mut |_, _| {}) else {
            continue;
        };
        let golden = Path::new("tests/fixtures/export").join(format!("{id}.txt"));
        let flink =
            std::fs::read_to_string(&golden).unwrap_or_else(|_| panic!("{id}: no {golden:?}: run tools/oracle/export-check.sh {id}"));
        let flink = comparable(&flink, s.end_of_input);
        let mut playground: Vec<String> = file(&job, EXPECTED_PATH).lines().map(str::to_string).collect();
        playground.sort();
        match KNOWN_DIFFERENT.iter().find(|(p, _)| *p == id) {
            None => {
                assert_eq!(playground, flink, "{id}: the playground's window results differ from Flink's");
                compared += 1;
            }
            Some((_, why)) => assert_ne!(playground, flink, "{id} now agrees with Flink ({why}): drop it from KNOWN_DIFFERENT"),
        }
    }
    assert!(compared >= 12, "only {compared} presets and scenarios compared");
}

#[test]
fn the_download_is_a_zip_unzip_reads() {
    let (_, s) = presets().into_iter().find(|(id, _)| id == "late_data").unwrap();
    let job = export_job(&s).unwrap();
    let dir = std::env::temp_dir().join(format!("wmp-export-zip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("job.zip");
    std::fs::write(&file, job.to_zip("late-data-job")).unwrap();
    // Python's zipfile checks the headers, the central directory and every CRC.
    let script = "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(z.read('late-data-job/pom.xml').decode(), end='')";
    let out = std::process::Command::new("python3").args(["-c", script, file.to_str().unwrap()]).output().expect("python3");
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), file_text(&job, "pom.xml"));
}

fn file_text(job: &ExportedJob, path: &str) -> String {
    file(job, path).to_string()
}

/// The preset's own fix pressed before ▶ (the UI applies it at the next instant) is the job's setting: the
/// export refused every changed scenario ("commands[0] … the job keeps the settings it starts
/// with"), so the fixed job could not be downloaded.
#[test]
fn a_setting_changed_at_the_start_is_the_exported_jobs_and_a_later_one_is_named() {
    let (_, mut s) = presets().into_iter().find(|(id, _)| id == "heartbeat_idle_timeout").unwrap();
    let idle = |at_ms, t| TimedCommand { at_ms, command: Command::SetParam { param: Param::IdleTimeoutMs(Some(t)) } };
    s.commands.insert(0, idle(1, 15_000));
    let job = export_job(&s).unwrap();
    assert!(file(&job, JAVA_PATH).contains("Duration.ofSeconds(15)"), "{}", file(&job, JAVA_PATH));
    assert_eq!(
        job.notes[0],
        "The job starts with idle_timeout_ms as set at 00:00 before ▶ (settings changed before the job ran are its own)"
    );
    s.commands.insert(1, idle(5_000, 20_000));
    let e = export_job(&s).unwrap_err().to_string();
    assert!(e.starts_with("commands[1]") && e.contains("idle_timeout_ms changed at 00:00:05.000, while the job ran"), "{e}");
}

#[test]
fn an_interval_join_is_refused_naming_it() {
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("presets/quiet_side_join.json").unwrap()).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("window");
    o.insert("interval_join".into(), serde_json::json!({"lower_ms": -5000, "upper_ms": 5000, "parallelism": 1}));
    let s = build::parse(&v.to_string()).unwrap();
    let e = export_job(&s).unwrap_err().to_string();
    assert!(e.starts_with("interval_join") && e.contains("cannot be exported yet"), "{e}");
}

#[test]
fn max_on_silence_emitting_per_event_is_refused_naming_the_emit_mode() {
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("presets/max_on_silence.json").unwrap()).unwrap();
    v["source"]["watermark"]["emit"] = "per_event".into();
    let e = export_job(&build::parse(&v.to_string()).unwrap()).unwrap_err().to_string();
    assert!(e.starts_with("source.watermark.emit") && e.contains("cannot be exported yet"), "{e}");
}

#[test]
fn sql_watermark_operator_after_a_source_with_idleness_is_refused_naming_it() {
    // The operator forwards the source's statuses; the job's one reader has them for all splits.
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("presets/sql_idle_reactivates.json").unwrap()).unwrap();
    v["source"]["watermark"]["idle_timeout_ms"] = 5000.into();
    let e = export_job(&build::parse(&v.to_string()).unwrap()).unwrap_err().to_string();
    assert!(e.starts_with("source.watermark.idle_timeout_ms") && e.contains("cannot be exported yet"), "{e}");
    // The legacy connector marks a source subtask without splits idle at once; the operator forwards it.
    v["source"]["watermark"]["idle_timeout_ms"] = serde_json::Value::Null;
    v["flink"] = serde_json::json!({"kafka_connector": "legacy"});
    let e = export_job(&build::parse(&v.to_string()).unwrap()).unwrap_err().to_string();
    assert!(e.starts_with("flink.kafka_connector") && e.contains("cannot be exported yet"), "{e}");
}

#[test]
fn a_failure_behind_a_watermark_operator_is_refused_naming_it() {
    // The failure marker would go through one operator per source subtask into a union.
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("presets/midstream_assigner.json").unwrap()).unwrap();
    v["checkpointing"] = serde_json::json!({"interval_ms": 10000, "restart": {"type": "fixed_delay", "delay_ms": 1000, "attempts": 3}});
    v["commands"] = serde_json::json!([{"at_ms": 30000, "command": "fail", "target": {"keyed_subtask": 0}}]);
    let s = build::parse(&v.to_string()).unwrap();
    let e = export_job(&s).unwrap_err().to_string();
    assert!(e.starts_with("source.midstream") && e.contains("the job's failures"), "{e}");
    // A `fail` command is known up front: refused before the run writes any of the replay.
    let mut written = 0;
    let r = export_job_streaming(
        &s,
        &mut |_| {
            written += 1;
            Ok(())
        },
        MAX_EXPORT_FILE_RECORDS,
        REPLAY_GZ_PATH,
        &mut |_, _| {},
    );
    assert!(r.is_err() && written == 0, "refused after writing {written} pieces of the replay");
}

/// `scenario` from the preset `id` with checkpoints and a `fail` command at `at_ms`.
fn failing(id: &str, at_ms: i64) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(format!("presets/{id}.json")).unwrap()).unwrap();
    v["checkpointing"] = serde_json::json!({"interval_ms": 10000, "restart": {"type": "fixed_delay", "delay_ms": 3000, "attempts": 3}});
    v["commands"] = serde_json::json!([{"at_ms": at_ms, "command": "fail", "target": {"keyed_subtask": 0}}]);
    v
}

#[test]
fn a_restart_starts_the_split_clocks_again() {
    // Back-pressure stops the clocks before and after the failure (at 60 s); the restored job's
    // clocks go on, as the playground's new splits' do: every P line changes what the job's
    // clock does. The scenario's golden shows the same results on Flink.
    let text = std::fs::read_to_string("tests/fixtures/export/scenarios/backpressure_failure.json").unwrap();
    let job = export_job(&build::parse(&text).unwrap()).unwrap();
    let replay = file(&job, REPLAY_PATH);
    let (mut stood, mut failures, mut after_failure) = (std::collections::BTreeMap::new(), 0, 0);
    for l in replay.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        match f[0] {
            "F" => {
                stood.clear();
                failures += 1;
            }
            "P" => {
                let now = f[3] == "1";
                assert_ne!(stood.insert(f[2], now).unwrap_or(false), now, "{l} changes nothing");
                after_failure += usize::from(failures > 0);
            }
            _ => {}
        }
    }
    assert!(failures == 1 && after_failure > 0, "{failures} failures, {after_failure} P lines after");
}

#[test]
fn a_failure_with_max_on_silence_is_refused_naming_the_generator() {
    // Its window watermark of Long.MAX_VALUE would drop the failure marker as late.
    let e = export_job(&build::parse(&failing("max_on_silence", 20_000).to_string()).unwrap()).unwrap_err().to_string();
    assert!(e.starts_with("source.watermark.generator") && e.contains("the job's failures"), "{e}");
}
