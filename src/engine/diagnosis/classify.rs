//! Each partition's class, as seed 002 §1.2 asks users to tell them apart before changing
//! anything — empty, idle and slow partitions are different problems with different fixes —
//! plus the three ways idleness itself goes wrong: heartbeats that keep a split active, a
//! partition that returns below the watermark, a timeout too short for a partition's gaps.
//!
//! A class is only given with evidence: a heartbeat partition is one whose records are mostly
//! heartbeats (what a look at the data shows), never one that is merely slow or regular.

use super::observed::Observed;
use crate::engine::source::SourceSettings;
use crate::engine::time::{EventTime, ProcTime};
use crate::engine::view::watermark::as_opt_watermark;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PartitionClass {
    /// Regular data, in step with its peers; or a split read too briefly to tell (empty for
    /// no more than one quiet threshold).
    Steady,
    /// Never received a record.
    Empty,
    /// Had records and stopped (or is declared idle).
    Idle,
    /// Periodic tiny traffic: its records are mostly heartbeats.
    Heartbeat,
    /// Steady data behind its peers: few records, old event times or a backlog. Idleness does
    /// not help.
    Slow,
    /// Came back from idle below the watermark: its records are late.
    Returning,
    /// Flips between idle and active: the idle timeout is shorter than its normal gaps.
    Flapping,
    /// Removed from the topic; its split is released.
    Removed,
    /// Behind its peers while the job is down: its records wait because no reader runs, not
    /// because its reader is slow (the job's finding says why). Or, read again after a restore
    /// up to where its subtask's input had ended, it waits there for its siblings; its
    /// watermark no longer counts.
    Waiting,
}

impl PartitionClass {
    pub fn label(self) -> &'static str {
        match self {
            PartitionClass::Steady => "steady",
            PartitionClass::Empty => "empty",
            PartitionClass::Idle => "idle",
            PartitionClass::Heartbeat => "sparse/heartbeat",
            PartitionClass::Slow => "slow",
            PartitionClass::Returning => "returning",
            PartitionClass::Flapping => "flapping",
            PartitionClass::Removed => "removed",
            PartitionClass::Waiting => "waiting",
        }
    }
}

/// Why a slow partition is behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SlowCause {
    /// Its records' event times are older than its peers' (a lagging producer, a clock).
    EventTimeDelay,
    /// Records wait unread: the reader cannot keep up (consumer lag).
    ConsumerLag,
    /// Records wait unread because the source subtask is back-pressured: it reads only what the
    /// keyed operator takes, so the reader is not what to fix.
    BackPressured,
    /// Records come seldom, so its watermark moves in steps.
    FewRecords,
    /// Fewer than [`RECORDS_FOR_RHYTHM`] records: seldom, or stopped; nothing tells yet.
    TooFewToTell,
}

/// How far a slow partition trails its peers in event time, as the WHY panel and the findings
/// both say it: a reader that cannot keep up can hold the watermark level with them ("0 ms
/// behind" read as a contradiction).
pub fn behind_words(behind_ms: i64) -> String {
    if behind_ms > 0 {
        format!("is {} behind its peers", crate::engine::time::format_duration(behind_ms))
    } else {
        "holds the watermark, level with its peers".to_string()
    }
}

/// What the diagnosis knows about one partition, in numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PartitionFacts {
    pub partition: u32,
    /// The source subtask that reads it.
    pub subtask: Option<u32>,
    pub class: PartitionClass,
    pub slow_cause: Option<SlowCause>,
    pub records: u64,
    pub heartbeats: u64,
    /// Records its reader took from the partition that the source's filter dropped before the
    /// watermark generator (heartbeats, `drop_heartbeats`): read, but not in `records`. Re-reads
    /// after a restore count again, as in `records`.
    pub filtered: u64,
    /// Records per second from its first record to its last (at least a second).
    pub rate_per_s: f64,
    /// Processing time since its last record.
    pub silent_ms: Option<i64>,
    /// Processing time since a source subtask was given its split (none while no subtask
    /// reads it): an empty partition is not judged before it has been read a while.
    pub read_ms: Option<i64>,
    pub gap_p50_ms: Option<i64>,
    pub gap_p99_ms: Option<i64>,
    pub gap_max_ms: Option<i64>,
    /// Standard deviation over mean of its gaps, per mille (0: a metronome).
    pub gap_variation_permille: Option<u64>,
    /// Quantiles and maximum of `max_ts − ts` over its records (all of the first 1,024, then
    /// a deterministic sample of one instant's batch in 32).
    pub disorder_p50_ms: Option<i64>,
    pub disorder_p99_ms: Option<i64>,
    pub disorder_max_ms: Option<i64>,
    /// How old its newest record was when it arrived (processing time − event time).
    pub data_delay_ms: Option<i64>,
    /// The oldest its newest record was on arrival while it read history before it first
    /// caught up (a backfill), as long as that history is still at least 1 % of the disorder
    /// measured: the disorder is then history's order, not the live data's.
    pub history_delay_ms: Option<i64>,
    /// How far its split watermark trails the most advanced active split.
    pub behind_ms: Option<i64>,
    #[serde(serialize_with = "as_opt_watermark")]
    #[cfg_attr(test, ts(as = "Option<crate::engine::view::Watermark>"))]
    pub watermark: Option<EventTime>,
    pub idle: bool,
    pub idle_flips: u32,
    pub late_records: u64,
    pub unread: usize,
}

/// What the rules need besides the partition itself.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    pub now: ProcTime,
    pub interval_ms: i64,
    /// The highest active split watermark and the median data delay of the partitions with
    /// data, for "behind its peers".
    pub lead_watermark: Option<EventTime>,
    pub median_delay_ms: Option<i64>,
    /// How far behind its peers a partition must be to be slow: more than the noise of their
    /// own disorder (the median P99), and at least a second and two intervals.
    pub slow_behind_ms: i64,
    /// The median of the partitions' typical (P50) gaps, for "few records".
    pub median_gap_ms: Option<i64>,
    /// The most advanced window subtask's watermark: records at or below it are late there.
    pub job_watermark: Option<EventTime>,
}

/// Flips before a partition counts as flapping.
pub const FLAPPING_FLIPS: u32 = 10;
/// A partition this far behind its peers (or more) is slow.
pub const SLOW_BEHIND_MS: i64 = 1_000;

/// What a source subtask knows of the split it reads (a partition no subtask reads has none).
pub struct SplitRead<'a> {
    pub subtask: u32,
    pub records: u64,
    pub observed: &'a Observed,
    pub assigned_at: ProcTime,
    pub last_record_at: Option<ProcTime>,
    pub max_ts: Option<EventTime>,
    pub watermark: Option<EventTime>,
    pub idle: bool,
}

/// The raw facts of one partition, before its class is known: what its split's reader knows
/// (`read`), its late records downstream (how many, the last when) and its records not yet read.
pub fn facts(
    partition: u32,
    read: Option<&SplitRead>,
    late: (u64, Option<ProcTime>),
    unread: usize,
    now: ProcTime,
) -> (PartitionFacts, Option<ProcTime>) {
    let unassigned = Observed::default();
    let o = read.map_or(&unassigned, |r| r.observed);
    let records = read.map_or(0, |r| r.records);
    let last_record_at = read.and_then(|r| r.last_record_at);
    let in_order = o.disorder_sampled.saturating_sub(o.disorder.total());
    // The rate while it was sending: a stopped partition keeps the rate it had.
    let span_ms = o.first_record_at.zip(last_record_at).map(|(f, l)| (l - f).max(1000));
    #[allow(clippy::cast_precision_loss)]
    let rate_per_s = span_ms.map_or(0.0, |s| records as f64 * 1000.0 / s as f64);
    let f = PartitionFacts {
        partition,
        subtask: read.map(|r| r.subtask),
        class: PartitionClass::Steady,
        slow_cause: None,
        records,
        heartbeats: o.heartbeats,
        filtered: 0,
        rate_per_s,
        silent_ms: last_record_at.map(|t| now - t),
        read_ms: read.map(|r| now - r.assigned_at),
        gap_p50_ms: o.gaps.quantile(0.5, 0),
        gap_p99_ms: o.gaps.quantile(0.99, 0),
        gap_max_ms: (o.gap_count > 0).then_some(o.gap_max),
        gap_variation_permille: o.gap_variation_permille(),
        disorder_p50_ms: o.disorder.quantile(0.5, in_order).filter(|_| records > 0),
        disorder_p99_ms: o.disorder.quantile(0.99, in_order).filter(|_| records > 0),
        disorder_max_ms: (records > 0).then_some(o.disorder_max),
        data_delay_ms: last_record_at.zip(read.and_then(|r| r.max_ts)).map(|(t, m)| t.ms().saturating_sub(m.ms())),
        history_delay_ms: o.history_in_disorder_ms(),
        behind_ms: None,
        watermark: read.and_then(|r| r.watermark),
        idle: read.is_some_and(|r| r.idle),
        idle_flips: o.idle_flips,
        late_records: late.0,
        unread,
    };
    // A late record after its return means it came back below the watermark.
    let returned_late = o.returned_at.filter(|&r| late.1.is_some_and(|t| t >= r));
    (f, returned_late)
}

/// Gives `f` its class (and the cause, when slow).
pub fn classify(f: &mut PartitionFacts, returned_late: Option<ProcTime>, cx: &Context, own: &SourceSettings) {
    f.behind_ms = cx.lead_watermark.zip(f.watermark).filter(|_| !f.idle).map(|(l, w)| l.ms().saturating_sub(w.ms()).max(0));
    f.class = class_of(f, returned_late, cx, own);
    if f.class == PartitionClass::Slow {
        f.slow_cause = Some(if f.unread > 0 {
            SlowCause::ConsumerLag
        } else if f.data_delay_ms.zip(cx.median_delay_ms).is_some_and(|(d, m)| d.saturating_sub(m) >= SLOW_BEHIND_MS) {
            SlowCause::EventTimeDelay
        } else if f.records < RECORDS_FOR_RHYTHM {
            SlowCause::TooFewToTell
        } else {
            SlowCause::FewRecords
        });
    }
}

/// With fewer records a partition's gaps say nothing of its rhythm: a stopped partition and a
/// sparse one look the same.
pub const RECORDS_FOR_RHYTHM: u64 = 3;

/// How long a partition may be quiet before it is judged silent (idle, or empty before its
/// first record): three of its P99 gaps, and at least a second and two emission intervals.
pub fn quiet_after_ms(f: &PartitionFacts, interval_ms: i64) -> i64 {
    f.gap_p99_ms.unwrap_or(0).saturating_mul(3).max(1_000).max(2 * interval_ms)
}

/// Whether a partition of heartbeats has been silent for longer than any gap between them (its
/// period), by more than a second and two intervals of slack for when they are scheduled: the
/// next one is overdue, so they stopped. Before a second one there is no period to miss.
pub fn heartbeats_overdue(f: &PartitionFacts, interval_ms: i64) -> bool {
    let slack = 1_000_i64.max(2 * interval_ms);
    f.gap_max_ms.zip(f.silent_ms).is_some_and(|(g, s)| s > g.saturating_add(slack))
}

/// Whether `f` is read too briefly to tell an empty partition from one about to send.
pub fn too_early_to_judge(f: &PartitionFacts, interval_ms: i64) -> bool {
    f.records == 0 && f.read_ms.is_some_and(|r| r <= quiet_after_ms(f, interval_ms))
}

fn class_of(f: &PartitionFacts, returned_late: Option<ProcTime>, cx: &Context, own: &SourceSettings) -> PartitionClass {
    let quiet_after = quiet_after_ms(f, cx.interval_ms);
    // Back below the watermark, its records are late whatever else holds it up: on the wall
    // clock a back-pressured split went idle with records waiting and came back below, which
    // read "5.2 s behind its peers" while its records were dropped.
    let below_job = f.watermark.zip(cx.job_watermark).is_some_and(|(w, j)| w < j);
    if returned_late.is_some() && !f.idle && below_job {
        return PartitionClass::Returning;
    }
    // Records wait unread while nothing is read: the reader is behind, whatever the timer says.
    if f.unread > 0 && (f.records == 0 || f.idle || f.silent_ms.is_some_and(|s| s > quiet_after)) {
        return PartitionClass::Slow;
    }
    if f.records == 0 {
        // As a silence between records: no more than one quiet threshold is not yet telling.
        return if too_early_to_judge(f, cx.interval_ms) { PartitionClass::Steady } else { PartitionClass::Empty };
    }
    if f.heartbeats * 2 > f.records {
        // Filtered, its heartbeats no longer reach the generator: it is silent from then on.
        // Overdue, they stopped (a producer silenced or gone): "a heartbeat every 90 min" would
        // promise one that does not come.
        return if own.transform.drop_heartbeats || heartbeats_overdue(f, cx.interval_ms) {
            PartitionClass::Idle
        } else {
            PartitionClass::Heartbeat
        };
    }
    if f.idle_flips >= FLAPPING_FLIPS && own.idle_timeout_ms.is_some_and(|t| t <= f.gap_p99_ms.unwrap_or(0)) {
        return PartitionClass::Flapping;
    }
    if f.idle || f.silent_ms.is_some_and(|s| s > quiet_after) {
        return PartitionClass::Idle;
    }
    let few_records = f.gap_p50_ms.zip(cx.median_gap_ms).is_some_and(|(g, m)| g >= cx.slow_behind_ms && g >= 10 * m.max(1));
    if few_records || f.behind_ms.is_some_and(|b| b >= cx.slow_behind_ms) || f.unread > 0 && f.behind_ms.is_some_and(|b| b > 0) {
        return PartitionClass::Slow;
    }
    PartitionClass::Steady
}

/// The median of some values (the lower one of an even count).
pub fn median(mut v: Vec<i64>) -> Option<i64> {
    v.sort_unstable();
    v.get(v.len().saturating_sub(1) / 2).copied()
}
