//! The trace: every change the engine makes, numbered and stamped with processing time.
//!
//! The trace is a bounded ring (the UI and the JS API pull deltas from it by sequence number)
//! and a running FNV-1a fingerprint over *every* event ever pushed, so the hash does not depend
//! on the ring's capacity. Record-level events can be switched off for bulk runs; the hash then
//! covers the remaining events only.
//!
//! An event serializes to the JS API's shape (`eventsSince`): camelCase fields, watermarks as
//! `{ ms, raw }`, a command as its JSON object. The kind is generic over the key so that one
//! type carries both the engine's key ids and, for the API, the key names
//! ([`TraceEvent::with_key_names`]).

use super::fingerprint::Fnv1a;
use super::keys::{KeyId, KeyTable};
use super::operator::trigger::FiringKind;
use super::status::WatermarkStatus;
use super::time::{EventTime, ProcTime};
use super::view::watermark::as_watermark;
use serde::{Serialize, Serializer};
use std::collections::VecDeque;

/// What happened; `kind` is the snake_case name.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(concrete(K = String)))]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum TraceKind<K = KeyId> {
    /// A scripted or API command was applied: the command as JSON (its text if that is not
    /// JSON).
    Command {
        #[serde(rename = "command", serialize_with = "command_json")]
        #[cfg_attr(test, ts(type = "Command | string"))]
        text: String,
    },
    /// A source subtask read a record from a split (record-level).
    RecordRead { subtask: u32, partition: u32, offset: u64, ts: EventTime, key: K },
    /// A record was dropped by the source's filter stage (record-level).
    RecordFiltered { subtask: u32, partition: u32, offset: u64 },
    /// A split's own watermark rose.
    SplitWatermark {
        subtask: u32,
        partition: u32,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        watermark: EventTime,
    },
    /// A split was declared idle (idleness timeout or explicit `markIdle`).
    SplitIdle { subtask: u32, partition: u32 },
    /// A split became active again.
    SplitActive { subtask: u32, partition: u32 },
    /// A split was assigned to a subtask.
    SplitAdded { subtask: u32, partition: u32 },
    /// A split finished / was removed (its partial watermark is unregistered).
    SplitReleased { subtask: u32, partition: u32 },
    /// A source subtask forwarded a watermark downstream.
    SourceWatermark {
        subtask: u32,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        watermark: EventTime,
    },
    /// A source subtask announced a status downstream.
    SourceStatus { subtask: u32, status: WatermarkStatus },
    /// The watermark operator chained after a source subtask emitted a watermark.
    MidstreamWatermark {
        subtask: u32,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        watermark: EventTime,
    },
    /// The watermark operator chained after a source subtask announced a status.
    MidstreamStatus { subtask: u32, status: WatermarkStatus },
    /// The end-of-input `Long.MAX_VALUE` was dropped because the output was announced IDLE.
    EndOfInputDropped { subtask: u32 },
    /// A window subtask's valve output advanced (`currentInputWatermark`).
    OperatorWatermark {
        subtask: u32,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        watermark: EventTime,
    },
    /// A window subtask's valve output status changed.
    OperatorStatus { subtask: u32, status: WatermarkStatus },
    /// An interval join emitted a pair.
    Joined { subtask: u32, key: K, left_ts: EventTime, right_ts: EventTime },
    /// A window fired.
    WindowFired {
        subtask: u32,
        key: K,
        start: EventTime,
        end: EventTime,
        count: u64,
        sum: i64,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        watermark: EventTime,
        // The window's firings before this one, and what made this one (no doc comments here:
        // ts-rs would put them in the middle of the declared union).
        firing: u32,
        #[serde(rename = "firingKind")]
        kind: FiringKind,
    },
    /// Split alignment paused a split: its watermark is ahead of the announced max allowed.
    SplitPaused {
        subtask: u32,
        partition: u32,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        max_allowed: EventTime,
    },
    /// Split alignment resumed a paused split.
    SplitResumed { subtask: u32, partition: u32 },
    /// A source subtask waits for alignment (reads nothing) until the group catches up.
    AlignmentBlocked {
        subtask: u32,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        max_allowed: EventTime,
    },
    /// A source subtask reads again after waiting for alignment.
    AlignmentUnblocked { subtask: u32 },
    /// A source subtask became back-pressured (no room in an output channel) or stopped being.
    BackPressure { subtask: u32, on: bool },
    /// A record arrived too late for all its windows.
    LateRecord {
        subtask: u32,
        partition: u32,
        offset: u64,
        ts: EventTime,
        key: K,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        watermark: EventTime,
        side_output: bool,
    },
    /// A checkpoint completed (`docs/FLOW.md`: instantaneous and consistent).
    CheckpointCompleted { id: u64 },
    /// A TaskManager's keyed state went over its memory: it is lost, and the job fails.
    TaskManagerLost { task_manager: u32, used_bytes: u64, limit_bytes: u64 },
    /// The job failed: the restart strategy decides whether and when it restarts.
    JobFailed { reason: String },
    /// The job restarted: `attempt` 2 is the first restart; restored from `checkpoint`, or
    /// from the start offsets when it is null.
    JobRestarted { attempt: u32, checkpoint: Option<u64> },
}

/// What an early firing adds to the fingerprint after its fields (not a kind's number).
const EARLY_FIRING_MARK: i64 = 0x0045_4152_4C59;

fn command_json<S: Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => v.serialize(s),
        Err(_) => s.serialize_str(text),
    }
}

impl<K> TraceKind<K> {
    /// The same event with each key id replaced by `f(key)`.
    pub fn map_key<L>(&self, f: impl Fn(&K) -> L) -> TraceKind<L> {
        use TraceKind::*;
        match self {
            Command { text } => Command { text: text.clone() },
            RecordRead { subtask, partition, offset, ts, key } => {
                RecordRead { subtask: *subtask, partition: *partition, offset: *offset, ts: *ts, key: f(key) }
            }
            &RecordFiltered { subtask, partition, offset } => RecordFiltered { subtask, partition, offset },
            &SplitWatermark { subtask, partition, watermark } => SplitWatermark { subtask, partition, watermark },
            &SplitIdle { subtask, partition } => SplitIdle { subtask, partition },
            &SplitActive { subtask, partition } => SplitActive { subtask, partition },
            &SplitAdded { subtask, partition } => SplitAdded { subtask, partition },
            &SplitReleased { subtask, partition } => SplitReleased { subtask, partition },
            &SourceWatermark { subtask, watermark } => SourceWatermark { subtask, watermark },
            &SourceStatus { subtask, status } => SourceStatus { subtask, status },
            &MidstreamWatermark { subtask, watermark } => MidstreamWatermark { subtask, watermark },
            &MidstreamStatus { subtask, status } => MidstreamStatus { subtask, status },
            &EndOfInputDropped { subtask } => EndOfInputDropped { subtask },
            &SplitPaused { subtask, partition, max_allowed } => SplitPaused { subtask, partition, max_allowed },
            &SplitResumed { subtask, partition } => SplitResumed { subtask, partition },
            &AlignmentBlocked { subtask, max_allowed } => AlignmentBlocked { subtask, max_allowed },
            &AlignmentUnblocked { subtask } => AlignmentUnblocked { subtask },
            &BackPressure { subtask, on } => BackPressure { subtask, on },
            &OperatorWatermark { subtask, watermark } => OperatorWatermark { subtask, watermark },
            &OperatorStatus { subtask, status } => OperatorStatus { subtask, status },
            Joined { subtask, key, left_ts, right_ts } => Joined { subtask: *subtask, key: f(key), left_ts: *left_ts, right_ts: *right_ts },
            WindowFired { subtask, key, start, end, count, sum, watermark, firing, kind } => WindowFired {
                subtask: *subtask,
                key: f(key),
                start: *start,
                end: *end,
                count: *count,
                sum: *sum,
                watermark: *watermark,
                firing: *firing,
                kind: *kind,
            },
            LateRecord { subtask, partition, offset, ts, key, watermark, side_output } => LateRecord {
                subtask: *subtask,
                partition: *partition,
                offset: *offset,
                ts: *ts,
                key: f(key),
                watermark: *watermark,
                side_output: *side_output,
            },
            &CheckpointCompleted { id } => CheckpointCompleted { id },
            &TaskManagerLost { task_manager, used_bytes, limit_bytes } => TaskManagerLost { task_manager, used_bytes, limit_bytes },
            JobFailed { reason } => JobFailed { reason: reason.clone() },
            &JobRestarted { attempt, checkpoint } => JobRestarted { attempt, checkpoint },
        }
    }
}

impl TraceKind {
    /// "Interesting" changes stop `step_to_next_interesting`.
    pub fn is_interesting(&self) -> bool {
        matches!(
            self,
            TraceKind::OperatorWatermark { .. }
                | TraceKind::WindowFired { .. }
                | TraceKind::Joined { .. }
                | TraceKind::LateRecord { .. }
                | TraceKind::SplitIdle { .. }
                | TraceKind::SplitActive { .. }
                | TraceKind::SourceStatus { .. }
                | TraceKind::MidstreamStatus { .. }
                | TraceKind::OperatorStatus { .. }
                | TraceKind::SplitPaused { .. }
                | TraceKind::SplitResumed { .. }
                | TraceKind::AlignmentBlocked { .. }
                | TraceKind::AlignmentUnblocked { .. }
                | TraceKind::TaskManagerLost { .. }
                | TraceKind::JobFailed { .. }
                | TraceKind::JobRestarted { .. }
        )
    }

    pub fn is_record_level(&self) -> bool {
        matches!(self, TraceKind::RecordRead { .. } | TraceKind::RecordFiltered { .. })
    }

    fn fingerprint(&self, h: &mut Fnv1a) {
        use TraceKind::*;
        let st = |s: &WatermarkStatus| s.is_idle() as i64;
        match self {
            Command { text } => {
                h.add_i64(0);
                h.add_bytes(text.as_bytes());
            }
            RecordRead { subtask, partition, offset, ts, key } => {
                for v in [1, *subtask as i64, *partition as i64, offset.cast_signed(), ts.ms(), *key as i64] {
                    h.add_i64(v)
                }
            }
            RecordFiltered { subtask, partition, offset } => {
                for v in [2, *subtask as i64, *partition as i64, offset.cast_signed()] {
                    h.add_i64(v)
                }
            }
            SplitWatermark { subtask, partition, watermark } => {
                for v in [3, *subtask as i64, *partition as i64, watermark.ms()] {
                    h.add_i64(v)
                }
            }
            SplitIdle { subtask, partition } => [4, *subtask as i64, *partition as i64].iter().for_each(|v| h.add_i64(*v)),
            SplitActive { subtask, partition } => [5, *subtask as i64, *partition as i64].iter().for_each(|v| h.add_i64(*v)),
            SplitAdded { subtask, partition } => [6, *subtask as i64, *partition as i64].iter().for_each(|v| h.add_i64(*v)),
            SplitReleased { subtask, partition } => [7, *subtask as i64, *partition as i64].iter().for_each(|v| h.add_i64(*v)),
            SourceWatermark { subtask, watermark } => [8, *subtask as i64, watermark.ms()].iter().for_each(|v| h.add_i64(*v)),
            SourceStatus { subtask, status } => [9, *subtask as i64, st(status)].iter().for_each(|v| h.add_i64(*v)),
            EndOfInputDropped { subtask } => [10, *subtask as i64].iter().for_each(|v| h.add_i64(*v)),
            MidstreamWatermark { subtask, watermark } => [15, *subtask as i64, watermark.ms()].iter().for_each(|v| h.add_i64(*v)),
            MidstreamStatus { subtask, status } => [16, *subtask as i64, st(status)].iter().for_each(|v| h.add_i64(*v)),
            OperatorWatermark { subtask, watermark } => [11, *subtask as i64, watermark.ms()].iter().for_each(|v| h.add_i64(*v)),
            OperatorStatus { subtask, status } => [12, *subtask as i64, st(status)].iter().for_each(|v| h.add_i64(*v)),
            WindowFired { subtask, key, start, end, count, sum, watermark, firing, kind } => {
                for v in [13, *subtask as i64, *key as i64, start.ms(), end.ms(), count.cast_signed(), *sum, watermark.ms(), *firing as i64]
                {
                    h.add_i64(v)
                }
                // Only early firings add their kind: the default trigger makes none, so traces
                // pinned before triggers existed keep their hash, and on time or late follows
                // from what precedes the event (a watermark or a record).
                if *kind == FiringKind::Early {
                    h.add_i64(EARLY_FIRING_MARK);
                }
            }
            SplitPaused { subtask, partition, max_allowed } => {
                [20, *subtask as i64, *partition as i64, max_allowed.ms()].iter().for_each(|v| h.add_i64(*v))
            }
            SplitResumed { subtask, partition } => [21, *subtask as i64, *partition as i64].iter().for_each(|v| h.add_i64(*v)),
            AlignmentBlocked { subtask, max_allowed } => [22, *subtask as i64, max_allowed.ms()].iter().for_each(|v| h.add_i64(*v)),
            AlignmentUnblocked { subtask } => [23, *subtask as i64].iter().for_each(|v| h.add_i64(*v)),
            BackPressure { subtask, on } => [24, *subtask as i64, *on as i64].iter().for_each(|v| h.add_i64(*v)),
            Joined { subtask, key, left_ts, right_ts } => {
                [17, *subtask as i64, *key as i64, left_ts.ms(), right_ts.ms()].iter().for_each(|v| h.add_i64(*v))
            }
            LateRecord { subtask, partition, offset, ts, key, watermark, side_output } => {
                for v in [
                    14,
                    *subtask as i64,
                    *partition as i64,
                    offset.cast_signed(),
                    ts.ms(),
                    *key as i64,
                    watermark.ms(),
                    *side_output as i64,
                ] {
                    h.add_i64(v)
                }
            }
            // Kind numbers from 40 on: flow control (issue 13) has its own range.
            CheckpointCompleted { id } => [40, id.cast_signed()].iter().for_each(|v| h.add_i64(*v)),
            TaskManagerLost { task_manager, used_bytes, limit_bytes } => {
                [41, *task_manager as i64, used_bytes.cast_signed(), limit_bytes.cast_signed()].iter().for_each(|v| h.add_i64(*v))
            }
            JobFailed { reason } => {
                h.add_i64(42);
                h.add_bytes(reason.as_bytes());
            }
            JobRestarted { attempt, checkpoint } => {
                [43, *attempt as i64, checkpoint.map_or(-1, u64::cast_signed)].iter().for_each(|v| h.add_i64(*v))
            }
        }
    }
}

/// One trace entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(concrete(K = String)))]
pub struct TraceEvent<K = KeyId> {
    pub seq: u64,
    /// Processing time of the event.
    pub time: ProcTime,
    #[serde(flatten)]
    pub kind: TraceKind<K>,
}

impl TraceEvent {
    /// The event as the JS API shows it: keys by name.
    pub fn with_key_names(&self, keys: &KeyTable) -> TraceEvent<String> {
        TraceEvent { seq: self.seq, time: self.time, kind: self.kind.map_key(|&k| keys.name(k).to_string()) }
    }
}

/// The bounded trace ring with its running fingerprint.
#[derive(Clone, Debug)]
pub struct Trace {
    ring: VecDeque<TraceEvent>,
    capacity: usize,
    record_level: bool,
    next_seq: u64,
    hash: Fnv1a,
    interesting_seen: u64,
}

impl Trace {
    pub fn new(capacity: usize, record_level: bool) -> Self {
        Trace { ring: VecDeque::new(), capacity, record_level, next_seq: 0, hash: Fnv1a::default(), interesting_seen: 0 }
    }

    /// Whether record-level events are kept (callers skip building them otherwise).
    #[inline]
    pub fn records_enabled(&self) -> bool {
        self.record_level
    }

    pub fn push(&mut self, time: ProcTime, kind: TraceKind) {
        if kind.is_record_level() && !self.record_level {
            return;
        }
        if kind.is_interesting() {
            self.interesting_seen += 1;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        self.hash.add_i64(seq.cast_signed());
        self.hash.add_i64(time.ms());
        kind.fingerprint(&mut self.hash);
        if self.capacity == 0 {
            return;
        }
        if self.ring.len() == self.capacity {
            self.ring.pop_front();
        }
        self.ring.push_back(TraceEvent { seq, time, kind });
    }

    /// The fingerprint of everything pushed so far, as 16 hex digits.
    pub fn hash_hex(&self) -> String {
        format!("{:016x}", self.hash.value())
    }

    /// The sequence number the next event will get (a cursor for `events_since`).
    pub fn cursor(&self) -> u64 {
        self.next_seq
    }

    pub fn interesting_seen(&self) -> u64 {
        self.interesting_seen
    }

    /// Retained events with `seq >= cursor`, and the number of requested events already evicted.
    pub fn events_since(&self, cursor: u64) -> (Vec<TraceEvent>, u64) {
        let first = self.ring.front().map_or(self.next_seq, |e| e.seq);
        let lost = first.saturating_sub(cursor);
        let skip = cursor.saturating_sub(first) as usize;
        (self.ring.iter().skip(skip).cloned().collect(), lost)
    }

    pub fn retained(&self) -> impl Iterator<Item = &TraceEvent> {
        self.ring.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_is_bounded_and_hash_ignores_capacity() {
        let mut a = Trace::new(2, true);
        let mut b = Trace::new(100, true);
        for i in 0..5 {
            let k: TraceKind = TraceKind::SourceWatermark { subtask: 0, watermark: EventTime(i) };
            a.push(ProcTime(i), k.clone());
            b.push(ProcTime(i), k);
        }
        assert_eq!(a.hash_hex(), b.hash_hex());
        let (evs, lost) = a.events_since(0);
        assert_eq!(evs.len(), 2);
        assert_eq!(lost, 3);
        assert_eq!(evs[0].seq, 3);
        let (evs, lost) = a.events_since(4);
        assert_eq!((evs.len(), lost), (1, 0));
    }
}
