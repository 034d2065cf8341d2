//! What the metrics say about each node of a live job's graph: the WHY panel of the live card,
//! as the simulated job's WHY panel explains a clicked node. One [`Note`] per split, source
//! subtask and keyed subtask, in the snapshot's order (`to_snapshot` hands the rows over, so the
//! order is written once). Only what the REST API reported: a metric not reported is "unknown",
//! and a channel's own watermark is never known (Flink has no per-channel metric).

use super::explain::{behind, quiet_for, unknown_or, wm, Holder};
use super::job::{LiveSplit, LiveSubtask, LiveVertex};
use crate::engine::flow::back_pressure::BackPressureLevel;
use crate::engine::time::{format_duration, EventTime, NO_WATERMARK};
use serde::Serialize;

/// One node's heading and what its metrics say, a finding per line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    pub title: String,
    pub lines: Vec<String>,
}

/// Per snapshot index: splits (partitions), source subtasks, keyed subtasks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct NodeNotes {
    pub splits: Vec<Note>,
    pub sources: Vec<Note>,
    pub operators: Vec<Note>,
}

/// A source subtask as the snapshot numbers it: its vertex and the subtask.
pub type SourceRow<'a> = (&'a LiveVertex, &'a LiveSubtask);

/// A split as the snapshot numbers it: its source subtask's row and the split.
pub type SplitRow<'a> = (SourceRow<'a>, &'a LiveSplit);

/// The notes of every node; `holder` is the subtask `explain` names.
pub fn node_notes(sources: &[SourceRow], splits: &[SplitRow], keyed: Option<&LiveVertex>, holder: Option<&Holder>) -> NodeNotes {
    NodeNotes {
        splits: splits.iter().map(|&(row, p)| split_note(row, p, holder)).collect(),
        sources: sources.iter().map(|&row| source_note(row, holder)).collect(),
        operators: keyed.map_or_else(Vec::new, |k| k.subtasks.iter().map(|s| operator_note(k, s, holder)).collect()),
    }
}

fn is_holder(h: Option<&Holder>, (v, s): SourceRow) -> bool {
    h.is_some_and(|h| h.vertex_id == v.id && h.subtask == s.index)
}

fn idleness(x: Option<f64>) -> String {
    match x {
        None => "idleness unknown (idleTimeMsPerSecond not reported)".to_string(),
        Some(x) if x > 0.0 => format!("marked idle ({x:.0} ms/s idleTimeMsPerSecond): Flink leaves it out of its subtask's minimum"),
        Some(_) => "not marked idle: it counts in its subtask's minimum".to_string(),
    }
}

fn split_note(row: SourceRow, p: &LiveSplit, h: Option<&Holder>) -> Note {
    let (v, s) = row;
    let mut lines = vec![
        format!("Read by \"{}\" subtask {}.", v.name, s.index),
        format!("Watermark: {} (split.{}.watermark.currentWatermark).", unknown_or(p.watermark, wm), p.id),
        format!("Idleness: {}.", idleness(p.idle_ms_per_s)),
    ];
    if is_holder(h, row) && h.and_then(|h| h.split.as_deref()) == Some(p.id.as_str()) {
        lines.push("The lowest split of the subtask that holds the watermark: the job's event time waits for it.".to_string());
    }
    Note { title: format!("split {}", p.id), lines }
}

fn source_note(row: SourceRow, h: Option<&Holder>) -> Note {
    let (v, s) = row;
    let of_splits = if s.splits.is_empty() { "" } else { ": the minimum over its splits not marked idle" };
    let mut lines = vec![format!("Output watermark: {} (currentOutputWatermark){of_splits}.", unknown_or(s.output_watermark, wm))];
    match (h, s.output_watermark) {
        (Some(_), _) if is_holder(h, row) => {
            lines.push("Holds the minimum: the lowest output watermark of all source subtasks.".to_string())
        }
        (Some(h), Some(w)) if w == h.watermark => {
            lines.push(format!("At the holder's watermark: a tie with \"{}\" subtask {}, named first.", h.vertex_name, h.subtask))
        }
        (Some(h), Some(_)) if EventTime(h.watermark) == NO_WATERMARK => {
            lines.push(format!("Ahead of the holder, \"{}\" subtask {}, which has no watermark yet.", h.vertex_name, h.subtask))
        }
        (Some(h), Some(w)) => {
            lines.push(format!("{} ahead of the holder, \"{}\" subtask {}.", behind(h.watermark, w), h.vertex_name, h.subtask))
        }
        _ => {}
    }
    lines.push(format!("Records out: {}.", unknown_or(s.records_out, |n| n.to_string())));
    lines.push(quiet_for(s));
    lines.push(format!("Task idle: {}.", unknown_or(s.idle_ms_per_s, |x| format!("{x:.0} ms/s (idleTimeMsPerSecond: waiting for data)"))));
    lines.push(format!("Back-pressure: {}.", unknown_or(s.back_pressured_ms_per_s, back_pressure)));
    if let Some(lag) = s.watermark_lag_ms {
        lines.push(format!("Watermark lag: {} behind the TaskManager's clock (watermarkLag).", format_duration(lag)));
    }
    lines.push(match s.splits.len() {
        0 => "No per-split watermarks reported (a source that does not use per-split watermark metrics, or none yet).".to_string(),
        1 => "1 split reports its watermark.".to_string(),
        n => format!("{n} splits report their watermarks."),
    });
    Note { title: format!("\"{}\" subtask {}", v.name, s.index), lines }
}

/// `backPressuredTimeMsPerSecond` as the Web UI grades it, and what it means here.
fn back_pressure(ms: f64) -> String {
    let level = BackPressureLevel::of(ms as i64).ui_name();
    let meaning = if ms > 0.0 { ": its output is blocked, so it may be slow rather than quiet" } else { "" };
    format!("{level}, {ms:.0} ms/s (backPressuredTimeMsPerSecond){meaning}")
}

fn operator_note(k: &LiveVertex, s: &LiveSubtask, h: Option<&Holder>) -> Note {
    let mut lines = vec![format!(
        "Input watermark: {} (currentInputWatermark): the minimum over its input channels; Flink reports no per-channel watermark.",
        unknown_or(s.input_watermark, wm)
    )];
    // Equal watermarks say it only when the holder's vertex feeds this one.
    if let Some(h) = h.filter(|h| s.input_watermark == Some(h.watermark) && k.inputs.contains(&h.vertex_id)) {
        lines.push(format!(
            "Held back by \"{}\" subtask {}: its input watermark equals that subtask's output watermark.",
            h.vertex_name, h.subtask
        ));
    }
    if let Some(h) = h.filter(|h| s.input_watermark.is_some_and(|w| w < h.watermark)) {
        lines.push(format!(
            "Below every source subtask's output watermark (the lowest: \"{}\" subtask {}): the newer watermarks are still in flight behind records in its input, or an input not drawn holds it.",
            h.vertex_name, h.subtask
        ));
    }
    lines.push(format!("Output watermark: {} (currentOutputWatermark).", unknown_or(s.output_watermark, wm)));
    let n = |x: Option<i64>| unknown_or(x, |n| n.to_string());
    lines.push(format!("Records in / out: {} / {}.", n(s.records_in), n(s.records_out)));
    let ms = |x: Option<f64>| unknown_or(x, |x| format!("{x:.0} ms/s"));
    lines.push(format!("Busy: {} (busyTimeMsPerSecond); back-pressured: {}.", ms(s.busy_ms_per_s), ms(s.back_pressured_ms_per_s)));
    if let Some(late) = s.late_records_dropped {
        lines.push(format!("Late records dropped: {late} (numLateRecordsDropped)."));
    }
    Note { title: format!("\"{}\" subtask {}", k.name, s.index), lines }
}
