//! Window results, interval-join pairs and late records as the JS API shows them: keys by name, watermarks as
//! `{ ms, raw }`, each window result numbered in emission order (`windows(from)` takes these
//! numbers) with the aggregate the scenario emits already picked out.

use super::watermark::as_watermark;
use crate::engine::keys::KeyTable;
use crate::engine::late_records::LateRecord;
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::join_results::JoinResult;
use crate::engine::operator::sink::WindowResult;
use crate::engine::operator::trigger::FiringKind;
use crate::engine::time::{EventTime, ProcTime};
use serde::Serialize;

/// One window result as the sink received it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WindowEmission {
    /// Position in emission order (`windows(from)`).
    pub index: usize,
    pub subtask: u32,
    pub key: String,
    pub start: EventTime,
    pub end: EventTime,
    /// The aggregate the scenario emits (`window.aggregate`).
    pub value: i64,
    pub count: u64,
    pub sum: i64,
    pub min: i64,
    pub max: i64,
    /// The operator's watermark when it fired.
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::Watermark"))]
    pub watermark: EventTime,
    /// The window's firings before this one: 0 for its first row, 1, 2, … for re-firings.
    pub firing: u32,
    /// `on_time`, `early` (a continuous trigger's interval) or `late` (a record after the
    /// window's end, within the allowed lateness).
    pub firing_kind: FiringKind,
    /// Processing time of the firing.
    pub time: ProcTime,
}

impl WindowEmission {
    pub fn new(index: usize, r: &WindowResult, keys: &KeyTable, agg: AggregateKind) -> Self {
        WindowEmission {
            index,
            subtask: r.subtask,
            key: keys.name(r.key).to_string(),
            start: r.start,
            end: r.end,
            value: r.agg.value(agg),
            count: r.agg.count,
            sum: r.agg.sum,
            min: r.agg.min,
            max: r.agg.max,
            watermark: r.watermark,
            firing: r.firing,
            firing_kind: r.kind,
            time: r.time,
        }
    }
}

/// One pair an interval join emitted (`ProcessJoinFunction.processElement(left, right, ..)`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct JoinEmission {
    /// Position in emission order (`joins(from)`).
    pub index: u64,
    pub subtask: u32,
    pub key: String,
    /// The left (first input's) element's timestamp and value.
    pub left_ts: EventTime,
    pub left_value: i64,
    /// The right (second input's) element's timestamp and value.
    pub right_ts: EventTime,
    pub right_value: i64,
    /// The output record's timestamp: `max(leftTs, rightTs)`.
    pub ts: EventTime,
    /// Processing time of the emission.
    pub time: ProcTime,
}

impl JoinEmission {
    pub fn new(index: u64, r: &JoinResult, keys: &KeyTable) -> Self {
        JoinEmission {
            index,
            subtask: r.subtask,
            key: keys.name(r.key).to_string(),
            left_ts: r.left_ts,
            left_value: r.left_value,
            right_ts: r.right_ts,
            right_value: r.right_value,
            ts: r.ts,
            time: r.time,
        }
    }
}

/// A record that arrived after the watermark had passed all its windows.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "LateRecord"))]
#[serde(rename_all = "camelCase")]
pub struct LateRecordView {
    pub subtask: u32,
    pub partition: u32,
    pub offset: u64,
    pub ts: EventTime,
    pub key: String,
    pub value: i64,
    /// The operator's watermark that made it late.
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::Watermark"))]
    pub watermark: EventTime,
    pub side_output: bool,
    pub time: ProcTime,
}

impl LateRecordView {
    pub fn new(l: &LateRecord, keys: &KeyTable) -> Self {
        LateRecordView {
            subtask: l.subtask,
            partition: l.partition,
            offset: l.offset,
            ts: l.ts,
            key: keys.name(l.key).to_string(),
            value: l.value,
            watermark: l.watermark,
            side_output: l.side_output,
            time: l.time,
        }
    }
}
