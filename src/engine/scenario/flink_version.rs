//! The Flink releases the playground can run as, each a set of `FlinkSwitches`.
//!
//! The switches are what the engine reads; a release is what a user knows. Setting one switch
//! alone runs a version that never existed, so the UI offers releases and says "custom" when a
//! scenario's switches match none (reference §13, the version table).

use super::schema::FlinkSwitches;
use crate::engine::flow::IdlenessClock;

/// A Flink release whose watermark behaviour the switches reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlinkVersion {
    /// 2.3.0, the default: the all-idle flush (FLINK-38454), idle splits skipped by split
    /// alignment, the alignment sampling buffer of 3.
    V2_3,
    /// 2.1.3: the input-activity idleness clock and the idle-split skip, but no all-idle flush
    /// (it came in 2.2.0) and no sampling buffer.
    V2_1_3,
    /// 1.19.1 (also 1.20.0): idleness on the wall clock, none of 2.x's changes.
    V1_19_1,
}

impl FlinkVersion {
    /// Every version, newest first, as a version select lists them.
    pub const ALL: [FlinkVersion; 3] = [FlinkVersion::V2_3, FlinkVersion::V2_1_3, FlinkVersion::V1_19_1];

    /// The release's number as Flink spells it.
    pub fn label(self) -> &'static str {
        match self {
            FlinkVersion::V2_3 => "2.3.0",
            FlinkVersion::V2_1_3 => "2.1.3",
            FlinkVersion::V1_19_1 => "1.19.1",
        }
    }

    /// What sets the release apart from the one above it, in a user's words.
    pub fn differs_by(self) -> &'static str {
        match self {
            FlinkVersion::V2_3 => "with the all-idle flush, idle splits skipped by alignment and the alignment sampling buffer",
            FlinkVersion::V2_1_3 => "no all-idle flush: an all-idle source or two-input operator keeps its watermark",
            FlinkVersion::V1_19_1 => "idleness on the wall clock, also while back-pressured or paused by alignment",
        }
    }

    /// `base` with the switches this release fixes; the others (connector, valve fixes from
    /// Flink main, unaligned splits) are kept.
    pub fn apply_to(self, base: &FlinkSwitches) -> FlinkSwitches {
        let newest = FlinkSwitches::default();
        let (clock, flush, skip, buffer) = match self {
            FlinkVersion::V2_3 => (IdlenessClock::InputActivity, true, true, newest.alignment_buffer_size),
            FlinkVersion::V2_1_3 => (IdlenessClock::InputActivity, false, true, 0),
            FlinkVersion::V1_19_1 => (IdlenessClock::Wall, false, false, 0),
        };
        FlinkSwitches {
            idleness_clock: clock,
            combined_all_idle_flush: flush,
            alignment_skip_idle_splits: skip,
            alignment_buffer_size: buffer,
            ..base.clone()
        }
    }

    /// The release whose switches `f` has, or `None` for a mix no release had. Switches no
    /// release fixes are not looked at: [`FlinkVersion::extras`] names them.
    pub fn of(f: &FlinkSwitches) -> Option<FlinkVersion> {
        FlinkVersion::ALL.into_iter().find(|v| v.apply_to(f) == *f)
    }

    /// The behaviours `f` turns on that no release listed here has (Flink main's valve fixes,
    /// a ≤ 1.14 operator, the legacy consumer): a run with them is not that release's, and a
    /// downloaded 2.3 job does not replay them (the page said "Flink 2.3" after the lesson's
    /// "Legacy FlinkKafkaConsumer" step).
    pub fn extras(f: &FlinkSwitches) -> Vec<&'static str> {
        use super::schema::KafkaConnector;
        [
            (f.valve_unconditional_flush, "Flink main's unconditional valve flush"),
            (f.valve_rederive_on_reactivate, "Flink main's valve re-derive"),
            (f.midstream_forwards_status, "a ≤ 1.14 assignTimestampsAndWatermarks that forwards statuses"),
            (f.kafka_connector == KafkaConnector::Legacy, "the legacy FlinkKafkaConsumer"),
        ]
        .into_iter()
        .filter_map(|(on, what)| on.then_some(what))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_version_is_recognised_and_the_default_is_the_newest() {
        assert_eq!(FlinkVersion::of(&FlinkSwitches::default()), Some(FlinkVersion::V2_3));
        for v in FlinkVersion::ALL {
            assert_eq!(FlinkVersion::of(&v.apply_to(&FlinkSwitches::default())), Some(v), "{}", v.label());
        }
    }

    /// The 2.x clock with 1.19.1's flush is no release.
    #[test]
    fn a_mix_is_no_version() {
        let f = FlinkSwitches { alignment_skip_idle_splits: false, ..FlinkSwitches::default() };
        assert_eq!(FlinkVersion::of(&f), None);
    }

    #[test]
    fn extras_name_what_no_release_has() {
        assert!(FlinkVersion::extras(&FlinkSwitches::default()).is_empty());
        let f = FlinkSwitches { valve_unconditional_flush: true, ..FlinkSwitches::default() };
        assert_eq!(FlinkVersion::extras(&f), ["Flink main's unconditional valve flush"]);
    }

    /// Switches outside the version's (the valve fix from Flink main) survive a version change.
    #[test]
    fn other_switches_are_kept() {
        let base = FlinkSwitches { valve_unconditional_flush: true, ..FlinkSwitches::default() };
        let f = FlinkVersion::V2_1_3.apply_to(&base);
        assert!(f.valve_unconditional_flush && !f.combined_all_idle_flush);
        assert_eq!(FlinkVersion::of(&f), Some(FlinkVersion::V2_1_3));
    }
}
