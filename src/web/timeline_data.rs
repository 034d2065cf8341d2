//! What the timeline draws, recorded as the simulation runs: one watermark series per split and
//! per keyed subtask (a step function, one point per change) and, for a two-input operator, one
//! per input (`currentInput1/2Watermark`), idle intervals, window firings and late records.
//! Bounded: old points are thinned, old marks dropped.

use crate::engine::snapshot::Snapshot;
use crate::engine::time::NO_WATERMARK;

/// Points kept per series before the older half is thinned.
const MAX_POINTS: usize = 4_000;
/// Firing and late marks kept.
const MAX_MARKS: usize = 20_000;

#[derive(Clone, Debug, Default)]
pub struct Series {
    /// (processing time, watermark) at every change.
    pub points: Vec<(i64, i64)>,
    /// Idle intervals (start, end or still idle).
    pub idle: Vec<(i64, Option<i64>)>,
}

impl Series {
    fn push(&mut self, t: i64, w: i64, idle: bool) {
        if self.points.last().is_none_or(|&(_, last)| last != w) {
            self.points.push((t, w));
            if self.points.len() > MAX_POINTS {
                // Keep every other point of the older half: the shape survives, memory is bounded.
                let half = self.points.len() / 2;
                let mut kept: Vec<(i64, i64)> = self.points[..half].iter().copied().step_by(2).collect();
                kept.extend_from_slice(&self.points[half..]);
                self.points = kept;
            }
        }
        let open = self.idle.last().is_some_and(|&(_, end)| end.is_none());
        if idle && !open {
            self.idle.push((t, None));
        } else if !idle && open {
            if let Some(last) = self.idle.last_mut() {
                last.1 = Some(t);
            }
        }
        if self.idle.len() > 2_000 {
            self.idle.drain(..1_000);
        }
    }

    /// The watermark at processing time `t` (the step function's value).
    pub fn at(&self, t: i64) -> i64 {
        let i = self.points.partition_point(|&(pt, _)| pt <= t);
        if i == 0 {
            NO_WATERMARK.ms()
        } else {
            self.points[i - 1].1
        }
    }

    pub fn ever_idle(&self) -> bool {
        !self.idle.is_empty()
    }
}

/// A window firing mark: (processing time, window end, subtask, late re-firing).
pub type FiringMark = (i64, i64, u32, bool);
/// A late record mark: (processing time, record timestamp, went to the side output).
pub type LateMark = (i64, i64, bool);

#[derive(Clone, Debug, Default)]
pub struct TimelineData {
    pub start: i64,
    pub last: i64,
    pub splits: Vec<Series>,
    /// Each split's name as sentences say it (`11`, or `rates-0` with two topics).
    pub split_names: Vec<String>,
    pub operators: Vec<Series>,
    /// Per keyed subtask, its inputs' series when it has two (empty otherwise).
    pub inputs: Vec<Vec<Series>>,
    /// The inputs' topics (a two-input job).
    pub input_names: Vec<String>,
    pub firings: Vec<FiringMark>,
    pub late: Vec<LateMark>,
    /// Checkpoints, failures and restarts (`job_marks`), recorded after every instant.
    pub job: super::job_marks::JobMarks,
}

impl TimelineData {
    pub fn new(start: i64) -> Self {
        TimelineData { start, last: start, ..Default::default() }
    }

    /// Appends the current watermarks and idle flags.
    pub fn record(&mut self, snap: &Snapshot) {
        let t = snap.now.ms();
        self.last = self.last.max(t);
        if self.splits.len() < snap.splits.len() {
            self.splits.resize_with(snap.splits.len(), Series::default);
            self.split_names = (0..snap.splits.len() as u32).map(|p| super::graph_layout::partition_name(snap, p)).collect();
            self.input_names = snap.job.topics.clone();
        }
        for (series, sp) in self.splits.iter_mut().zip(&snap.splits) {
            if sp.released {
                continue;
            }
            series.push(t, sp.watermark.unwrap_or(NO_WATERMARK).ms(), sp.idle);
        }
        if self.operators.len() < snap.operators.len() {
            self.operators.resize_with(snap.operators.len(), Series::default);
        }
        for (series, op) in self.operators.iter_mut().zip(&snap.operators) {
            series.push(t, op.input_watermark.ms(), op.idle);
        }
        if self.inputs.len() < snap.operators.len() {
            self.inputs.resize_with(snap.operators.len(), Vec::new);
        }
        for (per_input, op) in self.inputs.iter_mut().zip(&snap.operators) {
            per_input.resize_with(op.inputs.len(), Series::default);
            for (series, i) in per_input.iter_mut().zip(&op.inputs) {
                series.push(t, i.watermark.ms(), i.idle);
            }
        }
    }

    pub fn add_firings(&mut self, fired: &[FiringMark]) {
        // Many keys fire together: one mark per (time, window end, subtask, kind) is enough.
        for &f in fired {
            if self.firings.last() != Some(&f) {
                self.firings.push(f);
            }
        }
        if self.firings.len() > MAX_MARKS {
            self.firings.drain(..self.firings.len() - MAX_MARKS / 2);
        }
    }

    pub fn add_late(&mut self, marks: impl Iterator<Item = LateMark>) {
        self.late.extend(marks);
        if self.late.len() > MAX_MARKS {
            self.late.drain(..self.late.len() - MAX_MARKS / 2);
        }
    }
}

impl TimelineData {
    /// A split's name (`partition 11`, `partition rates-0`) for labels and the table.
    pub fn split_name(&self, i: usize) -> String {
        format!("partition {}", self.split_names.get(i).map_or_else(|| i.to_string(), |n| n.clone()))
    }
}
