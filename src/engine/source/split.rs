//! One split (= one Kafka partition) inside a source subtask: its own generator instance and
//! idleness timer, and what the UI shows about it.

use super::generator::WatermarkGenerator;
use super::idleness::IdlenessWrapper;
use crate::engine::diagnosis::observed::Observed;
use crate::engine::flow::pausable_clock::PausableClock;
use crate::engine::time::{EventTime, ProcTime};

#[derive(Clone, Debug)]
pub struct Split {
    pub partition: u32,
    /// When the subtask was given it: an empty split is judged only after reading a while.
    pub assigned_at: ProcTime,
    /// The split's slot in the subtask's multiplexer.
    pub slot: usize,
    pub generator: WatermarkGenerator,
    pub idleness: IdlenessWrapper,
    pub records_read: u64,
    /// Records of this split the source's filter dropped before the generator (not in
    /// `records_read`).
    pub records_filtered: u64,
    pub max_ts: Option<EventTime>,
    pub last_record_at: Option<ProcTime>,
    /// The instant of the record(s) before the last, for telling sparse records apart.
    pub prev_record_at: Option<ProcTime>,
    pub released: bool,
    /// When the split was last declared idle, while it is.
    pub idle_since: Option<ProcTime>,
    /// What it saw, for the diagnosis.
    pub observed: Observed,
    /// The split's input-activity clock: its idleness timer reads it (reference §1.8).
    pub clock: PausableClock,
}

impl Split {
    pub fn new(partition: u32, assigned_at: ProcTime, slot: usize, generator: WatermarkGenerator, idleness: IdlenessWrapper) -> Self {
        Split {
            partition,
            assigned_at,
            slot,
            generator,
            idleness,
            records_read: 0,
            records_filtered: 0,
            max_ts: None,
            last_record_at: None,
            prev_record_at: None,
            released: false,
            idle_since: None,
            observed: Observed::default(),
            clock: PausableClock::default(),
        }
    }

    #[inline]
    pub fn note_record_at(&mut self, now: ProcTime) {
        if self.last_record_at != Some(now) {
            match self.last_record_at {
                Some(last) => self.observed.note_gap(now.ms().saturating_sub(last.ms())),
                None => self.observed.first_record_at = Some(now),
            }
            self.prev_record_at = self.last_record_at;
            self.last_record_at = Some(now);
        }
    }

    /// When the idleness timer will declare this split idle if nothing arrives, if it can.
    /// The countdown starts at the first quiet periodic probe, and idle is declared at the
    /// first probe strictly more than the timeout after it.
    /// The countdown runs on the split's clock: while the clock is paused there is no deadline.
    pub fn idle_deadline(&self, interval_ms: i64, now: ProcTime) -> Option<ProcTime> {
        let timer = self.idleness.timer()?;
        let start = timer.countdown_started_at()?;
        if interval_ms <= 0 || self.clock.is_paused() {
            return None;
        }
        let probes = timer.timeout_ms() / interval_ms + 1;
        // Saturating: a timeout near Long.MAX_VALUE has a deadline at the end of time.
        let relative = start.ms().saturating_add(probes.saturating_mul(interval_ms));
        Some(ProcTime(relative.saturating_add(self.clock.paused_ms(now))))
    }
}
