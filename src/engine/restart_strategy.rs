//! Flink's restart strategies (`restart-strategy.type`) and the backoff they compute after a
//! failure (`RestartBackoffTimeStrategy`: `FixedDelayRestartBackoffTimeStrategy`,
//! `ExponentialDelayRestartBackoffTimeStrategy`, `NoRestartBackoffTimeStrategy`).
//!
//! Flink's default: `exponential-delay` when checkpointing is on (since 1.19, FLIP-364), `none`
//! when it is off. The exponential strategy is Flink ≥ 1.19's: the n-th restart in a row waits
//! `initial × multiplierⁿ` (at least `initial`, at most `max`) plus a uniform jitter of
//! ±`jitter × backoff`, and the count starts over once `reset_threshold_ms` passed since the
//! last planned restart. The jitter comes from a seeded [`Rng`] instead of `ThreadLocalRandom`;
//! `multiplierⁿ` is computed by repeated multiplication (the same bits on every platform; Java's
//! `Math.pow` may differ in the last bit, so a backoff may differ from Flink's by 1 ms).

use super::error::InputError;
use super::limits::MAX_DURATION_MS;
use super::rng::Rng;
use super::time::ProcTime;
use crate::engine::input_twin::input_twin;
use serde::Serialize;

input_twin! {
    /// `restart-strategy.type` with its options.
    #[derive(Clone, Copy, Debug, PartialEq, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    pub enum RestartStrategy reads restart_strategy_in #[serde(rename = "$tag:type", rename_all = "snake_case", deny_unknown_fields)] {
        /// `fixed-delay`: `attempts` restarts (Flink's default 1), each after `delay_ms` (1 s).
        FixedDelay {
            #[serde(default = "one_second")]
            delay_ms: i64,
            #[serde(default = "one_attempt")]
            attempts: u32,
        },
        /// `exponential-delay` with Flink's defaults.
        ExponentialDelay {
            #[serde(default = "one_second")]
            initial_ms: i64,
            #[serde(default = "one_minute")]
            max_ms: i64,
            #[serde(default = "one_and_a_half")]
            multiplier: f64,
            #[serde(default = "a_tenth")]
            jitter: f64,
            #[serde(default = "one_hour")]
            reset_threshold_ms: i64,
        },
        /// `none`: the first failure fails the job for good (a struct variant, so that stray
        /// options are rejected rather than ignored).
        None {},
    }
}

fn one_second() -> i64 {
    1_000
}
fn one_minute() -> i64 {
    60_000
}
fn one_hour() -> i64 {
    3_600_000
}
fn one_attempt() -> u32 {
    1
}
fn one_and_a_half() -> f64 {
    1.5
}
fn a_tenth() -> f64 {
    0.1
}

impl RestartStrategy {
    /// `exponential-delay` with every option at Flink's default.
    pub const EXPONENTIAL_DEFAULT: RestartStrategy = RestartStrategy::ExponentialDelay {
        initial_ms: 1_000,
        max_ms: 60_000,
        multiplier: 1.5,
        jitter: 0.1,
        reset_threshold_ms: 3_600_000,
    };

    /// What Flink runs when no strategy is configured.
    pub fn default_for(checkpointing: bool) -> Self {
        if checkpointing {
            Self::EXPONENTIAL_DEFAULT
        } else {
            RestartStrategy::None {}
        }
    }

    /// Whether a failure can ever be followed by a restart.
    pub fn restarts(&self) -> bool {
        match self {
            RestartStrategy::FixedDelay { attempts, .. } => *attempts > 0,
            RestartStrategy::ExponentialDelay { .. } => true,
            RestartStrategy::None {} => false,
        }
    }

    /// The checks of Flink's constructors (paths relative to the strategy).
    pub fn validate(&self) -> Result<(), InputError> {
        let within = |v: i64, lo: i64, path: &str| {
            if (lo..=MAX_DURATION_MS).contains(&v) {
                Ok(())
            } else {
                Err(InputError::new(path, format!("must be in {lo}..={MAX_DURATION_MS}, got {v}")))
            }
        };
        match *self {
            RestartStrategy::FixedDelay { delay_ms, .. } => within(delay_ms, 0, "delay_ms"),
            RestartStrategy::ExponentialDelay { initial_ms, max_ms, multiplier, jitter, reset_threshold_ms } => {
                within(initial_ms, 1, "initial_ms")?;
                within(max_ms, 1, "max_ms")?;
                if initial_ms > max_ms {
                    return Err(InputError::new("initial_ms", "Initial backoff cannot be higher than maximum backoff."));
                }
                // Flink only asks for > 1; the upper bound keeps the arithmetic finite.
                if !(multiplier > 1.0 && multiplier <= 1000.0) {
                    return Err(InputError::new("multiplier", "Backoff multiplier must be greater than 1 (and at most 1000 here)."));
                }
                if !(0.0..=1.0).contains(&jitter) {
                    return Err(InputError::new("jitter", "Jitter factor must be >= 0 and <= 1."));
                }
                within(reset_threshold_ms, 1, "reset_threshold_ms")
            }
            RestartStrategy::None {} => Ok(()),
        }
    }
}

/// The strategy's state over the job's life: restarts so far and, for the exponential one,
/// the attempt count and the time of the last planned restart.
#[derive(Clone, Debug)]
pub struct RestartBackoff {
    strategy: RestartStrategy,
    /// Restarts granted so far (fixed delay counts them against `attempts`).
    granted: u32,
    /// `currentRestartAttempt` of the exponential strategy.
    attempt: u32,
    /// `nextRestartTimestamp` of the exponential strategy.
    next_restart: Option<ProcTime>,
    rng: Rng,
}

impl RestartBackoff {
    pub fn new(strategy: RestartStrategy, seed: u64) -> Self {
        RestartBackoff { strategy, granted: 0, attempt: 0, next_restart: None, rng: Rng::derive(seed, 0x08E5_7A87) }
    }

    pub fn strategy(&self) -> RestartStrategy {
        self.strategy
    }

    /// `notifyFailure`, `canRestart` and `getBackoffTime` in one: the delay before the restart,
    /// or `None` when the strategy allows no more restarts (the job ends FAILED).
    pub fn on_failure(&mut self, now: ProcTime) -> Option<i64> {
        let delay = match self.strategy {
            RestartStrategy::None {} => None,
            RestartStrategy::FixedDelay { delay_ms, attempts } => (self.granted < attempts).then_some(delay_ms),
            RestartStrategy::ExponentialDelay { initial_ms, max_ms, multiplier, jitter, reset_threshold_ms } => {
                if self.next_restart.is_none_or(|n| now - n >= reset_threshold_ms) {
                    self.attempt = 0;
                }
                let backoff = exponential(initial_ms, max_ms, multiplier, self.attempt);
                let offset = (backoff as f64 * jitter) as i64;
                let with_jitter = backoff + self.rng.up_to(2 * offset) - offset;
                let delay = with_jitter.min(max_ms).max(initial_ms);
                self.attempt = self.attempt.saturating_add(1);
                self.next_restart = Some(now + delay);
                Some(delay)
            }
        };
        self.granted += u32::from(delay.is_some());
        delay
    }
}

/// `(long) (initial × multiplier^attempt)`, saturated at `max` (it only matters up to there).
fn exponential(initial_ms: i64, max_ms: i64, multiplier: f64, attempt: u32) -> i64 {
    let mut b = initial_ms as f64;
    for _ in 0..attempt {
        if b >= max_ms as f64 {
            break;
        }
        b *= multiplier;
    }
    (b as i64).min(max_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_without_jitter_grows_by_the_multiplier_up_to_max() {
        let s = RestartStrategy::ExponentialDelay {
            initial_ms: 1000,
            max_ms: 5000,
            multiplier: 1.5,
            jitter: 0.0,
            reset_threshold_ms: 3_600_000,
        };
        let mut b = RestartBackoff::new(s, 1);
        let mut t = ProcTime(0);
        let mut got = Vec::new();
        for _ in 0..6 {
            let d = b.on_failure(t).unwrap();
            got.push(d);
            t = t + d + 10;
        }
        assert_eq!(got, vec![1000, 1500, 2250, 3375, 5000, 5000]);
        // An hour after the last planned restart the count starts over.
        assert_eq!(b.on_failure(t + 3_600_000), Some(1000));
    }

    #[test]
    fn exponential_jitter_stays_within_its_band_and_is_seeded() {
        let mut a = RestartBackoff::new(RestartStrategy::EXPONENTIAL_DEFAULT, 7);
        let mut b = RestartBackoff::new(RestartStrategy::EXPONENTIAL_DEFAULT, 7);
        let (mut t, mut base) = (ProcTime(0), 1000.0f64);
        for _ in 0..12 {
            let (x, y) = (a.on_failure(t).unwrap(), b.on_failure(t).unwrap());
            assert_eq!(x, y, "same seed, same delays");
            let b = (base as i64).min(60_000);
            assert!((x - b).abs() <= (b as f64 * 0.1) as i64, "{x} around {b}");
            t += x;
            base *= 1.5;
        }
    }

    #[test]
    fn fixed_delay_counts_attempts_and_none_never_restarts() {
        let mut f = RestartBackoff::new(RestartStrategy::FixedDelay { delay_ms: 250, attempts: 2 }, 0);
        assert_eq!((f.on_failure(ProcTime(0)), f.on_failure(ProcTime(1)), f.on_failure(ProcTime(2))), (Some(250), Some(250), None));
        assert_eq!(RestartBackoff::new(RestartStrategy::None {}, 0).on_failure(ProcTime(0)), None);
        assert_eq!(RestartStrategy::default_for(false), RestartStrategy::None {});
    }

    #[test]
    fn parses_with_flinks_defaults_and_validates() {
        let s: RestartStrategy = crate::engine::error::read(r#"{"type": "exponential_delay"}"#).unwrap();
        assert_eq!(s, RestartStrategy::EXPONENTIAL_DEFAULT);
        let f: RestartStrategy = crate::engine::error::read(r#"{"type": "fixed_delay"}"#).unwrap();
        assert_eq!(f, RestartStrategy::FixedDelay { delay_ms: 1000, attempts: 1 });
        assert!(crate::engine::error::read::<RestartStrategy>(r#"{"type": "none", "delay_ms": 1}"#).is_err());
        let bad = RestartStrategy::ExponentialDelay { initial_ms: 10, max_ms: 5, multiplier: 2.0, jitter: 0.1, reset_threshold_ms: 1 };
        assert_eq!(bad.validate().unwrap_err().path, "initial_ms");
        let bad = RestartStrategy::ExponentialDelay { initial_ms: 1, max_ms: 5, multiplier: 1.0, jitter: 0.1, reset_threshold_ms: 1 };
        assert_eq!(bad.validate().unwrap_err().path, "multiplier");
        let bad = RestartStrategy::ExponentialDelay { initial_ms: 1, max_ms: 5, multiplier: 2.0, jitter: 1.5, reset_threshold_ms: 1 };
        assert_eq!(bad.validate().unwrap_err().path, "jitter");
        assert_eq!(RestartStrategy::FixedDelay { delay_ms: -1, attempts: 1 }.validate().unwrap_err().path, "delay_ms");
    }
}
