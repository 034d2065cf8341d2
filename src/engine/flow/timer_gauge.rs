//! Flink's `TimerGauge` (`org.apache.flink.runtime.metrics`): the milliseconds per second a task
//! spent in a state (back-pressured, busy), averaged over the last 60 s in 5 s updates, clamped
//! to 0..=1000. The value changes only at an update (every 5 s of processing time).

/// `View.UPDATE_INTERVAL_SECONDS`.
pub const UPDATE_INTERVAL_MS: i64 = 5_000;
const BUCKETS: usize = 12;

#[derive(Clone, Debug, Default)]
pub struct TimerGauge {
    values: [i64; BUCKETS],
    idx: usize,
    full_window: bool,
    current_count: i64,
    current_value: i64,
    accumulated: i64,
}

impl TimerGauge {
    /// `ms` milliseconds spent in the state.
    #[inline]
    pub fn add(&mut self, ms: i64) {
        self.current_count += ms;
        self.accumulated += ms;
    }

    /// `update()`: closes the current 5 s bucket.
    pub fn update(&mut self) {
        if self.idx == BUCKETS - 1 {
            self.full_window = true;
        }
        self.values[self.idx] = self.current_count;
        self.idx = (self.idx + 1) % BUCKETS;
        let filled = if self.full_window { BUCKETS } else { self.idx };
        let total: i64 = self.values[..filled].iter().sum();
        self.current_value = (total / (5 * filled as u64).cast_signed()).clamp(0, 1000);
        self.current_count = 0;
    }

    /// ms per second, as the metric reports it.
    pub fn value(&self) -> i64 {
        self.current_value
    }

    /// Every ms ever counted (`accumulated…TimeMs`).
    pub fn accumulated(&self) -> i64 {
        self.accumulated
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_over_the_filled_buckets_then_sixty_seconds() {
        let mut g = TimerGauge::default();
        g.add(5_000);
        g.update();
        assert_eq!(g.value(), 1000);
        g.update();
        assert_eq!(g.value(), 500);
        for _ in 0..10 {
            g.update();
        }
        assert_eq!(g.value(), 5_000 / 60);
        g.update();
        assert_eq!(g.value(), 0, "the first bucket left the 60 s window");
        assert_eq!(g.accumulated(), 5_000);
    }
}
