//! A log-linear histogram of non-negative millisecond spans (gaps between records, disorder,
//! lateness): eight buckets per power of two, so a quantile is within 12.5 % of the true
//! value, in two kilobytes allocated on the first sample. Integer counts only: the same
//! samples give the same quantiles natively and in wasm.

/// Values below this are counted exactly.
const EXACT: usize = 8;
const SUB_BITS: u32 = 3;
const BUCKETS: usize = EXACT + (63 - SUB_BITS as usize) * EXACT;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Histogram {
    counts: Option<Box<[u32]>>,
    total: u64,
    max: i64,
}

impl Histogram {
    /// Counts one span (negative spans count as 0).
    #[inline]
    pub fn add(&mut self, v: i64) {
        let v = v.max(0);
        let counts = self.counts.get_or_insert_with(|| vec![0; BUCKETS].into_boxed_slice());
        let b = &mut counts[bucket(v.unsigned_abs())];
        *b = b.saturating_add(1);
        self.total += 1;
        self.max = self.max.max(v);
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    /// The largest span counted (0 when empty).
    pub fn max(&self) -> i64 {
        self.max
    }

    /// The `q`-quantile (0 ≤ q ≤ 1) of the spans counted plus `zeros` implicit zero spans, as
    /// the upper edge of its bucket (never above the maximum); `None` when there is nothing.
    pub fn quantile(&self, q: f64, zeros: u64) -> Option<i64> {
        let n = self.total + zeros;
        if n == 0 {
            return None;
        }
        // The rank of the quantile, 1-based; `as` saturates and q is clamped.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let rank = ((q.clamp(0.0, 1.0) * n as f64).ceil() as u64).max(1);
        if rank <= zeros {
            return Some(0);
        }
        let mut seen = zeros;
        for (i, &c) in self.counts.as_deref().unwrap_or(&[]).iter().enumerate() {
            seen += u64::from(c);
            if seen >= rank {
                return Some(upper_edge(i).min(self.max));
            }
        }
        Some(self.max)
    }
}

#[inline]
fn bucket(v: u64) -> usize {
    if v < EXACT as u64 {
        return usize::try_from(v).unwrap_or(0);
    }
    let e = 63 - v.leading_zeros();
    let sub = (v >> (e - SUB_BITS)) & (EXACT as u64 - 1);
    EXACT + (e - SUB_BITS) as usize * EXACT + usize::try_from(sub).unwrap_or(0)
}

/// The largest value that falls in bucket `i`.
fn upper_edge(i: usize) -> i64 {
    if i < EXACT {
        return i64::try_from(i).unwrap_or(0);
    }
    let e = u32::try_from((i - EXACT) / EXACT).unwrap_or(0) + SUB_BITS;
    let sub = ((i - EXACT) % EXACT) as u64;
    let lo = (1u64 << e) | (sub << (e - SUB_BITS));
    i64::try_from(lo + (1u64 << (e - SUB_BITS)) - 1).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_within_an_eighth_and_never_above_the_max() {
        let mut h = Histogram::default();
        for v in 1..=1000 {
            h.add(v);
        }
        let p50 = h.quantile(0.5, 0).unwrap();
        assert!((500..=563).contains(&p50), "{p50}");
        assert_eq!(h.quantile(1.0, 0), Some(1000));
        assert_eq!(h.quantile(0.99, 0).map(|v| v >= 990), Some(true));
        assert_eq!(h.quantile(0.5, 2000), Some(0), "implicit zeros count");
        assert_eq!(Histogram::default().quantile(0.5, 0), None);
    }

    #[test]
    fn every_value_lands_in_a_bucket_whose_edges_hold_it() {
        for v in [0u64, 1, 7, 8, 9, 15, 16, 17, 1000, 65_535, 1 << 40, i64::MAX.unsigned_abs()] {
            let b = bucket(v);
            assert!(b < BUCKETS);
            assert!(upper_edge(b).unsigned_abs() >= v, "{v}");
            assert!(b == 0 || upper_edge(b - 1).unsigned_abs() < v, "{v}");
        }
    }
}
