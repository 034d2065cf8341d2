//! Findings about the job's flow: back-pressure from the keyed operator (on either idleness
//! clock), watermark alignment pausing splits, and failures that restart the job.

use super::advisor::nice_up;
use super::diagnose::{d, exact, FindingContext};
use super::finding::{Finding, FindingKind, Severity};
use super::job_findings::were;
use crate::engine::explain::Reason;
use crate::engine::flow::IdlenessClock;
use crate::engine::session::action::Action;
use crate::engine::time::thousands;

/// What back-pressure does on the wall clock (Flink ≤ 1.19.1 / 1.20.0), reference §13 pitfall 2.
const WALL_CLOCK_BACK_PRESSURE: &str = "Before Flink 1.19.2 / 1.20.1 / 2.0 the idle timeout counts wall-clock time, also while the task is back-pressured: a split whose records wait unread looks silent, goes idle, the watermark moves on without it, and its records are late once read. Give the window operator capacity; since 1.19.2 / 1.20.1 / 2.0 idleness stands still while back-pressured (FLIP-471), so no split goes idle for it.";

impl FindingContext<'_> {
    /// Back-pressure from the keyed operator: the sources read only what it takes, and on the
    /// input-activity clock their silent splits never go idle (reference §1.8).
    pub(super) fn back_pressure(&self) -> Option<Finding> {
        let src = self
            .sim
            .sources
            .iter()
            .filter(|s| s.pressure.is_back_pressured)
            .max_by_key(|s| (s.pressure.back_pressured.value(), std::cmp::Reverse(s.index)))?;
        let cap = self.sim.cfg.flow.keyed_capacity_per_s?;
        let never_idle = self.explanation.is_some_and(|e| e.reasons.iter().any(|r| matches!(r, Reason::BackPressuredNeverIdle { .. })));
        let elapsed_ms = (self.sim.now - self.sim.cfg.start_time).max(1).unsigned_abs();
        let produced: u64 = self.sim.partitions.iter().map(|p| p.produced).sum();
        let per_subtask = produced.saturating_mul(1000) / elapsed_ms / u64::from(self.sim.cfg.window_parallelism.max(1));
        // Twice what arrives, so that the backlog drains too.
        let rec = nice_up(i64::try_from(per_subtask.saturating_mul(2)).unwrap_or(i64::MAX)).unsigned_abs().max(cap + 1);
        let lag = self.sim.cfg.cluster.scaled(self.sim.partitions.iter().map(|p| p.unread() as u64).sum());
        let ms = src.pressure.back_pressured.value();
        let name = self.sim.source_subtask_name(src.index);
        // On the wall clock (Flink ≤ 1.19.1 / 1.20.0) back-pressure does the opposite: a split
        // whose records wait unread looks silent and goes idle (the walk read FLIP-471's words
        // beside two idle backlogged splits and 11,080 drops).
        let wall = self.sim.cfg.inputs.get(usize::from(src.input)).is_some_and(|i| i.source.idleness_clock == IdlenessClock::Wall);
        let backlogged_idle: Vec<u32> = (0..src.splits.len())
            .filter(|&i| src.split_idle(i))
            .map(|i| src.splits[i].partition)
            .filter(|&p| self.sim.partitions.get(p as usize).is_some_and(|p| p.readable() > 0))
            .collect();
        if wall && !backlogged_idle.is_empty() {
            return Some(
                self.back_pressure_on_wall_clock(src.index, cap, &backlogged_idle)
                    .fix(format!("Window capacity {}/s", thousands(rec)), Action::KeyedCapacity(Some(rec))),
            );
        }
        let title = if never_idle {
            format!("The window operator cannot keep up ({} records/s per subtask): source subtask {name} is back-pressured, so its silent split never goes idle (FLIP-471).", thousands(cap))
        } else {
            format!("The window operator cannot keep up ({} records/s per subtask): source subtask {name} is back-pressured and consumer lag grows.", thousands(cap))
        };
        let mut f = Finding::new(FindingKind::BackPressure, if never_idle { Severity::Critical } else { Severity::Warning }, title)
            // Before a backlogged split went idle the wall clock's words too: a timeout will idle it.
            .detail(if wall { WALL_CLOCK_BACK_PRESSURE } else { "Since Flink 1.19.2 / 1.20.1 / 2.0 idleness is measured on an input-activity clock that stands still while the task is back-pressured or blocked by alignment: a slow job never declares a split idle. A shorter idle timeout does not help; capacity does (more parallelism, a cheaper operator)." })
            .evidence("backPressuredTimeMsPerSecond", ms, format!("{ms} ms/s back-pressured ({})", src.pressure.level().rest_name().to_uppercase()))
            .evidence("pendingRecords", lag, format!("{} records unread", thousands(lag)))
            .evidence("incomingPerSubtask", per_subtask, format!("{} records/s arrive per window subtask", thousands(self.sim.cfg.cluster.scaled(per_subtask))))
            .source_subtask(src.index)
            .check("the Web UI's back pressure tab (HIGH), backPressuredTimeMsPerSecond of the source and busyTimeMsPerSecond of the window operator")
            .fix(format!("Window capacity {}/s", thousands(rec)), Action::KeyedCapacity(Some(rec)));
        if never_idle {
            if let Some(p) = self.culprit.and_then(|c| c.partition) {
                f = f.partition(p);
            }
        }
        Some(f)
    }

    /// Back-pressure on Flink ≤ 1.19.1 / 1.20.0's wall clock: the `backlogged` splits of source
    /// subtask `s` went idle with records waiting, so the watermark moved on without them and
    /// what they read next is late (reference §13, pitfall 2).
    fn back_pressure_on_wall_clock(&self, s: u32, cap: u64, backlogged: &[u32]) -> Finding {
        let (dropped, side) = self.sim.down.late_counts();
        let names: Vec<String> = backlogged.iter().map(|&p| self.sim.partition_name(p)).collect();
        let late = if dropped + side > 0 { format!(": {} late", were(dropped + side)) } else { String::new() };
        Finding::new(
            FindingKind::BackPressure,
            Severity::Critical,
            format!(
                "The window operator cannot keep up ({} records/s per subtask): source subtask {} is back-pressured, and on the wall clock (Flink ≤ 1.19.1 / 1.20.0) its backlogged {} {} went idle{late}.",
                thousands(cap),
                self.sim.source_subtask_name(s),
                if names.len() == 1 { "partition" } else { "partitions" },
                names.join(", ")
            ),
        )
        .detail(WALL_CLOCK_BACK_PRESSURE)
        .evidence("backlogIdleSplits", backlogged.len() as u64, format!("{} idle with records unread", names.join(", ")))
        .source_subtask(s)
        .check(format!("the Web UI's back pressure tab (HIGH) and the source subtasks' pendingRecords; {}", self.late_counter()))
    }

    /// Failures and restarts: a TaskManager that keeps being lost is a restart loop.
    pub(super) fn job_restarts(&self) -> Option<Finding> {
        if let Some(thrown) = self.sim.downstream().failure.as_deref() {
            return Some(operator_threw(thrown));
        }
        let f = &self.sim.failover;
        let restarts = f.restarts();
        let reason = f.failure.as_deref()?;
        let lost = reason.contains("TaskManager") && reason.contains("memory");
        let down = !f.is_running();
        let severity = if down || lost && restarts >= 2 { Severity::Critical } else { Severity::Warning };
        let title = if down {
            match f.restarting_until {
                // On the page's clock, as the job's status strip says it (a UTC date beside
                // "until 00:00:15 (in 5.0 s)" read as another instant).
                Some(u) => format!(
                    "The job is down (RESTARTING until {}, in {}): {reason}. Nothing is read or processed until then.",
                    crate::engine::time::format_elapsed(u - self.sim.config().start_time),
                    crate::engine::time::format_duration((u - self.sim.now()).max(0))
                ),
                None => format!("The job FAILED for good: {reason}."),
            }
        } else if lost && restarts >= 2 {
            format!("The job is in a restart loop: {restarts} restarts, each after a TaskManager was lost with its state over memory.")
        } else {
            let times = if restarts == 1 { "once".to_string() } else { format!("{restarts} times") };
            format!("The job failed and restarted {times}: {reason}.")
        };
        let replayed = self.sim.cfg.cluster.scaled(self.sim.records_replayed());
        let mut f = Finding::new(FindingKind::JobRestarts, severity, title)
            .detail("A restore brings back offsets and window state but not watermarks or idleness: records since the checkpoint are read again (duplicates in an append sink), every channel needs a watermark again and a silent partition needs its full idle timeout again before windows fire.")
            // While the first restart is under way, "0 restarts · 0 records read again" read as
            // if nothing had happened.
            .evidence("restarts", u64::from(restarts), if f.restarting_until.is_some() && restarts == 0 { "the first restart is under way".to_string() } else { crate::engine::time::count(restarts, "restart", "restarts") })
            .evidence("recordsReplayed", replayed, if f.restarting_until.is_some() && replayed == 0 { "records since the checkpoint are read again once it runs".to_string() } else { format!("{} records read again", thousands(replayed)) })
            .check("the job's numRestarts and the exceptions tab; checkpoint size over time");
        // Stalled after the restore by a silent partition: each restart costs the idle timeout,
        // so the advisor's (shorter) timeout is the fix.
        let stalled = self.explanation.and_then(|e| {
            e.reasons.iter().find_map(|r| match *r {
                Reason::StalledAfterRestore { silent_partition: Some(p), idle_timeout_ms: Some(t), .. } => Some((p, t)),
                _ => None,
            })
        });
        // While it is down, that is what holds every window.
        if let Some(p) = self.culprit.and_then(|c| c.partition).filter(|_| down) {
            f = f.partition(p);
        }
        if let (Some((p, t)), Some(rec)) = (stalled, self.advice.idle_timeout_alone_ms) {
            if rec < t {
                f = f
                    .partition(p)
                    .detail(format!(
                        "Since the restore, partition {} holds every window until its {} idle timeout passes again (seed 002 §5.3).",
                        self.sim.partition_name(p),
                        d(t)
                    ))
                    .fix(format!("Idle timeout {}", exact(rec)), Action::IdleTimeout(Some(rec)));
            }
        }
        Some(f)
    }

    /// Alignment at work: what is paused and why (no fix: it is the fix for a backfill).
    pub(super) fn alignment_pauses(&self) -> Option<Finding> {
        let paused: Vec<u32> = self
            .sim
            .sources
            .iter()
            .flat_map(|s| (0..s.splits.len()).filter(|&i| s.split_paused(i)).map(|i| s.splits[i].partition))
            .collect();
        let waiting: Vec<u32> = self.sim.sources.iter().filter(|s| !s.reads()).map(|s| s.index).collect();
        if paused.is_empty() && waiting.is_empty() {
            return None;
        }
        let a = self.sim.cfg.inputs.iter().find_map(|i| i.alignment.as_ref())?;
        let names: Vec<String> = paused.iter().map(|&p| self.sim.partition_name(p)).collect();
        let what = match (names.is_empty(), waiting.is_empty()) {
            (false, true) => format!("partition(s) {} are paused", names.join(", ")),
            (true, false) => format!("source subtask(s) {} wait", self.source_subtask_names(&waiting)),
            _ => format!("partition(s) {} are paused and source subtask(s) {} wait", names.join(", "), self.source_subtask_names(&waiting)),
        };
        Some(
            Finding::new(FindingKind::AlignmentPauses, Severity::Info, format!("Watermark alignment ({:?}, max drift {}): {what} until the group catches up.", a.group, d(a.max_drift_ms)))
                .detail("Alignment keeps a split or subtask from running more than the max drift ahead of the group's slowest, so window state stays bounded during a backfill; the backfill then advances about max drift per update interval.")
                .evidence("pausedSplits", paused.len() as u64, format!("{} paused", paused.len()))
                .check("watermarkAlignmentDrift of the source; split.<id>.watermark.pausedTimeMsPerSecond (2.1+)"),
        )
    }
}

/// An operator threw (`Downstream::failure`): no restore or idle timeout is involved, and no
/// partition holds anything; the record or the reader is what to fix.
fn operator_threw(thrown: &str) -> Finding {
    // The message is the run's error ("the job failed: Record has …"): the exception is after it.
    let exception = thrown.strip_prefix("the job failed: ").unwrap_or(thrown);
    Finding::new(FindingKind::JobRestarts, Severity::Critical, format!("The job FAILED: an operator threw: {exception}"))
        .detail("Flink restarts a job whose operator throws as its restart strategy allows; the restarted job reads the same record and throws again, until the strategy gives up (with checkpointing and the default strategy, never). The simulator stops at the first failure.")
        .check("the exceptions tab: the exception and the task that threw it")
}
