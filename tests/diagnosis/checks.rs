//! What a finding's `check` sends the user to look at on their real job must exist there.

use super::{cases, kind_name, options, run_to, session};
use std::collections::BTreeSet;

/// No check points at a log line Flink does not write. Seed 002 §4.3 has users set
/// `StatusWatermarkValve` to DEBUG and look for "Marking channel … as idle"; the class has no
/// logger (2.3 as 1.x), so the four findings that said so name metrics and settings instead.
#[test]
fn no_check_points_at_a_log_line_flink_does_not_write() {
    let mut seen = BTreeSet::new();
    let mut failures = Vec::new();
    for (name, case) in cases() {
        let mut s = session(&case);
        run_to(&mut s, case["at_ms"].as_i64().unwrap());
        for f in s.sim().diagnose(&options(&case)).findings {
            seen.insert(kind_name(f.kind));
            // A source vertex's Watermarks tab is empty (reference §11): its subtasks' watermarks
            // are the source operator's currentOutputWatermark.
            if f.check.contains("DEBUG") || f.check.contains("Marking channel") || f.check.contains("source vertex's Watermarks tab") {
                failures.push(format!("{name}: {}: {}", kind_name(f.kind), f.check));
            }
        }
    }
    for kind in ["flapping_partition", "idleness_never_detected", "idle_timeout_below_interval", "channel_not_realigned"] {
        assert!(seen.contains(kind), "no case raises {kind}, whose check said so");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// With a late side output, numLateRecordsDropped stays 0: the far-future finding sends the user
/// to the side output's consumer instead (the walk read "numLateRecordsDropped climbs" beside
/// "✕ numLateRecordsDropped 0 · ○ side output 300").
#[test]
fn with_a_side_output_the_check_names_its_consumer_not_the_drop_counter() {
    use wmp::engine::diagnosis::finding::FindingKind;
    use wmp::engine::diagnosis::DiagnosisOptions;
    use wmp::engine::session::Session;
    let json = include_str!("../../presets/far_future_outlier.json");
    for side_output in [true, false] {
        let mut s =
            Session::from_json(&json.replace("\"late_side_output\": true", &format!("\"late_side_output\": {side_output}"))).unwrap();
        run_to(&mut s, 60_000);
        let d = s.sim().diagnose(&DiagnosisOptions::default());
        let f = d.findings.iter().find(|f| f.kind == FindingKind::FarFutureTimestamp).expect("the far-future finding");
        assert_eq!(f.check.contains("late side output's consumer"), side_output, "{}", f.check);
        assert_eq!(f.check.contains("numLateRecordsDropped of the window operator climbs"), !side_output, "{}", f.check);
    }
}

/// An interval join drops late records without a metric (reference §9): the finding does not
/// send the user to a numLateRecordsDropped that Flink 2.3 never counts for it.
#[test]
fn an_interval_joins_late_drops_are_not_said_to_be_counted() {
    use wmp::engine::diagnosis::finding::FindingKind;
    use wmp::engine::diagnosis::DiagnosisOptions;
    use wmp::engine::session::Session;
    let mut v: serde_json::Value = serde_json::from_str(include_str!("../scenarios/interval_join_quiet_side.json")).unwrap();
    v["producers"][0]["jitter_ms"] = serde_json::json!(5_000);
    let mut s = Session::from_json(&v.to_string()).unwrap();
    run_to(&mut s, 30_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.findings.iter().find(|f| f.kind == FindingKind::LateRecordsDropped).expect("late drops");
    assert!(f.title.ends_with("dropped silently as late (no metric counts them)."), "{}", f.title);
    assert!(f.check.contains("sideOutputLeftLateData") && !f.check.contains("numLateRecordsDropped of"), "{}", f.check);
}
