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
//! `time_ms` counts from the job's start; `<split>` is `partition-<p>` (`p` within the topic;
//! `input2-partition-<p>` in a union's second topic),
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
    /// The same by input: one entry, or two for a union's second source.
    pub input_splits: Vec<Vec<String>>,
    /// The split id of every engine-wide partition.
    split_names: Vec<String>,
    /// The splits each source subtask read, by subtask (`no-split-<s>` for one without any).
    pub subtask_splits: Vec<Vec<String>>,
    /// The records the sources emitted, key names resolved.
    pub reads: Vec<(ReadRecord, String)>,
    pub start_ms: i64,
    /// The periodic-watermark interval; 0: no periodic emission (and no idleness).
    pub tick_ms: i64,
    /// Where the run stopped, relative to the start.
    pub end_ms: i64,
    /// The highest watermark the playground's window subtasks reached.
    pub final_watermark_ms: i64,
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
    let parts = &sim.partitions;
    let split_names: Vec<String> = parts.iter().map(|p| split_name(p.input, p.index_in_topic)).collect();
    let owner = |s: u32| (0..parts.len()).filter(|&p| sim.split_of(p as u32).is_some_and(|(o, _)| o == s)).collect::<Vec<_>>();
    let (mut input_splits, mut subtask_splits) = (Vec::new(), Vec::new());
    let mut first_subtask = 0;
    for (i, input) in sim.config().inputs.iter().enumerate() {
        let mut splits: Vec<String> =
            (0..parts.len()).filter(|&p| usize::from(parts[p].input) == i).map(|p| split_names[p].clone()).collect();
        for s in first_subtask..first_subtask + input.source_parallelism {
            let owned: Vec<String> = owner(s).into_iter().map(|p| split_names[p].clone()).collect();
            if owned.is_empty() {
                splits.push(no_split(i as u8, s - first_subtask));
                subtask_splits.push(vec![no_split(i as u8, s - first_subtask)]);
            } else {
                subtask_splits.push(owned);
            }
        }
        first_subtask += input.source_parallelism;
        input_splits.push(splits);
    }
    let splits = input_splits.concat();
    let cfg = sim.config();
    let results = sim.downstream().sink.results().map(|r| ResultLine::of(r, keys.name(r.key))).collect();
    Ok(Recorded {
        splits,
        input_splits,
        split_names,
        subtask_splits,
        reads: reads.into_iter().map(|r| (r, keys.name(r.key).to_string())).collect(),
        start_ms: cfg.start_time.0,
        tick_ms: cfg.auto_watermark_interval_ms,
        end_ms: sim.now().0 - cfg.start_time.0,
        final_watermark_ms: sim.downstream().windows.iter().map(|w| w.current_input_watermark().0).max().unwrap_or(i64::MIN),
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

/// The split of source subtask `s` of input `input` when the enumerator gave it no partition.
fn no_split(input: u8, s: u32) -> String {
    if input == 0 {
        format!("no-split-{s}")
    } else {
        format!("input2-no-split-{s}")
    }
}

/// The split id of partition `p` (its number within the topic) of input `input`: the second
/// input's (a union's) are told apart by a prefix.
pub fn split_name(input: u8, p: u32) -> String {
    if input == 0 {
        format!("partition-{p}")
    } else {
        format!("input2-partition-{p}")
    }
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
            let _ = writeln!(out, "R\t{t}\t{}\t{}\t{}\t{key}", self.split_names[r.partition as usize], r.ts.0, r.value);
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
