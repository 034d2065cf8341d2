//! A record as it sits in a partition log and travels through the job.

use super::keys::KeyId;
use super::time::{EventTime, ProcTime};

/// One record. `event_ts` is the producer's true event time in ms; what the job *reads* from it
/// depends on the timestamp assigner (unit mistakes, broker time), see `source::timestamp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub event_ts: EventTime,
    /// Processing time at which the broker appended it (Kafka's record timestamp).
    pub append_time: ProcTime,
    pub key: KeyId,
    pub value: i64,
    pub partition: u32,
    pub offset: u64,
    /// A synthetic keep-alive record (heartbeat); a filter stage may drop these.
    pub heartbeat: bool,
}
