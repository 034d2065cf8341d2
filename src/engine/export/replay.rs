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
//! P  <time_ms>  <split>  <1|0>                            the split's input activity clock
//!                                                         stands (1) or goes on (0)
//! C  <time_ms>  <id>                                     a checkpoint completed
//! F  <time_ms>  <id>                                     the job failed: it restores checkpoint
//!                                                         <id> (0: none) and goes on after this line
//! ```
//! `time_ms` counts from the job's start; `<split>` is `partition-<p>` (`p` within the topic;
//! `input2-partition-<p>` in a union's second topic),
//! or `no-split-<s>` for a source subtask the enumerator gave no partition: its reader never
//! emits a watermark, so the replay gives it a split that never holds a record.
//! `P` lines come only where a clock stands at some point (back-pressure, split alignment:
//! `split_clocks`); a change at an instant follows that instant's reads. `C` and `F` lines
//! (`failovers`) follow everything else of their instant; between an `F` line and the restart
//! the replay has no ticks.

use super::failovers::{FailoverChange, FailoverEvent, Failovers};
use super::result_line::ResultLine;
use super::split_clocks::{ClockChange, SplitClocks};
use crate::engine::error::InputError;
use crate::engine::limits::MAX_EXPORT_FILE_RECORDS;
use crate::engine::observer::Observer;
use crate::engine::scenario::schema::Scenario;
use crate::engine::session::{budget, Session};
use crate::engine::sim::Simulation;
use crate::engine::time::thousands;
use std::fmt::Write;
use std::iter::Peekable;
use std::ops::ControlFlow;
use std::vec::IntoIter;

/// What a replay needs from the playground's run (the records themselves went to the replay's
/// writer as they were read).
#[derive(Clone, Debug)]
pub struct Recorded {
    /// The split ids, partitions first (in partition order), then the split-less subtasks.
    pub splits: Vec<String>,
    /// The same by input: one entry, or two for a union's second source.
    pub input_splits: Vec<Vec<String>>,
    /// The splits each source subtask read, by subtask (`no-split-<s>` for one without any).
    pub subtask_splits: Vec<Vec<String>>,
    /// How many records the sources emitted (the replay's `R` lines).
    pub records: usize,
    /// The periodic-watermark interval; 0: no periodic emission (and no idleness).
    pub tick_ms: i64,
    /// Where the run stopped, relative to the start.
    pub end_ms: i64,
    /// The highest watermark the playground's window subtasks reached.
    pub final_watermark_ms: i64,
    /// The playground's window results.
    pub results: Vec<ResultLine>,
    /// How often the playground's job restarted (a failure).
    pub restarts: u32,
    /// How often it failed: the replay's `F` lines (one more than `restarts` when the run ended
    /// while the job was down or failed for good).
    pub failures: u32,
}

/// Processing time one batch of the run covers before its reads are written out: a long, busy
/// scenario never holds more than a batch's records in memory.
const BATCH_MS: i64 = 10_000;

/// Where a long export is: processing time run so far (ms since the start) and records written.
pub type Progress<'a> = &'a mut dyn FnMut(i64, usize);

/// Where the replay's text goes, a batch at a time (a `String` in memory, a gzip file for
/// `wmp export`); an `Err` is the writer's message. A callback rather than `std::io::Write`:
/// the engine-only wasm then carries no `std::io` (1.9 KB gzipped).
pub type ReplaySink<'a> = &'a mut dyn FnMut(&str) -> Result<(), String>;

/// Runs the scenario to its end as `wmp run` does, writing `replay.tsv` to `replay` as the
/// sources emit (at most `max_records` records: the export is refused past that), telling
/// `progress` after each batch, and keeping the rest a replay needs.
pub fn record(scenario: &Scenario, replay: ReplaySink, max_records: usize, progress: Progress) -> Result<Recorded, InputError> {
    record_in_batches(scenario, replay, max_records, BATCH_MS, progress)
}

fn record_in_batches(
    scenario: &Scenario,
    replay: ReplaySink,
    max_records: usize,
    batch_ms: i64,
    progress: Progress,
) -> Result<Recorded, InputError> {
    let mut s = scenario.clone();
    // Every result counts for the comparison, and no record-level trace is needed.
    s.trace.window_results_retained = None;
    s.trace.records = false;
    budget::check(&s)?;
    let mut session = Session::new(s)?;
    session.record_reads();
    let mut out = ReplayWriter::start(session.sim(), replay)?;
    let mut clocks = SplitClocks::new(session.sim());
    let mut failovers = Failovers::new(session.sim());
    let end = session.end();
    let mut at = session.start();
    while at < end && session.halted().is_none() {
        at = at.saturating_add(batch_ms).min(end);
        let mut limit = ReadLimit { written: out.records, max: max_records, clocks: &mut clocks, failovers: &mut failovers };
        if !session.run_until_abs(at, &mut limit)? {
            return Err(too_many(max_records));
        }
        out.write_reads(&mut session, clocks.take(), failovers.take(), replay)?;
        progress(at - session.start(), out.records);
    }
    if session.halted().is_none() {
        session.run_to_end(&mut ReadLimit { written: out.records, max: max_records, clocks: &mut clocks, failovers: &mut failovers })?;
        out.write_reads(&mut session, clocks.take(), failovers.take(), replay)?;
    }
    if let Some(why) = session.halted() {
        return Err(InputError::new("scenario", format!("the playground's run stopped: {why}")));
    }
    if out.records > max_records {
        return Err(too_many(max_records));
    }
    let sim = session.sim();
    let end_ms = sim.now().0 - sim.config().start_time.0;
    let records = out.records;
    out.finish(end_ms, replay)?;
    Ok(recorded(sim, records, end_ms))
}

/// A run too long to replay, and what to do (the page's limit is the lower one).
fn too_many(max_records: usize) -> InputError {
    InputError::new(
        "duration_ms",
        format!(
            "the run reads more than {} records, the most this export keeps: shorten the scenario's duration_ms or lower its producers' rates{}",
            thousands(max_records as u64),
            if max_records < MAX_EXPORT_FILE_RECORDS {
                format!(", or run `wmp export` on the scenario's JSON, which keeps {}", thousands(MAX_EXPORT_FILE_RECORDS as u64))
            } else {
                String::new()
            }
        ),
    )
}

/// The splits, results and clocks of a finished run.
fn recorded(sim: &Simulation, records: usize, end_ms: i64) -> Recorded {
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
    let cfg = sim.config();
    Recorded {
        splits: input_splits.concat(),
        input_splits,
        subtask_splits,
        records,
        tick_ms: cfg.auto_watermark_interval_ms,
        end_ms,
        final_watermark_ms: sim.downstream().windows.iter().map(|w| w.current_input_watermark().0).max().unwrap_or(i64::MIN),
        results: sim.downstream().sink.results().map(|r| ResultLine::of(r, keys.name(r.key))).collect(),
        restarts: sim.failover().restarts(),
        // Every failure restarted the job but a last one it is still down from.
        failures: sim.failover().restarts() + u32::from(!sim.failover().is_running()),
    }
}

/// Stops the run once the replay is over the limit: a long, busy scenario must not run for
/// minutes only to be refused.
/// It also watches the split clocks and the job's failovers, after every instant.
struct ReadLimit<'a> {
    /// Records already written out.
    written: usize,
    max: usize,
    clocks: &'a mut SplitClocks,
    failovers: &'a mut Failovers,
}

impl Observer for ReadLimit<'_> {
    fn after_instant(&mut self, sim: &Simulation) -> ControlFlow<()> {
        self.clocks.after_instant(sim);
        self.failovers.after_instant(sim);
        match &sim.reads {
            Some(r) if self.written + r.len() > self.max => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }
}

/// Writes `replay.tsv` (see the module docs) a batch of reads at a time.
struct ReplayWriter {
    /// The split id of every engine-wide partition (the export refuses commands that add any),
    /// named once rather than per record.
    split_names: Vec<String>,
    tick_ms: i64,
    start_ms: i64,
    /// The next periodic-watermark instant not written yet, relative to the start.
    next_tick: i64,
    /// The job failed and has not restarted: no periodic emission.
    down: bool,
    records: usize,
}

impl ReplayWriter {
    /// A writer that has written the replay's header line.
    fn start(sim: &Simulation, out: ReplaySink) -> Result<Self, InputError> {
        out("# Watermark Playground replay: R time_ms split timestamp_ms value key | T time_ms (periodic emission) | P time_ms split 1|0 (its input activity clock stands|goes on) | C time_ms id (a checkpoint) | F time_ms id (a failure, restoring checkpoint id)\n")
            .map_err(write_error)?;
        let (tick_ms, start_ms) = (sim.config().auto_watermark_interval_ms, sim.config().start_time.0);
        let next_tick = if tick_ms > 0 { tick_ms } else { i64::MAX };
        let split_names = sim.partitions.iter().map(|p| split_name(p.input, p.index_in_topic)).collect();
        Ok(ReplayWriter { split_names, tick_ms, start_ms, next_tick, down: false, records: 0 })
    }

    /// The records read, the clock changes and the failovers since the last call, each after
    /// the ticks of earlier instants (a tick at the record's own instant follows that instant's
    /// reads, as in `sim`); an instant's clock changes follow its reads, its failovers its ticks.
    fn write_reads(
        &mut self,
        session: &mut Session,
        clocks: Vec<ClockChange>,
        failovers: Vec<FailoverChange>,
        out: ReplaySink,
    ) -> Result<(), InputError> {
        let reads = session.take_reads();
        session.record_reads();
        let sim = session.sim();
        let mut text = String::with_capacity(reads.len() * 48);
        let mut clocks = clocks.into_iter().peekable();
        let mut failovers = failovers.into_iter().peekable();
        for r in &reads {
            let t = r.time.0 - self.start_ms;
            while let Some(f) = failovers.next_if(|f| f.0 < t) {
                self.write_failover(f, &mut clocks, &mut text);
            }
            while let Some(c) = clocks.next_if(|c| c.0 < t) {
                self.write_clock(c, &mut text);
            }
            self.ticks_before(t, &mut text);
            let (split, key) = (&self.split_names[r.partition as usize], sim.keys().name(r.key));
            let _ = writeln!(text, "R\t{t}\t{split}\t{}\t{}\t{key}", r.ts.0, r.value);
        }
        for f in failovers {
            self.write_failover(f, &mut clocks, &mut text);
        }
        clocks.for_each(|c| self.write_clock(c, &mut text));
        self.records += reads.len();
        out(&text).map_err(write_error)
    }

    /// A checkpoint or a failure after its instant's clock changes and ticks; a restart skips
    /// the ticks the job missed while it was down, and its sources tick first one interval after
    /// it, as the playground's do (reference §2.2).
    fn write_failover(&mut self, (t, event): FailoverChange, clocks: &mut Peekable<IntoIter<ClockChange>>, text: &mut String) {
        while let Some(c) = clocks.next_if(|c| c.0 <= t) {
            self.write_clock(c, text);
        }
        match event {
            FailoverEvent::Restart => {
                if self.tick_ms > 0 {
                    self.next_tick = t.saturating_add(self.tick_ms);
                }
                self.down = false;
            }
            FailoverEvent::Checkpoint(id) => {
                self.ticks_before(t + 1, text);
                let _ = writeln!(text, "C\t{t}\t{id}");
            }
            FailoverEvent::Failure { restores, at_start } => {
                self.ticks_before(if at_start { t } else { t + 1 }, text);
                let _ = writeln!(text, "F\t{t}\t{restores}");
                self.down = true;
            }
        }
    }

    fn write_clock(&mut self, (t, p, paused): ClockChange, text: &mut String) {
        self.ticks_before(t, text);
        let _ = writeln!(text, "P\t{t}\t{}\t{}", self.split_names[p as usize], u8::from(paused));
    }

    fn ticks_before(&mut self, t: i64, text: &mut String) {
        while self.next_tick < t && !self.down {
            let _ = writeln!(text, "T\t{}", self.next_tick);
            self.next_tick += self.tick_ms;
        }
    }

    /// The ticks up to the end of the run.
    fn finish(mut self, end_ms: i64, out: ReplaySink) -> Result<(), InputError> {
        let mut text = String::new();
        self.ticks_before(end_ms.saturating_add(1), &mut text);
        out(&text).map_err(write_error)
    }
}

fn write_error(e: String) -> InputError {
    InputError::new("out", format!("writing the replay failed: {e}"))
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
    /// The playground's window results in the exported job's line format, sorted.
    pub fn expected_output(&self) -> String {
        let mut lines: Vec<String> = self.results.iter().map(ResultLine::to_string).collect();
        lines.sort();
        lines.into_iter().map(|l| l + "\n").collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::build;

    fn replay(preset: &str, batch_ms: i64) -> (String, usize) {
        let s = build::parse(&std::fs::read_to_string(format!("presets/{preset}.json")).unwrap()).unwrap();
        let mut out = String::new();
        let run = record_in_batches(
            &s,
            &mut |t| {
                out.push_str(t);
                Ok(())
            },
            usize::MAX,
            batch_ms,
            &mut |_, _| {},
        )
        .unwrap();
        (out, run.records)
    }

    #[test]
    fn the_batches_do_not_change_the_replay() {
        for preset in ["late_data", "heartbeat_idle_timeout", "backpressure_never_idle", "restart_stalls_until_idle"] {
            let (whole, records) = replay(preset, i64::MAX);
            // Only back-pressure (or split alignment) stops a split's clock.
            assert_eq!(whole.contains("\nP\t"), preset == "backpressure_never_idle", "{preset}");
            assert!(records > 100 && whole.lines().filter(|l| l.starts_with("R\t")).count() == records, "{preset}");
            // 7 ms batches end between reads and periodic-emission instants alike.
            assert_eq!(replay(preset, 7).0, whole, "{preset}");
            assert_eq!(replay(preset, BATCH_MS).0, whole, "{preset}");
        }
    }

    #[test]
    fn a_failure_follows_its_instant_and_the_job_misses_the_ticks_while_down() {
        // TaskManager 0 is lost at 120 s by a command (before that instant reads or ticks); the
        // job restarts 5 s later from checkpoint 11 (110 s). Ticks every 200 ms.
        let (replay, _) = replay("restart_stalls_until_idle", BATCH_MS);
        let lines: Vec<&str> = replay.lines().collect();
        let f = lines.iter().position(|l| l.starts_with("F\t")).unwrap();
        assert_eq!(lines[f], "F\t120000\t11");
        assert_eq!(lines.iter().filter(|l| l.starts_with("F\t")).count(), 1);
        assert!(lines[..f].contains(&"C\t110000\t11") && lines[..f].contains(&"T\t119800"));
        assert!(!replay.contains("\nT\t120000\n") && !replay.contains("\nT\t124800\n"), "no ticks while down");
        let after = &lines[f + 1..];
        assert!(after[0].starts_with("R\t125000\t"), "{}", after[0]);
        let tick = after.iter().position(|l| l.starts_with("T\t")).unwrap();
        assert_eq!(after[tick], "T\t125200", "the restarted sources tick first one interval after the restart");
    }

    #[test]
    fn a_failed_write_is_an_error_naming_the_writer() {
        let s = build::parse(&std::fs::read_to_string("presets/late_data.json").unwrap()).unwrap();
        let e = record(&s, &mut |_| Err("disk full".into()), usize::MAX, &mut |_, _| {}).unwrap_err();
        assert_eq!(e.path, "out");
        assert!(e.message.contains("disk full"), "{e}");
    }

    #[test]
    fn a_replay_over_the_limit_is_refused_naming_duration_ms() {
        let s = build::parse(&std::fs::read_to_string("presets/late_data.json").unwrap()).unwrap();
        let e = record(&s, &mut |_| Ok(()), 50, &mut |_, _| {}).unwrap_err();
        assert_eq!(e.path, "duration_ms");
        assert!(e.message.contains("more than 50 records"), "{e}");
    }
}
