//! Timestamp assignment (`withTimestampAssigner`) including the two classic unit mistakes, and
//! the optional map/filter stage that runs before the watermark generator (clamping
//! far-future timestamps, dropping heartbeat records).

use crate::engine::element::Record;
use crate::engine::time::{EventTime, ProcTime};
use serde::{Deserialize, Serialize};

/// Where the job takes a record's event time from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TimestampAssigner {
    /// The event's own time field, in ms (correct).
    EventField,
    /// The broker's record timestamp (Flink's default `RecordTimestampAssigner`).
    BrokerTime,
    /// The producer writes epoch *seconds*; the job reads them as ms: watermarks in January 1970.
    SecondsAsMillis,
    /// The producer writes epoch ms; the job reads them as seconds (×1000): far future.
    MillisAsSeconds,
}

impl TimestampAssigner {
    #[inline]
    pub fn assign(self, r: &Record) -> EventTime {
        match self {
            TimestampAssigner::EventField => r.event_ts,
            TimestampAssigner::BrokerTime => EventTime::from_proc(r.append_time),
            TimestampAssigner::SecondsAsMillis => EventTime(r.event_ts.ms().div_euclid(1000)),
            TimestampAssigner::MillisAsSeconds => EventTime(r.event_ts.ms().saturating_mul(1000)),
        }
    }
}

/// A map/filter stage before the generator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceTransform {
    /// Clamp timestamps to at most processing time + this skew.
    #[serde(default)]
    pub max_future_skew_ms: Option<i64>,
    /// Drop heartbeat records before they reach the generator.
    #[serde(default)]
    pub drop_heartbeats: bool,
}

impl SourceTransform {
    /// The timestamp the generator sees, or `None` when the record is filtered out.
    #[inline]
    pub fn apply(&self, r: &Record, ts: EventTime, now: ProcTime) -> Option<EventTime> {
        if self.drop_heartbeats && r.heartbeat {
            return None;
        }
        Some(match self.max_future_skew_ms {
            Some(skew) => ts.min(EventTime::from_proc(now).saturating_add(skew)),
            None => ts,
        })
    }
}
