//! Watermark alignment as a property (issue 13). A backfill: partitions with random histories
//! (up to an hour, at different densities) and live data behind them, a rate-limited reader,
//! per-event watermarks and buffer size 0, so that split alignment decides at every rise:
//!
//! * no split's watermark *rises* to more than the group's minimum plus the max drift plus one
//!   record's step (a paused split keeps the lead it had, it only stops growing it);
//! * without alignment the same job lets a split run ahead by far more (the check can fail);
//! * pausing loses nothing: once the producers stop, every record is read.

use proptest::prelude::*;
use serde_json::{json, Value};
use wmp::engine::scenario::build::parse;
use wmp::engine::sim::Simulation;
use wmp::engine::time::EventTime;

fn backfill(histories: &[(u64, i64)], drift: i64, aligned: bool, seed: u64) -> Simulation {
    let mut producers: Vec<Value> = histories
        .iter()
        .enumerate()
        .map(|(p, &(count, span))| json!({"partitions": p, "kind": "backlog", "count": count, "span_ms": span}))
        .collect();
    producers.push(json!({"partitions": "all", "kind": "steady", "rate_per_s": 20, "stop_ms": 20_000}));
    let alignment = aligned.then(|| json!({"group": "g", "max_drift_ms": drift, "update_interval_ms": 1000}));
    let sc = json!({
        "seed": seed,
        "topic": {"partitions": histories.len()},
        "trace": {"capacity": 0, "records": false},
        "source": {"read_rate_per_s": 5_000, "fetch": {"max_partition_fetch_bytes": 20_000, "record_bytes": 100}, "watermark": {
            "generator": {"kind": "bounded_out_of_orderness", "bound_ms": 0}, "emit": "per_event", "alignment": alignment}},
        "flink": {"alignment_buffer_size": 0},
        "window": {"assigner": {"type": "tumbling", "size_ms": 60_000}},
        "producers": producers,
    });
    parse(&sc.to_string()).unwrap().build().unwrap()
}

/// The largest lead over the group minimum a split's watermark rose to, over `ms`.
fn max_rise_lead(s: &mut Simulation, ms: i64) -> i64 {
    let end = s.config().start_time + ms;
    let mut before: Vec<Vec<Option<EventTime>>> = s.sources().iter().map(|x| vec![None; x.splits.len()]).collect();
    let mut lead = i64::MIN;
    while s.now() < end {
        let min_before = s.alignment_group_min(0);
        s.step().unwrap();
        for (k, src) in s.sources().iter().enumerate() {
            for (i, was) in before[k].iter_mut().enumerate() {
                let w = src.split_watermark(i);
                if let (Some(w), Some(min)) = (w, min_before.filter(|m| *m != EventTime::MIN && *m != EventTime::MAX)) {
                    if was.is_some_and(|b| w > b) {
                        lead = lead.max(w.ms() - min.ms());
                    }
                }
                *was = w;
            }
        }
    }
    lead
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn a_split_never_rises_past_the_group_minimum_plus_the_drift(
        histories in prop::collection::vec((100u64..3_000, 60_000i64..3_600_000), 2..4),
        drift in 0i64..30_000,
        seed in any::<u64>(),
    ) {
        // One record's step: in the sparsest history, or a live record's 50 ms, or the step from
        // a history's last record (one history step before the start) to the first live one
        // (up to 50 ms after it), which is both (a saved case rose 1 ms past the first alone).
        let step = histories.iter().map(|&(c, span)| span / c as i64 + 1).max().unwrap_or(0) + 50;
        let mut s = backfill(&histories, drift, true, seed);
        let lead = max_rise_lead(&mut s, 30_000);
        prop_assert!(lead <= drift + step, "a split rose to {lead} ms ahead of the group (drift {drift}, step {step})");
        s.run_until(s.config().start_time + 3_600_000).unwrap();
        let unread: usize = s.partitions().iter().map(|p| p.unread()).sum();
        prop_assert_eq!(unread, 0, "paused splits are resumed and read to the end");
    }
}

/// The property is not vacuous: without alignment a split of the same kind of backfill rises
/// far ahead of the slowest.
#[test]
fn without_alignment_a_split_rises_far_ahead() {
    let mut s = backfill(&[(3_000, 3_600_000), (100, 60_000)], 5_000, false, 7);
    // No coordinator without alignment: measure against the slowest split instead.
    let end = s.config().start_time + 5_000;
    let mut lead = 0;
    while s.now() < end {
        s.step().unwrap();
        let w: Vec<i64> =
            (0..2).filter_map(|i| s.sources()[0].split_watermark(i)).filter(|w| *w != EventTime::MIN).map(|w| w.ms()).collect();
        if w.len() == 2 {
            lead = lead.max((w[0] - w[1]).abs());
        }
    }
    assert!(lead > 1_000_000, "{lead}");
}
