//! A live job as the simulated job's [`Snapshot`], so that the UI draws a real job with the same
//! graph and tables as a simulated one (issue 16). The graph has three columns, as the
//! playground's job: the source vertices' subtasks (one band per source vertex),
//! with their splits left of them where the source reports per-split watermarks; the subtasks of
//! the first vertex fed by a source (the "keyed" column); and the other vertices, named in the
//! sink. [`LiveGraph`] carries beside the snapshot what the snapshot has no field for: the real
//! names, the culprit chain of [`explain`], and which counts were reported.
//!
//! Only what the metrics say: a watermark the JobManager did not report is
//! [`UNKNOWN_WATERMARK`] (the UI prints `?`), and a channel's own watermark is always unknown
//! (Flink has no per-channel metric). Counts the REST API does not give (records produced per
//! split, buffered records, open windows) are 0 in the snapshot and flagged unknown by
//! [`LiveGraph`]; the UI shows `?` for them in live mode. Idleness of a split is Flink's
//! (`idleTimeMsPerSecond` > 0); a subtask's own watermark status is not in the REST API and is
//! drawn active. Back-pressure and busy time are drawn (the snapshot's `flow_marks`) when the
//! sources report `backPressuredTimeMsPerSecond`; [`LiveGraph`] carries the rates and, per
//! node, what its metrics say ([`node_notes`]).

use super::explain::{explain, Holder};
use super::job::{LiveJob, LiveSubtask, LiveVertex};
use super::node_notes::{node_notes, NodeNotes, SourceRow, SplitRow};
use crate::engine::failover::JobStatus;
use crate::engine::flow::back_pressure::BackPressureLevel;
use crate::engine::job::TwoInputMode;
use crate::engine::job_run::JobRunView;
use crate::engine::operator::sink::SinkMode;
use crate::engine::snapshot::{ChannelView, JobShape, OperatorView, Snapshot, SourceView, SplitView};
use crate::engine::status::WatermarkStatus;
use crate::engine::time::{EventTime, ProcTime};
use serde::Serialize;

/// A watermark the metrics do not give: one above `Long.MIN_VALUE` (No Watermark), a value no
/// watermark generator emits (a bounded-out-of-orderness one starts at `Long.MIN_VALUE`).
pub const UNKNOWN_WATERMARK: EventTime = EventTime(i64::MIN + 1);

/// The culprit chain the graph marks, in snapshot indexes: (keyed subtask, source subtask, split).
pub type LiveChain = (Option<u32>, Option<u32>, Option<u32>);

/// A live job in the simulated job's picture, and what that picture cannot say.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveGraph {
    pub snapshot: Snapshot,
    /// The subtask holding the minimum (from [`explain`]), the first keyed subtask it holds
    /// back, and its lowest split; all `None` when no source subtask is below another.
    pub chain: LiveChain,
    pub job_name: String,
    /// Per band (source vertex), its name.
    pub source_names: Vec<String>,
    /// The vertex drawn as the keyed column, and how its input is shipped (`HASH`, …).
    pub keyed_name: Option<String>,
    pub keyed_ship_strategy: Option<String>,
    /// The vertices after it (drawn as the sink).
    pub sink_names: Vec<String>,
    /// Per snapshot partition, the split's real id (`split-1`).
    pub split_ids: Vec<String>,
    /// Per keyed subtask, `numRecordsOut` (what its windows emitted), when reported.
    pub keyed_records_out: Vec<Option<i64>>,
    /// Per source subtask, `backPressuredTimeMsPerSecond`, when reported.
    pub back_pressured_ms_per_s: Vec<Option<i64>>,
    /// Per keyed subtask, `busyTimeMsPerSecond`, when reported.
    pub busy_ms_per_s: Vec<Option<i64>>,
    /// Per node, what its metrics say (the live card's WHY panel).
    pub notes: NodeNotes,
}

/// The live job `job` as a snapshot with its marks.
pub fn to_snapshot(job: &LiveJob) -> LiveGraph {
    let sources: Vec<&LiveVertex> = job.vertices.iter().filter(|v| v.is_source()).collect();
    let keyed = job.vertices.iter().find(|v| !v.is_source() && v.inputs.iter().any(|i| sources.iter().any(|s| s.id == *i)));
    let keyed = keyed.or_else(|| job.vertices.iter().find(|v| !v.is_source()));
    let now = ProcTime(job.now_ms.unwrap_or(0));
    let source_rows = source_rows(&sources);
    let split_rows = split_rows(&source_rows);
    let splits = splits(&sources, &source_rows, &split_rows);
    let split_ids: Vec<String> = split_rows.iter().map(|(_, p)| p.id.clone()).collect();
    let source_views = source_views(&sources, &source_rows, &splits);
    let holder = explain(job).holder;
    let held = holder.as_ref().and_then(|h| row_of(&source_rows, &h.vertex_id, h.subtask));
    let operators =
        keyed.map_or_else(Vec::new, |k| operators(k, &source_views, &source_rows, held.zip(holder.as_ref().map(|h| h.watermark))));
    let chain = chain(holder.as_ref(), held, &operators, &split_ids, &splits);
    let sink_names = job
        .vertices
        .iter()
        .filter(|v| !v.is_source() && Some(v.id.as_str()) != keyed.map(|k| k.id.as_str()))
        .map(|v| v.name.clone())
        .collect();
    let snapshot = Snapshot {
        now,
        elapsed_ms: 0,
        start_time: now,
        started: true,
        finished: false,
        job: JobShape {
            topics: sources.iter().map(|v| v.name.clone()).collect(),
            two_input_mode: (sources.len() > 1).then_some(TwoInputMode::Union),
            keyed_operator: "window",
            join_bounds: None,
            keyed_capacity_per_s: None,
            flow_marks: source_rows.iter().any(|(_, s)| s.back_pressured_ms_per_s.is_some()),
            channel_buffer_records: 0,
            record_scale: 1,
        },
        splits,
        sources: source_views,
        operators,
        windows_fired: 0,
        joins_emitted: 0,
        late_records: 0,
        trace_cursor: 0,
        trace_hash: String::new(),
        sink_mode: SinkMode::Append,
        metrics: None,
        run: run_view(),
    };
    LiveGraph {
        snapshot,
        chain,
        job_name: job.name.clone(),
        source_names: sources.iter().map(|v| v.name.clone()).collect(),
        keyed_name: keyed.map(|k| k.name.clone()),
        keyed_ship_strategy: keyed.and_then(|k| k.ship_strategy.clone()),
        sink_names,
        split_ids,
        keyed_records_out: keyed.map_or_else(Vec::new, |k| k.subtasks.iter().map(|s| s.records_out).collect()),
        back_pressured_ms_per_s: source_rows.iter().map(|(_, s)| s.back_pressured_ms_per_s.map(|x| x.round() as i64)).collect(),
        busy_ms_per_s: keyed.map_or_else(Vec::new, |k| k.subtasks.iter().map(|s| s.busy_ms_per_s.map(|x| x.round() as i64)).collect()),
        notes: node_notes(&source_rows, &split_rows, keyed, holder.as_ref()),
    }
}

/// A split's order within its subtask: `split-2` before `split-10`.
fn split_order(id: &str) -> (usize, &str) {
    (id.len(), id)
}

/// Every source subtask in band order: the snapshot's source subtask `i` is row `i`.
fn source_rows<'a>(sources: &[&'a LiveVertex]) -> Vec<SourceRow<'a>> {
    sources.iter().flat_map(|&v| v.subtasks.iter().map(move |s| (v, s))).collect()
}

/// Every reported split, by its subtask's row and then in split order: the snapshot's
/// partition `p` is row `p`.
fn split_rows<'a>(sources: &[SourceRow<'a>]) -> Vec<SplitRow<'a>> {
    sources
        .iter()
        .flat_map(|&row| {
            let mut reported: Vec<_> = row.1.splits.iter().collect();
            reported.sort_by(|a, b| split_order(&a.id).cmp(&split_order(&b.id)));
            reported.into_iter().map(move |p| (row, p))
        })
        .collect()
}

/// The band (input) of a source vertex.
fn band(sources: &[&LiveVertex], v: &LiveVertex) -> u8 {
    sources.iter().position(|x| x.id == v.id).unwrap_or(0) as u8
}

/// The index of subtask `subtask` of vertex `vertex_id` among the snapshot's source subtasks.
fn row_of(rows: &[SourceRow], vertex_id: &str, subtask: u32) -> Option<u32> {
    rows.iter().position(|(v, s)| v.id == vertex_id && s.index == subtask).map(|i| i as u32)
}

/// One partition per reported split, numbered across the source subtasks in band order.
fn splits(sources: &[&LiveVertex], rows: &[SourceRow], split_rows: &[SplitRow]) -> Vec<SplitView> {
    let mut in_topic = vec![0u32; sources.len()];
    split_rows
        .iter()
        .enumerate()
        .map(|(i, &(row, p))| {
            let input = band(sources, row.0);
            let n = &mut in_topic[input as usize];
            *n += 1;
            SplitView {
                partition: i as u32,
                input,
                partition_in_topic: *n - 1,
                subtask: row_of(rows, &row.0.id, row.1.index),
                produced: 0,
                read: 0,
                unread: 0,
                max_timestamp: None,
                watermark: Some(p.watermark.map_or(UNKNOWN_WATERMARK, EventTime)),
                idle: p.idle_ms_per_s.is_some_and(|x| x > 0.0),
                idle_deadline: None,
                last_record_at: None,
                released: false,
                silent: false,
                paused: false,
                at_its_end: false,
            }
        })
        .collect()
}

fn wm(w: Option<i64>) -> EventTime {
    w.map_or(UNKNOWN_WATERMARK, EventTime)
}

fn source_views(sources: &[&LiveVertex], rows: &[SourceRow], splits: &[SplitView]) -> Vec<SourceView> {
    rows.iter()
        .enumerate()
        .map(|(i, &(v, s))| SourceView {
            subtask: i as u32,
            input: band(sources, v),
            subtask_in_source: s.index,
            midstream: None,
            partitions: splits.iter().filter(|p| p.subtask == Some(i as u32)).map(|p| p.partition).collect(),
            combined_watermark: wm(s.output_watermark),
            output_watermark: wm(s.output_watermark),
            idle: false,
            main_output_idle: false,
            task_manager: 0,
            back_pressured: s.back_pressured_ms_per_s.is_some_and(|x| x > 0.0),
            back_pressure_level: level(s),
            alignment: None,
        })
        .collect()
}

/// The Web UI's colour from `backPressuredTimeMsPerSecond` (ok when not reported).
fn level(s: &LiveSubtask) -> BackPressureLevel {
    BackPressureLevel::of(s.back_pressured_ms_per_s.unwrap_or(0.0) as i64)
}

/// The keyed column: a channel from every subtask of a source vertex that feeds it (one from
/// its own index on a `FORWARD` edge), each watermark unknown; the channel from the holder is
/// the minimum of every subtask whose input watermark equals the holder's. `rows` are the
/// source subtasks' vertices, in `sources`' order.
fn operators(k: &LiveVertex, sources: &[SourceView], rows: &[SourceRow], held: Option<(u32, i64)>) -> Vec<OperatorView> {
    let forward = k.ship_strategy.as_deref() == Some("FORWARD");
    k.subtasks
        .iter()
        .map(|s| {
            let holds = held.filter(|(_, w)| s.input_watermark == Some(*w)).map(|(h, _)| h);
            let channels = sources
                .iter()
                .zip(rows)
                .filter(|(src, (v, _))| k.inputs.contains(&v.id) && (!forward || src.subtask_in_source == s.index))
                .map(|(src, _)| src)
                .enumerate()
                .map(|(c, src)| ChannelView {
                    input: 0,
                    channel: c,
                    source_subtask: src.subtask,
                    watermark: UNKNOWN_WATERMARK,
                    status: WatermarkStatus::Active,
                    aligned: true,
                    is_min: holds == Some(src.subtask),
                    buffered_records: 0,
                })
                .collect();
            OperatorView {
                subtask: s.index,
                input_watermark: wm(s.input_watermark),
                output_watermark: wm(s.output_watermark),
                idle: false,
                channels,
                inputs: Vec::new(),
                join_buffered: None,
                window_state_size: 0,
                open_windows: Vec::new(),
                open_window_count: 0,
                state_entries: 0,
                state_bytes: 0,
                task_manager: 0,
            }
        })
        .collect()
}

/// The chain: the first keyed subtask the holder holds back, the holder, and its lowest split.
fn chain(h: Option<&Holder>, held: Option<u32>, operators: &[OperatorView], split_ids: &[String], splits: &[SplitView]) -> LiveChain {
    let (Some(h), Some(s)) = (h, held) else { return (None, None, None) };
    let op = operators.iter().find(|o| o.channels.iter().any(|c| c.is_min && c.source_subtask == s)).map(|o| o.subtask);
    let split =
        h.split.as_ref().and_then(|id| (0..splits.len()).find(|&p| splits[p].subtask == Some(s) && split_ids[p] == *id)).map(|p| p as u32);
    (op, Some(s), split)
}

/// The job's run as far as the graph needs it: running, no checkpoints known.
fn run_view() -> JobRunView {
    JobRunView {
        status: JobStatus::Running,
        attempt: 1,
        restarts: 0,
        checkpoint_interval_ms: None,
        checkpoints_completed: 0,
        last_checkpoint: None,
        failed_at: None,
        failure: None,
        restarting_until: None,
        restored_at: None,
        restored_from: None,
        records_replayed: 0,
        results_duplicated: 0,
        task_managers: Vec::new(),
    }
}
