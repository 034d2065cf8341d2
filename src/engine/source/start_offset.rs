//! Where a Kafka source starts reading (`OffsetsInitializer`): the earliest offset, the latest,
//! the first offset whose record timestamp is at or after a time, or the consumer group's
//! committed offsets with a reset strategy for partitions that have none.

use crate::engine::partition::Partition;
use crate::engine::time::ProcTime;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StartOffset {
    /// `OffsetsInitializer.earliest()`.
    #[default]
    Earliest,
    /// `OffsetsInitializer.latest()`: skip what is in the log at start.
    Latest,
    /// `OffsetsInitializer.timestamp(ms)`: Kafka's `offsetsForTimes`, the earliest offset whose
    /// record timestamp is ≥ the time (the end of the log if none is).
    TimestampMs(i64),
    /// `OffsetsInitializer.committedOffsets(reset)`.
    Committed(CommittedOffsets),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommittedOffsets {
    /// The group's committed offset per partition of the topic (in partition order); a
    /// partition past the end of the list has none.
    pub offsets: Vec<u64>,
    #[serde(default)]
    pub reset: OffsetResetStrategy,
}

/// `auto.offset.reset` for a partition without a committed offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OffsetResetStrategy {
    Earliest,
    Latest,
    /// Flink's `committedOffsets()` default: the job fails.
    #[default]
    None,
}

impl StartOffset {
    /// Positions partition `log` (number `index` in its topic) at job start; an error is the
    /// job failing as Flink would.
    pub fn apply(&self, log: &mut Partition, index: u32) -> Result<(), String> {
        match self {
            StartOffset::Earliest => {}
            StartOffset::Latest => {
                log.skip_all();
            }
            &StartOffset::TimestampMs(t) => {
                log.skip_while(|r| r.append_time < ProcTime(t));
            }
            StartOffset::Committed(c) => match (c.offsets.get(index as usize), c.reset) {
                (Some(&o), _) => {
                    log.skip_while(|r| r.offset < o);
                }
                (None, OffsetResetStrategy::Earliest) => {}
                (None, OffsetResetStrategy::Latest) => {
                    log.skip_all();
                }
                (None, OffsetResetStrategy::None) => {
                    return Err(format!("the job failed: NoOffsetForPartitionException: Undefined offset with no reset policy for partitions: [partition {index}]"));
                }
            },
        }
        Ok(())
    }

    /// Whether history must be in the log before the position is taken.
    pub fn needs_history(&self) -> bool {
        *self != StartOffset::Earliest
    }
}
