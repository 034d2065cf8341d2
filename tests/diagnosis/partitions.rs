//! One partition's story told right: when an empty one is judged, how far an idle slow one
//! trails, heartbeats (filtered, overdue, never the filter alone), a minimum tied everywhere, and a
//! timeout below the interval.

use super::{kind_name, run_to};
use serde_json::Value;
use wmp::engine::diagnosis::DiagnosisOptions;
use wmp::engine::session::action::Action;
use wmp::engine::session::Session;

/// A split read for no more than one quiet threshold (here 1 s) is not yet empty: a change in
/// the strategy panel before playing runs the instant at start + 1 ms, where every partition
/// had 0 records and the findings called partition 0 the critical culprit. The WHY panel's
/// reasons follow the same class. Past the threshold, the empty partition is named.
#[test]
fn an_empty_partition_is_judged_only_after_a_quiet_threshold() {
    use wmp::engine::diagnosis::finding::FindingKind;
    use wmp::engine::explain::Reason;
    let at = |json: &str, ms: i64| {
        let mut s = Session::from_json(json).unwrap();
        run_to(&mut s, ms);
        let d = s.sim().diagnose(&DiagnosisOptions::default());
        let never = s.sim().explain(0).unwrap().reasons.iter().any(|r| matches!(r, Reason::SplitNeverReceived { .. }));
        (d.findings.iter().any(|f| f.kind == FindingKind::EmptyPartition), never)
    };
    let seed = include_str!("../../presets/seed_001_heartbeat.json");
    assert_eq!(at(seed, 1), (false, false), "seed 001 after 1 ms");
    assert_eq!(at(seed, 1_000), (false, false), "seed 001 at the threshold");
    let empty = include_str!("../../presets/empty_partition.json");
    assert_eq!(at(empty, 1_000), (false, false), "the empty partition at the threshold");
    assert_eq!(at(empty, 1_001), (true, true), "the empty partition past it");
    // Before the first periodic watermark every channel and partition is at No Watermark
    // alike: nothing holds it yet (partition 0 was named, the first of them), and a warning
    // about another partition (seed 001's heartbeat after one record) is not why.
    let mut s = Session::from_json(seed).unwrap();
    run_to(&mut s, 1);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.headline, "No watermark yet: the slowest window subtask (0) waits for a first one on each of its input channels.");
    assert_eq!((d.cause, d.culprit), (None, None), "the heartbeat warning is not why the watermark is held now");
    // A critical finding is still the cause: a missing strategy, while partition 1 (of source
    // subtask 0, which reads partitions 1 and 3) is just read. Every partition is at No
    // Watermark with it, so it is no culprit: the cause is the job's.
    let mut sc: Value = serde_json::from_str(empty).unwrap();
    sc["source"]["watermark"]["generator"] = serde_json::json!({"kind": "no_watermarks"});
    sc["producers"][0]["partitions"] = serde_json::json!([0, 2, 3]);
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.culprit, None);
    assert_eq!(d.cause.map(kind_name).as_deref(), Some("no_watermark_strategy"), "{}", d.headline);
    // Before the first periodic watermark (interval 200 ms) records are read and nothing is
    // wrong, but every subtask is at No Watermark: not "no problem found" beside it.
    let mut s = Session::from_json(empty).unwrap();
    run_to(&mut s, 100);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.cause, None);
    assert_eq!(d.headline, "No watermark yet: the slowest window subtask (0) waits for a first one on each of its input channels.");
    // A partition added while the job runs is "just added" (early: a source subtask that has
    // emitted a watermark never goes back to No Watermark for a new split).
    let mut sc: Value = serde_json::from_str(seed).unwrap();
    sc["commands"] = serde_json::json!([{"at_ms": 200, "command": "add_partition"}]);
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(d.headline.starts_with("Just added: partition 16 has had no record in the 300 ms it has been read"), "{}", d.headline);
    // A restart keeps the judgment: partition 3, empty for two minutes, is not "just started"
    // in the first second after the job is back (TaskManager 0 lost at 120 s, back at 125 s;
    // the restarted sources' first watermark at 125.2 s, one interval after).
    let mut sc: Value = serde_json::from_str(include_str!("../../presets/restart_stalls_until_idle.json")).unwrap();
    sc["source"]["watermark"]["idle_timeout_ms"] = Value::Null;
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 125_300);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.cause.map(kind_name).as_deref(), Some("empty_partition"), "{}", d.headline);
    let mut s = Session::from_json(empty).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!((d.cause, d.culprit.and_then(|c| c.partition)), (None, Some(3)));
    assert_eq!(
        d.headline,
        "Just started: partition 3 has had no record in the 500 ms it has been read, so its source subtask is at No Watermark; this diagnosis calls it empty after 1.0 s without one, and without an idle timeout Flink never marks it idle."
    );
    // With an idle timeout, the headline names it: the diagnosis' quiet threshold is not it.
    let mut sc: Value = serde_json::from_str(empty).unwrap();
    sc["source"]["watermark"]["idle_timeout_ms"] = serde_json::json!(10_000);
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(
        d.headline.ends_with("calls it empty after 1.0 s without one, and Flink marks it idle after its 10 s idle timeout."),
        "{}",
        d.headline
    );
    // A watermark interval of 0 (with watermarks per event, or nothing else would be said):
    // Flink never checks the timeout (explain reads it so too).
    sc["source"]["watermark"]["auto_watermark_interval_ms"] = serde_json::json!(0);
    sc["source"]["watermark"]["emit"] = serde_json::json!("per_event");
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 500);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert!(d.headline.ends_with("without one, and with a watermark interval of 0 Flink never checks its idle timeout."), "{}", d.headline);
}

/// A backlog behind a partition its idle timeout excluded is still that far behind: the
/// backfill with idleness on the wall clock and 2.3's other switches (a split paused by
/// alignment, then declared idle, is never resumed) said "level with the other partitions in
/// event time" 15 h back.
#[test]
fn an_idle_slow_partition_says_how_far_it_trails() {
    let mut sc: Value = serde_json::from_str(include_str!("../../presets/backfill_aligned.json")).unwrap();
    sc["flink"] = serde_json::json!({ "idleness_clock": "wall" });
    sc["source"]["watermark"]["idle_timeout_ms"] = 5_000.into();
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 1_430_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.findings.iter().find(|f| f.kind == wmp::engine::diagnosis::finding::FindingKind::SlowPartition).expect("the finding");
    assert!(f.title.contains("The idle timeout excluded it"), "{}", f.title);
    let behind = f.evidence.iter().find(|e| e.name == "behindMs").expect("behindMs");
    assert!(behind.value > 3_600_000.0 && behind.text.ends_with("behind the other partitions"), "{behind:?}");
}

/// Seed 001 preset, run to `at_ms` after `commands` (each at its own time, in order).
fn seed_001_with(commands: Vec<(i64, wmp::engine::command::Command)>, at_ms: i64) -> Session {
    let mut s = Session::from_json(include_str!("../../presets/seed_001_heartbeat.json")).unwrap();
    for (t, c) in commands {
        // At 0 before the first instant runs (its records are read at once).
        if t > 0 {
            run_to(&mut s, t);
        }
        s.apply(c).unwrap();
    }
    run_to(&mut s, at_ms);
    s
}

/// Seed 001 (question 3): without an idle timeout, filtering the heartbeats turns the stall
/// between them into a permanent one (the partition then gets no record and never goes idle).
/// The heartbeat finding advised "Filter heartbeats before the watermark generator" first.
#[test]
fn the_heartbeat_finding_never_advises_the_filter_alone() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let s = seed_001_with(vec![], 100 * 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.finding(FindingKind::HeartbeatPartition).expect("the heartbeat finding");
    assert!(!f.detail.contains("Filter heartbeats before the watermark generator;"), "{}", f.detail);
    assert!(f.detail.contains("only together with an idle timeout") && f.detail.contains("becomes permanent"), "{}", f.detail);
    assert!(d.fixes().iter().all(|x| x.action != Action::DropHeartbeats(true)), "{:?}", d.fixes());
    // With a timeout in force the filter is the fix, and the text says the timeout does the rest.
    let mut sc: Value = serde_json::from_str(include_str!("../../presets/heartbeat_idle_timeout.json")).unwrap();
    sc["source"]["watermark"]["idle_timeout_ms"] = 60_000.into();
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 120_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.finding(FindingKind::HeartbeatPartition).expect("the heartbeat finding");
    assert!(f.detail.contains("the 1 min idle timeout excludes it"), "{}", f.detail);
    assert!(f.fixes.iter().any(|x| x.action == Action::DropHeartbeats(true)), "{:?}", f.fixes);
}

/// With the heartbeat filter on, partition 11 read two heartbeats (00:00 and 01:30) and the
/// filter dropped both: the page said it "has never received a record … 0 records read".
#[test]
fn a_partition_whose_heartbeats_were_all_filtered_is_not_said_never_to_have_received_one() {
    use wmp::engine::command::{Command, Param};
    use wmp::engine::diagnosis::finding::FindingKind;
    let s = seed_001_with(vec![(0, Command::SetParam { param: Param::DropHeartbeats(true) })], 100 * 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let p = &d.partitions[11];
    assert_eq!((p.records, p.filtered), (0, 2), "{p:?}");
    assert_eq!(d.partitions.iter().map(|p| p.filtered).sum::<u64>(), 2, "only partition 11's records were filtered");
    let f = d.finding(FindingKind::EmptyPartition).expect("the finding");
    assert!(f.title.starts_with("Partition 11 (source subtask 3) has read only heartbeats (2), and the filter drops them"), "{}", f.title);
    assert!(f.evidence.iter().all(|e| e.text != "0 records read"), "{:?}", f.evidence);
    assert_eq!(f.number("filtered"), Some(2.0));
    let ex = d.explanation.as_ref().unwrap();
    assert!(!ex.text.contains("never received") && ex.text.contains("partition 11 has read only heartbeats (2)"), "{}", ex.text);
}

/// Filtered records are counted per split, not estimated from the read offset minus the
/// records read (on the aligned backfill, started at a timestamp and read at full speed, with
/// heartbeats on partition 2 dropped by the filter, that said 12 where the filter dropped 14).
#[test]
fn filtered_records_are_counted_per_split_not_guessed_from_offsets() {
    let mut sc: Value = serde_json::from_str(include_str!("../../presets/backfill_aligned.json")).unwrap();
    sc["source"]["transform"] = serde_json::json!({"drop_heartbeats": true});
    sc["source"]["read_rate_per_s"] = Value::Null;
    let beat = serde_json::json!({"partitions": 2, "kind": "heartbeat", "every_ms": 10_000, "keys": ["heartbeat"]});
    sc["producers"].as_array_mut().unwrap().push(beat);
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 120_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let filtered: Vec<u64> = d.partitions.iter().map(|p| p.filtered).collect();
    let total: u64 = s.sim().sources().iter().map(|src| src.num_records_filtered).sum();
    assert!(total > 0, "the filter dropped the heartbeats");
    assert_eq!(filtered, vec![0, 0, total, 0], "only partition 2's heartbeats were filtered");
}

/// Seed 001: partition 11's producer silenced at 01:35; at 03:40 the heartbeat due at 03:00
/// never came. It said "Partition 11 gets only heartbeats (one every 90 min)": silent longer
/// than its own period, its heartbeats stopped, and it is called silent.
#[test]
fn a_heartbeat_partition_silent_past_its_period_is_silent() {
    use wmp::engine::command::Command;
    use wmp::engine::diagnosis::classify::PartitionClass;
    use wmp::engine::diagnosis::finding::FindingKind;
    let s = seed_001_with(vec![(95 * 60_000, Command::Silence { partition: 11 })], 220 * 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.partitions[11].class, PartitionClass::Idle, "{:?}", d.partitions[11]);
    assert!(d.finding(FindingKind::HeartbeatPartition).is_none(), "{}", d.headline);
    let f = d.finding(FindingKind::IdlePartition).expect("the finding");
    assert_eq!(f.partition, Some(11));
    assert!(
        f.title.starts_with("Partition 11 got only heartbeats, one every 90 min, but has had none for 2.2 h (they stopped)"),
        "{}",
        f.title
    );
    assert!(f.title.ends_with("and holds the watermark: no idle timeout lets it go."), "{}", f.title);
    // Before the heartbeat due at 03:00 (and a little slack) it is still a heartbeat partition.
    let s = seed_001_with(vec![(95 * 60_000, Command::Silence { partition: 11 })], 180 * 60_000 - 1);
    assert_eq!(s.sim().diagnose(&DiagnosisOptions::default()).partitions[11].class, PartitionClass::Heartbeat);
}

/// A cause of the whole job (no watermark strategy; an interval of 0) is pinned on no
/// partition: every channel and partition is at No Watermark alike, so the culprit, the
/// explanation's holder and the snapshot's minimum marks name none.
#[test]
fn a_job_wide_cause_is_pinned_on_no_partition() {
    use wmp::engine::command::{Command, Param};
    use wmp::engine::source::generator::GeneratorKind;
    let mut s = Session::from_json(include_str!("../../presets/bound_too_large.json")).unwrap();
    s.apply(Command::SetParam { param: Param::Generator(GeneratorKind::NoWatermarks) }).unwrap();
    run_to(&mut s, 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.cause.map(kind_name).as_deref(), Some("no_watermark_strategy"), "{}", d.headline);
    assert_eq!(d.culprit, None);
    let ex = d.explanation.as_ref().unwrap();
    assert!(ex.held_by.is_none() && !ex.text.contains("because of channel"), "{}", ex.text);
    assert!(ex.tied.is_some(), "{}", ex.text);
    assert!(d.findings.iter().all(|f| !f.holds_watermark), "{:?}", d.findings);
    assert!(s.sim().snapshot().operators.iter().flat_map(|o| &o.channels).all(|c| !c.is_min));

    let mut sc: Value = serde_json::from_str(include_str!("../../presets/empty_partition.json")).unwrap();
    sc["source"]["watermark"]["auto_watermark_interval_ms"] = 0.into();
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 60_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.cause.map(kind_name).as_deref(), Some("periodic_emission_disabled"), "{}", d.headline);
    assert_eq!(d.culprit, None);
    let ex = d.explanation.as_ref().unwrap();
    assert!(ex.text.starts_with("Window subtask 0's watermark is No Watermark, as are all 2 of its input channels and all 4 partitions behind them, so no one of them holds it (the cause is job-wide): the auto-watermark interval"), "{}", ex.text);
}

/// A timeout below the interval (50 ms, interval 200 ms): Flink's idleness timer starts its
/// countdown at the first periodic check without a record and declares idle at a check more
/// than the timeout later, the next one (reference §1.6). It said "goes idle whenever one
/// interval passes without a record … normal traffic flips", while partition 0, a record every
/// 50 ms, stays active.
#[test]
fn a_timeout_below_the_interval_idles_a_split_after_two_quiet_checks() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let mut sc: Value = serde_json::from_str(include_str!("../../presets/heartbeat_idle_timeout.json")).unwrap();
    sc["source"]["watermark"]["idle_timeout_ms"] = 50.into();
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, 120_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.finding(FindingKind::IdleTimeoutBelowInterval).expect("the finding");
    assert!(!f.title.contains("whenever one interval passes"), "{}", f.title);
    assert!(
        f.title.contains("goes idle at the second check in a row without a record, after a gap of more than 400 ms (always past 600 ms)"),
        "{}",
        f.title
    );
    assert!(!f.detail.contains("normal traffic flips"), "{}", f.detail);
    assert_eq!(d.partitions[0].idle_flips, 0, "partition 0's normal traffic stays active: {:?}", d.partitions[0]);
    assert!(d.partitions[1].idle_flips > 0, "partition 1, a heartbeat every 30 s, goes idle between them");
}

/// A partition added to a running job holds its source subtask where it was, not at No
/// Watermark: the new split's No Watermark becomes the minimum, and a watermark never goes
/// back (the review's walk read "holds its source subtask at No Watermark" beside a graph and
/// windows at 00:00:26). The headline while it is too early to judge says the same.
#[test]
fn an_added_empty_partition_holds_its_subtask_where_it_was() {
    use wmp::engine::diagnosis::finding::FindingKind;
    use wmp::engine::time::describe_watermark;
    let json = r#"{"duration_ms": 60000, "topic": {"partitions": 2}, "source": {"parallelism": 2},
        "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "producers": [{"partitions": "all", "kind": "steady", "rate_per_s": 10, "keys": {"count": 1}}],
        "commands": [{"at_ms": 20000, "command": "add_partition"}]}"#;
    let mut s = Session::from_json(json).unwrap();
    let start = s.sim().config().start_time.ms();
    run_to(&mut s, 20_500);
    let wm = |s: &Session| s.sim().snapshot().sources[1].output_watermark;
    let held = wm(&s);
    assert!(held.ms() > start, "source subtask 1 had a watermark: {held:?}");
    let headline = s.sim().diagnose(&DiagnosisOptions::default()).headline;
    assert!(headline.contains(&format!("is at {}", describe_watermark(held))) && !headline.contains("No Watermark"), "{headline}");
    run_to(&mut s, 30_000);
    assert_eq!(wm(&s), held, "held where it was");
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.findings.iter().find(|f| f.kind == FindingKind::EmptyPartition).expect("the added partition is empty");
    assert!(
        f.title.contains(&format!("holds its source subtask at {}", describe_watermark(held))) && !f.title.contains("No Watermark"),
        "{}",
        f.title
    );
}

/// A timeout set on the running job starts the split's idle timer then: seed 001's partition 11,
/// silent for 25 minutes, goes idle 15 s after the change, and the finding counts down to it
/// (it said "excludes it if no heartbeat comes for that long", which read as already true).
#[test]
fn a_timeout_set_while_running_is_counted_down_from_the_change() {
    use wmp::engine::command::{Command, Param};
    use wmp::engine::diagnosis::finding::FindingKind;
    let mut s = Session::from_json(include_str!("../../presets/seed_001_heartbeat.json")).unwrap();
    run_to(&mut s, 25 * 60_000 + 45_000);
    s.apply_now(vec![Command::SetParam { param: Param::IdleTimeoutMs(Some(15_000)) }], &[String::new()], &mut ()).unwrap();
    run_to(&mut s, 25 * 60_000 + 50_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f =
        d.findings.iter().find(|f| f.kind == FindingKind::HeartbeatPartition && f.partition == Some(11)).expect("the heartbeat finding");
    // Set 5 s ago, 15 s (plus the interval's check) from the change: about 10 s left.
    let left: f64 =
        f.title.split("excludes it in ").nth(1).and_then(|t| t.split(" s ").next()).and_then(|n| n.parse().ok()).expect(&f.title);
    assert!((9.0..=11.0).contains(&left) && f.title.ends_with("unless a record comes first."), "{}", f.title);
}
