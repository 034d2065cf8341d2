//! The subtask side of alignment (`SourceOperator`, reference §5.1): what the subtask reports,
//! whether it waits for alignment (stops reading), and which of its splits are paused.
//!
//! Every decision compares the coordinator's `maxDesired` with the *oldest sample* of a
//! watermark (2.3's buffer; with buffer size 0 the latest value), equality allowed.

use super::sampler::WatermarkSampler;
use super::AlignmentParams;
use crate::engine::time::EventTime;

#[derive(Clone, Debug)]
pub struct SourceAlignment {
    pub params: AlignmentParams,
    /// The last announcement (`Long.MAX_VALUE` until the first one: nothing is blocked).
    pub max_desired: EventTime,
    output: WatermarkSampler,
    splits: Vec<WatermarkSampler>,
    /// Per split index: paused by split alignment.
    pub paused: Vec<bool>,
    /// Per split index: released (finished or removed), out of the checks.
    released: Vec<bool>,
    /// `WAITING_FOR_ALIGNMENT`: the subtask reads nothing.
    pub waiting: bool,
    /// Whether an announcement has arrived (the drift gauge is registered then).
    pub announced: bool,
    buffer_size: usize,
    /// What a split pause does: pause it, nothing (the reader cannot pause and
    /// `allow-unaligned-source-splits` is set), or fail the job.
    pub split_pausing: SplitPausing,
    /// A pause was needed but the reader cannot pause splits: the job fails.
    pub unsupported: bool,
    /// The subtask reached the end of its input (`DATA_FINISHED`): it reports `Long.MAX_VALUE`
    /// and neither waits nor pauses any more.
    pub finished: bool,
}

/// `SourceReader.pauseOrResumeSplits` support.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitPausing {
    Supported,
    /// The reader throws, and `allow-unaligned-source-splits` swallows it: source level only.
    Ignored,
    /// The reader throws `UnsupportedOperationException`: the job fails.
    Fails,
}

impl SplitPausing {
    pub fn of(reader_pauses: bool, allow_unaligned: bool) -> Self {
        match (reader_pauses, allow_unaligned) {
            (true, _) => SplitPausing::Supported,
            (false, true) => SplitPausing::Ignored,
            (false, false) => SplitPausing::Fails,
        }
    }
}

/// A split whose pause state changed (index, now paused).
pub type SplitChange = (usize, bool);

impl SourceAlignment {
    pub fn new(params: AlignmentParams, buffer_size: usize) -> Self {
        SourceAlignment {
            params,
            max_desired: EventTime::MAX,
            output: WatermarkSampler::new(buffer_size),
            splits: Vec::new(),
            paused: Vec::new(),
            released: Vec::new(),
            waiting: false,
            announced: false,
            buffer_size,
            split_pausing: SplitPausing::Supported,
            unsupported: false,
            finished: false,
        }
    }

    pub fn with_split_pausing(mut self, p: SplitPausing) -> Self {
        self.split_pausing = p;
        self
    }

    /// Pauses or resumes split `i` as the reader allows.
    fn set_paused(&mut self, i: usize, paused: bool, changes: &mut Vec<SplitChange>) {
        match self.split_pausing {
            SplitPausing::Supported => {
                self.paused[i] = paused;
                changes.push((i, paused));
            }
            SplitPausing::Ignored => {}
            SplitPausing::Fails => self.unsupported |= paused,
        }
    }

    pub fn add_split(&mut self) {
        self.splits.push(WatermarkSampler::new(self.buffer_size));
        self.paused.push(false);
        self.released.push(false);
    }

    /// The subtask's forwarded output watermark rose.
    pub fn on_output_watermark(&mut self, w: EventTime) {
        self.output.add_latest(w);
        self.check_subtask();
    }

    /// Split `i`'s watermark rose: checked for pausing at once.
    pub fn on_split_watermark(&mut self, i: usize, w: EventTime, changes: &mut Vec<SplitChange>) {
        self.splits[i].add_latest(w);
        self.check_split_for_pause(i, changes);
    }

    /// Split `i` became active again (`markActive`, or a record after an idle spell): 2.1.3 and
    /// 2.3.0 skip idle splits in the periodic check, so a split coming back is checked for
    /// *pausing* at once; a paused one is resumed only by the next periodic check (reference
    /// §5.1).
    pub fn on_split_active(&mut self, i: usize, changes: &mut Vec<SplitChange>) {
        self.check_split_for_pause(i, changes);
    }

    fn check_split_for_pause(&mut self, i: usize, changes: &mut Vec<SplitChange>) {
        if !self.finished && !self.released[i] && !self.paused[i] && self.splits[i].oldest() > self.max_desired {
            self.set_paused(i, true, changes);
        }
    }

    /// End of input (`DATA_FINISHED`): from now on the subtask reports `Long.MAX_VALUE`, and
    /// nothing is blocked or paused (Flink's checks act only while it is reading).
    /// `splitFinished`: a released split leaves the checks (its sampler and pause are gone).
    pub fn release_split(&mut self, i: usize) {
        if let Some(r) = self.released.get_mut(i) {
            *r = true;
            self.paused[i] = false;
        }
    }

    pub fn finish(&mut self) {
        self.finished = true;
        self.waiting = false;
    }

    /// After the playground's end of input its reader reads on (late records), and no check
    /// resumes a split any more: every paused split is resumed.
    pub fn resume_splits(&mut self, changes: &mut Vec<SplitChange>) {
        for i in 0..self.paused.len() {
            if self.paused[i] {
                self.set_paused(i, false, changes);
            }
        }
    }

    /// The subtask's sampler (`sampledLatestWatermark`): its latest and oldest sample.
    pub fn output_sampler(&self) -> &WatermarkSampler {
        &self.output
    }

    /// Split `i`'s sampler (`sampledSplitWatermarks`).
    pub fn split_sampler(&self, i: usize) -> Option<&WatermarkSampler> {
        self.splits.get(i)
    }

    /// The report tick: sample everything, check, and say what to report (`None`: nothing,
    /// while the output watermark is still `Long.MIN_VALUE` and the subtask is not finished).
    pub fn tick(
        &mut self,
        idle: bool,
        finished: bool,
        split_idle: &[bool],
        skip_idle: bool,
        changes: &mut Vec<SplitChange>,
    ) -> Option<EventTime> {
        if self.finished {
            return Some(EventTime::MAX);
        }
        self.output.sample();
        self.splits.iter_mut().for_each(WatermarkSampler::sample);
        self.check_subtask();
        self.check_splits(split_idle, skip_idle, changes);
        if finished {
            return Some(EventTime::MAX);
        }
        let latest = self.output.latest();
        if latest == EventTime::MIN {
            return None;
        }
        Some(if idle { EventTime::MAX } else { latest })
    }

    /// A `WatermarkAlignmentEvent`.
    pub fn on_announcement(&mut self, max_allowed: EventTime, split_idle: &[bool], skip_idle: bool, changes: &mut Vec<SplitChange>) {
        self.max_desired = max_allowed;
        self.announced = true;
        if self.finished {
            return;
        }
        self.check_subtask();
        self.check_splits(split_idle, skip_idle, changes);
    }

    fn check_subtask(&mut self) {
        self.waiting = !self.finished && self.max_desired < self.output.oldest();
    }

    fn check_splits(&mut self, split_idle: &[bool], skip_idle: bool, changes: &mut Vec<SplitChange>) {
        for i in 0..self.splits.len() {
            if self.released[i] || skip_idle && split_idle.get(i).copied().unwrap_or(false) {
                continue;
            }
            let ahead = self.splits[i].oldest() > self.max_desired;
            if ahead != self.paused[i] {
                self.set_paused(i, ahead, changes);
            }
        }
    }

    /// `watermarkAlignmentDrift`: last emitted watermark − maxDesired (once announced).
    pub fn drift_ms(&self) -> Option<i64> {
        self.announced.then(|| self.output.latest().ms().saturating_sub(self.max_desired.ms()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(drift: i64) -> AlignmentParams {
        AlignmentParams { group: "group1".into(), max_drift_ms: drift, update_interval_ms: 1 }
    }

    /// V-AL-5 (`SourceOperatorAlignmentTest#testWatermarkAlignment`, buffer size 0).
    #[test]
    fn v_al_5_subtask_blocking() {
        let mut a = SourceAlignment::new(params(100), 0);
        a.add_split();
        let mut ch = Vec::new();
        a.on_output_watermark(EventTime(1000));
        assert_eq!(a.tick(false, false, &[false], true, &mut ch), Some(EventTime(1000)));
        a.on_announcement(EventTime(999), &[false], true, &mut ch);
        assert!(a.waiting);
        a.on_announcement(EventTime(1001), &[false], true, &mut ch);
        assert!(!a.waiting);
        a.on_output_watermark(EventTime(2000));
        assert!(a.waiting, "2000 > 1001: blocked at once on the rise");
        assert_eq!(a.tick(false, false, &[false], true, &mut ch), Some(EventTime(2000)));
    }

    /// V-AL-8: a finished subtask reports MAX; nothing is reported while the watermark is MIN.
    #[test]
    fn v_al_8_finished_reports_max() {
        let mut a = SourceAlignment::new(params(100), 3);
        let mut ch = Vec::new();
        assert_eq!(a.tick(true, false, &[], true, &mut ch), None, "MIN: nothing sent, even when idle");
        assert_eq!(a.tick(false, true, &[], true, &mut ch), Some(EventTime::MAX));
    }

    /// V-AL-11's first half: a split ahead of the allowed watermark is paused; equality is allowed.
    #[test]
    fn split_pause_and_resume() {
        let mut a = SourceAlignment::new(params(1), 0);
        a.add_split();
        a.add_split();
        let mut ch = Vec::new();
        a.on_split_watermark(0, EventTime(5), &mut ch);
        a.on_split_watermark(1, EventTime(4), &mut ch);
        a.on_announcement(EventTime(4), &[false, false], true, &mut ch);
        assert_eq!(ch, vec![(0, true)]);
        assert_eq!(a.paused, vec![true, false]);
        ch.clear();
        a.on_announcement(EventTime(5), &[false, false], true, &mut ch);
        assert_eq!(ch, vec![(0, false)]);
    }

    #[test]
    fn a_reader_that_cannot_pause_fails_the_job_unless_unaligned_splits_are_allowed() {
        let mut ch = Vec::new();
        for (pausing, unsupported) in [(SplitPausing::Fails, true), (SplitPausing::Ignored, false)] {
            let mut a = SourceAlignment::new(params(0), 0).with_split_pausing(pausing);
            a.add_split();
            a.on_split_watermark(0, EventTime(50), &mut ch);
            a.on_announcement(EventTime(10), &[false], true, &mut ch);
            assert!(ch.is_empty() && !a.paused[0]);
            assert_eq!(a.unsupported, unsupported);
        }
    }

    /// 2.3.0: a split that comes back from idle is checked for pausing at once, but a paused
    /// one waits for the next periodic check to be resumed (golden oracle3/10).
    #[test]
    fn a_split_coming_back_from_idle_is_checked_for_pausing_only() {
        let mut a = SourceAlignment::new(params(0), 0);
        a.add_split();
        a.add_split();
        let mut ch = Vec::new();
        a.on_announcement(EventTime(10), &[true, true], true, &mut ch);
        a.splits[0].add_latest(EventTime(50));
        a.on_split_active(0, &mut ch);
        assert_eq!(ch, vec![(0, true)]);
        ch.clear();
        a.on_announcement(EventTime(100), &[false, false], true, &mut ch);
        assert_eq!(ch, vec![(0, false)]);
        ch.clear();
        a.paused[1] = true;
        a.on_split_active(1, &mut ch);
        assert!(ch.is_empty() && a.paused[1], "no resume on markActive");
    }

    #[test]
    fn a_finished_subtask_reports_max_and_never_waits() {
        let mut a = SourceAlignment::new(params(0), 0);
        a.add_split();
        let mut ch = Vec::new();
        a.on_output_watermark(EventTime(50));
        a.on_announcement(EventTime(10), &[false], true, &mut ch);
        assert!(a.waiting);
        a.finish();
        a.on_output_watermark(EventTime::MAX);
        assert!(!a.waiting);
        assert_eq!(a.tick(false, false, &[false], true, &mut ch), Some(EventTime::MAX));
    }

    #[test]
    fn idle_splits_are_skipped_by_the_periodic_check() {
        let mut a = SourceAlignment::new(params(0), 0);
        a.add_split();
        let mut ch = Vec::new();
        a.on_split_watermark(0, EventTime(50), &mut ch);
        a.on_announcement(EventTime(10), &[true], true, &mut ch);
        assert!(ch.is_empty() && !a.paused[0], "2.3 skips idle splits");
        a.on_announcement(EventTime(10), &[true], false, &mut ch);
        assert_eq!(ch, vec![(0, true)], "2.2 pauses them");
    }
}
