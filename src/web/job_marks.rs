//! The job's run as marks over processing time: completed checkpoints, failures (with their
//! reason) and restarts (with the checkpoint they restored), recorded as the simulation runs.
//! The timeline and the state-size chart draw them; the bounded trace cannot be relied on for
//! them (a busy job pushes thousands of watermark events between two frames), so the
//! timeline's `Watch` looks at the engine's failover after every processed instant instead — three comparisons,
//! nothing else. Pure (no DOM): compiled and tested natively too.

use crate::engine::failover::JobStatus;
use crate::engine::sim::Simulation;

/// Checkpoint marks kept before the older half is dropped.
const MAX_CHECKPOINTS: usize = 20_000;
/// Failure and restart marks kept (the simulator restarts a job at most 1,000 times).
const MAX_EVENTS: usize = 4_000;

/// A failure or a restart, in the order they happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobEvent {
    /// The job failed at `at` (ms); `terminal`: the restart strategy allowed no more restarts.
    Failed { at: i64, reason: String, terminal: bool },
    /// Attempt `attempt` started at `at`, restored from `checkpoint` (None: from the start
    /// offsets).
    Restarted { at: i64, attempt: u32, checkpoint: Option<u64> },
}

impl JobEvent {
    pub fn at(&self) -> i64 {
        match self {
            JobEvent::Failed { at, .. } | JobEvent::Restarted { at, .. } => *at,
        }
    }

    /// What a tooltip says about it.
    pub fn describe(&self) -> String {
        match self {
            JobEvent::Failed { reason, terminal: false, .. } => format!("✕ failure (the job restarts): {reason}"),
            JobEvent::Failed { reason, terminal: true, .. } => format!("✕ job FAILED for good: {reason}"),
            JobEvent::Restarted { attempt, checkpoint: Some(c), .. } => format!("↻ restarted (attempt {attempt}): restored checkpoint {c}"),
            JobEvent::Restarted { attempt, checkpoint: None, .. } => {
                format!("↻ restarted (attempt {attempt}): no checkpoint yet, read again from the start offsets")
            }
        }
    }
}

/// What the engine's failover said at the last look.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Seen {
    checkpoints: u64,
    failed_at: Option<i64>,
    restored_at: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobMarks {
    /// (processing time, checkpoint id) of every completed checkpoint, oldest first.
    pub checkpoints: Vec<(i64, u64)>,
    /// Failures and restarts, oldest first.
    pub events: Vec<JobEvent>,
    seen: Seen,
}

impl JobMarks {
    /// Records what changed in the job's run since the last look (called after every instant:
    /// at most one checkpoint, one restart and one failure happen in one instant, the restart
    /// first — it is step 0 of the instant).
    pub fn observe(&mut self, sim: &Simulation) {
        let f = sim.failover();
        let done = f.coordinator.completed();
        if done != self.seen.checkpoints {
            self.seen.checkpoints = done;
            if let Some(c) = f.coordinator.last.as_ref() {
                self.checkpoints.push((c.at.ms(), c.id));
                if self.checkpoints.len() > MAX_CHECKPOINTS {
                    self.checkpoints.drain(..MAX_CHECKPOINTS / 2);
                }
            }
        }
        let restored_at = f.restored_at.map(|t| t.ms());
        if restored_at != self.seen.restored_at {
            self.seen.restored_at = restored_at;
            if let Some(at) = restored_at {
                self.push(JobEvent::Restarted { at, attempt: f.attempt, checkpoint: f.restored_from });
            }
        }
        let failed_at = f.failed_at.map(|t| t.ms());
        if failed_at != self.seen.failed_at {
            self.seen.failed_at = failed_at;
            if let Some(at) = failed_at {
                let reason = f.failure.clone().unwrap_or_default();
                self.push(JobEvent::Failed { at, reason, terminal: f.status == JobStatus::Failed });
            }
        }
    }

    fn push(&mut self, e: JobEvent) {
        self.events.push(e);
        if self.events.len() > MAX_EVENTS {
            self.events.drain(..MAX_EVENTS / 2);
        }
    }

    /// Whether anything happened to the job worth marking (a failure or a restart).
    pub fn any_failure(&self) -> bool {
        !self.events.is_empty()
    }

    /// The periods the job was down (`RESTARTING`, or `FAILED` for good): from each failure to
    /// the restart after it, or to `now` while it is still down.
    pub fn down_spans(&self, now: i64) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        let mut open: Option<i64> = None;
        for e in &self.events {
            match *e {
                JobEvent::Failed { at, .. } if open.is_none() => open = Some(at),
                JobEvent::Restarted { at, .. } => {
                    if let Some(from) = open.take() {
                        out.push((from, at));
                    }
                }
                JobEvent::Failed { .. } => {}
            }
        }
        if let Some(from) = open {
            out.push((from, now.max(from)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{build, catalog};
    use crate::engine::session::Session;
    use crate::web::timeline_data::{TimelineData, Watch};

    fn watched(id: &str, until_s: i64) -> (Session, JobMarks) {
        let sc = build::parse(catalog::preset(id).unwrap().json).unwrap();
        let mut s = Session::new(sc).unwrap();
        let mut timeline = TimelineData::new(s.start().ms());
        s.run_until(until_s * 1000, &mut Watch { timeline: &mut timeline, host: None, inner: (), batches: false }).unwrap();
        (s, timeline.job)
    }

    #[test]
    fn a_scripted_failure_and_its_restart_are_marked_with_the_checkpoint() {
        let (s, m) = watched("restart-stalls-until-idle", 180);
        let start = s.start().ms();
        // Checkpoints every 10 s while the job runs; none while it is down (00:02:00–00:02:05).
        assert_eq!(m.checkpoints.first(), Some(&(start + 10_000, 1)));
        assert!(m.checkpoints.iter().all(|&(t, _)| !(start + 120_000..start + 125_000).contains(&t)));
        assert!(m.checkpoints.windows(2).all(|w| w[0].1 + 1 == w[1].1));
        let [JobEvent::Failed { at: f, reason, terminal: false }, JobEvent::Restarted { at: r, attempt: 2, checkpoint: Some(c) }] =
            m.events.as_slice()
        else {
            panic!("{:?}", m.events)
        };
        assert_eq!((*f - start, *r - start), (120_000, 125_000));
        assert!(reason.contains("TaskManager 0"), "{reason}");
        assert_eq!(*c, 11, "the last checkpoint before the failure: 00:01:50");
        assert_eq!(m.down_spans(start + 180_000), vec![(*f, *r)]);
        assert!(m.events[1].describe().contains("restored checkpoint 11"));
    }

    #[test]
    fn a_restart_loop_is_marked_failure_after_failure_and_a_job_still_down_is_open() {
        let (s, m) = watched("backfill-taskmanager-lost", 300);
        let fails = m.events.iter().filter(|e| matches!(e, JobEvent::Failed { .. })).count();
        assert!(fails >= 3, "{:?}", m.events);
        assert_eq!(m.events.len() as u32, fails as u32 + s.sim().job_run().restarts);
        let now = s.sim().now().ms();
        let spans = m.down_spans(now);
        assert_eq!(spans.len(), fails);
        assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0));
        let still_down = s.sim().job_status() != JobStatus::Running;
        assert_eq!(spans.last().unwrap().1 == now, still_down);
    }
}
