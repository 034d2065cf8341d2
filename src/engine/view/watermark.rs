//! A watermark as the JS API shows it: `{ ms, raw }`.
//!
//! `raw` is the exact 64-bit value as a decimal string (as Flink's REST API sends it); `ms` is
//! the same value as a JS number, or `null` where a number would lie or mislead:
//! `Long.MIN_VALUE` ("No Watermark"), `Long.MAX_VALUE` (end of input) and anything beyond
//! ±(2^53 − 1), which a double cannot hold exactly. The engine's fields stay [`EventTime`]; the
//! helpers below are their `serialize_with`, so only the serialized form changes.

use crate::engine::time::{EventTime, END_OF_TIME, NO_WATERMARK};
use serde::{Serialize, Serializer};

use crate::engine::limits::MAX_SAFE as MAX_SAFE_INTEGER;

/// A 64-bit watermark. `raw` is exact (a decimal string, as Flink's REST API sends it); `ms` is
/// the same value as a number, or null for Long.MIN_VALUE ("No Watermark"), Long.MAX_VALUE (end
/// of input) and values beyond ±2^53 − 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Watermark {
    pub ms: Option<i64>,
    pub raw: String,
}

impl Watermark {
    pub fn new(w: EventTime) -> Self {
        let ms = (w != NO_WATERMARK && w != END_OF_TIME && w.ms().unsigned_abs() <= MAX_SAFE_INTEGER as u64).then_some(w.ms());
        Watermark { ms, raw: w.to_string() }
    }
}

/// `#[serde(serialize_with = "as_watermark")]` on an `EventTime` field.
pub fn as_watermark<S: Serializer>(w: &EventTime, s: S) -> Result<S::Ok, S::Error> {
    Watermark::new(*w).serialize(s)
}

/// `#[serde(serialize_with = "as_opt_watermark")]` on an `Option<EventTime>` field (`null` if
/// none).
pub fn as_opt_watermark<S: Serializer>(w: &Option<EventTime>, s: S) -> Result<S::Ok, S::Error> {
    w.map(Watermark::new).serialize(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentinels_and_unsafe_values_have_no_number() {
        assert_eq!(Watermark::new(NO_WATERMARK), Watermark { ms: None, raw: "-9223372036854775808".into() });
        assert_eq!(Watermark::new(END_OF_TIME).ms, None);
        assert_eq!(Watermark::new(EventTime(MAX_SAFE_INTEGER)).ms, Some(MAX_SAFE_INTEGER));
        assert_eq!(Watermark::new(EventTime(-MAX_SAFE_INTEGER)).ms, Some(-MAX_SAFE_INTEGER));
        assert_eq!(Watermark::new(EventTime(MAX_SAFE_INTEGER + 1)), Watermark { ms: None, raw: "9007199254740992".into() });
    }
}
