//! What a split saw, kept for the diagnosis: the gaps between the instants its records
//! arrived, how far each record's timestamp fell behind the split's maximum (disorder), how
//! many of them were heartbeats, and how often it went idle. A real job's user would learn the
//! same from the input side's metrics and a look at the data (seed 002 §2.3, §4.4); the
//! engine records it as it reads, at the cost of a compare per in-order record.

use super::histogram::Histogram;
use crate::engine::time::{EventTime, ProcTime};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observed {
    /// Heartbeat records that reached the generator (filtered ones do not count).
    pub heartbeats: u64,
    /// Gaps between the instants records arrived: how many, the largest, and a sample of them
    /// in ms (see [`Observed::note_gap`]) with its sum and sum of squares, for regularity.
    pub gap_count: u64,
    pub gap_max: i64,
    pub gaps: Histogram,
    gap_sum: u128,
    gap_sum_sq: u128,
    /// `max_ts − ts` of the sampled records (see [`Observed::samples_next_batch`]) that came
    /// in behind the split's maximum; in-order sampled records are the implicit zeros.
    pub disorder: Histogram,
    /// Records sampled for `disorder`, and the largest disorder among them.
    pub disorder_sampled: u64,
    pub disorder_max: i64,
    pub first_record_at: Option<ProcTime>,
    /// While the split read history before it first caught up (a backfill: its newest record
    /// more than the history age old on arrival), the oldest such age and the records sampled
    /// for `disorder` by then. History's order fills the disorder measured until live records
    /// outnumber it; a catch-up later (a restore's replay, back-pressure) is no history.
    pub history_age_ms: Option<i64>,
    pub history_sampled: u64,
    caught_up: bool,
    /// How often the split was declared idle.
    pub idle_flips: u32,
    /// When it last became active again after being idle.
    pub returned_at: Option<ProcTime>,
}

impl Observed {
    /// Every gap counts towards the count and the maximum; the first 1,024 and then one in 32
    /// towards the sample (for a busy partition, a gap per instant cost 5% of the engine).
    #[inline]
    pub fn note_gap(&mut self, gap_ms: i64) {
        self.gap_count += 1;
        self.gap_max = self.gap_max.max(gap_ms);
        if self.gap_count > 1024 && self.gap_count & 31 != 0 {
            return;
        }
        self.note_sampled_gap(gap_ms);
    }

    #[inline(never)]
    fn note_sampled_gap(&mut self, gap_ms: i64) {
        self.gaps.add(gap_ms);
        let g = u128::from(gap_ms.unsigned_abs());
        self.gap_sum += g;
        self.gap_sum_sq += g * g;
    }

    /// Whether the next batch of records (one instant's, from one producer) is observed
    /// record by record: every batch until a split has read 1,024 records, then one in 32 (by
    /// the count of instants it had records in: deterministic). Every record of every batch
    /// cost a sixth of the engine's time on the seed-001 workload.
    #[inline(always)]
    pub fn samples_next_batch(&self, read: u64) -> bool {
        read < 1024 || self.gap_count & 31 == 0
    }

    /// One record `behind_ms` behind the split's maximum (0: in order).
    #[inline]
    pub fn note_disorder(&mut self, behind_ms: i64) {
        self.disorder_sampled += 1;
        self.disorder_max = self.disorder_max.max(behind_ms);
        if behind_ms > 0 {
            self.disorder.add(behind_ms);
        }
    }

    /// The timestamps of a sampled batch that arrived at `now`, in read order, after the
    /// split's maximum `max`; records older than `history_ms` on arrival are history.
    pub fn note_batch(&mut self, max: Option<EventTime>, ts: impl Iterator<Item = EventTime>, now: ProcTime, history_ms: i64) {
        let mut seen = max.unwrap_or(EventTime::MIN);
        for t in ts {
            self.note_disorder(seen.ms().saturating_sub(t.ms()).max(0));
            seen = seen.max(t);
        }
        self.note_arrival(seen, now, history_ms);
    }

    /// The split's maximum timestamp `max` after records that arrived at `now` (see
    /// `history_age_ms`).
    #[inline]
    pub fn note_arrival(&mut self, max: EventTime, now: ProcTime, history_ms: i64) {
        if self.caught_up || max == EventTime::MIN {
            return;
        }
        let age = now.ms().saturating_sub(max.ms());
        if age <= history_ms {
            self.caught_up = true;
            return;
        }
        self.history_age_ms = Some(self.history_age_ms.map_or(age, |a| a.max(age)));
        self.history_sampled = self.disorder_sampled;
    }

    /// The oldest history the split read, while history is still at least 1 % of the
    /// disorder's sample (its P99 is then history's).
    pub fn history_in_disorder_ms(&self) -> Option<i64> {
        self.history_age_ms.filter(|_| self.history_sampled.saturating_mul(100) >= self.disorder_sampled)
    }

    /// The gaps' coefficient of variation in per mille (standard deviation over mean): near 0
    /// for a metronome, about 1000 for random arrivals; `None` with fewer than three gaps.
    pub fn gap_variation_permille(&self) -> Option<u64> {
        let n = u128::from(self.gaps.total());
        if n < 3 || self.gap_sum == 0 {
            return None;
        }
        // n·Σg² − (Σg)² = n²·variance, exact in integers.
        let spread = (n * self.gap_sum_sq).saturating_sub(self.gap_sum * self.gap_sum);
        let sd_times_n = isqrt(spread);
        u64::try_from(sd_times_n * 1000 / self.gap_sum).ok()
    }

    /// The mean gap in ms, if any gap was seen.
    pub fn mean_gap_ms(&self) -> Option<i64> {
        let n = u128::from(self.gaps.total());
        (n > 0).then(|| i64::try_from(self.gap_sum / n).unwrap_or(i64::MAX))
    }
}

fn isqrt(v: u128) -> u128 {
    if v < 2 {
        return v;
    }
    let mut x = v;
    let mut y = x.div_ceil(2);
    while y < x {
        x = y;
        y = (x + v / x) / 2;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrive(o: &mut Observed, age_ms: i64) {
        o.note_disorder(0);
        o.note_arrival(EventTime(1_000_000 - age_ms), ProcTime(1_000_000), 600_000);
    }

    /// History read first (a backfill) is latched when the split catches up, and counts only
    /// while it is at least 1 % of the disorder's sample.
    #[test]
    fn history_read_before_catching_up_is_latched_until_live_records_outnumber_it() {
        let mut o = Observed::default();
        arrive(&mut o, 900_000);
        arrive(&mut o, 700_000);
        arrive(&mut o, 1_000);
        assert_eq!((o.history_in_disorder_ms(), o.history_sampled), (Some(900_000), 2));
        (0..197).for_each(|_| arrive(&mut o, 1_000));
        assert_eq!(o.history_in_disorder_ms(), Some(900_000), "2 in 200");
        arrive(&mut o, 1_000);
        assert_eq!(o.history_in_disorder_ms(), None, "2 in 201");
    }

    /// A catch-up after the split was live (a restore's replay, back-pressure) is no history.
    #[test]
    fn a_late_catch_up_is_not_history() {
        let mut o = Observed::default();
        arrive(&mut o, 1_000);
        arrive(&mut o, 3_600_000);
        assert_eq!(o.history_age_ms, None);
    }

    #[test]
    fn a_metronome_has_no_variation_and_random_gaps_have_a_lot() {
        let mut o = Observed::default();
        for _ in 0..10 {
            o.note_gap(30_000);
        }
        assert_eq!(o.gap_variation_permille(), Some(0));
        assert_eq!(o.mean_gap_ms(), Some(30_000));
        let mut r = Observed::default();
        for g in [1, 500, 3, 2000, 10, 7] {
            r.note_gap(g);
        }
        assert!(r.gap_variation_permille().unwrap() > 1000);
        assert_eq!(isqrt(1_000_000), 1000);
        assert_eq!(isqrt(999_999), 999);
    }
}
