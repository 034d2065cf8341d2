//! Findings about the job rather than one partition: source subtasks without a split, the
//! emission interval, the generator, timestamps, late data and what the sink does with it,
//! the bound, window state piling up, channels and event-time lag. The job's flow
//! (back-pressure, alignment, restarts) is in `flow_findings`.

use super::advisor::nice_up;
use super::classify::{PartitionClass, PartitionFacts, SlowCause};
use super::diagnose::{d, exact, job_bound_ms, operator_bound_ms, source_bound_ms, window_size_ms, FindingContext};
use super::finding::{Finding, FindingKind, Severity};
use crate::engine::explain::Reason;
use crate::engine::operator::sink::SinkMode;
use crate::engine::session::action::Action;
use crate::engine::source::enumerator::split_owner;
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::source::timestamp::TimestampAssigner;
use crate::engine::time::{count, format_watermark, END_OF_TIME};

/// A window subtask with this many open windows per key or more is piling up state.
const STATE_WINDOWS_PER_KEY: usize = 10;
/// Late records within this long (or a window) are a current problem, older ones history.
const LATE_RECENT_MS: i64 = 60_000;
/// A bound below this delays results too little to call it too large.
const BOUND_TOO_LARGE_MIN_MS: i64 = 5_000;
/// Results later than this many bounds after their window are not the bound's doing.
const BOUND_EXPLAINS_DELAY: i64 = 3;

/// "1 partition", "3 partitions".
fn partitions_text(n: u32) -> String {
    count(n, "partition", "partitions")
}

impl FindingContext<'_> {
    pub(crate) fn job_findings(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        out.extend(self.subtasks_without_split());
        out.extend(self.subtasks_with_released_splits());
        out.extend(self.emission());
        out.extend(self.generator());
        out.extend(self.timestamps());
        out.extend(self.late());
        out.extend(self.bound_too_large());
        out.extend(self.state_growing());
        out.extend(self.back_pressure());
        out.extend(self.alignment_pauses());
        out.extend(self.job_restarts());
        out.extend(self.channels());
        out.extend(self.lag_alert());
        out
    }

    /// One finding for every source subtask that owns no split and is not idle, naming the
    /// one that holds the watermark (or the first). Its counts and settings are its own
    /// source's: with two sources, the other topic's partitions are no split it could own.
    fn subtasks_without_split(&self) -> Option<Finding> {
        let cfg = &self.sim.cfg;
        let bare: Vec<u32> = self.sim.subtasks_waiting_without_split().filter(|s| !s.output.is_idle()).map(|s| s.index).collect();
        let (s, held) = self.holding_or_first(&bare)?;
        let input = self.sim.sources.get(s as usize).map_or(0, |src| src.input);
        let own = &cfg.inputs[input as usize];
        let parts = self.live_partitions_of(input);
        // With an idle timeout set, the split-less reader goes idle once it passes (the source's
        // only where the periodic emission checks it; SQL's operator checks on its own timer).
        let timeout = own.idle_timeout_ms().filter(|_| cfg.auto_watermark_interval_ms > 0 || own.periodic_strategy().is_none());
        let n = own.source_parallelism;
        let name = self.sim.source_subtask_name(s);
        let count = format!("{n} source subtasks for {}", partitions_text(parts));
        let (sev, title) = match timeout {
            Some(t) => (Severity::Info, format!("Source subtask {name} owns no partition ({count}); the {} idle timeout marks it idle soon.", d(t))),
            None => (
                if held { Severity::Critical } else { Severity::Warning },
                format!("Source subtask {name} owns no partition ({count}): it never emits a watermark and holds every window subtask at No Watermark."),
            ),
        };
        let mut f = Finding::new(FindingKind::SubtaskWithoutSplit, sev, title)
        .source_subtask(s)
        .detail("A KafkaSource reader without splits stays active unless withIdleness is set (the legacy FlinkKafkaConsumer marked it idle at once). Keep source parallelism at or below the partition count.")
        .evidence("subtasksWithoutSplit", u32::try_from(bare.len()).unwrap_or(u32::MAX), format!("source subtasks without a partition: {}", self.source_subtask_names(&bare)))
        .evidence("sourceParallelism", n, format!("source parallelism {n}"))
        .evidence("partitions", parts, partitions_text(parts))
        .check("that subtask's currentOutputWatermark (a source operator metric) reads -9223372036854775808, and the keyed vertex's Watermarks tab shows No Watermark (a source vertex's tab is empty)");
        f = self.with_parallelism_fix(f, input);
        Some(match self.advice.idle_timeout_alone_ms {
            Some(t) if timeout.is_none() && cfg.auto_watermark_interval_ms > 0 => {
                f.fix(format!("Idle timeout {}", exact(t)), Action::IdleTimeout(Some(t)))
            }
            _ => f,
        })
    }

    /// One finding for every source subtask whose splits were all released while it was active
    /// (`SourceSubtask::stays_active_without_split`), naming the one that holds the watermark
    /// (or the first). Unlike a subtask that never had a split, no idle timeout helps.
    fn subtasks_with_released_splits(&self) -> Option<Finding> {
        let stuck: Vec<u32> = (0..self.sim.sources.len() as u32).filter(|&s| self.stuck_without_split(s)).collect();
        let (s, held) = self.holding_or_first(&stuck)?;
        let src = &self.sim.sources[s as usize];
        let parts = self.live_partitions_of(src.input);
        let name = self.sim.source_subtask_name(s);
        let at = format_watermark(src.output.current_watermark(), self.opts.style());
        let f = Finding::new(
            FindingKind::AllSplitsReleased,
            if held { Severity::Critical } else { Severity::Warning },
            format!("Source subtask {name}'s splits were all released (its partitions removed or finished) while it was active: it stays active at {at}, holds the window subtasks it feeds there, and no idle timeout marks it idle until the job restarts."),
        )
        .source_subtask(s)
        .detail("A reader whose last split is released keeps its last status: the empty multiplexer never reports again, so withIdleness cannot mark it idle (reference §4.6; FLINK-39586 proposes marking it idle). A restart starts the reader without that split: with withIdleness it then goes idle, and with a source parallelism at which every subtask gets one of the remaining partitions none is left without.")
        .evidence("subtasksReleased", u32::try_from(stuck.len()).unwrap_or(u32::MAX), format!("source subtasks whose splits were all released: {}", self.source_subtask_names(&stuck)))
        .evidence("partitions", parts, format!("{} left", partitions_text(parts)))
        .check("that subtask's currentOutputWatermark (a source operator metric) stands still while the other subtasks' move, whatever the idle timeout");
        Some(self.with_parallelism_fix(f, src.input))
    }

    /// Whether source subtask `s` stays active without a split, whatever the idle timeout
    /// (`SourceSubtask::stays_active_without_split`). Not with a watermark operator chained after
    /// it: that one decides what its channel says, with its own idle timer and finding.
    pub(super) fn stuck_without_split(&self, s: u32) -> bool {
        let chained = self.sim.down.chained.get(s as usize).is_some_and(Option::is_some);
        !self.sim.input_ended(s as usize)
            && !chained
            && self.sim.sources.get(s as usize).is_some_and(|src| src.stays_active_without_split())
    }

    /// The subtask of `subtasks` whose channel holds the watermark, else the first; and whether
    /// it holds it.
    fn holding_or_first(&self, subtasks: &[u32]) -> Option<(u32, bool)> {
        let held = self.culprit.filter(|c| c.partition.is_none()).map(|c| c.source_subtask).filter(|s| subtasks.contains(s));
        held.or_else(|| subtasks.first().copied()).map(|s| (s, held.is_some()))
    }

    /// A subtask that owns no split is spare: restarted with fewer source subtasks, each can get
    /// a partition. The action sets the first source's parallelism (the scenario's `source`).
    fn with_parallelism_fix(&self, f: Finding, input: u8) -> Finding {
        match self.parallelism_without_bare_subtask(input).filter(|_| input == 0) {
            Some(p) => f.fix(format!("Source parallelism {p} ↻"), Action::SourceParallelism(p)),
            None => f,
        }
    }

    /// The most source subtasks, fewer than now, with which every one owns a partition that
    /// remains: a restart replays the job, removals too, and Kafka's assignment (`split_owner`)
    /// can leave a subtask only a removed (or released) one (3 partitions, p1 removed: at 2
    /// subtasks, p0 and p2 go to one of them).
    fn parallelism_without_bare_subtask(&self, input: u8) -> Option<u32> {
        let ic = &self.sim.cfg.inputs[input as usize];
        // Removed or released alike (the class says both): a restart replays either.
        let remains = |f: &&PartitionFacts| f.class != PartitionClass::Removed;
        let of_input = |f: &PartitionFacts| self.sim.partitions.get(f.partition as usize).filter(|p| p.input == input);
        let live: Vec<u32> = self.partitions.iter().filter(remains).filter_map(of_input).map(|p| p.index_in_topic).collect();
        (1..ic.source_parallelism).rev().find(|&n| (0..n).all(|s| live.iter().any(|&p| split_owner(&ic.topic, p, n) == s)))
    }

    /// Source subtasks as every view names them, comma-separated.
    pub(super) fn source_subtask_names(&self, subtasks: &[u32]) -> String {
        subtasks.iter().map(|&s| self.sim.source_subtask_name(s)).collect::<Vec<_>>().join(", ")
    }

    /// Partitions of input `input`'s topic that are not removed.
    fn live_partitions_of(&self, input: u8) -> u32 {
        let of_input = |p: &&PartitionFacts| self.sim.partitions.get(p.partition as usize).is_some_and(|part| part.input == input);
        u32::try_from(self.partitions.iter().filter(of_input).filter(|p| p.class != PartitionClass::Removed).count()).unwrap_or(u32::MAX)
    }

    fn emission(&self) -> Vec<Finding> {
        let cfg = &self.sim.cfg;
        // Every input counts: the shortest timeout flips first, one periodic strategy stalls.
        let interval = cfg.auto_watermark_interval_ms;
        let strategies: Vec<_> = cfg.inputs.iter().filter_map(|i| i.periodic_strategy()).collect();
        let timeout = strategies.iter().filter_map(|&(_, t)| t).min();
        let mut out = Vec::new();
        if interval == 0 && strategies.iter().any(|&(emit, _)| emit == EmitMode::Periodic) {
            out.push(
                Finding::new(
                    FindingKind::PeriodicEmissionDisabled,
                    Severity::Critical,
                    "The auto-watermark interval is 0: periodic generators never emit a watermark, and idleness is never checked.".into(),
                )
                .detail("pipeline.auto-watermark-interval = 0 disables periodic emission (seed 000, 'Know how the watermark moves').")
                .evidence("intervalMs", 0, "pipeline.auto-watermark-interval 0")
                .check("the Watermarks tab of every vertex after the sources reads No Watermark")
                .fix("Interval 200 ms", Action::AutoInterval(200)),
            );
        } else if interval == 0 && timeout.is_some() {
            out.push(
                Finding::new(
                    FindingKind::IdlenessNeverDetected,
                    Severity::Warning,
                    format!(
                        "The auto-watermark interval is 0: the {} idle timeout is never checked, so no partition ever goes idle.",
                        d(timeout.unwrap_or(0))
                    ),
                )
                .detail("Idleness is detected in onPeriodicEmit; per-event watermarks still flow, idleness does not.")
                .evidence("intervalMs", 0, "pipeline.auto-watermark-interval 0")
                .check("every split's idleTimeMsPerSecond (split.<id>.watermark, Flink 2.1+) stays 0, even a stopped partition's; pipeline.auto-watermark-interval is 0 where the job sets it (setAutoWatermarkInterval or its configuration)")
                .fix("Interval 200 ms", Action::AutoInterval(200)),
            );
        }
        if let Some(t) = timeout.filter(|&t| interval > 0 && t < interval) {
            // `IdlenessTimer` (reference §1.6): the first periodic check without a record starts
            // the countdown, and a check more than the timeout later declares idle, here the very
            // next one. So the split goes idle after two checks in a row without a record: a gap
            // of more than two intervals can do it, one of more than three always does (seed 002
            // says one interval; the countdown's first check is what it leaves out).
            let mut f = Finding::new(FindingKind::IdleTimeoutBelowInterval, Severity::Warning, format!("The idle timeout ({}) is shorter than the auto-watermark interval ({}), which checks it: a split goes idle at the second check in a row without a record, after a gap of more than {} (always past {}), whatever timeout below {} is set.", d(t), d(interval), d(2 * interval), d(3 * interval), d(interval)))
                .detail(format!("The timeout cannot be finer than the interval (seed 002 §5.1, misuse two): the first check without a record starts the countdown and the next one declares the split idle. Traffic with gaps of more than {} flips idle and active; steadier traffic stays active.", d(2 * interval)))
                .evidence("idleTimeoutMs", t, format!("idle timeout {}", d(t)))
                .evidence("intervalMs", interval, format!("interval {}", d(interval)))
                .check("a split's idleTimeMsPerSecond (split.<id>.watermark, Flink 2.1+) rises above 0 in gaps of two or three intervals; the interval the job sets (pipeline.auto-watermark-interval) is above its withIdleness timeout");
            if let Some(r) = self.advice.idle_timeout_alone_ms {
                f = f.fix(format!("Idle timeout {}", exact(r)), Action::IdleTimeout(Some(r)));
            }
            out.push(f);
        }
        out
    }

    /// The first source whose generator is the problem; with two, the finding names its topic.
    fn generator(&self) -> Option<Finding> {
        let cfg = &self.sim.cfg;
        // With a watermark operator after the source, the source's generator reaches nothing.
        let mut own = cfg.inputs.iter().filter(|i| i.midstream.is_none());
        let input = own.find(|i| matches!(i.source.generator, GeneratorKind::NoWatermarks | GeneratorKind::MaxOnSilence { .. }))?;
        let (source, custom): (String, String) = match cfg.inputs.len() > 1 {
            true => (format!("The source of {}", input.topic), format!("The source of {}'s custom generator", input.topic)),
            false => ("The source".into(), "The custom generator".into()),
        };
        match input.source.generator {
            GeneratorKind::NoWatermarks => {
                let b = self.advice.bound.recommended_ms.unwrap_or(0);
                Some(
                    Finding::new(FindingKind::NoWatermarkStrategy, Severity::Critical, format!("{source} has no watermark strategy (WatermarkStrategy.noWatermarks()): no watermark ever moves, so event-time windows fire only at the end of input."))
                        .detail("Assign the strategy in fromSource (seed 000 §2, symptom map: 'Watermark shows Long.MIN_VALUE').")
                        .check("the keyed vertex's Watermarks tab reads No Watermark although its numRecordsIn grows")
                        .fix(format!("forBoundedOutOfOrderness({})", exact(b)), Action::Bound(b)),
                )
            }
            GeneratorKind::MaxOnSilence { silence_ms, .. } => {
                let at_max = self.sim.down.windows.iter().any(|w| w.current_input_watermark() == END_OF_TIME);
                let late = self.sim.down.late_total();
                let sev = if at_max || late > 0 { Severity::Critical } else { Severity::Warning };
                Some(
                    Finding::new(
                        FindingKind::MaxValueGenerator,
                        sev,
                        format!("{custom} emits Long.MAX_VALUE after {} of silence; {}", d(silence_ms), if at_max { format!("the watermark is at end of input, every window is closed and {} came later and {} late.", records(late), if late == 1 { "was" } else { "were" }) } else { "a time bomb: once it fires, everything that comes later is late.".to_string() }),
                    )
                    .detail("Long.MAX_VALUE means 'nothing will ever come again'; withIdleness marks the split IDLE instead and the watermark waits (seed 002 §1.3).")
                    .evidence("lateRecords", late, format!("{late} late records"))
                    .check("currentInputWatermark reads 9223372036854775807 while the job runs")
                    .fix("withIdleness(60 s) instead ↻", Action::IdlenessInsteadOfMax),
                )
            }
            _ => None,
        }
    }

    fn timestamps(&self) -> Vec<Finding> {
        let Some(ex) = self.explanation else { return Vec::new() };
        let jumped = self.sim.watermark_jumped(self.sim.now.max(self.sim.cfg.start_time));
        ex.reasons
            .iter()
            .filter_map(|r| match *r {
                Reason::FarFutureTimestamp { partition, ahead_ms, .. } if !jumped => Some(
                    Finding::new(FindingKind::FarFutureTimestamp, Severity::Warning, format!("Partition {} read a timestamp {} ahead of processing time. Its split watermark jumped there; the other partitions still hold the minimum, but once they go idle or catch up, every record behind it is late.", self.sim.partition_name(partition), d(ahead_ms)))
                        .partition(partition)
                        .detail("One bad record is enough (seed 000 §2): validate or clamp timestamps at the source.")
                        .evidence("aheadMs", ahead_ms, format!("{} ahead", d(ahead_ms)))
                        .check("split.<id>.watermark.currentWatermark of that partition's split (Flink 2.1+) is far ahead of the wall clock, while its subtask's currentOutputWatermark stays at the other splits' minimum")
                        .fix("Clamp timestamps ↻", Action::ClampRestart),
                ),
                Reason::FarFutureTimestamp { partition, ahead_ms, .. } => Some(
                    Finding::new(FindingKind::FarFutureTimestamp, Severity::Critical, format!("Partition {} read a timestamp {} ahead of processing time: the watermark jumped there and every record behind it is late.", self.sim.partition_name(partition), d(ahead_ms)))
                        .partition(partition)
                        .detail("One bad record is enough (seed 000 §2): validate or clamp timestamps at the source.")
                        .evidence("aheadMs", ahead_ms, format!("{} ahead", d(ahead_ms)))
                        .check(format!("currentOutputWatermark of the source jumps far ahead of the wall clock; {} climbs", self.late_counter()))
                        .fix("Clamp timestamps ↻", Action::ClampRestart),
                ),
                Reason::SecondsReadAsMillis { .. } => Some(self.units(FindingKind::SecondsReadAsMillis, "The watermark is in January 1970 and moves 1 ms per second: epoch seconds are read as milliseconds, so nothing fires.")),
                Reason::MillisReadAsSeconds { .. } => Some(self.units(FindingKind::MillisReadAsSeconds, "The watermark is thousands of years ahead: milliseconds are read as seconds, so every out-of-order record is late.")),
                _ => None,
            })
            .collect()
    }

    /// Where a real job counts the late records from now on: numLateRecordsDropped does not
    /// count what a late side output takes (the walk read "numLateRecordsDropped climbs" beside
    /// 0 dropped and 300 sent to the side output).
    pub(super) fn late_counter(&self) -> &'static str {
        match self.drop_metric() {
            None => "the interval join's late records (it has no numLateRecordsDropped: count them with sideOutputLeftLateData / sideOutputRightLateData)",
            Some(_) if self.sim.cfg.late_side_output => {
                "the numRecordsIn of the late side output's consumer (numLateRecordsDropped does not count them)"
            }
            Some(_) => "numLateRecordsDropped of the window operator",
        }
    }

    /// Where Flink counts dropped late records: an interval join counts none.
    fn late_drop_count(&self) -> &'static str {
        self.drop_metric().unwrap_or("no metric counts them")
    }

    /// The metric that counts dropped late records, if the operator has one (reference §9).
    fn drop_metric(&self) -> Option<&'static str> {
        self.sim.cfg.interval_join.is_none().then_some("numLateRecordsDropped")
    }

    fn units(&self, kind: FindingKind, title: &str) -> Finding {
        Finding::new(kind, Severity::Critical, title.into())
            .detail("Check the units of the timestamp field (seed 000 §2).")
            .check("convert the Watermarks tab's values to dates")
            .fix("Read the event-time field (ms) ↻", Action::Assigner(TimestampAssigner::EventField))
    }

    fn late(&self) -> Vec<Finding> {
        let down = &self.sim.down;
        let (dropped, side) = down.late_counts();
        let mut out = Vec::new();
        let bound = job_bound_ms(&self.sim.cfg);
        // Heartbeats say nothing of the data's disorder, also once they stopped or are
        // filtered (the partition is then classed idle): judged by its records, as the advisor.
        let p99 = self.partitions.iter().filter(|p| p.heartbeats * 2 <= p.records).filter_map(|p| p.disorder_p99_ms).max().unwrap_or(0);
        if let (Some(b), Some(rec)) = (bound, self.advice.bound.recommended_ms) {
            if dropped + side > 0 && p99 > b && rec > b {
                out.push(
                    Finding::new(FindingKind::BoundTooSmall, Severity::Warning, format!("The bound ({}) is smaller than the disorder ({} at P99): {} late.", d(b), d(p99), were(dropped + side)))
                        .detail("Too small a bound drops records as late; too large delays every result (seed 000 §2). Measure disorder and set the bound near a high quantile.")
                        .evidence("boundMs", b, format!("bound {}", d(b)))
                        .evidence("disorderP99Ms", p99, format!("disorder {} at P99", d(p99)))
                        .evidence("lateRecords", dropped + side, format!("{} late", dropped + side))
                        .check(self.late_counter())
                        .fix(format!("Bound {}", exact(rec)), Action::Bound(rec)),
                );
            }
        }
        if dropped > 0 {
            // Drops that stopped a while ago (a fix worked) are history, not the problem now.
            let now = self.sim.now.max(self.sim.cfg.start_time);
            let last = down.late.by_partition.iter().map(|&(_, t)| t).max().unwrap_or(now);
            let quiet = now - last;
            let recent = quiet <= LATE_RECENT_MS.max(crate::engine::diagnosis::diagnose::window_size_ms(self.sim.cfg.window));
            let (sev, title) = if recent {
                (Severity::Warning, format!("{} dropped silently as late ({}).", were(dropped), self.late_drop_count()))
            } else {
                (Severity::Info, format!("{} dropped silently as late earlier; none for {}.", were(dropped), d(quiet)))
            };
            let mut f = Finding::new(FindingKind::LateRecordsDropped, sev, title)
                .detail("By default a window operator drops late records without a trace (seed 000 §4): capture them with a side output, or keep windows open longer with allowed lateness.")
                .evidence("dropped", dropped, format!("{dropped} dropped"))

                .check(self.late_counter())
                .fix("Late side output on", Action::SideOutput(true));
            // Late behind Long.MAX_VALUE is not counted: there may be no lateness to show.
            if let Some(q) = down.late.lateness.quantile(0.99, 0) {
                f = f.evidence("latenessP99Ms", q, format!("late by up to {} (P99)", d(q)));
            }
            out.push(self.with_lateness_fix(f));
        }
        let dup = down.sink.duplicate_rows();
        // A purging trigger's later rows hold only what came since: deltas, not repeats.
        if down.sink.mode == SinkMode::Append && dup > 0 && !self.sim.cfg.trigger.purges() {
            let (title, detail) = match self.sim.cfg.trigger.interval_ms() {
                Some(i) => (
                    format!("Early firings (ContinuousEventTimeTrigger every {}) wrote {dup} extra rows into an append sink: each repeats the records of the window's rows before it.", d(i)),
                    "A continuous trigger accumulates: every early row holds the window so far. Sinks after it must upsert by window key, or purge on every firing (PurgingTrigger.of(...)) so each row is a delta.",
                ),
                None => (
                    format!("Allowed lateness re-fired windows {dup} times into an append sink: it holds duplicate rows for the same window."),
                    "Sinks downstream of allowedLateness must upsert by window key (seed 000 §4).",
                ),
            };
            out.push(
                Finding::new(FindingKind::AppendSinkDuplicates, Severity::Warning, title)
                    .detail(detail)
                    .evidence("duplicates", u64::try_from(dup).unwrap_or(u64::MAX), format!("{dup} duplicate rows"))
                    .check("the sink table has several rows per (key, window)")
                    .fix("Sink: upsert", Action::Sink(SinkMode::Upsert)),
            );
        }
        out
    }

    /// `f` with the advised allowed lateness (at the bound as set) as a fix, if it is more than
    /// what is set, and an upsert sink beside it: re-firings land in an append sink as new rows
    /// (seed 000 §4).
    pub(super) fn with_lateness_fix(&self, mut f: Finding) -> Finding {
        if let Some(l) = self.advice.allowed_lateness_alone_ms.filter(|&l| l > self.sim.cfg.allowed_lateness_ms) {
            f = f.fix(format!("Allowed lateness {}", exact(l)), Action::AllowedLateness(l));
            if self.sim.down.sink.mode == SinkMode::Append {
                f = f.fix("Sink: upsert", Action::Sink(SinkMode::Upsert));
            }
        }
        f
    }

    /// Judged on the bound its fix changes (a watermark operator's own bound is set there), and
    /// only when shortening it shortens the job's: behind an operator with as large a bound, no
    /// result would come sooner.
    fn bound_too_large(&self) -> Option<Finding> {
        let b = source_bound_ms(&self.sim.cfg).filter(|b| operator_bound_ms(&self.sim.cfg).is_none_or(|o| o < *b))?;
        let data: Vec<_> = self.partitions.iter().filter(|p| p.records > 0 && p.heartbeats * 2 <= p.records).collect();
        let records: u64 = data.iter().map(|p| p.records).sum();
        let max = data.iter().filter_map(|p| p.disorder_max_ms).max()?;
        // Replacing a too-large bound, cover every disorder seen, not just the P99.
        let rec = self
            .advice
            .bound
            .recommended_ms?
            .max(crate::engine::diagnosis::advisor::nice_up(data.iter().filter_map(|p| p.disorder_max_ms).max().unwrap_or(0)));
        if b < BOUND_TOO_LARGE_MIN_MS || records < 100 || max.max(rec).saturating_mul(4) > b || self.sim.down.late_total() > 0 {
            return None;
        }
        let sink = &self.sim.down.sink;
        let recent: Vec<i64> = sink.results().rev().take(100).map(|r| r.time.ms().saturating_sub(r.end.ms())).collect();
        let delay = if recent.is_empty() { None } else { Some(recent.iter().sum::<i64>() / i64::try_from(recent.len()).unwrap_or(1)) };
        // Results far later than the bound are late for another reason (a replayed backlog, a
        // held watermark): lowering the bound would not bring them sooner.
        if delay.is_some_and(|x| x > b.saturating_mul(BOUND_EXPLAINS_DELAY)) {
            return None;
        }
        let said =
            delay.map_or("every result will come that late".to_string(), |x| format!("results come {} after their window ends", d(x)));
        Some(
            Finding::new(FindingKind::BoundTooLarge, Severity::Warning, format!("The bound ({}) is far above the disorder (at most {}): {said}.", d(b), d(max)))
                .detail("The watermark trails the newest event by the bound, so every window closes that much later (seed 000 §2: 'results delayed by a fixed amount').")
                .evidence("boundMs", b, format!("bound {}", d(b)))
                .evidence("disorderMaxMs", max, format!("disorder at most {}", d(max)))
                .evidence("resultDelayMs", delay.unwrap_or(0), delay.map_or("no result yet".into(), |x| format!("results {} after the window end", d(x))))
                .check("currentInputWatermark of the window operator trails the wall clock by about the bound; the sink's result times")
                .fix(format!("Bound {}", exact(rec)), Action::Bound(rec)),
        )
    }

    fn state_growing(&self) -> Option<Finding> {
        let down = &self.sim.down;
        let (w, per_key) = down
            .windows
            .iter()
            .map(|w| (w, w.op.pending_count() / (down.keys_in(w.index).max(1))))
            .max_by_key(|&(w, n)| (n, std::cmp::Reverse(w.index)))?;
        if per_key < STATE_WINDOWS_PER_KEY {
            return None;
        }
        // What holds the watermark is why the state waits: the culprit partition and its class.
        let culprit = self.culprit.and_then(|c| c.partition).and_then(|p| self.partitions.get(p as usize));
        // A backfill: the holder lags its peers with data, or reads history (records arriving
        // far older than the window they belong to).
        let window = window_size_ms(self.sim.cfg.window);
        let backfill = culprit.is_some_and(|p| {
            p.class == PartitionClass::Slow && !matches!(p.slow_cause, Some(SlowCause::FewRecords | SlowCause::TooFewToTell))
                || p.data_delay_ms.is_some_and(|d| super::advisor::reads_history(d, window))
        });
        let why = culprit.map_or("the watermark is held while records keep coming".to_string(), |p| {
            format!(
                "partition {} ({}) holds the watermark while records for later windows keep coming",
                self.sim.partition_name(p.partition),
                p.class.label()
            )
        });
        let aligned = self.sim.cfg.aligned();
        let detail = if backfill && !aligned {
            "During a backfill partitions catch up at different speeds and state for the 'future' grows until memory runs out (seed 000 §5). withWatermarkAlignment pauses the ones that run ahead."
        } else {
            "Every window waits for the watermark, so state grows with the stall: fix what holds it (the finding above) and the windows fire."
        };
        let mut f = Finding::new(
            FindingKind::WindowStateGrowing,
            Severity::Warning,
            format!("Window state piles up on window subtask {}: {per_key} open windows per key, because {why}.", w.index),
        )
        .detail(detail)
        .evidence("windowsPerKey", u64::try_from(per_key).unwrap_or(u64::MAX), format!("{per_key} open windows per key"))
        .evidence("stateSize", u64::try_from(w.op.state_size()).unwrap_or(u64::MAX), format!("{} keys × windows", w.op.state_size()))
        .check("checkpoint size and state backend disk grow while the watermark stands still");
        f.window_subtask = Some(w.index);
        if let Some(p) = culprit {
            f = f.partition(p.partition);
        }
        if backfill && !aligned {
            // Well past the bound (alignment must not pause over ordinary disorder) and at least
            // a window: seed 000 pairs a 30 s bound with a 5 min drift.
            let bound = job_bound_ms(&self.sim.cfg).unwrap_or(0);
            let drift = nice_up(window.max(10 * bound));
            f = f.fix(format!("Watermark alignment, max drift {} ↻", exact(drift)), Action::Alignment { max_drift_ms: drift });
        }
        Some(f)
    }

    fn channels(&self) -> Vec<Finding> {
        let Some(ex) = self.explanation else { return Vec::new() };
        ex.reasons
            .iter()
            .filter_map(|r| match *r {
                Reason::ChannelNotRealigned { channel, source_subtask } => Some(
                    Finding::new(FindingKind::ChannelNotRealigned, Severity::Info, format!("Channel {channel} (source subtask {}) came back active below the watermark; the valve ignores it until it catches up.", self.sim.source_subtask_name(source_subtask)))
                        .source_subtask(source_subtask)
                        .check("that source subtask's currentOutputWatermark is below the window subtask's currentInputWatermark, which does not go back for it; its records reaching that window subtask may be late"),
                ),
                Reason::AllInputsIdle => Some(
                    Finding::new(FindingKind::AllInputsIdle, Severity::Info, format!("Every input of window subtask {} is idle: its watermark waits for a channel to become active.", ex.subtask))
                        .check("the window operator's currentInputWatermark stands still while the sources' splits report idleTimeMsPerSecond near 1000 (split.<id>.watermark, Flink 2.1+)"),
                ),
                _ => None,
            })
            .collect()
    }

    fn lag_alert(&self) -> Option<Finding> {
        let threshold = self.opts.lag_alert_ms?;
        let worst = self
            .lag
            .iter()
            .filter(|l| l.over_threshold)
            .max_by_key(|l| (l.lag_ms.unwrap_or(i64::MAX), std::cmp::Reverse(l.window_subtask)))?;
        let lag = worst.lag_ms.map_or("no watermark yet".to_string(), d);
        let mut f = Finding::new(FindingKind::EventTimeLag, Severity::Warning, format!("Event-time lag of window subtask {} is {lag}, over the {} alert threshold.", worst.window_subtask, d(threshold)))
            .detail("Alert on event-time lag (wall clock − watermark) per job, not just consumer lag: consumer lag can be zero while the watermark is stuck (seed 000 §7).")
            .evidence("lagMs", worst.lag_ms.unwrap_or(-1), format!("lag {lag}"))
            .evidence("thresholdMs", threshold, format!("threshold {}", d(threshold)))
            .check("alert on now − currentInputWatermark of the window operator");
        f.window_subtask = Some(worst.window_subtask);
        Some(f)
    }
}

/// "1 record" / "3 records" / "11,080 records" (grouped as the page's other counts are).
pub(crate) fn records(n: u64) -> String {
    count(n, "record", "records")
}

/// "1 record was" / "3 records were".
pub(crate) fn were(n: u64) -> String {
    format!("{} {}", records(n), if n == 1 { "was" } else { "were" })
}
