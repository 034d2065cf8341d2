//! Jobs with two sources (the union preset edited): each source's subtasks, partitions,
//! idle timeout, strategy and bound are judged as its own, and the advice sets one value for both.

use super::run_to;
use serde_json::Value;
use wmp::engine::diagnosis::DiagnosisOptions;
use wmp::engine::session::action::Action;
use wmp::engine::session::Session;

/// The union preset changed by `edit` (its JSON), run to `at_ms`.
fn union_edited(edit: impl FnOnce(&mut Value), at_ms: i64) -> Session {
    let mut sc: Value = serde_json::from_str(include_str!("../../presets/union_idle_stream.json")).unwrap();
    edit(&mut sc);
    let mut s = Session::from_json(&sc.to_string()).unwrap();
    run_to(&mut s, at_ms);
    s
}

/// With two sources, a subtask without a split is counted against its own source: the second
/// source's parallelism and its topic's partitions, not the first source's nor every topic's.
#[test]
fn a_subtask_without_a_split_is_counted_in_its_own_source() {
    let s = union_edited(|sc| sc["second_input"]["source"]["parallelism"] = 3.into(), 20_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.findings.iter().find(|f| f.kind == wmp::engine::diagnosis::finding::FindingKind::SubtaskWithoutSplit).expect("the finding");
    assert!(f.title.starts_with("Source subtask impressions·2 owns no partition (3 source subtasks for 2 partitions)"), "{}", f.title);
    assert!(
        f.fixes.iter().all(|x| !matches!(x.action, Action::SourceParallelism(_))),
        "the action would set the clicks source's: {:?}",
        f.fixes
    );
}

/// With two sources, a partition is judged by its own source's idle timeout: the impressions
/// stop at 30 s, and only their own source's timeout excludes them.
#[test]
fn a_partition_is_judged_by_its_own_sources_idle_timeout() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let run = |first: Option<i64>, second: Option<i64>| {
        let mut sc: Value = serde_json::from_str(include_str!("../../presets/union_idle_stream.json")).unwrap();
        sc["source"]["watermark"]["idle_timeout_ms"] = first.into();
        sc["second_input"]["source"]["watermark"]["idle_timeout_ms"] = second.into();
        let mut s = Session::from_json(&sc.to_string()).unwrap();
        run_to(&mut s, 60_000);
        let d = s.sim().diagnose(&DiagnosisOptions::default());
        d.findings.iter().filter(|f| f.kind == FindingKind::IdlePartition).map(|f| f.title.clone()).collect::<Vec<_>>()
    };
    let excluded = run(None, Some(5_000));
    assert!(excluded.is_empty(), "the impressions' own 5 s timeout has excluded them: {excluded:?}");
    let held = run(Some(5_000), None);
    assert!(held.iter().any(|t| t.contains("impressions") && t.contains("no idle timeout lets it go")), "{held:?}");
}

/// With two sources, a generator problem of the second is named too, with its topic.
#[test]
fn the_second_sources_missing_strategy_is_named() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let s =
        union_edited(|sc| sc["second_input"]["source"]["watermark"]["generator"] = serde_json::json!({"kind": "no_watermarks"}), 20_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let f = d.findings.iter().find(|f| f.kind == FindingKind::NoWatermarkStrategy).expect("the finding");
    assert!(f.title.starts_with("The source of impressions has no watermark strategy"), "{}", f.title);
}

/// With two sources whose idle timeouts differ (5 s and none), the advice proposes one value for
/// both (setting it sets every source's): the row shows a source's value it changes, the basis
/// says they differ, a constraint is met only when both meet it, and once applied it is kept.
#[test]
fn two_sources_with_different_idle_timeouts_get_one_for_both() {
    use wmp::engine::session::action::Action;
    let mut s = union_edited(|sc| sc["source"]["watermark"]["idle_timeout_ms"] = 5_000.into(), 25_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    let idle = &d.advice.idle_timeout;
    let rec = idle.recommended_ms.expect("a recommendation");
    assert_ne!(idle.current_ms, Some(rec), "the row shows a value the advice changes: {idle:?}");
    assert!(idle.basis.contains("the sources' idle timeouts differ (5.0 s and none)"), "{}", idle.basis);
    assert!(d.advice.actions.contains(&Action::IdleTimeout(Some(rec))), "{:?}", d.advice.actions);
    assert!(d.advice.constraints.iter().all(|c| !c.current_ok || c.text.starts_with("within")), "none is off: {:?}", d.advice.constraints);
    s.apply_action(Action::IdleTimeout(Some(rec))).unwrap();
    assert!(s.sim().config().inputs.iter().all(|i| i.source.idle_timeout_ms == Some(rec)));
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.idle_timeout.current_ms, Some(rec));
    assert!(!d.advice.actions.iter().any(|a| matches!(a, Action::IdleTimeout(_))), "kept once applied: {:?}", d.advice.actions);
}

/// With two sources, the job's watermark trails by the larger bound (the union's watermark is
/// the minimum of the two): the advisor and the bound findings read that one, not the first's.
#[test]
fn the_larger_bound_of_two_sources_is_the_jobs() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let s = union_edited(|sc| sc["second_input"]["source"]["watermark"]["generator"]["bound_ms"] = 300_000.into(), 25_000);
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.bound.current_ms, Some(300_000));
    let f = d.findings.iter().find(|f| f.kind == FindingKind::BoundTooLarge).expect("the finding");
    assert!(f.title.starts_with("The bound (5 min) is far above the disorder"), "{}", f.title);
}

/// A watermark operator after one of two sources replaces that source's strategy: the job's
/// bound counts the operator's, and the other source's bound is still advised (its strategy
/// makes its input's watermark). With an operator after both, nothing is advised for the sources.
#[test]
fn an_operator_after_one_of_two_sources_leaves_the_others_bound_advised() {
    use wmp::engine::diagnosis::diagnose::{job_bound_ms, source_bound_ms};
    let operator =
        serde_json::json!({"operator": "timestamps_and_watermarks", "generator": {"kind": "bounded_out_of_orderness", "bound_ms": 5000}});
    let one = operator.clone();
    let s = union_edited(|sc| sc["source"]["midstream"] = one, 25_000);
    assert_eq!(job_bound_ms(s.sim().config()), Some(5_000), "the operator's bound, not its source's 1 s");
    assert_eq!(source_bound_ms(s.sim().config()), Some(1_000), "the impressions source's own");
    let d = s.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.bound.current_ms, Some(1_000));
    assert!(d.advice.bound.recommended_ms.is_some(), "{}", d.advice.bound.basis);

    let both = union_edited(
        |sc| {
            sc["source"]["midstream"] = operator.clone();
            sc["second_input"]["source"]["midstream"] = operator;
        },
        25_000,
    );
    let d = both.sim().diagnose(&DiagnosisOptions::default());
    assert_eq!(d.advice.bound.current_ms, Some(5_000));
    assert_eq!(d.advice.bound.recommended_ms, None, "{}", d.advice.bound.basis);
}

#[test]
fn a_large_bound_is_too_large_only_when_it_is_the_jobs() {
    use wmp::engine::diagnosis::finding::FindingKind;
    let slow = |sc: &mut Value| {
        sc["second_input"]["source"]["watermark"]["generator"]["bound_ms"] = 60_000.into();
        sc["producers"][1].as_object_mut().unwrap().remove("stop_ms");
    };
    let too_large =
        |s: &Session| s.sim().diagnose(&DiagnosisOptions::default()).findings.iter().any(|f| f.kind == FindingKind::BoundTooLarge);
    assert!(too_large(&union_edited(slow, 120_000)), "the impressions source's 60 s bound delays every window");

    // A watermark operator after the clicks source, with a larger bound or one as large: the
    // sources' 60 s is not what delays the windows alone, so shortening it (the finding's fix)
    // would not bring a result sooner.
    let behind = |bound_ms: i64| {
        let operator = serde_json::json!({"operator": "timestamps_and_watermarks", "generator": {"kind": "bounded_out_of_orderness", "bound_ms": bound_ms}});
        union_edited(
            |sc| {
                slow(sc);
                sc["source"]["midstream"] = operator;
            },
            170_000,
        )
    };
    assert!(!too_large(&behind(120_000)), "the operator's bound (120 s) is the job's");
    assert!(!too_large(&behind(60_000)), "an operator's bound as large as the sources'");
}
