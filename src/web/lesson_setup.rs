//! A lesson step's small job and what came of it, without the DOM: [`Setup`] is what the user
//! can grab and move (each event's timestamp, the `forBoundedOutOfOrderness` bound, the
//! `withIdleness` timeout, `allowedLateness`), [`Setup::scenario`] turns it into an ordinary
//! engine scenario (the events are `produce` commands at fixed arrival times), and
//! [`Outcome::of`] reads the simulation after [`Setup::run_ms`] for the step's check and for the
//! stage. Rebuilding from a changed `Setup` and replaying to the same time is the whole of a
//! drag: deterministic, and the same natively (the tests) and in the page.
//!
//! Times here are milliseconds since the job start: the scenario starts at the default origin
//! (a whole minute), so windows of 10 s start at 0, 10 s, 20 s … on this scale too.

use crate::engine::error::InputError;
use crate::engine::operator::trigger::FiringKind;
use crate::engine::scenario::build;
use crate::engine::scenario::schema::{Scenario, DEFAULT_START_MS};
use crate::engine::session::Session;
use crate::engine::sim::Simulation;
use crate::engine::time::{EventTime, NO_WATERMARK};

/// The tumbling window size of every lesson job.
pub const WINDOW_MS: i64 = 10_000;

/// One record: where and when it arrives (fixed), and its timestamp (draggable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub partition: u32,
    /// Arrival, processing time since the start.
    pub at_ms: i64,
    /// Event time since the start.
    pub ts_ms: i64,
    pub key: &'static str,
}

/// What a step's job is made of; the fields a drag changes are `events[i].ts_ms`, `bound_ms`,
/// `idle_timeout_ms` and `allowed_lateness_ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub partitions: u32,
    pub source_parallelism: u32,
    pub window_parallelism: u32,
    pub events: Vec<Event>,
    pub bound_ms: i64,
    pub idle_timeout_ms: Option<i64>,
    pub allowed_lateness_ms: i64,
    pub side_output: bool,
    /// How far the job runs (processing time since the start): the stage shows this instant.
    pub run_ms: i64,
}

impl Setup {
    /// One partition, one source subtask, one window subtask, bound 0, no events yet.
    pub fn new(partitions: u32, run_ms: i64) -> Setup {
        Setup {
            partitions,
            source_parallelism: 1,
            window_parallelism: 1,
            events: Vec::new(),
            bound_ms: 0,
            idle_timeout_ms: None,
            allowed_lateness_ms: 0,
            side_output: false,
            run_ms,
        }
    }

    /// Adds records on `partition` arriving at `at` (seconds) with timestamp `ts` (seconds).
    pub fn events(mut self, partition: u32, key: &'static str, times: &[(f64, f64)]) -> Setup {
        for &(at, ts) in times {
            self.events.push(Event { partition, at_ms: (at * 1000.0) as i64, ts_ms: (ts * 1000.0) as i64, key });
        }
        self
    }

    /// The job as a scenario: periodic `forBoundedOutOfOrderness`, tumbling count windows, the
    /// events as `produce` commands in arrival order.
    pub fn scenario(&self) -> Result<Scenario, InputError> {
        let mut events = self.events.clone();
        events.sort_by_key(|e| e.at_ms);
        let commands: Vec<serde_json::Value> = events
            .iter()
            .map(|e| {
                serde_json::json!({"at_ms": e.at_ms, "command": "produce", "partition": e.partition,
                    "records": [{"ts": DEFAULT_START_MS + e.ts_ms, "key": e.key}]})
            })
            .collect();
        let doc = serde_json::json!({
            "name": "Lesson",
            "description": "A lesson step's job: a few records given one by one.",
            "duration_ms": self.run_ms,
            "topic": {"name": "events", "partitions": self.partitions},
            "source": {"parallelism": self.source_parallelism, "watermark": {
                "generator": {"kind": "bounded_out_of_orderness", "bound_ms": self.bound_ms},
                "idle_timeout_ms": self.idle_timeout_ms}},
            "window": {"assigner": {"type": "tumbling", "size_ms": WINDOW_MS}, "parallelism": self.window_parallelism,
                "aggregate": "count", "allowed_lateness_ms": self.allowed_lateness_ms, "late_side_output": self.side_output},
            "commands": commands,
            "trace": {"capacity": 2000, "records": false}
        });
        build::parse(&doc.to_string())
    }

    /// A session on [`Setup::scenario`] run to [`Setup::run_ms`].
    pub fn run(&self) -> Result<Session, InputError> {
        let mut s = Session::new(self.scenario()?)?;
        s.run_until(self.run_ms, &mut ())?;
        Ok(s)
    }
}

/// A window result, on the lesson's scale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fired {
    pub subtask: u32,
    pub key: String,
    pub start_ms: i64,
    pub count: u64,
    pub late_firing: bool,
}

/// A late record, on the lesson's scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Late {
    pub partition: u32,
    pub ts_ms: i64,
    pub side_output: bool,
}

/// One split (partition) at the instant shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitState {
    pub watermark: Option<i64>,
    pub max_ts: Option<i64>,
    pub idle: bool,
    pub subtask: Option<u32>,
    /// When its last record arrived (processing time since the start).
    pub last_arrival: Option<i64>,
}

/// What the job shows at the instant of the stage: what checks and the stage read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub elapsed_ms: i64,
    pub splits: Vec<SplitState>,
    /// Each window subtask's input watermark (the minimum over its channels).
    pub operators: Vec<Option<i64>>,
    pub fired: Vec<Fired>,
    pub late: Vec<Late>,
    pub dropped: u64,
    pub side: u64,
    /// Window results so far (also in a [`Outcome::summary`]).
    pub fired_total: usize,
    pub idle_timeout_ms: Option<i64>,
}

/// An event time on the lesson's scale (None for "No Watermark").
fn rel(t: EventTime, start: i64) -> Option<i64> {
    (t != NO_WATERMARK).then(|| t.ms().saturating_sub(start))
}

impl Outcome {
    /// Everything the stage draws: fine for the lessons' few records.
    pub fn of(sim: &Simulation) -> Outcome {
        let start = sim.config().start_time.ms();
        let snap = sim.snapshot();
        let splits = snap
            .splits
            .iter()
            .map(|s| SplitState {
                watermark: s.watermark.and_then(|w| rel(w, start)),
                max_ts: s.max_timestamp.and_then(|w| rel(w, start)),
                idle: s.idle,
                subtask: s.subtask,
                last_arrival: s.last_record_at.map(|t| t.ms() - start),
            })
            .collect();
        let fired = sim
            .downstream()
            .sink
            .results()
            .map(|r| Fired {
                subtask: r.subtask,
                key: sim.keys().name(r.key).to_string(),
                start_ms: r.start.ms() - start,
                count: r.agg.count,
                late_firing: r.kind == FiringKind::Late,
            })
            .collect();
        let late =
            sim.downstream().late.iter().map(|l| Late { partition: l.partition, ts_ms: l.ts.ms() - start, side_output: l.side_output });
        Outcome {
            splits,
            operators: snap.operators.iter().map(|o| rel(o.input_watermark, start)).collect(),
            fired,
            late: late.collect(),
            ..Outcome::summary(sim)
        }
    }

    /// The counters only (a preset's job fires thousands of windows).
    pub fn summary(sim: &Simulation) -> Outcome {
        let (dropped, side) = sim.downstream().late_counts();
        Outcome {
            elapsed_ms: sim.now().ms() - sim.config().start_time.ms(),
            dropped,
            side,
            fired_total: sim.downstream().sink.total(),
            idle_timeout_ms: sim.config().first().source.idle_timeout_ms,
            ..Outcome::default()
        }
    }

    /// Whether the window `[start, start + 10 s)` fired (on any subtask, for any key).
    pub fn window_fired(&self, start_ms: i64) -> bool {
        self.fired.iter().any(|f| f.start_ms == start_ms)
    }

    /// Records the window `[start, start + 10 s)` counted in its last firing, over all keys.
    pub fn window_count(&self, start_ms: i64) -> u64 {
        let mut last: Vec<(&str, u64)> = Vec::new();
        for f in self.fired.iter().filter(|f| f.start_ms == start_ms) {
            match last.iter_mut().find(|(k, _)| *k == f.key) {
                Some(e) => e.1 = f.count,
                None => last.push((&f.key, f.count)),
            }
        }
        last.iter().map(|(_, n)| n).sum()
    }

    /// Whether every window subtask's watermark reached `t`.
    pub fn all_operators_past(&self, t: i64) -> bool {
        !self.operators.is_empty() && self.operators.iter().all(|w| w.is_some_and(|w| w >= t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watermark_is_max_minus_bound_minus_one() {
        let mut s = Setup::new(1, 12_000).events(0, "a", &[(1.0, 1.0), (4.0, 4.0), (11.0, 11.0)]);
        s.bound_ms = 3_000;
        let o = Outcome::of(s.run().unwrap().sim());
        assert_eq!(o.splits[0].watermark, Some(11_000 - 3_000 - 1));
        assert_eq!(o.splits[0].max_ts, Some(11_000));
        assert_eq!(o.splits[0].last_arrival, Some(11_000));
        assert_eq!(o.operators, vec![Some(7_999)]);
        assert!(!o.window_fired(0));
    }

    #[test]
    fn a_window_fires_once_the_watermark_reaches_its_end_minus_one() {
        let s = Setup::new(1, 15_000).events(0, "a", &[(1.0, 1.0), (4.0, 4.0), (12.0, 10.0)]);
        let o = Outcome::of(s.run().unwrap().sim());
        assert_eq!(o.operators, vec![Some(9_999)]);
        assert!(o.window_fired(0));
        assert_eq!(o.window_count(0), 2);
    }
}
