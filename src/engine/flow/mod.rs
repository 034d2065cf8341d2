//! Flow control (issue 13, `docs/FLOW.md`): how fast records move and what that does to
//! watermarks. Keyed subtasks have a capacity; channels have a bounded number of credits; a
//! source subtask whose output has no room is back-pressured and stops reading; the
//! input-activity clocks that measure idleness pause while it is (reference §1.8).

pub mod back_pressure;
pub mod credits;
pub mod metrics_clock;
pub mod pausable_clock;
pub mod timer_gauge;

use serde::{Deserialize, Serialize};

/// What limits the flow of records between the sources and the keyed operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowConfig {
    /// Records per second one keyed subtask can process; `None`: unbounded (no back-pressure).
    pub keyed_capacity_per_s: Option<u64>,
    /// Records one channel buffers (its credits) before the sending subtask must wait.
    pub channel_buffer_records: u64,
}

/// Flink's network defaults, in records of about 100 bytes: 2 exclusive + 8 floating buffers
/// of 32 KiB on the receiving side.
pub const DEFAULT_CHANNEL_BUFFER_RECORDS: u64 = 3_200;

impl Default for FlowConfig {
    fn default() -> Self {
        FlowConfig { keyed_capacity_per_s: None, channel_buffer_records: DEFAULT_CHANNEL_BUFFER_RECORDS }
    }
}

/// The most milli-records a budget of `rate` per second may hold after one millisecond's
/// increment: a full record for rates under 1,000/s (one record every few milliseconds), and
/// the fraction carried over for higher rates (1,500/s is 1, 2, 1, 2, … per millisecond), but
/// nothing saved up while idle.
pub fn budget_cap_milli(rate_per_s: u64) -> u64 {
    if rate_per_s > 1000 {
        rate_per_s.saturating_add(999)
    } else {
        1000
    }
}

/// Which clock measures the idle timeout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum IdlenessClock {
    /// ≥ 1.19.2 / 1.20.1 / 2.0 (FLIP-471, FLINK-35886): paused while back-pressured or blocked by
    /// alignment, so that time a task cannot read never counts as idle time.
    #[default]
    InputActivity,
    /// ≤ 1.19.1 / 1.20.0: wall-clock time.
    Wall,
}

#[cfg(test)]
mod tests {
    use super::budget_cap_milli;

    #[test]
    fn a_budget_carries_fractions_above_a_thousand_per_second() {
        let mut milli = 0;
        let mut taken = 0;
        for _ in 0..1000 {
            milli = (milli + 1500).min(budget_cap_milli(1500));
            taken += milli / 1000;
            milli %= 1000;
        }
        assert_eq!(taken, 1500);
        assert_eq!(budget_cap_milli(150), 1000);
    }
}
