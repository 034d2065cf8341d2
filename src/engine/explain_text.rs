//! The wording of an explanation's reasons: one clause per [`Reason`], with event times,
//! partitions and source subtasks written by the caller. The engine's sentence
//! ([`Simulation::explain`](super::sim::Simulation::explain)) joins the clauses with UTC
//! times; the playground's WHY panel shows each one on its own with times relative to now.
//! Apart from `explain`, which decides which reasons hold: a wording change cannot move a
//! holder, and the two read at once.

use super::diagnosis::classify::{behind_words, SlowCause};
use super::explain::{Ahead, Reason};
use super::time::{format_duration, EventTime, ProcTime};

/// What sits at the watermark does to it, as the views say it: (the chain's label, a finding's
/// badge). It holds the watermark back, or, the watermark being ahead of processing time
/// ([`Explanation::ahead_of`](super::explain::Explanation::ahead_of)), it pushed it ahead: the
/// far-future preset showed "held by partition 0" in red for the partition that pushed it a day on.
pub fn holder_words(ahead: bool) -> (&'static str, &'static str) {
    if ahead {
        ("pushed ahead by ", "pushed the watermark ahead")
    } else {
        ("held by ", "holds the watermark")
    }
}

/// Why every input idle moves nothing on Flink ≤ 2.1, which has no all-idle flush
/// (FLINK-38454) where idle inputs meet: a source's splits and a two-input operator's inputs (a
/// valve flushes in every version): the tail of [`nothing_ahead_words`] for
/// [`Ahead::OnlyIdle`](super::explain::Ahead::OnlyIdle), which says whose version it is a matter of.
const NO_ALL_IDLE_FLUSH: &str =
    "before Flink 2.2 a source's splits, or a two-input operator's inputs, all idle keep the watermark where it is";

/// Why an idle timeout releases nothing, said of `of` (the silent partitions, the watermark):
/// nothing is ahead of it, only inputs that are idle or go idle with it are, which this Flink
/// does not release to, or what is ahead waits behind a channel that came back below the
/// watermark. One
/// wording for the reason, the finding and the advisor.
pub fn nothing_ahead_words(ahead: Ahead, of: &str) -> String {
    match ahead {
        Ahead::OnlyIdle => format!("only idle or silent inputs are ahead of {of}, and {NO_ALL_IDLE_FLUSH}"),
        Ahead::BehindUnaligned => format!(
            "a channel that came back below the watermark holds back what is ahead of {of} (its valve leaves that channel out of its minimum, and flushes nothing while it is active or when it goes idle last)"
        ),
        _ => format!("no input is ahead of {of}"),
    }
}

/// One reason as a clause (lower case, no full stop), with event times written by `at`: the
/// engine's sentence joins the clauses with UTC times; the playground shows each one as a
/// sentence of its own with times relative to now. One wording for both.
pub fn reason_clause(r: &Reason, now: ProcTime, at: impl Fn(EventTime) -> String) -> String {
    reason_clause_named(r, now, at, |p| p.to_string(), |s| s.to_string())
}

/// [`reason_clause`] with partitions named by `name` ([`Simulation::partition_name`]: `rates-0`
/// in a job with two topics) and source subtasks by `source` ([`Simulation::source_subtask_name`]:
/// `rates·0` in a job with two sources).
pub fn reason_clause_named(
    r: &Reason,
    now: ProcTime,
    at: impl Fn(EventTime) -> String,
    name: impl Fn(u32) -> String,
    source: impl Fn(u32) -> String,
) -> String {
    let d = format_duration;
    match r {
        Reason::AllInputsIdle => "every input channel is idle, so the watermark does not move (it resumes when a channel becomes active with a higher watermark)".into(),
        Reason::SubtaskWithoutSplit { source_subtask } => format!("source subtask {} owns no partition and no idle timeout is set, so it holds No Watermark forever (more source subtasks than partitions)", source(*source_subtask)),
        Reason::AllSplitsReleased { source_subtask } => format!("source subtask {}'s splits were all released (its partitions removed or finished) while it was active, so it stays active at its last watermark and no idle timeout marks it idle (Flink keeps an empty multiplexer's last status)", source(*source_subtask)),
        Reason::SplitNeverReceived { partition, idle_timeout_ms: None, heartbeats_filtered: 0 } => format!("partition {} has never received a record and no idle timeout is set", name(*partition)),
        Reason::SplitNeverReceived { partition, idle_timeout_ms: Some(t), heartbeats_filtered: 0 } => format!("partition {} has never received a record; it goes idle after the {} idle timeout", name(*partition), d(*t)),
        // It did receive records: heartbeats, all dropped before its generator.
        Reason::SplitNeverReceived { partition, idle_timeout_ms, heartbeats_filtered: k } => format!(
            "partition {} has read only heartbeats ({k}), and the filter drops them before the watermark generator{}",
            name(*partition),
            idle_timeout_ms.map_or_else(|| "; no idle timeout is set".to_string(), |t| format!("; it goes idle after the {} idle timeout", d(t)))
        ),
        Reason::SplitSilentNoIdleTimeout { partition, silent_ms } => format!("partition {} has had no record for {} and no idle timeout is set", name(*partition), d(*silent_ms)),
        Reason::SplitSilentNothingAhead { partition, silent_ms, behind_unaligned: true, .. } => format!("partition {} has had no record for {}; {}, so an idle timeout would move nothing", name(*partition), d(*silent_ms), nothing_ahead_words(Ahead::BehindUnaligned, "it")),
        Reason::SplitSilentNothingAhead { partition, silent_ms, only_idle_ahead, .. } => format!("partition {} has had no record for {}; {}: only its next record moves the watermark (an idle timeout would make every input idle, which moves nothing)", name(*partition), d(*silent_ms), nothing_ahead_words(if *only_idle_ahead { Ahead::OnlyIdle } else { Ahead::Nothing }, "it")),
        Reason::KeptActiveBySparseRecords { partition, idle_timeout_ms, last_record_ago_ms, period_ms } => format!(
            "partition {} gets only heartbeats, one every {} (the last {} ago), which keep it active although the idle timeout is {}: filter heartbeats before the generator", name(*partition),
            d(*period_ms),
            d(*last_record_ago_ms),
            d(*idle_timeout_ms)
        ),
        Reason::SlowPartition { partition, behind_ms, cause } => format!(
            "partition {} {}: {}",
            name(*partition),
            behind_words(*behind_ms),
            match cause {
                Some(SlowCause::EventTimeDelay) => "its records arrive with old timestamps; idleness cannot help, it is never silent",
                Some(SlowCause::ConsumerLag) => "its reader cannot keep up; idleness cannot help, records wait",
                // Past tense too: between two reads, or once its producer stopped, nothing may be unread ("its records wait in Kafka" beside 17,999 produced and read).
                Some(SlowCause::BackPressured) => "its source subtask is back-pressured and reads only what the window operator takes: its records are read only after waiting in Kafka",
                Some(SlowCause::TooFewToTell) => "too few records yet to tell a sparse partition from one that stopped",
                _ => "its records come seldom; an idle timeout shorter than its gaps would make it flap",
            }
        ),
        Reason::ReturnedBelowWatermark { partition, late_records } => {
            format!("partition {} came back from idle below the watermark: {late_records} of its records were late", name(*partition))
        }
        Reason::FlappingPartition { partition, flips, idle_timeout_ms } => {
            format!("partition {} flipped idle/active {flips} times: the {} idle timeout is shorter than its normal gaps", name(*partition), d(*idle_timeout_ms))
        }
        Reason::IdleCountdown { partition, idle_at } => format!("partition {} will be declared idle in {} unless a record arrives", name(*partition), d((*idle_at - now).max(0))),
        Reason::PeriodicEmissionDisabled => "the auto-watermark interval (auto_watermark_interval_ms) is 0: no periodic watermarks, and idleness is never detected".into(),
        Reason::InputHolds { input, topic, other_watermark } => format!(
            "the two-input operator's {} input ({topic}) holds it; the other input is at {} (an operator with two inputs waits for the slower one)",
            ordinal(*input),
            at(*other_watermark)
        ),
        Reason::InputStalls { input, topic, behind_ms } => format!(
            "its {} input ({topic}) came back {} below the operator's watermark: a two-input operator counts it at once, so it stalls until that input catches up",
            ordinal(*input),
            d(*behind_ms)
        ),
        Reason::MidstreamHolds { source_subtask, operator, source_idle, idle_timeout_ms, silent_ms, sql } => {
            midstream_clause(source(*source_subtask), operator, *source_idle, *idle_timeout_ms, *silent_ms, *sql)
        }
        Reason::BackPressuredNeverIdle { partition, source_subtask, idle_timeout_ms, silent_ms } => format!(
            "partition {} has had no record for {}, but source subtask {} is back-pressured: since Flink 1.19.2 / 1.20.1 / 2.0 (FLIP-471) back-pressured time does not count towards the {} idle timeout, so it never goes idle while the job is overloaded",
            name(*partition),
            d(*silent_ms),
            source(*source_subtask),
            d(*idle_timeout_ms)
        ),
        Reason::WaitingForAlignment { source_subtask, max_allowed } => format!(
            "source subtask {} waits for watermark alignment: its watermark is past the group's maximum allowed {}, so it reads nothing until the group catches up",
            source(*source_subtask),
            at(*max_allowed)
        ),
        Reason::SplitPausedByAlignment { partition, max_allowed } => {
            format!("split alignment paused partition {}: its watermark is past the group's maximum allowed {}", name(*partition), at(*max_allowed))
        }
        Reason::AlignmentPausesOthers { partition, paused, max_drift_ms, update_interval_ms } => format!(
            "watermark alignment pauses partition(s) {} until partition {} catches up; it may move {} ahead of the group every {}",
            paused.iter().map(|&p| name(p)).collect::<Vec<_>>().join(", "),
            name(*partition),
            d(*max_drift_ms),
            d(*update_interval_ms)
        ),
        Reason::ChannelNotRealigned { channel, source_subtask } => {
            format!("channel {channel} (source subtask {}) became active below the watermark and is ignored until it catches up", source(*source_subtask))
        }
        Reason::FarFutureTimestamp { partition, max_timestamp, ahead_ms } => {
            format!("partition {} read a timestamp {} ahead of processing time ({}): records behind it are late; clamp timestamps at the source", name(*partition), d(*ahead_ms), at(*max_timestamp))
        }
        Reason::SecondsReadAsMillis { watermark } => format!("the watermark is {} — epoch seconds read as milliseconds?", at(*watermark)),
        Reason::MillisReadAsSeconds { watermark } => format!("the watermark is {} — milliseconds read as seconds? Everything will be late", at(*watermark)),
        Reason::JobDown { restarting_until: Some(u) } => format!("the job is RESTARTING (the restart strategy's delay ends in {}): nothing is read or processed until then", d((*u - now).max(0))),
        // Why it failed (no restart left, or an operator threw) is the failure finding's.
        Reason::JobDown { restarting_until: None } => "the job FAILED for good: nothing happens any more".into(),
        Reason::StalledAfterRestore { restored_at, channel, source_subtask, silent_partition, idle_timeout_ms } => {
            restore_clause(now - *restored_at, *channel, source(*source_subtask), silent_partition.map(&name), *idle_timeout_ms)
        }
    }
}

fn restore_clause(ago: i64, channel: usize, s: String, silent: Option<String>, timeout: Option<i64>) -> String {
    let d = format_duration;
    let head = format!(
        "stalled after the restore {} ago: watermarks restart from Long.MIN_VALUE and idleness is lost, and channel {channel} (source subtask {s}) has no watermark yet",
        d(ago.max(0))
    );
    match (silent, timeout) {
        (Some(p), Some(t)) => format!("{head}: partition {p} has had no record since, so it needs the idle timeout ({}) again", d(t)),
        (Some(p), None) => {
            format!(
                "{head}: partition {p} has had no record since and no idle timeout is set, so it holds every window until a record arrives"
            )
        }
        (None, _) => format!("{head} (its next periodic watermark releases it)"),
    }
}

/// A two-input operator's input in words.
pub(crate) fn ordinal(input: usize) -> &'static str {
    if input == 0 {
        "first"
    } else {
        "second"
    }
}

fn midstream_clause(s: String, operator: &str, source_idle: bool, timeout: Option<i64>, silent: Option<i64>, sql: bool) -> String {
    let d = format_duration;
    let quiet = silent.map_or("no record has passed it yet".to_string(), |t| format!("its last record passed {} ago", d(t)));
    match (sql, timeout) {
        (true, Some(t)) => format!(
            "the {operator} after source subtask {s} decides its watermark ({quiet}): it goes idle only after table.exec.source.idle-timeout ({}) without rows, and any row makes it active again at once",
            d(t)
        ),
        (true, None) => format!("the {operator} after source subtask {s} decides its watermark ({quiet}) and table.exec.source.idle-timeout is not set, so it never goes idle"),
        (false, _) if source_idle => format!(
            "source subtask {s} is idle, but the {operator} after it swallows that status and, {}, keeps the channel active ({quiet}): generate watermarks in the source",
            timeout.map_or("with no idle timeout of its own".to_string(), |t| format!("until its own {} idle timeout", d(t)))
        ),
        (false, _) => format!(
            "the {operator} after source subtask {s} decides its watermark from the records that pass it, one watermark for all the subtask's partitions ({quiet}): per-partition watermarks exist only in the source"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_clause_writes_times_with_the_callers_formatter() {
        let r = Reason::SecondsReadAsMillis { watermark: EventTime(1_767_225_600) };
        assert_eq!(
            reason_clause(&r, ProcTime(0), |t| format!("<{}>", t.ms())),
            "the watermark is <1767225600> — epoch seconds read as milliseconds?"
        );
        let r = Reason::IdleCountdown { partition: 3, idle_at: ProcTime(5_000) };
        assert_eq!(
            reason_clause(&r, ProcTime(8_000), |_| unreachable!()),
            "partition 3 will be declared idle in 0 ms unless a record arrives",
            "never a negative countdown"
        );
    }

    #[test]
    fn a_reader_that_cannot_keep_up_is_not_said_to_be_0_ms_behind() {
        let slow = |behind_ms| Reason::SlowPartition { partition: 1, behind_ms, cause: Some(SlowCause::ConsumerLag) };
        let clause = |r: &Reason| reason_clause(r, ProcTime(0), |_| unreachable!());
        assert_eq!(
            clause(&slow(0)),
            "partition 1 holds the watermark, level with its peers: its reader cannot keep up; idleness cannot help, records wait"
        );
        assert!(clause(&slow(4_000)).starts_with("partition 1 is 4.0 s behind its peers: its reader"));
    }
}
