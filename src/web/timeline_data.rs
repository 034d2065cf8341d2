//! What the timeline draws, recorded as the simulation runs: one watermark series per split and
//! per keyed subtask (a step function, one point per change) and, for a two-input operator, one
//! per input (the playground's per-input watermarks), idle intervals, window firings and late records.
//! Bounded: old points are thinned, old marks dropped.
//!
//! The watermark lines are read after every processed instant ([`Watch`]), not only when a
//! frame takes a snapshot: at 30× a snapshot came every few simulated seconds, and a line drawn
//! from them rose seconds after the window it fired (the firing mark is exact), so the timeline
//! showed windows firing before their watermark.

use crate::engine::observer::Observer;
use crate::engine::operator::trigger::FiringKind;
use crate::engine::sim::Simulation;
use crate::engine::snapshot::Snapshot;
use crate::engine::time::NO_WATERMARK;
use std::ops::ControlFlow;

/// Points kept per series before the older half is thinned.
const MAX_POINTS: usize = 4_000;
/// Firing and late marks kept.
const MAX_MARKS: usize = 20_000;

#[derive(Clone, Debug, Default)]
pub struct Series {
    /// (processing time, watermark) at every change, at most one per `resolution_ms`.
    pub points: Vec<(i64, i64)>,
    /// Idle intervals (start, end or still idle).
    pub idle: Vec<(i64, Option<i64>)>,
    /// The shortest time between two points: 0 until the series first fills, then doubled each
    /// time it fills again, so points stay evenly spread over the whole run.
    resolution_ms: i64,
}

impl Series {
    fn push(&mut self, t: i64, w: i64, idle: bool) {
        if self.points.last().is_none_or(|&(_, last)| last != w) {
            self.add(t, w);
            if self.points.len() > MAX_POINTS {
                self.thin();
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

    /// Adds a change, or within `resolution_ms` of the last point folds it into that one: the
    /// step comes up to one resolution early, never late (a window's firing mark is never
    /// above its line).
    fn add(&mut self, t: i64, w: i64) {
        match self.points.last_mut() {
            Some(last) if t - last.0 < self.resolution_ms => last.1 = w,
            _ => self.points.push((t, w)),
        }
    }

    /// Doubles the resolution (at least an even share of the span) and folds the points to it.
    /// Thinning by count kept the recent points and halved the old ones again and again: the
    /// first half hour of a long run was left with one or two, and the table read "No
    /// Watermark" there for splits whose window subtasks had one.
    fn thin(&mut self) {
        let span = self.points.last().map_or(0, |l| l.0) - self.points.first().map_or(0, |f| f.0);
        self.resolution_ms = (self.resolution_ms * 2).max(span / (MAX_POINTS as i64 / 2)).max(1);
        for (t, w) in std::mem::take(&mut self.points) {
            self.add(t, w);
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
    /// The window results read into `firings` so far (the sink's count).
    pub(crate) windows_seen: usize,
    pub late: Vec<LateMark>,
    /// Checkpoints, failures and restarts (`job_marks`), recorded after every instant.
    pub job: super::job_marks::JobMarks,
}

impl TimelineData {
    pub fn new(start: i64) -> Self {
        TimelineData { start, last: start, ..Default::default() }
    }

    /// Names and creates the series, and appends the current watermarks and idle flags. Most
    /// values are already there ([`TimelineData::observe`] read them after the last instant) and
    /// add no point; what this adds is what changed between instants: a split unassigned by a
    /// failure, a command applied while paused.
    pub fn record(&mut self, snap: &Snapshot) {
        let t = snap.now.ms();
        self.last = self.last.max(t);
        if self.splits.len() < snap.splits.len() {
            self.splits.resize_with(snap.splits.len(), Series::default);
            self.split_names = (0..snap.splits.len() as u32).map(|p| snap.partition_name(p)).collect();
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

    /// After an instant: the job marks, and every watermark line that moved, at this instant.
    /// Series appear with a snapshot ([`TimelineData::record`]), which names them.
    pub fn observe(&mut self, sim: &Simulation) {
        self.job.observe(sim);
        self.observe_firings(sim);
        // No snapshot has named a series yet: nothing to read for.
        if self.splits.is_empty() && self.operators.is_empty() {
            return;
        }
        let t = sim.now().ms();
        // A partition added since the last snapshot (a link's replay has none until its end)
        // gets its line from now, named as the snapshot names it.
        let added = sim.partitions().len();
        if self.splits.len() < added {
            self.split_names.extend((self.splits.len() as u32..added as u32).map(|p| sim.partition_name(p)));
            self.splits.resize_with(added, Series::default);
        }
        for (p, w, idle) in sim.split_watermarks() {
            if let Some(series) = self.splits.get_mut(p as usize) {
                series.push(t, w.ms(), idle);
            }
        }
        for (o, (w, idle, per_input)) in sim.keyed_watermarks().enumerate() {
            if let Some(series) = self.operators.get_mut(o) {
                series.push(t, w.ms(), idle);
            }
            let Some(inputs) = self.inputs.get_mut(o) else { continue };
            for (series, (w, idle)) in inputs.iter_mut().zip(per_input) {
                series.push(t, w.ms(), idle);
            }
        }
    }

    /// The window results of the instant just run, as firing marks: read after every instant,
    /// so a long run (a host's `runUntil`, a link's replay) keeps every mark though the page
    /// keeps only the newest results.
    fn observe_firings(&mut self, sim: &Simulation) {
        let sink = &sim.downstream().sink;
        if sink.total() > self.windows_seen {
            let fired = sink.since(self.windows_seen).map(|(_, r)| (r.time.ms(), r.end.ms(), r.subtask, r.kind == FiringKind::Late));
            self.add_firings(fired);
            self.windows_seen = sink.total();
        }
    }

    pub fn add_firings(&mut self, fired: impl IntoIterator<Item = FiringMark>) {
        // Many keys fire together: one mark per (time, window end, subtask, kind) is enough.
        for f in fired {
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

/// What the host page runs after each instant (`host::AfterInstant`, bound to a generation by
/// `host`; declared here, beside [`Watch`], which the native tests build too). `Break`: its
/// batch of events is full.
pub type InstantHook = Box<dyn FnMut(&Simulation) -> ControlFlow<()>>;

/// An observer that records the timeline (job marks, watermark lines) after every instant, lets
/// the host page's listeners read what happened, and then asks `inner` (the frame budget while
/// playing) whether to go on.
pub struct Watch<'a, O> {
    pub timeline: &'a mut TimelineData,
    /// The host page's per-instant hook (`host::AfterInstant`), if it has one.
    pub host: Option<InstantHook>,
    pub inner: O,
    /// A run that stops when the host's batch is full (and goes on once it is handed over);
    /// other advances (an action's instant, a search, a frame) collect it all.
    pub batches: bool,
}

impl<O: Observer> Observer for Watch<'_, O> {
    fn after_instant(&mut self, sim: &Simulation) -> ControlFlow<()> {
        self.timeline.observe(sim);
        let full = self.host.as_mut().is_some_and(|hook| hook(sim).is_break());
        let inner = self.inner.after_instant(sim);
        if full && self.batches {
            return ControlFlow::Break(());
        }
        inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::operator::trigger::FiringKind;
    use crate::engine::scenario::{build, catalog};
    use crate::engine::session::Session;

    /// `id` run to `until_ms` in runs of `frame_ms` (a frame's worth at some speed), a snapshot
    /// recorded after each as the page does, the instants watched or not.
    fn drawn(id: &str, until_ms: i64, frame_ms: i64, watched: bool) -> (Session, TimelineData) {
        let mut s = Session::new(build::parse(catalog::preset(id).unwrap().json).unwrap()).unwrap();
        let mut t = TimelineData::new(s.start().ms());
        t.record(&s.sim().snapshot());
        for at in (frame_ms..=until_ms).step_by(frame_ms as usize) {
            if watched {
                s.run_until(at, &mut Watch { timeline: &mut t, host: None, inner: (), batches: false }).unwrap();
            } else {
                s.run_until(at, &mut ()).unwrap();
            }
            t.record(&s.sim().snapshot());
        }
        (s, t)
    }

    /// Firings drawn before their window subtask's line reached the window's end.
    fn fired_above_the_line(s: &Session, t: &TimelineData) -> usize {
        let results = s.sim().downstream().sink.results();
        results.filter(|r| r.kind == FiringKind::OnTime && t.operators[r.subtask as usize].at(r.time.ms()) < r.end.ms() - 1).count()
    }

    #[test]
    fn the_line_reaches_each_window_when_it_fires_at_any_frame_length() {
        // 6 s a frame (30× with the pacing's timeline period): the lines lagged the firings.
        let (s, coarse) = drawn("bound-too-large", 180_000, 6_000, false);
        assert!(fired_above_the_line(&s, &coarse) > 0, "the test's premise: snapshots alone draw the line late");
        let (s, exact) = drawn("bound-too-large", 180_000, 6_000, true);
        assert!(s.sim().downstream().sink.results().len() > 10);
        assert_eq!(fired_above_the_line(&s, &exact), 0);
    }

    #[test]
    fn a_long_run_keeps_its_early_history() {
        let mut x = Series::default();
        for i in 0..(MAX_POINTS as i64 * 20) {
            x.push(i * 200, i, false);
        }
        assert!(x.points.len() <= MAX_POINTS);
        // Points stay evenly spread: the first tenth of the run has about a tenth of them.
        let end = MAX_POINTS as i64 * 20 * 200;
        let early = x.points.iter().filter(|p| p.0 < end / 10).count();
        assert!(early * 20 >= x.points.len(), "{early} of {} points in the first tenth", x.points.len());
        // The line is never below the truth (at most one resolution ahead of it).
        for t in (0..end).step_by(7_919) {
            let truth = t / 200;
            assert!(x.at(t) >= truth && x.at(t) <= truth + x.resolution_ms / 200 + 1, "at {t}: {} vs {truth}", x.at(t));
        }
    }

    #[test]
    fn a_split_line_moves_when_its_watermark_does() {
        let (s, t) = drawn("seed-001-heartbeat", 60_000, 16_000, true);
        let interval = s.sim().config().auto_watermark_interval_ms;
        // Periodic emission moves a busy split's watermark every interval: its points are that
        // close, not a frame apart.
        let busy = t.splits.iter().max_by_key(|x| x.points.len()).unwrap();
        let gaps: Vec<i64> = busy.points.windows(2).map(|w| w[1].0 - w[0].0).collect();
        assert!(gaps.iter().filter(|&&g| g <= interval).count() * 2 > gaps.len(), "{gaps:?}");
    }

    /// A partition added between snapshots (a link's replay takes none until its end) has its
    /// line from when it was added.
    #[test]
    fn a_partition_added_between_snapshots_has_its_line() {
        let mut s = Session::new(build::parse(catalog::preset("bound-too-large").unwrap().json).unwrap()).unwrap();
        let mut t = TimelineData::new(s.start().ms());
        t.record(&s.sim().snapshot());
        let before = t.splits.len();
        s.run_until(10_000, &mut Watch { timeline: &mut t, host: None, inner: (), batches: false }).unwrap();
        s.apply(crate::engine::command::Command::AddPartition { topic: None }).unwrap();
        s.run_until(30_000, &mut Watch { timeline: &mut t, host: None, inner: (), batches: false }).unwrap();
        assert_eq!(t.splits.len(), before + 1);
        assert_eq!(t.split_names.len(), t.splits.len());
        assert!(t.splits[before].points.first().is_some_and(|p| p.0 < s.start().ms() + 11_000), "{:?}", t.splits[before].points.first());
    }

    /// The page keeps the newest 24,000 window results, but the timeline reads every firing
    /// after each instant: four hours of seed 001 in one run (a host's `runUntil`) drop results
    /// and keep every mark.
    #[test]
    fn a_long_run_keeps_every_firing_mark_though_the_page_keeps_fewer_results() {
        let sc = build::parse(catalog::preset("seed-001-heartbeat").unwrap().json).unwrap();
        let mut page = Session::new(crate::engine::scenario::schema::Scenario { trace: sc.trace.in_page(), ..sc.clone() }).unwrap();
        let mut t = TimelineData::new(page.start().ms());
        page.run_until(4 * 3_600_000, &mut Watch { timeline: &mut t, host: None, inner: (), batches: false }).unwrap();
        assert!(page.sim().downstream().sink.evicted() > 0, "the page dropped results");
        let mut all = Session::new(sc).unwrap();
        all.run_until(4 * 3_600_000, &mut ()).unwrap();
        let mut want = TimelineData::new(all.start().ms());
        want.add_firings(all.sim().downstream().sink.results().map(|r| (r.time.ms(), r.end.ms(), r.subtask, r.kind == FiringKind::Late)));
        assert!(!want.firings.is_empty());
        assert_eq!(t.firings, want.firings);
    }
}
