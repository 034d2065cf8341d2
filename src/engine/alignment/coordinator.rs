//! The coordinator side of alignment (`SourceCoordinator`, reference §5.2): one aggregator per
//! source over its subtasks' reports, one per group over its sources' aggregates, and every
//! `updateInterval` the announcement `maxAllowed = groupMin + maxDrift` (saturating,
//! FLINK-31632) to the subtasks of the source that have reported.

use super::aggregator::WatermarkAggregator;
use crate::engine::job::JobConfig;
use crate::engine::time::EventTime;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub struct AlignmentCoordinator {
    /// Per job input: its group and max drift, and the subtasks' reports.
    sources: Vec<Option<SourceAggregate>>,
    /// Per group, keyed by source (job input).
    groups: BTreeMap<String, WatermarkAggregator<u8>>,
}

#[derive(Clone, Debug)]
struct SourceAggregate {
    group: String,
    max_drift_ms: i64,
    subtasks: WatermarkAggregator<u32>,
}

impl AlignmentCoordinator {
    /// `groups[i]`: input i's (group, max drift), if it is aligned.
    pub fn new(groups: Vec<Option<(String, i64)>>) -> Self {
        let sources = groups
            .into_iter()
            .map(|g| g.map(|(group, max_drift_ms)| SourceAggregate { group, max_drift_ms, subtasks: WatermarkAggregator::default() }))
            .collect();
        AlignmentCoordinator { sources, groups: BTreeMap::new() }
    }

    /// The coordinators of a job's aligned inputs.
    pub fn of(cfg: &JobConfig) -> Self {
        AlignmentCoordinator::new(cfg.inputs.iter().map(|i| i.alignment.as_ref().map(|a| (a.group.clone(), a.max_drift_ms))).collect())
    }

    /// A `ReportedWatermarkEvent` from subtask `subtask` (index within its source).
    pub fn report(&mut self, input: u8, subtask: u32, w: EventTime) {
        let Some(Some(src)) = self.sources.get_mut(input as usize) else { return };
        let aggregate = src.subtasks.aggregate(subtask, w);
        self.groups.entry(src.group.clone()).or_default().aggregate(input, aggregate);
    }

    /// The announcement for input `input`'s subtasks: `None` while none of them has reported.
    pub fn max_allowed(&self, input: u8) -> Option<EventTime> {
        let src = self.sources.get(input as usize)?.as_ref()?;
        src.subtasks.keys().next()?;
        let group_min = self.groups.get(&src.group).map_or(EventTime::MIN, |g| g.current());
        Some(EventTime(group_min.ms().saturating_add(src.max_drift_ms)))
    }

    /// Whether subtask `subtask` of input `input` has reported (only those are announced to).
    pub fn has_reported(&self, input: u8, subtask: u32) -> bool {
        self.sources.get(input as usize).and_then(|s| s.as_ref()).is_some_and(|s| s.subtasks.contains(&subtask))
    }

    /// The group minimum as the coordinator sees it now.
    pub fn group_min(&self, input: u8) -> Option<EventTime> {
        let src = self.sources.get(input as usize)?.as_ref()?;
        self.groups.get(&src.group).map(|g| g.current())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coordinator() -> AlignmentCoordinator {
        AlignmentCoordinator::new(vec![Some(("group1".into(), 1000))])
    }

    /// V-AL-1 (`SourceCoordinatorAlignmentTest#testWatermarkAlignment`).
    #[test]
    fn v_al_1_one_group() {
        let mut c = coordinator();
        c.report(0, 0, EventTime(42));
        assert_eq!(c.max_allowed(0), Some(EventTime(1042)));
        c.report(0, 1, EventTime(44));
        assert_eq!(c.max_allowed(0), Some(EventTime(1042)));
        c.report(0, 0, EventTime(5000));
        assert_eq!(c.max_allowed(0), Some(EventTime(1044)));
    }

    /// V-AL-2 (`#testWatermarkAlignmentWithIdleness`): idle subtasks report MAX; all idle
    /// saturates to MAX.
    #[test]
    fn v_al_2_idleness_reports_max() {
        let mut c = coordinator();
        let steps = [
            (0, 42, 1042),
            (1, 44, 1042),
            (0, i64::MAX, 1044),
            (0, 42, 1042),
            (0, i64::MAX, 1044),
            (1, i64::MAX, i64::MAX),
            (0, 42, 1042),
            (1, 46, 1042),
        ];
        for (s, w, want) in steps {
            c.report(0, s, EventTime(w));
            assert_eq!(c.max_allowed(0), Some(EventTime(want)), "after report({s}, {w})");
        }
    }

    #[test]
    fn nothing_announced_before_a_report_and_groups_are_independent() {
        let mut c = AlignmentCoordinator::new(vec![Some(("a".into(), 10)), Some(("b".into(), 10))]);
        assert_eq!(c.max_allowed(0), None);
        c.report(0, 0, EventTime(100));
        c.report(1, 0, EventTime(5));
        assert_eq!(c.max_allowed(0), Some(EventTime(110)));
        assert_eq!(c.max_allowed(1), Some(EventTime(15)));
    }

    #[test]
    fn one_group_over_two_sources_takes_the_min() {
        let mut c = AlignmentCoordinator::new(vec![Some(("g".into(), 10)), Some(("g".into(), 20))]);
        c.report(0, 0, EventTime(100));
        c.report(1, 0, EventTime(5));
        assert_eq!(c.max_allowed(0), Some(EventTime(15)));
        assert_eq!(c.max_allowed(1), Some(EventTime(25)));
    }
}
