//! Flink SQL's window aggregation rules (`"api": "sql"`: a window TVF followed by `GROUP BY
//! window_start, window_end`; reference §10.2), next to the DataStream `WindowOperator`'s.
//!
//! The table runtime (`WindowAggOperator` with a `SlicingWindowProcessor` for TUMBLE, HOP and
//! CUMULATE, an `UnsliceWindowAggProcessor` for SESSION) has no allowed lateness, no late side
//! output and no custom trigger. Its late rule works on slices (`SliceAssigners`,
//! `AbstractSliceWindowAggProcessor.processElement`, `TimeWindowUtil.isWindowFired`):
//!
//! * a window (or slice) ending at `end` has fired once `W >= end - 1`;
//! * a row whose slice has not fired is accumulated normally;
//! * a row whose slice has fired but whose *last* window (the last one containing the slice)
//!   has not is accumulated into the windows still to fire;
//! * otherwise the row is dropped: no side output, `numLateRecordsDropped` + 1.
//!
//! SESSION goes through the merging window set with zero lateness, which is the DataStream rule
//! with `L = 0`. The window operator keeps each window's aggregate apart instead of slices; the
//! slice rule here decides what is dropped and agrees with the per-window rule (tested).

use super::assigner::{window_start_with_offset, WindowSpec};
use crate::engine::time::EventTime;
use serde::{Deserialize, Serialize};

/// Which API the window aggregation is written in (`window.api`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowApi {
    /// `keyBy(...).window(...)`: `WindowOperator` with a trigger, allowed lateness, side output.
    #[default]
    Datastream,
    /// A window TVF aggregation (TUMBLE, HOP, CUMULATE, SESSION).
    Sql,
}

/// What Flink's table runtime throws for a row without a rowtime (the engine's
/// `Long.MIN_VALUE`, "no timestamp").
pub const NULL_ROWTIME: &str = "the job failed: RowTime field should not be null, please convert it to a non-null long value.";

/// `TimeWindowUtil.isWindowFired` in UTC: `Long.MAX_VALUE` marks "no window" and never fires.
pub fn is_window_fired(end: EventTime, watermark: EventTime) -> bool {
    end != EventTime::MAX && watermark >= end.wrapping_sub(1)
}

/// `assignSliceEnd` and `getLastWindowEnd` of the slice assigner for `spec`: the end of the
/// slice `ts` falls into and the end of the last window containing that slice (`None` for
/// SESSION, which is not sliced).
pub fn slice_of(spec: WindowSpec, ts: EventTime) -> Option<(EventTime, EventTime)> {
    match spec {
        WindowSpec::Tumbling { size_ms, offset_ms } => {
            let end = window_start_with_offset(ts, offset_ms, size_ms).wrapping_add(size_ms);
            Some((end, end))
        }
        WindowSpec::Sliding { size_ms, slide_ms, offset_ms } => {
            // HOP requires size % slide == 0, so the slice is gcd(size, slide) = slide.
            let end = window_start_with_offset(ts, offset_ms, slide_ms).wrapping_add(slide_ms);
            Some((end, end.wrapping_sub(slide_ms).wrapping_add(size_ms)))
        }
        WindowSpec::Cumulate { step_ms, max_size_ms, offset_ms } => {
            let end = window_start_with_offset(ts, offset_ms, step_ms).wrapping_add(step_ms);
            let start = window_start_with_offset(end.wrapping_sub(1), offset_ms, max_size_ms);
            Some((end, start.wrapping_add(max_size_ms)))
        }
        WindowSpec::Session { .. } => None,
    }
}

/// `processElement`'s decision for a sliced window: `true` when the row is dropped (its last
/// window has fired).
pub fn is_dropped(spec: WindowSpec, ts: EventTime, watermark: EventTime) -> bool {
    match slice_of(spec, ts) {
        Some((slice_end, last_window_end)) => is_window_fired(slice_end, watermark) && is_window_fired(last_window_end, watermark),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_and_last_windows() {
        let t = WindowSpec::Tumbling { size_ms: 10_000, offset_ms: 0 };
        assert_eq!(slice_of(t, EventTime(9_999)), Some((EventTime(10_000), EventTime(10_000))));
        let h = WindowSpec::Sliding { size_ms: 3000, slide_ms: 1000, offset_ms: 0 };
        assert_eq!(slice_of(h, EventTime(2400)), Some((EventTime(3000), EventTime(5000))));
        let c = WindowSpec::Cumulate { step_ms: 1000, max_size_ms: 3000, offset_ms: 0 };
        assert_eq!(slice_of(c, EventTime(3500)), Some((EventTime(4000), EventTime(6000))));
        assert_eq!(slice_of(c, EventTime(2999)), Some((EventTime(3000), EventTime(3000))));
        assert_eq!(slice_of(WindowSpec::Session { gap_ms: 5 }, EventTime(1)), None);
    }

    #[test]
    fn v_sql_3_and_v_sql_5_drop_rules() {
        let t = WindowSpec::Tumbling { size_ms: 10_000, offset_ms: 0 };
        assert!(!is_window_fired(EventTime(10_000), EventTime(9_998)));
        assert!(is_window_fired(EventTime(10_000), EventTime(9_999)));
        assert!(is_dropped(t, EventTime(3000), EventTime(9_999)));
        assert!(!is_dropped(t, EventTime(3000), EventTime(9_998)));
        let c = WindowSpec::Cumulate { step_ms: 1000, max_size_ms: 3000, offset_ms: 0 };
        assert!(!is_dropped(c, EventTime(3500), EventTime(3999)), "late for [3000,4000) only");
        assert!(is_dropped(c, EventTime(2999), EventTime(4999)));
        assert!(!is_window_fired(EventTime::MAX, EventTime::MAX));
    }
}
