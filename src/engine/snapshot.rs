//! A plain, serializable picture of the whole job at the current instant, for the UI and the
//! JS API: splits, source subtasks, operator subtasks with their input channels.

use super::sim::Simulation;
use super::status::WatermarkStatus;
use super::time::{EventTime, ProcTime};
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct SplitView {
    pub partition: u32,
    pub subtask: Option<u32>,
    pub produced: u64,
    pub read: u64,
    pub unread: usize,
    pub max_timestamp: Option<EventTime>,
    /// The split's own watermark (its partial in the multiplexer).
    pub watermark: Option<EventTime>,
    pub idle: bool,
    /// When the idleness timer will declare it idle if nothing arrives.
    pub idle_deadline: Option<ProcTime>,
    pub last_record_at: Option<ProcTime>,
    pub released: bool,
    /// Every producer of the partition is silenced (or it has none).
    pub silent: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct SourceView {
    pub subtask: u32,
    pub partitions: Vec<u32>,
    pub combined_watermark: EventTime,
    pub output_watermark: EventTime,
    pub idle: bool,
    pub main_output_idle: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ChannelView {
    pub channel: usize,
    pub source_subtask: u32,
    pub watermark: EventTime,
    pub status: WatermarkStatus,
    pub aligned: bool,
    /// This channel holds the operator's minimum.
    pub is_min: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct OperatorView {
    pub subtask: u32,
    pub input_watermark: EventTime,
    pub output_watermark: EventTime,
    pub idle: bool,
    pub channels: Vec<ChannelView>,
    pub window_state_size: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    pub now: ProcTime,
    pub start_time: ProcTime,
    pub splits: Vec<SplitView>,
    pub sources: Vec<SourceView>,
    pub operators: Vec<OperatorView>,
    pub windows_fired: usize,
    pub late_records: u64,
    pub trace_cursor: u64,
    pub trace_hash: String,
}

impl Simulation {
    pub fn snapshot(&self) -> Snapshot {
        let interval = self.cfg.auto_watermark_interval_ms;
        let splits = (0..self.partitions.len() as u32)
            .map(|p| {
                let part = &self.partitions[p as usize];
                let silent = self.producers.iter().filter(|x| x.partition == p).all(|x| x.silenced);
                let base = SplitView {
                    partition: p,
                    subtask: None,
                    produced: part.produced,
                    read: 0,
                    unread: part.unread(),
                    max_timestamp: None,
                    watermark: None,
                    idle: false,
                    idle_deadline: None,
                    last_record_at: None,
                    released: part.removed,
                    silent,
                };
                let Some((s, i)) = self.split_of(p) else { return base };
                let src = &self.sources[s as usize];
                let sp = &src.splits[i];
                SplitView {
                    subtask: Some(s),
                    read: sp.records_read,
                    max_timestamp: sp.max_ts,
                    watermark: src.split_watermark(i),
                    idle: src.split_idle(i),
                    idle_deadline: if src.split_idle(i) { None } else { sp.idle_deadline(interval) },
                    last_record_at: sp.last_record_at,
                    released: sp.released || part.removed,
                    ..base
                }
            })
            .collect();
        let sources = self
            .sources
            .iter()
            .map(|s| SourceView {
                subtask: s.index,
                partitions: s.splits.iter().filter(|sp| !sp.released).map(|sp| sp.partition).collect(),
                combined_watermark: s.combined_watermark(),
                output_watermark: s.output.current_watermark(),
                idle: s.output.is_idle(),
                main_output_idle: s.main_output_idle(),
            })
            .collect();
        let operators = self
            .down
            .windows
            .iter()
            .map(|w| {
                let min = w.valve.min_channel();
                OperatorView {
                    subtask: w.index,
                    input_watermark: w.current_input_watermark(),
                    output_watermark: w.current_output_watermark,
                    idle: w.valve.output_status().is_idle(),
                    channels: w
                        .valve
                        .channels()
                        .iter()
                        .enumerate()
                        .map(|(i, c)| ChannelView { channel: i, source_subtask: w.channel_sources[i], watermark: c.watermark, status: c.status, aligned: c.aligned, is_min: min == Some(i) })
                        .collect(),
                    window_state_size: w.op.state_size(),
                }
            })
            .collect();
        let late = self.down.late_total();
        Snapshot {
            now: self.now.max(self.cfg.start_time),
            start_time: self.cfg.start_time,
            splits,
            sources,
            operators,
            windows_fired: self.down.sink.total(),
            late_records: late,
            trace_cursor: self.trace.cursor(),
            trace_hash: self.trace.hash_hex(),
        }
    }
}
