//! The window aggregate. Count, sum, min and max are all kept (they are cheap); the scenario
//! says which one the job "emits", for display.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Agg {
    pub count: u64,
    pub sum: i64,
    pub min: i64,
    pub max: i64,
}

impl Default for Agg {
    fn default() -> Self {
        Agg::ZERO
    }
}

impl Agg {
    /// The aggregate of no records.
    pub const ZERO: Agg = Agg { count: 0, sum: 0, min: i64::MAX, max: i64::MIN };

    #[inline]
    pub fn add(&mut self, v: i64) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    pub fn merge(&mut self, o: &Agg) {
        self.count += o.count;
        self.sum = self.sum.wrapping_add(o.sum);
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    pub fn value(&self, kind: AggregateKind) -> i64 {
        match kind {
            AggregateKind::Count => i64::try_from(self.count).unwrap_or(i64::MAX),
            AggregateKind::Sum => self.sum,
            AggregateKind::Min => self.min,
            AggregateKind::Max => self.max,
        }
    }
}

/// Which aggregate the job emits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AggregateKind {
    #[default]
    Count,
    Sum,
    Min,
    Max,
}
