//! A task's back-pressure as Flink measures and shows it: `isBackPressured`,
//! `backPressuredTimeMsPerSecond` and `busyTimeMsPerSecond` (`TimerGauge`s), and the Web UI's
//! OK / LOW / HIGH level (`JobVertexBackPressureHandler`: ratio ≤ 0.10 OK, ≤ 0.5 LOW, else HIGH).

use super::timer_gauge::TimerGauge;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "UPPERCASE")]
pub enum BackPressureLevel {
    Ok,
    Low,
    High,
}

impl BackPressureLevel {
    /// As the REST API writes it.
    pub fn rest_name(self) -> &'static str {
        match self {
            BackPressureLevel::Ok => "ok",
            BackPressureLevel::Low => "low",
            BackPressureLevel::High => "high",
        }
    }

    /// As the Web UI's badge writes it.
    pub fn ui_name(self) -> &'static str {
        match self {
            BackPressureLevel::Ok => "OK",
            BackPressureLevel::Low => "LOW",
            BackPressureLevel::High => "HIGH",
        }
    }

    /// From `backPressuredTimeMsPerSecond`.
    pub fn of(ms_per_second: i64) -> Self {
        let ratio = ms_per_second as f64 / 1000.0;
        if ratio <= 0.10 {
            BackPressureLevel::Ok
        } else if ratio <= 0.5 {
            BackPressureLevel::Low
        } else {
            BackPressureLevel::High
        }
    }
}

/// A source task's back-pressure (its busy time is not modelled: reading is free).
#[derive(Clone, Debug, Default)]
pub struct TaskPressure {
    /// Back-pressured in the last processed millisecond (`isBackPressured`).
    pub is_back_pressured: bool,
    pub back_pressured: TimerGauge,
}

impl TaskPressure {
    pub fn level(&self) -> BackPressureLevel {
        BackPressureLevel::of(self.back_pressured.value())
    }

    pub fn update(&mut self) {
        self.back_pressured.update();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_ui_thresholds() {
        assert_eq!(BackPressureLevel::of(100), BackPressureLevel::Ok);
        assert_eq!(BackPressureLevel::of(101), BackPressureLevel::Low);
        assert_eq!(BackPressureLevel::of(500), BackPressureLevel::Low);
        assert_eq!(BackPressureLevel::of(501), BackPressureLevel::High);
    }
}
