//! The playground's run of a scenario, kept for a replay: every record its sources emitted (at
//! which processing time, from which split, with which timestamp), the splits, the
//! periodic-watermark instants, and the window results it computed.
//!
//! `replay.tsv` (what the exported job reads), one line each, tab-separated, in the order the
//! playground processed them (within one instant the reads come before the periodic emission,
//! as in `sim`):
//! ```text
//! R  <time_ms>  <split>  <timestamp_ms>  <value>  <key>    a record a split emitted
//! T  <time_ms>                                           a periodic-watermark instant
//! ```
//! `time_ms` counts from the job's start; `<split>` is `partition-<p>` (`p` within the topic),
//! or `no-split-<s>` for a source subtask the enumerator gave no partition: its reader never
//! emits a watermark, so the replay gives it a split that never holds a record.

use super::result_line::ResultLine;
use crate::engine::error::InputError;
use crate::engine::limits::MAX_EXPORT_RECORDS;
use crate::engine::observer::Observer;
use crate::engine::scenario::schema::Scenario;
use crate::engine::session::Session;
use crate::engine::sim::{ReadRecord, Simulation};
use std::fmt::Write;
use std::ops::ControlFlow;

/// What a replay needs from the playground's run.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// The split ids, partitions first (in partition order), then the split-less subtasks.
    pub splits: Vec<String>,
    /// The splits each source subtask read, by subtask (`no-split-<s>` for one without any).
    pub subtask_splits: Vec<Vec<String>>,
    /// The records the sources emitted, key names resolved.
    pub reads: Vec<(ReadRecord, String)>,
    pub start_ms: i64,
    /// The periodic-watermark interval; 0: no periodic emission (and no idleness).
    pub tick_ms: i64,
    /// Where the run stopped, relative to the start.
    pub end_ms: i64,
    /// The playground's window results.
    pub results: Vec<ResultLine>,
    /// How often the playground's job restarted (a failure): not replayed.
    pub restarts: u32,
}

/// Runs the scenario to its end as `wmp run` does, keeping what a replay needs.
pub fn record(scenario: &Scenario) -> Result<Recorded, InputError> {
    let mut s = scenario.clone();
    // Every result counts for the comparison, and no record-level trace is needed.
    s.trace.window_results_retained = None;
    s.trace.records = false;
    let mut session = Session::new(s)?;
    session.record_reads();
    session.run_to_end(&mut ReadLimit)?;
    if let Some(why) = session.halted() {
        return Err(InputError::new("scenario", format!("the playground's run stopped: {why}")));
    }
    let reads = session.take_reads();
    if reads.len() > MAX_EXPORT_RECORDS {
        return Err(InputError::new(
            "duration_ms",
            format!("the replay would hold more than {MAX_EXPORT_RECORDS} records, the most an export keeps (shorten duration_ms or lower the producers' rates)"),
        ));
    }
    let sim = session.sim();
    let keys = sim.keys();
    let partitions = scenario.topic.partitions;
    let owners: Vec<Option<u32>> = (0..partitions).map(|p| sim.split_of(p).map(|(s, _)| s)).collect();
    let mut splits: Vec<String> = (0..partitions).map(split_of_partition).collect();
    splits.extend((0..scenario.source.parallelism).filter(|s| !owners.contains(&Some(*s))).map(no_split));
    let subtask_splits = (0..scenario.source.parallelism)
        .map(|s| match (0..partitions).filter(|&p| owners[p as usize] == Some(s)).map(split_of_partition).collect::<Vec<_>>() {
            none if none.is_empty() => vec![no_split(s)],
            some => some,
        })
        .collect();
    let cfg = sim.config();
    let results = sim.downstream().sink.results().map(|r| ResultLine::of(r, keys.name(r.key))).collect();
    Ok(Recorded {
        splits,
        subtask_splits,
        reads: reads.into_iter().map(|r| (r, keys.name(r.key).to_string())).collect(),
        start_ms: cfg.start_time.0,
        tick_ms: cfg.auto_watermark_interval_ms,
        end_ms: sim.now().0 - cfg.start_time.0,
        results,
        restarts: sim.failover().restarts(),
    })
}

/// Stops the run once the replay is over the limit: a long, busy scenario must not hold
/// millions of records in memory only to be refused.
struct ReadLimit;

impl Observer for ReadLimit {
    fn after_instant(&mut self, sim: &Simulation) -> ControlFlow<()> {
        match &sim.reads {
            Some(r) if r.len() > MAX_EXPORT_RECORDS => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }
}

/// The split of source subtask `s` when the enumerator gave it no partition.
fn no_split(s: u32) -> String {
    format!("no-split-{s}")
}

/// The split id of partition `p` (its number within the topic).
pub fn split_of_partition(p: u32) -> String {
    format!("partition-{p}")
}

impl Recorded {
    /// `replay.tsv` (see the module docs).
    pub fn replay_tsv(&self) -> String {
        let mut out =
            String::from("# Watermark Playground replay: R time_ms split timestamp_ms value key | T time_ms (periodic emission)\n");
        let mut next_tick = if self.tick_ms > 0 { self.tick_ms } else { i64::MAX };
        for (r, key) in &self.reads {
            let t = r.time.0 - self.start_ms;
            // Ticks of earlier instants first; a tick at `t` itself follows this instant's reads.
            while next_tick < t {
                let _ = writeln!(out, "T\t{next_tick}");
                next_tick += self.tick_ms;
            }
            let _ = writeln!(out, "R\t{t}\t{}\t{}\t{}\t{key}", split_of_partition(r.partition), r.ts.0, r.value);
        }
        while next_tick <= self.end_ms {
            let _ = writeln!(out, "T\t{next_tick}");
            next_tick += self.tick_ms;
        }
        out
    }

    /// The playground's window results in the exported job's line format, sorted.
    pub fn expected_output(&self) -> String {
        let mut lines: Vec<String> = self.results.iter().map(ResultLine::to_string).collect();
        lines.sort();
        lines.into_iter().map(|l| l + "\n").collect()
    }
}
