//! `WatermarkSampler` (2.3, reference §5.4): a ring of `capacity` samples pre-filled with
//! `Long.MIN_VALUE`. Decisions compare against the oldest sample, so a subtask or split may run
//! ahead for about `capacity × updateInterval` before it is blocked; capacity 0 is the pre-2.3
//! behaviour (the latest value).

use crate::engine::time::EventTime;
use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct WatermarkSampler {
    ring: VecDeque<EventTime>,
    capacity: usize,
    latest: EventTime,
}

impl WatermarkSampler {
    pub fn new(capacity: usize) -> Self {
        WatermarkSampler { ring: std::iter::repeat_n(EventTime::MIN, capacity).collect(), capacity, latest: EventTime::MIN }
    }

    pub fn add_latest(&mut self, w: EventTime) {
        self.latest = w;
    }

    pub fn latest(&self) -> EventTime {
        self.latest
    }

    /// Appends `latest` and drops the oldest sample.
    pub fn sample(&mut self) {
        if self.capacity > 0 {
            self.ring.pop_front();
            self.ring.push_back(self.latest);
        }
    }

    pub fn oldest(&self) -> EventTime {
        self.ring.front().copied().unwrap_or(self.latest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// V-AL-10: buffer 3, output watermark 5000 from t = 100, allowed 2000: blocked at the third
    /// sample only.
    #[test]
    fn v_al_10_ring_buffer() {
        let mut s = WatermarkSampler::new(3);
        s.add_latest(EventTime(5000));
        let blocked = |s: &WatermarkSampler| s.oldest() > EventTime(2000);
        s.sample();
        assert!(!blocked(&s));
        s.sample();
        assert!(!blocked(&s));
        s.sample();
        assert!(blocked(&s));
        assert_eq!(s.latest(), EventTime(5000));
        let mut zero = WatermarkSampler::new(0);
        zero.add_latest(EventTime(5000));
        assert!(blocked(&zero), "buffer size 0 blocks at once");
    }
}
