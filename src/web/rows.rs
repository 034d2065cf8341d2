//! View models: small comparable copies of one split, source subtask, window subtask or channel,
//! each behind its own memo. Views subscribe to their row's memo rather than to the whole
//! snapshot, so a frame touches a few hundred small nodes instead of making thousands of
//! closures re-subscribe to one signal (whose subscriber list is linear).

use crate::engine::snapshot::Snapshot;
use crate::engine::status::WatermarkStatus;
use crate::engine::time::{EventTime, ProcTime, NO_WATERMARK};
use leptos::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub struct SplitLite {
    pub now: i64,
    pub partition: u32,
    pub subtask: Option<u32>,
    pub produced: u64,
    pub read: u64,
    pub max_timestamp: Option<i64>,
    pub watermark: i64,
    pub idle: bool,
    pub idle_deadline: Option<i64>,
    pub last_record_at: Option<i64>,
    pub released: bool,
    pub silent: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SourceLite {
    pub now: i64,
    pub partitions: Vec<u32>,
    pub combined_watermark: i64,
    pub output_watermark: i64,
    pub idle: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpLite {
    pub now: i64,
    pub input_watermark: i64,
    pub idle: bool,
    pub window_state_size: usize,
    pub min_channel: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChannelLite {
    pub now: i64,
    pub source_subtask: u32,
    pub watermark: i64,
    pub idle: bool,
    pub aligned: bool,
    pub is_min: bool,
}

pub fn split_memo(snap: RwSignal<Snapshot>, p: u32) -> Memo<Option<SplitLite>> {
    Memo::new(move |_| {
        snap.with(|s| {
            s.splits.get(p as usize).map(|sp| SplitLite {
                now: s.now.ms(),
                partition: sp.partition,
                subtask: sp.subtask,
                produced: sp.produced,
                read: sp.read,
                max_timestamp: sp.max_timestamp.map(EventTime::ms),
                watermark: sp.watermark.unwrap_or(NO_WATERMARK).ms(),
                idle: sp.idle,
                idle_deadline: sp.idle_deadline.map(ProcTime::ms),
                last_record_at: sp.last_record_at.map(ProcTime::ms),
                released: sp.released,
                silent: sp.silent,
            })
        })
    })
}

pub fn source_memo(snap: RwSignal<Snapshot>, i: u32) -> Memo<Option<SourceLite>> {
    Memo::new(move |_| {
        snap.with(|s| {
            s.sources.get(i as usize).map(|v| SourceLite {
                now: s.now.ms(),
                partitions: v.partitions.clone(),
                combined_watermark: v.combined_watermark.ms(),
                output_watermark: v.output_watermark.ms(),
                idle: v.idle,
            })
        })
    })
}

pub fn op_memo(snap: RwSignal<Snapshot>, o: u32) -> Memo<Option<OpLite>> {
    Memo::new(move |_| {
        snap.with(|s| {
            s.operators.get(o as usize).map(|v| OpLite {
                now: s.now.ms(),
                input_watermark: v.input_watermark.ms(),
                idle: v.idle,
                window_state_size: v.window_state_size,
                min_channel: v.channels.iter().position(|c| c.is_min),
            })
        })
    })
}

pub fn channel_memo(snap: RwSignal<Snapshot>, op: Memo<u32>, c: usize) -> Memo<Option<ChannelLite>> {
    Memo::new(move |_| {
        let o = op.get();
        snap.with(|s| {
            s.operators.get(o as usize).and_then(|v| v.channels.get(c)).map(|ch| ChannelLite {
                now: s.now.ms(),
                source_subtask: ch.source_subtask,
                watermark: ch.watermark.ms(),
                idle: ch.status == WatermarkStatus::Idle,
                aligned: ch.aligned,
                is_min: ch.is_min,
            })
        })
    })
}
