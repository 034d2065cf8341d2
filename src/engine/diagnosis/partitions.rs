//! Gathers every partition's facts from the simulation and classifies them in one pass, so
//! `explain` and the diagnosis read the same classes.

use super::classify::{classify, facts, median, Context, PartitionClass, PartitionFacts, SlowCause, SplitRead, SLOW_BEHIND_MS};
use crate::engine::sim::Simulation;
use crate::engine::time::{EventTime, NO_WATERMARK};

impl Simulation {
    /// Every partition's facts and class at the current instant.
    pub fn partition_facts(&self) -> Vec<PartitionFacts> {
        let now = self.now.max(self.cfg.start_time);
        let mut raw: Vec<_> = (0..self.partitions.len()).map(|p| self.raw_facts(p)).collect();
        let cx = Context {
            now,
            interval_ms: self.cfg.auto_watermark_interval_ms,
            lead_watermark: lead_watermark(raw.iter().map(|(f, _)| f)),
            median_delay_ms: median(
                raw.iter().filter(|(f, _)| f.heartbeats * 2 <= f.records).filter_map(|(f, _)| f.data_delay_ms).collect(),
            ),
            slow_behind_ms: median(raw.iter().filter_map(|(f, _)| f.disorder_p99_ms).collect())
                .unwrap_or(0)
                .max(SLOW_BEHIND_MS)
                .max(2 * self.cfg.auto_watermark_interval_ms),
            median_gap_ms: median(raw.iter().filter(|(f, _)| f.heartbeats * 2 <= f.records).filter_map(|(f, _)| f.gap_p50_ms).collect()),
            job_watermark: self.down.windows.iter().map(|w| w.current_input_watermark()).max(),
        };
        for (f, returned_late) in &mut raw {
            if f.class != PartitionClass::Removed {
                classify(f, *returned_late, &cx, self.source_settings_of(f.partition));
            }
            // A lag behind a back-pressured reader is the keyed operator's (the reader waits), and
            // so is the age of its records: they waited in Kafka, not at the producer (between two
            // reads nothing may be unread, and it read "fix the producer or its clock").
            let throttled = f.subtask.and_then(|s| self.sources.get(s as usize)).is_some_and(|s| s.pressure.is_back_pressured);
            if throttled && matches!(f.slow_cause, Some(SlowCause::ConsumerLag | SlowCause::EventTimeDelay)) {
                f.slow_cause = Some(SlowCause::BackPressured);
            }
            // While the job is down nothing is read: records wait because no reader runs, and
            // the watermarks are the failed attempt's ("its reader cannot keep up" beside "the
            // job is RESTARTING"; "steady" beside a backlog). The job's finding says why.
            if !self.failover.is_running() && f.class == PartitionClass::Slow || self.waits_at_its_end(f.partition) {
                f.class = PartitionClass::Waiting;
                f.slow_cause = None;
            }
        }
        raw.into_iter().map(|(f, _)| f).collect()
    }

    /// Whether partition `p`'s split was read again up to where its subtask's input had ended
    /// and waits there for its siblings (`SourceSubtask::finish_split`).
    fn waits_at_its_end(&self, p: u32) -> bool {
        self.split_of(p).is_some_and(|(s, i)| self.sources[s as usize].split_at_its_end(i))
    }

    fn raw_facts(&self, p: usize) -> (PartitionFacts, Option<crate::engine::time::ProcTime>) {
        let now = self.now.max(self.cfg.start_time);
        let late = self.down.late.by_partition.get(p).map_or((0, None), |&(n, t)| (n, Some(t)));
        // What waits beyond a split's stopping offset is held back on purpose, not lag.
        let unread = self.partitions[p].readable();
        let partition = u32::try_from(p).unwrap_or(u32::MAX);
        let Some((s, i)) = self.split_of[p] else {
            return facts(partition, None, late, unread, now);
        };
        let src = &self.sources[s as usize];
        let sp = &src.splits[i];
        let read = SplitRead {
            subtask: s,
            records: sp.records_read,
            observed: &sp.observed,
            assigned_at: sp.assigned_at,
            last_record_at: sp.last_record_at,
            max_ts: sp.max_ts,
            // Finished at its end after a restore, it no longer counts: not where peers are.
            watermark: src.split_watermark(i).filter(|_| src.split_counts(i)),
            idle: src.split_idle(i),
        };
        let (mut f, r) = facts(partition, Some(&read), late, unread, now);
        f.filtered = sp.records_filtered;
        if sp.released || self.partitions[p].removed {
            f.class = PartitionClass::Removed;
        }
        (f, r)
    }
}

/// The upper median of the split watermarks that have one: "where its peers are". The upper
/// one, so that of two partitions the lagging one is behind the other.
/// What "behind its peers" is measured from: the upper median of the active, live partitions'
/// watermarks (the classes' `behind_ms`, and an idle backlog's finding, by one rule).
pub(crate) fn lead_watermark<'a>(facts: impl Iterator<Item = &'a PartitionFacts>) -> Option<EventTime> {
    upper_median(facts.filter(|f| !f.idle && f.class != PartitionClass::Removed).filter_map(|f| f.watermark))
}

fn upper_median(ws: impl Iterator<Item = EventTime>) -> Option<EventTime> {
    let mut v: Vec<EventTime> = ws.filter(|&w| w != NO_WATERMARK).collect();
    v.sort_unstable();
    v.get(v.len() / 2).copied()
}
