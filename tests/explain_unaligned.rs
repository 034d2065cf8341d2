//! `explain`'s ahead walk behind a valve channel that came back active below the watermark
//! (unaligned, reference §6.2): which idle channels above it a flush releases, on which Flink
//! versions, and when the unaligned channel itself stops (oracle3 goldens 19 and 20). Split from
//! `explain.rs`, which names the culprits.

mod common;

use common::run::sim;
use wmp::engine::explain::Ahead;

/// A valve with a channel that came back active below the watermark (unaligned) leaves it out
/// of its minimum and, not all idle, flushes nothing when the holder goes idle: the idle
/// channel above (partition 1's, at 19.999) is not released, and the watermark waits for the
/// unaligned channel to catch up (reference §6.2; oracle3 golden 19). Without that channel it
/// is flushed. With a connected second input far ahead it is the same (from the review): the
/// held input stays active at the watermark, and the operator's minimum with it.
#[test]
fn an_unaligned_active_channel_keeps_the_idle_one_above_from_being_released() {
    let job = |comes_back: bool, second: bool| {
        let back = if comes_back {
            r#", {"partitions": [2], "kind": "steady", "rate_per_s": 10, "start_ms": 30000, "event_delay_ms": 27000, "keys": {"count": 1}}"#
        } else {
            ""
        };
        let (second, rates) = if second {
            (
                r#""second_input": {"topic": {"name": "rates", "partitions": 1}, "mode": "connect", "source": {"parallelism": 1}},"#,
                r#", {"topic": "rates", "partitions": [0], "kind": "steady", "rate_per_s": 10, "keys": {"count": 1}}"#,
            )
        } else {
            ("", "")
        };
        format!(
            r#"{{"duration_ms": 90000, "topic": {{"partitions": 3}}, "source": {{"parallelism": 3, "watermark": {{"idle_timeout_ms": 3000}}}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 1000}}, "parallelism": 1}}, {second}
            "producers": [
                {{"partitions": [0], "kind": "steady", "rate_per_s": 10, "event_delay_ms": 20000, "stop_ms": 32000, "keys": {{"count": 1}}}},
                {{"partitions": [1], "kind": "steady", "rate_per_s": 10, "stop_ms": 20000, "keys": {{"count": 1}}}},
                {{"partitions": [2], "kind": "steady", "rate_per_s": 10, "stop_ms": 1000, "keys": {{"count": 1}}}}{back}{rates}]}}"#
        )
    };
    for (comes_back, second) in [(true, false), (false, false), (true, true)] {
        let mut s = sim(&job(comes_back, second), 34_000);
        let ex = s.explain(0).unwrap();
        assert_eq!(ex.held_by.as_ref().and_then(|c| c.partition), Some(0), "{}", ex.text);
        s.run_until(s.config().start_time + 37_000).unwrap();
        // The holder is idle by now: the valve waits all the same (from the second review).
        let idle_holder = s.explain(0).unwrap();
        s.run_until(s.config().start_time + 38_000).unwrap();
        let later = s.explain(0).unwrap().watermark;
        if comes_back {
            assert_eq!(ex.ahead(), Ahead::BehindUnaligned, "second input {second}: {}", ex.text);
            assert_eq!(idle_holder.ahead(), Ahead::BehindUnaligned, "second input {second}: {}", idle_holder.text);
            assert_eq!(later, ex.watermark, "the holder's idleness moved the watermark past an unaligned channel (second input {second})");
        } else {
            assert_eq!(ex.ahead(), Ahead::Something, "{}", ex.text);
            assert!(later > ex.watermark, "the valve flushed nothing: {later:?}");
        }
    }
}

/// Behind an unaligned channel, a channel above the watermark that goes idle in the same check
/// as the holder is released only if it goes idle after it (its source subtask ticks later):
/// once the holder is idle the valve's minimum is that channel's, for a moment. Going idle
/// before the holder, it is out of the minimum already (from the review).
#[test]
fn behind_an_unaligned_channel_a_silent_channel_above_counts_only_after_the_holder() {
    use wmp::engine::source::enumerator::split_owner;
    let on = |subtask: u32| (0..4).find(|&p| split_owner("events", p, 4) == subtask).unwrap();
    let job = |holder: u32, silent_above: u32| {
        let (a, d, b, c) = (on(holder), on(silent_above), on(0), on(3));
        format!(
            r#"{{"duration_ms": 90000, "topic": {{"name": "events", "partitions": 4}}, "source": {{"parallelism": 4, "watermark": {{"idle_timeout_ms": 3000}}}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 1000}}, "parallelism": 1}},
            "producers": [
                {{"partitions": [{a}], "kind": "steady", "rate_per_s": 10, "event_delay_ms": 20000, "stop_ms": 32000, "keys": {{"count": 1}}}},
                {{"partitions": [{d}], "kind": "steady", "rate_per_s": 10, "event_delay_ms": 15000, "stop_ms": 32000, "keys": {{"count": 1}}}},
                {{"partitions": [{b}], "kind": "steady", "rate_per_s": 10, "stop_ms": 20000, "keys": {{"count": 1}}}},
                {{"partitions": [{c}], "kind": "steady", "rate_per_s": 10, "stop_ms": 1000, "keys": {{"count": 1}}}},
                {{"partitions": [{c}], "kind": "steady", "rate_per_s": 10, "start_ms": 30000, "event_delay_ms": 27000, "keys": {{"count": 1}}}}]}}"#
        )
    };
    for (holder, silent_above, released) in [(1, 2, true), (2, 1, false)] {
        let mut s = sim(&job(holder, silent_above), 34_000);
        let ex = s.explain(0).unwrap();
        assert_eq!(ex.held_by.as_ref().map(|c| c.source_subtask), Some(holder), "{}", ex.text);
        s.run_until(s.config().start_time + 38_000).unwrap();
        let later = s.explain(0).unwrap().watermark;
        let expected = if released { Ahead::Something } else { Ahead::BehindUnaligned };
        assert_eq!(ex.ahead(), expected, "holder on {holder}, silent channel above on {silent_above}: {}", ex.text);
        assert_eq!(later > ex.watermark, released, "holder on {holder}: {:?} → {later:?}", ex.watermark);
    }
}

/// Behind an unaligned channel, a split above the watermark in the subtask of a channel that
/// shares the watermark with the holder (a co-holder) is released: when the co-holder's silent
/// split goes idle its channel rises to that split, and once the last holder is idle the valve's
/// minimum is that channel (from the second review: only the last holder's splits counted).
#[test]
fn behind_an_unaligned_channel_a_co_holders_live_split_above_counts() {
    use wmp::engine::source::enumerator::split_owner;
    // A topic whose first partition goes to subtask 0: subtask 0 reads p0 and p3, the co-holder
    // with the lower index.
    let topic = ["events", "clicks", "orders", "rates", "views"].into_iter().find(|t| split_owner(t, 0, 3) == 0).unwrap();
    let (a1, e, b, c) = (0, 3, 1, 2);
    let json = format!(
        r#"{{"duration_ms": 90000, "topic": {{"name": "{topic}", "partitions": 4}}, "source": {{"parallelism": 3, "watermark": {{"idle_timeout_ms": 3000}}}},
        "window": {{"assigner": {{"type": "tumbling", "size_ms": 1000}}, "parallelism": 1}},
        "producers": [
            {{"partitions": [{a1}, {b}], "kind": "steady", "rate_per_s": 10, "event_delay_ms": 20000, "stop_ms": 32000, "keys": {{"count": 1}}}},
            {{"partitions": [{e}], "kind": "steady", "rate_per_s": 10, "event_delay_ms": 15000, "keys": {{"count": 1}}}},
            {{"partitions": [{c}], "kind": "steady", "rate_per_s": 10, "stop_ms": 1000, "keys": {{"count": 1}}}},
            {{"partitions": [{c}], "kind": "steady", "rate_per_s": 10, "start_ms": 30000, "event_delay_ms": 27000, "keys": {{"count": 1}}}}]}}"#
    );
    let mut s = sim(&json, 34_000);
    let ex = s.explain(0).unwrap();
    assert_eq!(ex.ahead(), Ahead::Something, "{}", ex.text);
    s.run_until(s.config().start_time + 38_000).unwrap();
    assert!(s.explain(0).unwrap().watermark > ex.watermark, "the co-holder's split above was not released");
}

/// Behind an unaligned channel that stops too, the valve flushes only if that channel is not
/// the last to go idle: Flink ≤ 2.3.0 flushes when the last channel to go idle is at the
/// valve's watermark, Flink main whatever it is (`flink.valve_unconditional_flush`). Holder and
/// returning partition stop together, so they go idle in the same check, in source subtask
/// order. From the last note: a returning partition that stopped was taken to stay active, so
/// the walk said the idle channel above waits behind it in every version.
#[test]
fn behind_an_unaligned_channel_that_stops_the_last_to_go_idle_decides_the_flush() {
    use wmp::engine::source::enumerator::split_owner;
    let on = |subtask: u32| (0..3).find(|&p| split_owner("events", p, 3) == subtask).unwrap();
    let job = |holder: u32, returning: u32, unconditional: bool| {
        let (a, c, b) = (on(holder), on(returning), on(3 - holder - returning));
        format!(
            r#"{{"duration_ms": 90000, "topic": {{"name": "events", "partitions": 3}}, "source": {{"parallelism": 3, "watermark": {{"idle_timeout_ms": 3000}}}},
            "window": {{"assigner": {{"type": "tumbling", "size_ms": 1000}}, "parallelism": 1}},
            "flink": {{"valve_unconditional_flush": {unconditional}}},
            "producers": [
                {{"partitions": [{a}], "kind": "steady", "rate_per_s": 10, "event_delay_ms": 20000, "stop_ms": 32000, "keys": {{"count": 1}}}},
                {{"partitions": [{b}], "kind": "steady", "rate_per_s": 10, "stop_ms": 20000, "keys": {{"count": 1}}}},
                {{"partitions": [{c}], "kind": "steady", "rate_per_s": 10, "stop_ms": 1000, "keys": {{"count": 1}}}},
                {{"partitions": [{c}], "kind": "steady", "rate_per_s": 100, "start_ms": 30000, "stop_ms": 32000, "event_delay_ms": 27000, "keys": {{"count": 1}}}}]}}"#
        )
    };
    for (holder, returning, unconditional, released) in [(0, 2, false, false), (0, 2, true, true), (2, 0, false, true)] {
        let case = format!("holder on {holder}, returning on {returning}, unconditional flush {unconditional}");
        let mut s = sim(&job(holder, returning, unconditional), 34_000);
        let ex = s.explain(0).unwrap();
        assert_eq!(ex.held_by.as_ref().map(|c| c.source_subtask), Some(holder), "{case}: {}", ex.text);
        s.run_until(s.config().start_time + 38_000).unwrap();
        let later = s.explain(0).unwrap().watermark;
        assert_eq!(later > ex.watermark, released, "{case}: {:?} → {later:?}", ex.watermark);
        let expected = if released { Ahead::Something } else { Ahead::BehindUnaligned };
        assert_eq!(ex.ahead(), expected, "{case}: {}", ex.text);
    }
}
