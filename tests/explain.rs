//! `explain` names the culprit the seeds describe: a silent split with no idle timeout, a
//! subtask without a split, a far-future timestamp, seconds read as milliseconds.

mod common;

use common::run::sim;
use wmp::engine::explain::{Ahead, Reason};
use wmp::engine::sim::Simulation;

fn seed_001(edit: &str) -> String {
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios/seed_001_heartbeat.json")).unwrap();
    base.replacen("\"idle_timeout_ms\": null", edit, 1)
}

#[test]
fn heartbeat_partition_is_named_with_its_silence() {
    let s = sim(&seed_001("\"idle_timeout_ms\": null"), 30 * 60_000);
    for op in 0..8 {
        let ex = s.explain(op).unwrap();
        assert_eq!(ex.held_by.as_ref().and_then(|c| c.partition), Some(11), "{}", ex.text);
        assert!(
            ex.reasons
                .iter()
                .any(|r| matches!(r, Reason::SplitSilentNoIdleTimeout { partition: 11, silent_ms } if *silent_ms >= 29 * 60_000)),
            "{}",
            ex.text
        );
        assert!(ex.waiting_total > 0);
        assert!(ex.text.contains("partition 11") && ex.text.contains("no idle timeout"), "{}", ex.text);
    }
}

/// The page's diagnosis writes its times as its panels do ("23:59:54.999 -1d"); the API's
/// keeps full UTC dates. Both name the same moment.
#[test]
fn the_diagnosis_writes_times_in_the_style_it_is_given() {
    use wmp::engine::diagnosis::DiagnosisOptions;
    use wmp::engine::time::WatermarkStyle;
    let s = sim(&seed_001("\"idle_timeout_ms\": null"), 12 * 60_000 + 30_000);
    let api = s.diagnose(&DiagnosisOptions::default()).explanation.unwrap().text;
    assert!(api.contains("watermark is 2025-12-31 23:59:54.999 because"), "{api}");
    let page = DiagnosisOptions { time_style: Some(WatermarkStyle::Near(s.now())), ..DiagnosisOptions::default() };
    let page = s.diagnose(&page).explanation.unwrap().text;
    assert!(page.contains("watermark is 23:59:54.999 -1d because") && !page.contains("2025-"), "{page}");
    assert_eq!(
        page.replace("23:59:54.999 -1d", "2025-12-31 23:59:54.999")
            .replace("[23:59:00.000 -1d, 00:00:00.000)", "[2025-12-31 23:59:00.000, 2026-01-01 00:00:00.000)"),
        api
    );
}

#[test]
fn subtask_without_split_is_named() {
    let json = r#"{"topic": {"partitions": 2}, "source": {"parallelism": 3},
        "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "producers": [{"partitions": "all", "kind": "steady", "rate_per_s": 100}]}"#;
    let s = sim(json, 10_000);
    let ex = s.explain(0).unwrap();
    assert!(ex.reasons.iter().any(|r| matches!(r, Reason::SubtaskWithoutSplit { .. })), "{}", ex.text);
    assert_eq!(ex.watermark.ms(), i64::MIN);
    // At No Watermark the live subtasks' channels are ahead: the splitless subtask's fix (an
    // idle timeout) stays offered.
    assert_eq!(ex.ahead(), Ahead::Something);
    assert!(!ex.nothing_ahead());
}

#[test]
fn far_future_and_unit_mistakes_are_named() {
    let far = r#"{"topic": {"partitions": 1},
        "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "producers": [{"partitions": 0, "kind": "steady", "rate_per_s": 10},
                      {"partitions": 0, "kind": "outlier", "future_ms": 86400000, "start_ms": 2000}]}"#;
    let ex = sim(far, 5_000).explain(0).unwrap();
    assert!(ex.reasons.iter().any(|r| matches!(r, Reason::FarFutureTimestamp { partition: 0, .. })), "{}", ex.text);

    let secs = r#"{"topic": {"partitions": 1}, "source": {"timestamp_assigner": "seconds_as_millis"},
        "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "producers": [{"partitions": 0, "kind": "steady", "rate_per_s": 10}]}"#;
    let ex = sim(secs, 5_000).explain(0).unwrap();
    assert!(ex.reasons.iter().any(|r| matches!(r, Reason::SecondsReadAsMillis { .. })), "{}", ex.text);
    assert!(ex.text.contains("1970"), "{}", ex.text);
    assert!(ex.text.contains("milliseconds? ") && !ex.text.contains("?."), "a question ends the sentence: {}", ex.text);
}

/// At Long.MAX_VALUE (a generator that emits it on silence) every channel is there: nothing
/// holds the watermark. The lowest channel was named, with its silence and the missing idle
/// timeout, as the cause.
#[test]
fn nothing_holds_a_watermark_at_end_of_input() {
    let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/presets/max_on_silence.json")).unwrap();
    let s = sim(&json, 125_000);
    let ex = s.explain(0).unwrap();
    assert_eq!(ex.watermark, wmp::engine::time::END_OF_TIME, "{}", ex.text);
    // The views agree: no channel is marked as holding the minimum either.
    assert!(s.snapshot().operators.iter().flat_map(|o| &o.channels).all(|c| !c.is_min));
    assert!(ex.held_by.is_none(), "{}", ex.text);
    assert!(!ex.text.contains("because of channel") && !ex.text.contains("idle timeout"), "{}", ex.text);
}

/// With two sources a source subtask is named by its source and its index there, as the live
/// vertex tables and Flink count (`impressions·0`, not its number 1 over both sources), and the
/// explanation, the diagnosis and the snapshot the UI draws from name it alike.
#[test]
fn a_source_subtask_of_two_sources_is_named_by_its_source_everywhere() {
    let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/presets/union_idle_stream.json")).unwrap();
    let s = sim(&json, 60_000);
    let ex = s.explain(0).unwrap();
    let held = ex.held_by.as_ref().expect("the stopped impressions hold the union").source_subtask;
    assert_eq!(held, 1, "the second source's only subtask, after the first source's one");
    let snap = s.snapshot();
    assert_eq!(snap.source_subtask_name(held), "impressions·0");
    assert_eq!(snap.source_subtask_name(0), "clicks·0");
    assert_eq!(s.source_subtask_name(held), snap.source_subtask_name(held));
    assert!(ex.text.contains("(source subtask impressions·0, partition impressions-"), "{}", ex.text);
    assert!(!ex.text.contains("source subtask 1"), "{}", ex.text);
    // One source keeps its number.
    let one = sim(&seed_001("\"idle_timeout_ms\": null"), 60_000);
    assert_eq!(one.snapshot().source_subtask_name(3), "3");
    assert!(one.explain(0).unwrap().text.contains("(source subtask 3, partition 11)"));
}

/// `noWatermarks()` on every partition alike: the valve's first channel and its subtask's first
/// partition are no more the holder than any other. The explanation said "because of channel 0
/// (source subtask 0, partition 1)" and the graph marked partition 1; now it says all are at it.
#[test]
fn a_minimum_tied_everywhere_names_no_holder() {
    let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/presets/bound_too_large.json")).unwrap();
    let mut sc: serde_json::Value = serde_json::from_str(&json).unwrap();
    sc["source"]["watermark"]["generator"] = serde_json::json!({"kind": "no_watermarks"});
    let s = sim(&sc.to_string(), 60_000);
    let ex = s.explain(0).unwrap();
    assert_eq!(ex.watermark.ms(), i64::MIN);
    assert!(ex.held_by.is_none(), "{}", ex.text);
    let t = ex.tied.expect("a tie");
    assert!(t.channels >= 1 && t.channels + t.partitions >= 2, "{t:?}");
    assert!(
        ex.text.contains("so no one of them holds it (the cause is job-wide)") && !ex.text.contains("because of channel"),
        "{}",
        ex.text
    );
    assert!(s.snapshot().operators.iter().flat_map(|o| &o.channels).all(|c| !c.is_min));
    // A partition below the others still holds its channel: seed 001's heartbeat partition.
    let one = sim(&seed_001("\"idle_timeout_ms\": null"), 60_000);
    let ex = one.explain(0).unwrap();
    assert!(ex.tied.is_none() && ex.held_by.as_ref().and_then(|c| c.partition) == Some(11), "{}", ex.text);
    assert!(one.snapshot().operators[0].channels.iter().any(|c| c.is_min));
}

/// A job whose every partition stopped at once: nothing is ahead of the holding split, so an idle
/// timeout would make every input idle and move nothing (Flink 2.3.0 in the oracle's golden 23:
/// with the last split idle the watermark stays at the max and the last window never fires). The
/// explanation, the finding and the advisor said "no idle timeout lets it go" and offered one. A
/// second partition with a later last record is ahead, and there the timeout is the fix.
#[test]
fn a_silent_split_with_nothing_ahead_is_not_offered_an_idle_timeout() {
    let job = |stop_ms: &[i64]| {
        let producers: Vec<String> = (0..stop_ms.len())
            .map(|p| {
                format!(r#"{{"partitions": {p}, "kind": "steady", "rate_per_s": 10, "stop_ms": {}, "keys": {{"count": 1}}}}"#, stop_ms[p])
            })
            .collect();
        format!(
            r#"{{"duration_ms": 30000, "topic": {{"partitions": {}}}, "source": {{"parallelism": 1}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 10000}}}}, "producers": [{}]}}"#,
            stop_ms.len(),
            producers.join(", ")
        )
    };
    let diagnosed = |json: &str| sim(json, 30_000).diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
    let one = diagnosed(&job(&[8_000]));
    let reasons = &one.explanation.as_ref().unwrap().reasons;
    assert!(reasons.iter().any(|r| matches!(r, Reason::SplitSilentNothingAhead { partition: 0, .. })), "{reasons:?}");
    for alone in [job(&[8_000]), job(&[8_000, 8_000])] {
        let d = diagnosed(&alone);
        let ex = d.explanation.as_ref().unwrap();
        // One partition: the silent split with nothing ahead; two stopped alike: a tie.
        assert!(ex.nothing_ahead(), "{}", ex.text);
        assert!(!ex.text.contains("no idle timeout is set"), "{}", ex.text);
        assert!(!offers_idle_timeout(&d), "{:?}", d.findings);
        assert!(d.headline.contains("an idle timeout would move nothing"), "{}", d.headline);
        assert!(
            d.advice.idle_timeout.not_applied.as_deref().is_some_and(|n| n.contains("no input is ahead")),
            "{:?}",
            d.advice.idle_timeout
        );
    }
    // Partition 1 read on to 12 s: its split is ahead, so idleness would release partition 0's.
    let d = diagnosed(&job(&[8_000, 12_000]));
    let ex = d.explanation.as_ref().unwrap();
    assert!(ex.reasons.iter().any(|r| matches!(r, Reason::SplitSilentNoIdleTimeout { partition: 0, .. })), "{}", ex.text);
    assert!(offers_idle_timeout(&d), "{:?}", d.findings);
    // Two source subtasks, each channel at the watermark; the holder's partitions 1 and 3 both
    // stopped, but partition 2 reads on behind the other channel (from the review: a split above
    // the watermark behind a channel level with it is released to, once the holder is idle).
    let four = job(&[8_000, 8_000, 30_000, 8_000]).replace(r#""parallelism": 1"#, r#""parallelism": 2"#);
    let d = diagnosed(&four);
    assert!(!d.explanation.as_ref().unwrap().nothing_ahead(), "{}", d.explanation.as_ref().unwrap().text);
    assert!(offers_idle_timeout(&d), "{:?}", d.findings);
}

/// A watermark a day ahead of processing time was pushed there by what sits at it: the views say
/// "pushed ahead by" and "pushed the watermark ahead" ("held by partition 0", in red, read as the
/// opposite); a watermark behind processing time is held.
#[test]
fn a_watermark_ahead_of_processing_time_is_pushed_not_held() {
    use wmp::engine::diagnosis::diagnose::DiagnosisOptions;
    let far = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/presets/far_future_outlier.json")).unwrap();
    let d = sim(&far, 60_000).diagnose(&DiagnosisOptions::default());
    assert!(d.explanation.as_ref().is_some_and(|e| e.held_by.is_some() && e.ahead_of(d.now)), "{:?}", d.explanation);
    let text = wmp::engine::diagnosis::text::render(&d);
    assert!(text.contains("far_future_timestamp (pushed the watermark ahead)"), "{text}");
    let held = seed_001("\"idle_timeout_ms\": null");
    let d = sim(&held, 30 * 60_000).diagnose(&DiagnosisOptions::default());
    assert!(!d.explanation.as_ref().unwrap().ahead_of(d.now));
    assert!(wmp::engine::diagnosis::text::render(&d).contains("(holds the watermark)"));
}

/// Flink ≤ 2.1 has no all-idle flush (FLINK-38454 came in 2.2): a two-input operator whose other
/// input is idle and higher stays where it is when the held input goes idle too. An idle timeout
/// applied to the running job (as the finding's fix is) then moves nothing, so it is not offered;
/// on 2.3 the all-idle flush releases the watermark to the idle input's. The test applies the fix
/// in both versions, so the rule is checked against the engine's valve and combination, which
/// the oracle's goldens check against Flink.
#[test]
fn an_idle_higher_input_is_ahead_only_where_an_all_idle_flush_releases_to_it() {
    let job_stopping = |all_idle_flush: bool, rates_stop_ms: i64| {
        format!(
            r#"{{"duration_ms": 60000, "topic": {{"name": "orders", "partitions": 1}},
            "second_input": {{"topic": {{"name": "rates", "partitions": 1}}, "mode": "connect",
                "source": {{"parallelism": 1, "watermark": {{"idle_timeout_ms": 2000}}}}}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 10000}}}},
            "flink": {{"combined_all_idle_flush": {all_idle_flush}}},
            "producers": [
                {{"topic": "orders", "partitions": "all", "kind": "steady", "rate_per_s": 10, "stop_ms": 8000, "keys": {{"count": 1}}}},
                {{"topic": "rates", "partitions": "all", "kind": "steady", "rate_per_s": 10, "stop_ms": {rates_stop_ms}, "keys": {{"count": 1}}}}]}}"#
        )
    };
    let job = |all_idle_flush: bool| job_stopping(all_idle_flush, 12_000);
    for all_idle_flush in [true, false] {
        let mut s = sim(&job(all_idle_flush), 30_000);
        let held = s.explain(0).unwrap().watermark;
        let d = s.diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
        let fixed = watermark_with_fix(&mut s, 40_000);
        assert_eq!(fixed > held, all_idle_flush, "all-idle flush {all_idle_flush}: held at {held:?}, with the fix {fixed:?}");
        let ex = d.explanation.as_ref().unwrap();
        assert_eq!(ex.nothing_ahead(), !all_idle_flush, "all-idle flush {all_idle_flush}: {}", ex.text);
        assert_eq!(offers_idle_timeout(&d), all_idle_flush, "all-idle flush {all_idle_flush}: {:?}", d.findings);
        if !all_idle_flush {
            // The words say it is the version: the idle input is ahead, and 2.2 would release to it.
            assert!(ex.text.contains("only idle or silent inputs are ahead of it") && ex.text.contains("before Flink 2.2"), "{}", ex.text);
            assert!(d.headline.contains("only idle or silent inputs are ahead of the watermark"), "{}", d.headline);
            assert!(
                d.advice.idle_timeout.basis.contains("only idle or silent inputs are ahead of the silent partitions"),
                "{:?}",
                d.advice.idle_timeout
            );
        }
    }
    // Both inputs stopped alike, the rates one with a timeout: nothing is ahead on 2.3 either.
    let d = sim(&job_stopping(true, 8_000), 30_000).diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
    assert!(d.explanation.as_ref().unwrap().nothing_ahead(), "{}", d.explanation.as_ref().unwrap().text);
    assert!(d.advice.idle_timeout.basis.contains("no input is ahead of the silent partitions"), "{:?}", d.advice.idle_timeout);
}

/// An idle channel above the watermark in the held input of a two-input operator is ahead on
/// Flink ≤ 2.1 too: that input's valve flushes its max when the holding channel goes idle last,
/// in every version, and the flushed watermark reaches the operator before the all-idle moment
/// (from the review: the first ≤ 2.1 rule left out every idle channel of a two-input operator,
/// and withheld a shorter timeout that moves the watermark). Orders' subtask 1 stopped early
/// with later event times and is idle; subtask 0 holds, silent, its 20 s timeout running.
#[test]
fn an_idle_channel_of_the_held_input_is_ahead_on_every_version() {
    let job = |all_idle_flush: bool| {
        format!(
            r#"{{"duration_ms": 60000, "topic": {{"name": "orders", "partitions": 2}},
            "source": {{"parallelism": 2, "watermark": {{"idle_timeout_ms": 20000}}}},
            "second_input": {{"topic": {{"name": "rates", "partitions": 1}}, "mode": "connect",
                "source": {{"parallelism": 1, "watermark": {{"idle_timeout_ms": 2000}}}}}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 1000}}}},
            "flink": {{"combined_all_idle_flush": {all_idle_flush}}},
            "producers": [
                {{"topic": "orders", "partitions": [0], "kind": "steady", "rate_per_s": 10, "event_delay_ms": 20000, "stop_ms": 25000, "keys": {{"count": 1}}}},
                {{"topic": "orders", "partitions": [1], "kind": "steady", "rate_per_s": 10, "stop_ms": 8000, "keys": {{"count": 1}}}},
                {{"topic": "rates", "partitions": "all", "kind": "steady", "rate_per_s": 10, "stop_ms": 12000, "keys": {{"count": 1}}}}]}}"#
        )
    };
    for all_idle_flush in [true, false] {
        let mut s = sim(&job(all_idle_flush), 35_000);
        let ex = s.explain(0).unwrap();
        let fixed = watermark_with_fix(&mut s, 45_000);
        assert!(fixed > ex.watermark, "all-idle flush {all_idle_flush}: held at {:?}, with the fix {fixed:?}", ex.watermark);
        assert_eq!(ex.ahead(), Ahead::Something, "all-idle flush {all_idle_flush}: {}", ex.text);
    }
}

/// The fix the findings offer, applied to the running job (a 2 s idle timeout): keyed subtask
/// 0's watermark at `until_ms` after the start.
fn watermark_with_fix(s: &mut Simulation, until_ms: i64) -> wmp::engine::time::EventTime {
    use wmp::engine::command::{Command, Param};
    s.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(2_000)) }).unwrap();
    s.run_until(s.config().start_time + until_ms).unwrap();
    s.explain(0).unwrap().watermark
}

fn offers_idle_timeout(d: &wmp::engine::diagnosis::Diagnosis) -> bool {
    use wmp::engine::session::action::Action;
    d.findings.iter().any(|f| f.fixes.iter().any(|x| matches!(x.action, Action::IdleTimeout(Some(_)))))
}

/// With a `forward` exchange a keyed subtask sees only its own source subtask: a split that
/// feeds another keyed subtask is not ahead of this one's watermark, and idleness would release
/// it to nothing (from the review: the rule looked at every split of the job and offered a
/// timeout that left the slowest subtask's windows waiting). The test applies the timeout.
#[test]
fn a_split_feeding_another_keyed_subtask_is_not_ahead() {
    use wmp::engine::command::{Command, Param};
    let json = r#"{"duration_ms": 60000, "topic": {"partitions": 2}, "source": {"parallelism": 2},
        "exchange": {"type": "forward"},
        "window": {"assigner": {"type": "tumbling", "size_ms": 10000}, "parallelism": 2},
        "producers": [
            {"partitions": [0], "kind": "steady", "rate_per_s": 10, "stop_ms": 8000, "keys": {"count": 1}},
            {"partitions": [1], "kind": "steady", "rate_per_s": 10, "keys": {"count": 1}}]}"#;
    let mut s = sim(json, 30_000);
    let d = s.diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
    let ex = d.explanation.as_ref().unwrap();
    let held = ex.watermark;
    s.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(2_000)) }).unwrap();
    s.run_until(s.config().start_time + 40_000).unwrap();
    assert_eq!(s.explain(ex.subtask).unwrap().watermark, held, "the timeout moved subtask {}'s watermark", ex.subtask);
    assert!(ex.nothing_ahead(), "{}", ex.text);
    assert!(!offers_idle_timeout(&d), "{:?}", d.findings);
}

/// Flink ≤ 2.1: an idle timeout applied to the running job starts every split's timer afresh,
/// so a split above the watermark that is silent too goes idle in the same check as the one
/// holding it. With every split of the source idle at once and no all-idle flush, the
/// watermark stays; 2.3 flushes to the silent split's. The test applies the fix.
#[test]
fn a_silent_split_above_goes_idle_with_the_holder_on_flink_2_1() {
    let job = |all_idle_flush: bool| {
        format!(
            r#"{{"duration_ms": 90000, "topic": {{"partitions": 2}}, "source": {{"parallelism": 1}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 1000}}}},
            "flink": {{"combined_all_idle_flush": {all_idle_flush}}},
            "producers": [
                {{"partitions": [0], "kind": "steady", "rate_per_s": 10, "event_delay_ms": 20000, "stop_ms": 25000, "keys": {{"count": 1}}}},
                {{"partitions": [1], "kind": "steady", "rate_per_s": 10, "stop_ms": 8000, "keys": {{"count": 1}}}}]}}"#
        )
    };
    for all_idle_flush in [true, false] {
        let mut s = sim(&job(all_idle_flush), 35_000);
        let d = s.diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
        let ex = d.explanation.clone().unwrap();
        assert_eq!(ex.held_by.as_ref().and_then(|c| c.partition), Some(0), "{}", ex.text);
        let fixed = watermark_with_fix(&mut s, 45_000);
        assert_eq!(
            fixed > ex.watermark,
            all_idle_flush,
            "all-idle flush {all_idle_flush}: held at {:?}, with the fix {fixed:?}",
            ex.watermark
        );
        assert_eq!(ex.nothing_ahead(), !all_idle_flush, "all-idle flush {all_idle_flush}: {}", ex.text);
        assert_eq!(offers_idle_timeout(&d), all_idle_flush, "all-idle flush {all_idle_flush}: {:?}", d.findings);
    }
}

/// Flink ≤ 2.1, a two-input operator: sources tick in index order, so with both inputs silent
/// the fix idles input 0 first. Held by input 1, input 0's higher watermark leaves the
/// combination before input 1 goes idle, and all idle keeps the watermark; held by input 0, the
/// still active input 1 takes over when input 0 goes idle. The test applies the fix.
#[test]
fn a_silent_input_above_is_ahead_on_flink_2_1_only_when_it_goes_idle_last() {
    let job = |all_idle_flush: bool, held_by_input: usize| {
        let delay = |i: usize| if i == held_by_input { 20_000 } else { 0 };
        let stop = |i: usize| if i == held_by_input { 25_000 } else { 8_000 };
        format!(
            r#"{{"duration_ms": 90000, "topic": {{"name": "orders", "partitions": 1}},
            "second_input": {{"topic": {{"name": "rates", "partitions": 1}}, "mode": "connect", "source": {{"parallelism": 1}}}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 1000}}}},
            "flink": {{"combined_all_idle_flush": {all_idle_flush}}},
            "producers": [
                {{"topic": "orders", "partitions": "all", "kind": "steady", "rate_per_s": 10, "event_delay_ms": {}, "stop_ms": {}, "keys": {{"count": 1}}}},
                {{"topic": "rates", "partitions": "all", "kind": "steady", "rate_per_s": 10, "event_delay_ms": {}, "stop_ms": {}, "keys": {{"count": 1}}}}]}}"#,
            delay(0),
            stop(0),
            delay(1),
            stop(1)
        )
    };
    for all_idle_flush in [true, false] {
        for held_by_input in [0, 1] {
            let mut s = sim(&job(all_idle_flush, held_by_input), 35_000);
            let d = s.diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
            let ex = d.explanation.clone().unwrap();
            let case = format!("all-idle flush {all_idle_flush}, held by input {held_by_input}");
            assert_eq!(ex.held_by.as_ref().map(|c| c.input), Some(held_by_input), "{case}: {}", ex.text);
            let fixed = watermark_with_fix(&mut s, 45_000);
            let moves = all_idle_flush || held_by_input == 0;
            assert_eq!(fixed > ex.watermark, moves, "{case}: held at {:?}, with the fix {fixed:?}", ex.watermark);
            assert_eq!(ex.nothing_ahead(), !moves, "{case}: {}", ex.text);
            assert_eq!(offers_idle_timeout(&d), moves, "{case}: {:?}", d.findings);
            // The two-input finding says why it offers no timeout, where it would otherwise.
            let quiet = d.findings.iter().find(|f| f.kind == wmp::engine::diagnosis::finding::FindingKind::QuietInputHolds);
            assert_eq!(quiet.map(|f| f.detail.contains("withIdleness would move nothing now")), Some(!moves), "{case}: {quiet:?}");
            // …and that it is the playground's order, where Flink's two source tasks race.
            assert_eq!(quiet.map(|f| f.detail.contains("the two source tasks race")), Some(!moves), "{case}: {quiet:?}");
        }
    }
}

/// At No Watermark the rule judges too when something idle is above it: on Flink ≤ 2.1 an empty
/// partition beside one that stopped stays at No Watermark with the fix (both go idle in the same
/// check, and nothing flushes), on 2.3 the flush releases it (from the review: the empty
/// partition's finding offered a timeout that moved nothing). The test applies the fix.
#[test]
fn an_empty_split_beside_a_stopped_one_is_released_only_by_the_all_idle_flush() {
    let job = |all_idle_flush: bool| {
        format!(
            r#"{{"duration_ms": 90000, "topic": {{"partitions": 2}}, "source": {{"parallelism": 1}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 1000}}}},
            "flink": {{"combined_all_idle_flush": {all_idle_flush}}},
            "producers": [{{"partitions": [1], "kind": "steady", "rate_per_s": 10, "stop_ms": 8000, "keys": {{"count": 1}}}}]}}"#
        )
    };
    for all_idle_flush in [true, false] {
        let mut s = sim(&job(all_idle_flush), 30_000);
        let d = s.diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
        let ex = d.explanation.clone().unwrap();
        assert_eq!(ex.watermark.ms(), i64::MIN);
        let fixed = watermark_with_fix(&mut s, 40_000);
        assert_eq!(fixed > ex.watermark, all_idle_flush, "all-idle flush {all_idle_flush}: with the fix {fixed:?}");
        assert_eq!(ex.nothing_ahead(), !all_idle_flush, "all-idle flush {all_idle_flush}: {}", ex.text);
        assert_eq!(offers_idle_timeout(&d), all_idle_flush, "all-idle flush {all_idle_flush}: {:?}", d.findings);
    }
}

/// A source subtask whose splits were all released never goes idle (reference §4.6): its channel
/// stays active at its last watermark, so on Flink ≤ 2.1 a two-input operator held by its other,
/// silent input moves to it once that input goes idle (from the review: the rule counted it as
/// going idle and withheld the fix). The test applies the fix.
#[test]
fn an_input_whose_splits_were_released_stays_ahead() {
    let json = r#"{"duration_ms": 90000, "topic": {"name": "orders", "partitions": 1},
        "second_input": {"topic": {"name": "rates", "partitions": 1}, "mode": "connect", "source": {"parallelism": 1}},
        "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "flink": {"combined_all_idle_flush": false},
        "producers": [
            {"topic": "orders", "partitions": "all", "kind": "steady", "rate_per_s": 10, "stop_ms": 12000, "keys": {"count": 1}},
            {"topic": "rates", "partitions": "all", "kind": "steady", "rate_per_s": 10, "event_delay_ms": 20000, "stop_ms": 25000, "keys": {"count": 1}}],
        "commands": [{"at_ms": 13000, "command": "release_split", "partition": 0}]}"#;
    let mut s = sim(json, 35_000);
    let d = s.diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
    let ex = d.explanation.clone().unwrap();
    assert_eq!(ex.held_by.as_ref().map(|c| c.input), Some(1), "{}", ex.text);
    let fixed = watermark_with_fix(&mut s, 45_000);
    assert!(fixed > ex.watermark, "held at {:?}, with the fix {fixed:?}", ex.watermark);
    assert!(!ex.nothing_ahead(), "{}", ex.text);
}

/// A source subtask whose only partition is removed while it is active stays active at its
/// last watermark, whatever the idle timeout (reference §4.6, V-SRC-5; goldens oracle2/26 and
/// 27). From the review: the explanation said "holds No Watermark forever" beside a watermark
/// of 00:00:09.799, and the finding offered an idle timeout (or promised that the set one
/// "marks it idle soon"). The test applies the timeout: the watermark does not move.
#[test]
fn a_subtask_whose_splits_were_all_released_is_not_released_by_a_timeout() {
    let json = r#"{"duration_ms": 90000, "topic": {"partitions": 2}, "source": {"parallelism": 2},
        "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "producers": [{"partitions": "all", "kind": "steady", "rate_per_s": 10, "keys": {"count": 1}}],
        "commands": [{"at_ms": 10000, "command": "remove_partition", "partition": 1}]}"#;
    let mut s = sim(json, 30_000);
    let d = s.diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
    let ex = d.explanation.clone().unwrap();
    assert!(ex.reasons.iter().any(|r| matches!(r, Reason::AllSplitsReleased { .. })), "{}", ex.text);
    assert!(ex.watermark.ms() > 0 && !ex.text.contains("No Watermark"), "{}", ex.text);
    assert!(!offers_idle_timeout(&d), "{:?}", d.findings);
    assert_eq!(watermark_with_fix(&mut s, 60_000), ex.watermark);
}

/// A two-input operator held by an input whose source subtask's splits were all released while
/// it was active: the quiet-input finding offered withIdleness, which never idles that subtask
/// (from the review). The test applies the timeout: the watermark does not move.
#[test]
fn a_two_input_operator_held_by_a_released_input_is_offered_no_timeout() {
    let json = r#"{"duration_ms": 90000, "topic": {"name": "orders", "partitions": 1},
        "second_input": {"topic": {"name": "rates", "partitions": 1}, "mode": "connect", "source": {"parallelism": 1}},
        "window": {"assigner": {"type": "tumbling", "size_ms": 1000}},
        "producers": [
            {"topic": "orders", "partitions": "all", "kind": "steady", "rate_per_s": 10, "event_delay_ms": 20000, "keys": {"count": 1}},
            {"topic": "rates", "partitions": "all", "kind": "steady", "rate_per_s": 10, "keys": {"count": 1}}],
        "commands": [{"at_ms": 13000, "command": "release_split", "partition": 0}]}"#;
    let mut s = sim(json, 30_000);
    let d = s.diagnose(&wmp::engine::diagnosis::diagnose::DiagnosisOptions::default());
    let ex = d.explanation.clone().unwrap();
    assert_eq!(ex.held_by.as_ref().map(|c| c.input), Some(0), "{}", ex.text);
    assert!(!offers_idle_timeout(&d), "{:?}", d.findings);
    assert_eq!(watermark_with_fix(&mut s, 60_000), ex.watermark);
}
