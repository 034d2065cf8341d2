//! `explain`: a pure function over the state that says which split or channel holds an
//! operator subtask's watermark, why, and which windows wait on it — the question every stuck
//! Flink job asks. The explanation serializes to the JS API's shape (`explain()`). Each
//! reason's words are in `explain_text`.

use super::diagnosis::classify::{PartitionClass, PartitionFacts, SlowCause};
use super::explain_ahead::stopped;
pub use super::explain_ahead::Ahead;
use super::explain_text::reason_clause_named;
use super::holding::{tie_words, Tie};
use super::sim::Simulation;
use super::snapshot::OpenWindow;
use super::time::{count, format_watermark, EventTime, ProcTime, WatermarkStyle, END_OF_TIME, NO_WATERMARK};
use super::view::watermark::as_watermark;
use serde::Serialize;

/// One reason, as data (the UI renders it; the explanation's `text` says it in a sentence);
/// `kind` names it in snake_case.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum Reason {
    /// Every input channel is idle: the operator is idle and its watermark does not move.
    AllInputsIdle,
    /// The holding source subtask owns no split and nothing marks it idle.
    SubtaskWithoutSplit { source_subtask: u32 },
    /// The holding source subtask's splits were all released while it was active: it stays
    /// active at its last watermark, whatever the idle timeout
    /// ([`SourceSubtask::stays_active_without_split`](crate::engine::source::subtask::SourceSubtask::stays_active_without_split)).
    AllSplitsReleased { source_subtask: u32 },
    /// The holding split never received a record; or, `heartbeats_filtered` > 0, it read only
    /// heartbeats and the filter dropped them before its generator: none reached it.
    /// (Left out when 0: the JS API's shape of a partition that received nothing is unchanged.)
    SplitNeverReceived {
        partition: u32,
        idle_timeout_ms: Option<i64>,
        #[serde(default, skip_serializing_if = "is_zero")]
        heartbeats_filtered: u64,
    },
    /// The holding split has been silent for a while and no idle timeout is set.
    SplitSilentNoIdleTimeout { partition: u32, silent_ms: i64 },
    /// The holding split has been silent for a while, and nothing that feeds the subtask is
    /// above the watermark that idleness would release it to ([`Explanation::nothing_ahead`]): an idle timeout would
    /// make every input idle, which moves nothing, so only its next record moves it.
    /// `only_idle_ahead`: what is above it is idle or goes idle with it (stopped too), and
    /// Flink ≤ 2.1 keeps a source's splits or a two-input operator's inputs all idle where they
    /// are. `behind_unaligned`: what is above it waits behind a channel that came back below
    /// the watermark, which keeps the valve from flushing until it catches up
    /// ([`Ahead::BehindUnaligned`]). Each is left out when false; at most one is true.
    SplitSilentNothingAhead {
        partition: u32,
        silent_ms: i64,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        only_idle_ahead: bool,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        behind_unaligned: bool,
    },
    /// An idle timeout is set, but heartbeats (the partition's records are mostly heartbeats)
    /// come more often than it and keep the split active.
    KeptActiveBySparseRecords { partition: u32, idle_timeout_ms: i64, last_record_ago_ms: i64, period_ms: i64 },
    /// The partition has steady data behind its peers: idleness cannot help.
    SlowPartition { partition: u32, behind_ms: i64, cause: Option<SlowCause> },
    /// The partition came back from idle below the watermark: its records are late.
    ReturnedBelowWatermark { partition: u32, late_records: u64 },
    /// The idle timeout is shorter than the partition's normal gaps: it flips idle/active.
    FlappingPartition { partition: u32, flips: u32, idle_timeout_ms: i64 },
    /// The split will be declared idle soon (countdown running).
    IdleCountdown { partition: u32, idle_at: ProcTime },
    /// `auto_watermark_interval_ms` is 0: no periodic watermarks and no idleness detection.
    PeriodicEmissionDisabled,
    /// A two-input operator is held by one input (`currentInputNWatermark`): the other is ahead.
    InputHolds {
        input: usize,
        topic: String,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        other_watermark: EventTime,
    },
    /// A two-input operator's input came back from idle below the operator's watermark: unlike
    /// a valve channel it counts at once, so the operator stalls until it catches up.
    InputStalls { input: usize, topic: String, behind_ms: i64 },
    /// The watermark operator chained after the holding source subtask decides its watermark:
    /// it swallows the source's watermarks and (DataStream) statuses.
    MidstreamHolds {
        source_subtask: u32,
        operator: String,
        /// Whether the source itself announced IDLE (a status the DataStream operator swallows).
        source_idle: bool,
        idle_timeout_ms: Option<i64>,
        silent_ms: Option<i64>,
        sql: bool,
    },
    /// The holding split is silent, but its source subtask is back-pressured: since 2.0
    /// (FLIP-471) that time does not count towards the idle timeout, so it never goes idle.
    BackPressuredNeverIdle { partition: u32, source_subtask: u32, idle_timeout_ms: i64, silent_ms: i64 },
    /// The holding source subtask waits for watermark alignment (reads nothing).
    WaitingForAlignment {
        source_subtask: u32,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        max_allowed: EventTime,
    },
    /// Split alignment paused the holding split.
    SplitPausedByAlignment {
        partition: u32,
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        max_allowed: EventTime,
    },
    /// Alignment pauses other splits of the subtask until the holding one catches up.
    AlignmentPausesOthers { partition: u32, paused: Vec<u32>, max_drift_ms: i64, update_interval_ms: i64 },
    /// A channel came back from idle below the output watermark and is ignored until it catches up.
    ChannelNotRealigned { channel: usize, source_subtask: u32 },
    /// A split read a timestamp far ahead of processing time; records behind it become late.
    FarFutureTimestamp { partition: u32, max_timestamp: EventTime, ahead_ms: i64 },
    /// The watermark sits decades in the past: epoch seconds read as milliseconds?
    SecondsReadAsMillis {
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        watermark: EventTime,
    },
    /// The watermark sits far in the future: milliseconds read as seconds?
    MillisReadAsSeconds {
        #[serde(serialize_with = "as_watermark")]
        #[cfg_attr(test, ts(as = "super::view::Watermark"))]
        watermark: EventTime,
    },
    /// The job is down: RESTARTING until `restarting_until`, or FAILED for good (null).
    JobDown { restarting_until: Option<ProcTime> },
    /// After a restore every watermark starts from `Long.MIN_VALUE` and idleness is lost: the
    /// holding channel has had no watermark since. `silent_partition`: a split of its source
    /// subtask that has had no record since the restore, so that only the idle timeout (in
    /// full, again) can release it.
    StalledAfterRestore {
        restored_at: ProcTime,
        channel: usize,
        source_subtask: u32,
        silent_partition: Option<u32>,
        idle_timeout_ms: Option<i64>,
    },
}

/// Who holds the watermark.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Culprit {
    /// The operator's logical input (1 only for the second input of a two-input operator).
    pub input: usize,
    pub channel: usize,
    pub source_subtask: u32,
    pub partition: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    pub subtask: u32,
    #[serde(serialize_with = "as_watermark")]
    #[cfg_attr(test, ts(as = "super::view::Watermark"))]
    pub watermark: EventTime,
    pub held_by: Option<Culprit>,
    /// Set when every input channel and every partition behind them is at the watermark alike
    /// (how many of each): then `heldBy` is null, since naming the first of them would pin a
    /// job-wide cause (a missing strategy, an interval of 0) on one arbitrary partition. Left
    /// out when there is no tie.
    #[serde(skip_serializing_if = "Option::is_none")]
    // Inline: the declarations list their named types in `view/typescript.rs`.
    #[cfg_attr(test, ts(optional, inline))]
    pub tied: Option<Tie>,
    /// What an idle timeout could release the watermark to ([`Self::nothing_ahead`]). Not in
    /// the JS API's shape: its reasons say it.
    #[serde(skip)]
    ahead: Ahead,
    pub reasons: Vec<Reason>,
    /// The earliest windows waiting for this operator's watermark (at most 5).
    pub waiting_windows: Vec<OpenWindow>,
    pub waiting_total: usize,
    /// The explanation in one or two sentences.
    pub text: String,
}

impl Explanation {
    /// Whether nothing is ahead of the watermark that idleness could release it to: no input
    /// that feeds this subtask and stays active once the holder is idle is above it (on Flink
    /// ≤ 2.1, nothing but idle or stopped inputs that only an all-idle flush would reach:
    /// [`Ahead`], `explain_ahead.rs`). An
    /// idle timeout then changes nothing now (every input idle moves nothing; an all-idle flush
    /// goes to the highest watermark, which is this one). The findings and the advisor read this
    /// one rule. Checked over everything that feeds the subtask, not the holder's neighbours: a
    /// split above the watermark behind a channel tied at it, or a live split of another source
    /// subtask, would each be released to; with a `forward` exchange a split that feeds
    /// another keyed subtask alone would not.
    pub fn nothing_ahead(&self) -> bool {
        self.ahead.releases_nothing()
    }

    /// What an idle timeout could release the watermark to: [`Ahead::OnlyIdle`] when only idle
    /// or stopped inputs are above it and this Flink (≤ 2.1) keeps them all idle where they are, which the
    /// words say, since on 2.2 and later the timeout is the fix.
    pub fn ahead(&self) -> Ahead {
        self.ahead
    }

    /// Whether the watermark is ahead of processing time `now`: what sits at it pushed it there
    /// (a far-future timestamp, milliseconds read as seconds) and holds nothing back. The views
    /// name its role by this (`explain_text::holder_words`): "held by" read as the opposite.
    pub fn ahead_of(&self, now: ProcTime) -> bool {
        self.watermark != END_OF_TIME && self.watermark.ms() > now.ms()
    }
}

const FAR_FUTURE_MS: i64 = 3_600_000;
const YEAR_MS: i64 = 365 * 86_400_000;

impl Simulation {
    /// Explains window subtask `subtask`; `None` if there is no such subtask.
    pub fn explain(&self, subtask: u32) -> Option<Explanation> {
        self.explain_with(subtask, &self.partition_facts(), WatermarkStyle::Utc)
    }

    /// `explain` with the partitions' facts already gathered (the diagnosis shares them), its
    /// text writing times in `style` (the page writes them as its panels do).
    pub fn explain_with(&self, subtask: u32, facts: &[PartitionFacts], style: WatermarkStyle) -> Option<Explanation> {
        let w = self.down.windows.get(subtask as usize)?;
        let now = self.now.max(self.cfg.start_time);
        let wm = w.current_input_watermark();
        let mut reasons: Vec<Reason> = self.job_reason().into_iter().collect();
        let mut held_by = None;
        let (holder, tied) = self.holder(w);
        // Once: it walks every split and channel that feeds the subtask.
        let ahead = self.ahead(subtask, wm, facts);
        if w.input.is_idle() {
            reasons.push(Reason::AllInputsIdle);
        } else if let Some(ch) = holder {
            reasons.extend(self.input_reasons(w, ch.input));
            let (partition, mut why) = match self.midstream_reason(ch.source, now) {
                Some(r) => (None, vec![r]),
                None => self.source_reasons(ch.source, now, facts, ahead),
            };
            held_by = Some(Culprit { input: ch.input, channel: ch.channel, source_subtask: ch.source, partition });
            reasons.extend(self.restore_reason(w, ch));
            reasons.append(&mut why);
        }
        for (ch, c) in w.input.channels() {
            if !c.status.is_idle() && !c.aligned {
                reasons.push(Reason::ChannelNotRealigned { channel: ch.channel, source_subtask: ch.source });
            }
        }
        if self.cfg.auto_watermark_interval_ms == 0 {
            reasons.push(Reason::PeriodicEmissionDisabled);
        }
        reasons.extend(self.timestamp_reasons(wm, now));
        let waiting_windows =
            w.op.pending_windows()
                .take(5)
                .map(|(k, s, e, n)| OpenWindow { key: self.keys.name(k).to_string(), start: s, end: e, count: n })
                .collect();
        let mut ex = Explanation {
            subtask,
            watermark: wm,
            held_by,
            tied,
            ahead,
            reasons,
            waiting_windows,
            waiting_total: w.op.pending_count(),
            text: String::new(),
        };
        ex.text = self.explanation_text(&ex, style);
        Some(ex)
    }

    /// Why nothing moves while the job is down.
    fn job_reason(&self) -> Option<Reason> {
        (!self.failover.is_running()).then_some(Reason::JobDown { restarting_until: self.failover.restarting_until })
    }

    /// The holding channel has had no watermark since the last restore.
    fn restore_reason(&self, w: &super::window_subtask::WindowSubtask, ch: super::operator_input::ChannelRef) -> Option<Reason> {
        let restored_at = self.failover.restored_at.filter(|_| self.failover.is_running())?;
        let (_, c) = w.input.channels().find(|(r, _)| *r == ch)?;
        if c.watermark != NO_WATERMARK {
            return None;
        }
        let src = self.sources.get(ch.source as usize)?;
        // New splits have seen no record since the restore until their first one arrives.
        let silent = (0..src.splits.len()).find(|&i| src.split_counts(i) && !src.split_idle(i) && src.splits[i].last_record_at.is_none());
        let timeout = self.cfg.inputs[src.input as usize].source.idle_timeout_ms.filter(|_| self.cfg.auto_watermark_interval_ms > 0);
        Some(Reason::StalledAfterRestore {
            restored_at,
            channel: ch.channel,
            source_subtask: ch.source,
            silent_partition: silent.map(|i| src.splits[i].partition),
            idle_timeout_ms: timeout,
        })
    }

    /// For a two-input operator: which input holds it, and any input that stalls it.
    fn input_reasons(&self, w: &super::window_subtask::WindowSubtask, held: usize) -> Vec<Reason> {
        let Some(c) = w.input.combination() else { return Vec::new() };
        let topic = |i: usize| self.cfg.inputs.get(i).map_or(String::new(), |x| x.topic.clone());
        let mut out = Vec::new();
        let other = 1 - held.min(1);
        if !c.input_idle(other) {
            out.push(Reason::InputHolds { input: held, topic: topic(held), other_watermark: c.input_watermark_of(other) });
        }
        for i in 0..w.input.inputs() {
            let behind = c.combined_watermark().ms().saturating_sub(c.input_watermark_of(i).ms());
            if !c.input_idle(i) && behind > 0 && c.combined_watermark() != NO_WATERMARK {
                out.push(Reason::InputStalls { input: i, topic: topic(i), behind_ms: behind });
            }
        }
        out
    }

    /// The chained watermark operator's part, when source subtask `s` has one.
    fn midstream_reason(&self, s: u32, now: ProcTime) -> Option<Reason> {
        let m = self.down.chained.get(s as usize)?.as_ref()?;
        Some(Reason::MidstreamHolds {
            source_subtask: s,
            operator: m.spec.label().into(),
            source_idle: self.sources[s as usize].output.is_idle(),
            idle_timeout_ms: m.spec.idle_timeout_ms(),
            silent_ms: m.last_record_at.map(|t| now - t),
            sql: matches!(m.spec, super::operator::midstream::MidstreamSpec::SqlWatermarkAssigner { .. }),
        })
    }

    /// Why a source subtask's output is where it is, and which split holds it; what the split
    /// is comes from its class, so a slow or returning partition is never called a heartbeat.
    /// `ahead`: what idleness would release the watermark to ([`Self::ahead`]).
    fn source_reasons(&self, s: u32, now: ProcTime, facts: &[PartitionFacts], ahead: Ahead) -> (Option<u32>, Vec<Reason>) {
        let src = &self.sources[s as usize];
        let interval = self.cfg.auto_watermark_interval_ms;
        let timeout = self.cfg.inputs[src.input as usize].source.idle_timeout_ms.filter(|_| interval > 0);
        // `owns_no_split`, not `waits_without_split`: this runs for the subtask whose channel
        // holds the watermark, and a finished or legacy-idle one never does (its channel is at
        // Long.MAX_VALUE or idle), so the narrower rule would change nothing here.
        if src.stays_active_without_split() {
            return (None, vec![Reason::AllSplitsReleased { source_subtask: s }]);
        }
        if src.owns_no_split() {
            return (None, if timeout.is_none() { vec![Reason::SubtaskWithoutSplit { source_subtask: s }] } else { vec![] });
        }
        let hold = (0..src.splits.len())
            .filter(|&i| src.split_counts(i) && !src.split_idle(i))
            .min_by_key(|&i| src.split_watermark(i).unwrap_or(NO_WATERMARK));
        let Some(i) = hold else { return (None, vec![]) };
        let sp = &src.splits[i];
        let p = sp.partition;
        let mut why = Vec::new();
        let silent = sp.last_record_at.map(|t| now - t);
        if let Some(f) = facts.get(p as usize) {
            why.extend(class_reason(f, timeout, silent, ahead));
        }
        if let Some(at) = sp.idle_deadline(interval, now) {
            why.push(Reason::IdleCountdown { partition: p, idle_at: at });
        }
        // Silent as the diagnosis classes it (not merely between two records).
        let stopped = stopped(facts, p, self.cfg.auto_watermark_interval_ms);
        let flow = self.flow_reasons(s, i, timeout, silent.unwrap_or(now - self.cfg.start_time), stopped);
        if flow.iter().any(|r| matches!(r, Reason::BackPressuredNeverIdle { .. })) {
            // "It goes idle after the timeout" is not true while the clock stands.
            why.retain(|r| !matches!(r, Reason::SplitNeverReceived { .. }));
        }
        why.extend(flow);
        (Some(p), why)
    }

    /// What back-pressure and alignment do to the holding split `i` of source subtask `s`.
    fn flow_reasons(&self, s: u32, i: usize, timeout: Option<i64>, quiet: i64, stopped: bool) -> Vec<Reason> {
        let src = &self.sources[s as usize];
        let p = src.splits[i].partition;
        let mut out = Vec::new();
        if let Some(t) = timeout.filter(|&t| quiet >= t || stopped && src.idleness_held_by_pressure(i)) {
            let paused_clock = src.settings().idleness_clock == super::flow::IdlenessClock::InputActivity;
            // Records waiting unread are no silence: the reader is behind, not the producer.
            if src.pressure.is_back_pressured && paused_clock && self.partitions[p as usize].unread() == 0 {
                out.push(Reason::BackPressuredNeverIdle { partition: p, source_subtask: s, idle_timeout_ms: t, silent_ms: quiet });
            }
        }
        let Some(a) = &src.alignment else { return out };
        if a.waiting {
            out.push(Reason::WaitingForAlignment { source_subtask: s, max_allowed: a.max_desired });
        }
        if src.split_paused(i) {
            out.push(Reason::SplitPausedByAlignment { partition: p, max_allowed: a.max_desired });
        }
        let paused: Vec<u32> = (0..src.splits.len()).filter(|&j| j != i && src.split_paused(j)).map(|j| src.splits[j].partition).collect();
        if !paused.is_empty() {
            let (max_drift_ms, update_interval_ms) = (a.params.max_drift_ms, a.params.update_interval_ms);
            out.push(Reason::AlignmentPausesOthers { partition: p, paused, max_drift_ms, update_interval_ms });
        }
        out
    }

    fn timestamp_reasons(&self, wm: EventTime, now: ProcTime) -> Vec<Reason> {
        let mut out = Vec::new();
        let now_et = EventTime::from_proc(now);
        for src in &self.sources {
            for sp in &src.splits {
                if let Some(m) = sp.max_ts {
                    let ahead_ms = m.ms().saturating_sub(now_et.ms());
                    if ahead_ms > FAR_FUTURE_MS && ahead_ms < 50 * YEAR_MS {
                        out.push(Reason::FarFutureTimestamp { partition: sp.partition, max_timestamp: m, ahead_ms });
                    }
                }
            }
        }
        if wm != NO_WATERMARK && wm != END_OF_TIME {
            let w = wm.ms();
            if now.ms() > 20 * YEAR_MS && w < 5 * YEAR_MS && w > -5 * YEAR_MS {
                out.push(Reason::SecondsReadAsMillis { watermark: wm });
            } else if w.saturating_sub(now_et.ms()) >= 50 * YEAR_MS {
                out.push(Reason::MillisReadAsSeconds { watermark: wm });
            }
        }
        out
    }

    /// The explanation in a sentence, its times written in `style`: the API's full UTC times
    /// (`Explanation::text`), or the page's, which writes them as its other panels do.
    fn explanation_text(&self, ex: &Explanation, style: WatermarkStyle) -> String {
        let now = self.now.max(self.cfg.start_time);
        let at = |t: EventTime| format_watermark(t, style);
        let operator = capitalized(self.cfg.keyed_noun());
        let mut s = format!("{operator} subtask {}'s watermark is {}", ex.subtask, at(ex.watermark));
        if let Some(t) = ex.tied {
            s += &tie_words(t);
        }
        if let Some(c) = &ex.held_by {
            let part = c.partition.map_or(String::new(), |p| format!(", partition {}", self.partition_name(p)));
            s += &format!(" because of channel {} (source subtask {}{part})", c.channel, self.source_subtask_name(c.source_subtask));
        }
        let parts: Vec<String> = ex
            .reasons
            .iter()
            .map(|r| reason_clause_named(r, now, at, |p| self.partition_name(p), |s| self.source_subtask_name(s)))
            .collect();
        if !parts.is_empty() {
            s += ": ";
            s += &parts.join("; ");
        }
        // A reason that ends in a question ("… read as milliseconds?") ends the sentence.
        if !s.ends_with('?') {
            s.push('.');
        }
        if let Some(w) = ex.waiting_windows.first() {
            let wait = count(ex.waiting_total as u64, "window waits", "windows wait");
            let records = count(w.count, "record", "records");
            s += &format!(" {wait}, the earliest [{}, {}) for key {:?} ({records}).", at(w.start), at(w.end), w.key);
        }
        s
    }
}

/// What the holding split's class says about it, if anything.
/// `ahead`: what idleness would release to (with nothing, "no idle timeout is set" offered a
/// fix that moves nothing: a job whose only partition stopped).
fn class_reason(f: &PartitionFacts, timeout: Option<i64>, silent: Option<i64>, ahead: Ahead) -> Option<Reason> {
    let p = f.partition;
    let silent_untimed = || {
        silent.filter(|&s| s >= 1000 && timeout.is_none()).map(|s| match ahead {
            Ahead::Something | Ahead::NotJudged => Reason::SplitSilentNoIdleTimeout { partition: p, silent_ms: s },
            Ahead::Nothing | Ahead::OnlyIdle | Ahead::BehindUnaligned => Reason::SplitSilentNothingAhead {
                partition: p,
                silent_ms: s,
                only_idle_ahead: ahead == Ahead::OnlyIdle,
                behind_unaligned: ahead == Ahead::BehindUnaligned,
            },
        })
    };
    match f.class {
        PartitionClass::Empty => {
            Some(Reason::SplitNeverReceived { partition: p, idle_timeout_ms: timeout, heartbeats_filtered: f.filtered })
        }
        // Heartbeats keep it active only once their period is known to be within the timeout.
        PartitionClass::Heartbeat => match (timeout, f.gap_p50_ms) {
            (Some(t), Some(period)) if period <= t => Some(Reason::KeptActiveBySparseRecords {
                partition: p,
                idle_timeout_ms: t,
                last_record_ago_ms: silent.unwrap_or(0),
                period_ms: period,
            }),
            _ => silent_untimed(),
        },
        PartitionClass::Slow => Some(Reason::SlowPartition { partition: p, behind_ms: f.behind_ms.unwrap_or(0), cause: f.slow_cause }),
        PartitionClass::Returning => Some(Reason::ReturnedBelowWatermark { partition: p, late_records: f.late_records }),
        PartitionClass::Flapping => timeout.map(|t| Reason::FlappingPartition { partition: p, flips: f.idle_flips, idle_timeout_ms: t }),
        // Waiting for the restart: its backlog is unread because no reader runs, not because it
        // is silent ("no idle timeout" beside "the job is RESTARTING"); the job's reason says why.
        PartitionClass::Waiting => None,
        PartitionClass::Idle | PartitionClass::Steady | PartitionClass::Removed => silent_untimed(),
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn capitalized(word: &str) -> String {
    let mut c = word.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}
