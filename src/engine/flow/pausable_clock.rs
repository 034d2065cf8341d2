//! `PausableRelativeClock` (FLIP-471): a clock that stands still while paused. Idleness timers
//! read it instead of wall time, so time spent back-pressured or blocked by alignment never
//! counts towards an idle timeout (reference §1.8). Flink nests pauses with a counter; here
//! the owner says each instant whether the clock should stand, which is the same thing for
//! the two reasons we model.

use crate::engine::time::ProcTime;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PausableClock {
    paused_since: Option<ProcTime>,
    paused_ms: i64,
}

impl PausableClock {
    /// Pauses or resumes at `now`; the instant `now` itself is counted as paused when pausing.
    pub fn set_paused(&mut self, paused: bool, now: ProcTime) {
        match (paused, self.paused_since) {
            (true, None) => self.paused_since = Some(now),
            (false, Some(since)) => {
                self.paused_ms += now - since;
                self.paused_since = None;
            }
            _ => {}
        }
    }

    pub fn is_paused(&self) -> bool {
        self.paused_since.is_some()
    }

    /// The clock's reading at wall time `now`: wall time minus every paused millisecond.
    pub fn relative(&self, now: ProcTime) -> ProcTime {
        let paused_now = self.paused_since.map_or(0, |s| now - s);
        ProcTime(now.ms() - self.paused_ms - paused_now)
    }

    /// Total paused time up to `now`.
    pub fn paused_ms(&self, now: ProcTime) -> i64 {
        now.ms() - self.relative(now).ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stands_still_while_paused() {
        let mut c = PausableClock::default();
        assert_eq!(c.relative(ProcTime(100)), ProcTime(100));
        c.set_paused(true, ProcTime(100));
        assert_eq!(c.relative(ProcTime(150)), ProcTime(100));
        c.set_paused(false, ProcTime(200));
        assert_eq!(c.relative(ProcTime(250)), ProcTime(150));
        assert_eq!(c.paused_ms(ProcTime(250)), 100);
    }
}
