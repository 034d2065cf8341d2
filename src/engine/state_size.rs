//! The keyed state size over processing time, for a chart: per keyed subtask its state entries,
//! sampled at the first processed instant of every `interval` (1 s at first), at each failure
//! (the size that killed a TaskManager) and at each restore.
//!
//! The history is bounded: when it is full, every other sample goes and the interval doubles,
//! so it always covers the whole run at an even resolution. The bound keeps samples × keyed
//! subtasks under [`MAX_VALUES`].

use super::time::ProcTime;
use serde::Serialize;

/// Values (samples × keyed subtasks) the history keeps at most.
pub const MAX_VALUES: usize = 1 << 20;
/// Samples kept at most, however few keyed subtasks there are.
pub const MAX_SAMPLES: usize = 2048;
/// The first sampling interval.
pub const FIRST_INTERVAL_MS: i64 = 1000;

/// One sample: state entries per keyed subtask at `time`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StateSample {
    pub time: ProcTime,
    pub entries: Vec<u64>,
}

#[derive(Clone, Debug)]
pub struct StateSizeHistory {
    start: ProcTime,
    interval_ms: i64,
    next_at: ProcTime,
    capacity: usize,
    samples: Vec<StateSample>,
}

impl StateSizeHistory {
    pub fn new(start: ProcTime, keyed_subtasks: u32) -> Self {
        let capacity = (MAX_VALUES / keyed_subtasks.max(1) as usize).clamp(16, MAX_SAMPLES);
        StateSizeHistory { start, interval_ms: FIRST_INTERVAL_MS, next_at: start, capacity, samples: Vec::new() }
    }

    pub fn interval_ms(&self) -> i64 {
        self.interval_ms
    }

    pub fn samples(&self) -> &[StateSample] {
        &self.samples
    }

    /// Whether a periodic sample is due at `t`.
    pub fn due(&self, t: ProcTime) -> bool {
        t >= self.next_at
    }

    /// Adds a sample; a periodic one also moves the next one to the following grid point. Two
    /// samples may share a time: a failure's drop to zero is a vertical line.
    pub fn push(&mut self, time: ProcTime, entries: Vec<u64>) {
        self.samples.push(StateSample { time, entries });
        if time >= self.next_at {
            self.next_at = self.start + ((time - self.start) / self.interval_ms + 1) * self.interval_ms;
        }
        if self.samples.len() >= self.capacity {
            self.thin();
        }
    }

    /// Keeps every other sample (the last one always) and doubles the interval.
    fn thin(&mut self) {
        let last = self.samples.len() - 1;
        let mut i = 0;
        self.samples.retain(|_| {
            let keep = i % 2 == 0 || i == last;
            i += 1;
            keep
        });
        self.interval_ms = self.interval_ms.saturating_mul(2);
        if let Some(s) = self.samples.last() {
            self.next_at = self.start + ((s.time - self.start) / self.interval_ms + 1) * self.interval_ms;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_and_covering_the_whole_run() {
        let mut h = StateSizeHistory::new(ProcTime(0), 1 << 20);
        assert_eq!(h.capacity, 16);
        let mut t = ProcTime(0);
        for i in 0..200u64 {
            if h.due(t) {
                h.push(t, vec![i]);
            }
            t += 250;
        }
        assert!(h.samples().len() < 16);
        assert_eq!(h.samples()[0].time, ProcTime(0));
        assert!(h.samples().last().unwrap().time.ms() >= 40_000, "the newest sample stays");
        assert!(h.interval_ms() > FIRST_INTERVAL_MS);
        assert!(h.samples().windows(2).all(|w| w[0].time <= w[1].time));
    }
}
