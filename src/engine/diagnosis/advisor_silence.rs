//! What the advisor reads from the partitions about silence, for the idle timeout: whether
//! any partition is silent, and whether idleness can act at all now (not while a
//! back-pressured subtask's idleness clock stands still). Source subtasks without a split come
//! from the simulation (`advisor::Inputs::splitless_subtasks`). Apart from `advisor`, which
//! weighs the constraints.

use super::advisor::Inputs;
use super::classify::{PartitionClass, PartitionFacts, SlowCause};
use crate::engine::explain_text::nothing_ahead_words;
use crate::engine::time::format_duration;

/// Why no idle timeout releases windows in this job now, if that is so: a silent partition past
/// the timeout that is not idle, on a back-pressured source subtask, whose input-activity clock
/// stands still while the task is back-pressured (§1.8, FLIP-471). (After a DataStream
/// watermark operator the timeout does act: `set_param` gives the operator it too, and the
/// current value is the operator's, `InputConfig::reaching_idle_timeout_ms`.)
pub(super) fn idleness_cannot_act(i: &Inputs) -> Option<String> {
    let p = paused_by_pressure(i)?;
    Some(format!(
        "it releases no window while the job is overloaded: partition {} has been silent for {} and is not idle, because source subtask {} is back-pressured and its idleness clock pauses while it is (FLIP-471); relieving the back-pressure (the WHY panel's fix) lets it",
        p.partition,
        format_duration(p.silent_ms.unwrap_or(0)),
        p.subtask.unwrap_or(0)
    ))
}

/// A stopped partition silent for longer than every source's timeout and an interval, yet not
/// idle, whose source subtask is back-pressured (another of its partitions waits for that): the
/// evidence that its clock stands still (with a wall clock, ≤ 1.20.0, it would be idle).
fn paused_by_pressure<'a>(i: &'a Inputs) -> Option<&'a PartitionFacts> {
    let timeout = i.idle_timeouts_ms.iter().copied().collect::<Option<Vec<i64>>>()?.into_iter().max()?;
    let after = timeout.saturating_add(i.interval_ms);
    let pressured = |s: u32| i.partitions.iter().any(|q| q.subtask == Some(s) && q.slow_cause == Some(SlowCause::BackPressured));
    i.partitions
        .iter()
        .find(|p| p.class == PartitionClass::Idle && !p.idle && p.silent_ms.is_some_and(|s| s > after) && p.subtask.is_some_and(pressured))
}

/// Whether something holds the watermark as a silent partition does, which is what an idle
/// timeout is for (and what the findings then offer one for): a silent partition, or a source
/// subtask without a split (it read "changes nothing" beside that finding's fix).
/// Not when the silent split holding the watermark has nothing ahead of it: idleness then
/// releases nothing (a job whose only partition stopped).
pub(super) fn holds_silently(i: &Inputs) -> bool {
    silent_or_splitless(i) && !i.ahead_of_holder.releases_nothing()
}

/// Whether something is silent, but nothing is above the watermark to release it to.
pub(super) fn silent_with_nothing_ahead(i: &Inputs) -> bool {
    silent_or_splitless(i) && i.ahead_of_holder.releases_nothing()
}

/// Why nothing is ahead of `silent` (the silent partitions, as the caller names them), in the
/// version's words (`nothing_ahead_words`).
pub(super) fn nothing_ahead_of(i: &Inputs, silent: &str) -> String {
    nothing_ahead_words(i.ahead_of_holder, silent)
}

fn silent_or_splitless(i: &Inputs) -> bool {
    any_silent(i) || !i.splitless_subtasks.is_empty()
}

/// Whether a partition is silent or goes quiet.
fn any_silent(i: &Inputs) -> bool {
    use PartitionClass::{Empty, Flapping, Heartbeat, Idle, Returning};
    i.partitions.iter().any(|p| p.idle || matches!(p.class, Empty | Idle | Heartbeat | Flapping | Returning))
}
