//! Event time and processing time, as Flink counts them: signed 64-bit milliseconds.
//!
//! `Long.MIN_VALUE` is "no watermark yet" and `Long.MAX_VALUE` the end-of-input watermark;
//! both are reproduced exactly and given human names by [`describe_watermark`].

/// Defines a millisecond point type: ordered, `Copy`, serialized as a bare number, with the
/// arithmetic that makes sense for a point (point ± duration = point, point − point =
/// duration). Durations stay plain `i64` milliseconds, named `_ms`.
macro_rules! ms_point {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl $name {
            /// `Long.MIN_VALUE`.
            pub const MIN: $name = $name(i64::MIN);
            /// `Long.MAX_VALUE`.
            pub const MAX: $name = $name(i64::MAX);

            /// The raw `long` Flink stores.
            #[inline]
            pub const fn ms(self) -> i64 {
                self.0
            }

            #[inline]
            pub const fn saturating_add(self, d_ms: i64) -> Self {
                $name(self.0.saturating_add(d_ms))
            }

            #[inline]
            pub const fn saturating_sub(self, d_ms: i64) -> Self {
                $name(self.0.saturating_sub(d_ms))
            }

            #[inline]
            pub fn checked_add(self, d_ms: i64) -> Option<Self> {
                self.0.checked_add(d_ms).map($name)
            }

            #[inline]
            pub fn checked_sub(self, d_ms: i64) -> Option<Self> {
                self.0.checked_sub(d_ms).map($name)
            }

            #[inline]
            pub const fn wrapping_add(self, d_ms: i64) -> Self {
                $name(self.0.wrapping_add(d_ms))
            }

            #[inline]
            pub const fn wrapping_sub(self, d_ms: i64) -> Self {
                $name(self.0.wrapping_sub(d_ms))
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        impl std::ops::Add<i64> for $name {
            type Output = $name;
            #[inline]
            fn add(self, d_ms: i64) -> $name {
                $name(self.0 + d_ms)
            }
        }

        impl std::ops::AddAssign<i64> for $name {
            #[inline]
            fn add_assign(&mut self, d_ms: i64) {
                self.0 += d_ms;
            }
        }

        impl std::ops::Sub<i64> for $name {
            type Output = $name;
            #[inline]
            fn sub(self, d_ms: i64) -> $name {
                $name(self.0 - d_ms)
            }
        }

        /// The duration between two points, in ms.
        impl std::ops::Sub for $name {
            type Output = i64;
            #[inline]
            fn sub(self, other: $name) -> i64 {
                self.0 - other.0
            }
        }

        /// A bare `number` in the JS API's declarations (serialized transparently), not a
        /// named alias: the declarations read as they always did.
        #[cfg(test)]
        impl ts_rs::TS for $name {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;
            fn name(_: &ts_rs::Config) -> String {
                "number".into()
            }
            fn inline(_: &ts_rs::Config) -> String {
                "number".into()
            }
        }
    };
}

ms_point! {
    /// A point in event time (a record timestamp or a watermark), in milliseconds since the
    /// epoch, as Flink's `long` timestamps.
    EventTime
}

ms_point! {
    /// A point on the simulated processing-time clock, in milliseconds since the Unix epoch.
    ProcTime
}

impl EventTime {
    /// The event time a processing-time instant reads as (a record stamped with "now", a
    /// broker append time taken as event time).
    #[inline]
    pub const fn from_proc(t: ProcTime) -> Self {
        EventTime(t.0)
    }
}

/// Flink's initial watermark (`Long.MIN_VALUE`): shown as "No Watermark".
pub const NO_WATERMARK: EventTime = EventTime::MIN;
/// Flink's end-of-input watermark (`Long.MAX_VALUE`).
pub const END_OF_TIME: EventTime = EventTime::MAX;

/// How a watermark is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatermarkStyle {
    /// As Flink's web UI reads it: "No Watermark", "end of input (Long.MAX_VALUE)" or the full
    /// UTC time to the millisecond.
    Utc,
    /// Compact, next to a clock at `now`: the time of day on `now`'s day, and on the day before
    /// or after it marked ` -1d` / ` +1d`; otherwise the date to the second (or a power of ten
    /// for the absurd); the sentinels by name.
    Near(ProcTime),
    /// The raw `long`, with Java's names for the two sentinels.
    Raw,
}

/// A watermark (or any event time) as text, in one of the [`WatermarkStyle`]s.
pub fn format_watermark(w: EventTime, style: WatermarkStyle) -> String {
    const DAY: i128 = 86_400_000;
    match (style, w) {
        (WatermarkStyle::Raw, NO_WATERMARK) => "Long.MIN_VALUE".into(),
        (WatermarkStyle::Raw, END_OF_TIME) => "Long.MAX_VALUE".into(),
        (WatermarkStyle::Raw, _) => w.to_string(),
        (_, NO_WATERMARK) => "No Watermark".into(),
        (WatermarkStyle::Utc, END_OF_TIME) => "end of input (Long.MAX_VALUE)".into(),
        (WatermarkStyle::Near(_), END_OF_TIME) => "end of input".into(),
        (WatermarkStyle::Utc, _) => format_utc(w.ms()),
        // On now's day and the days either side the time of day with the day marked is
        // unambiguous (and keeps columns narrow): "23:59:54.999" beside "00:40:19.698" read as
        // ahead. By day, not by distance: one day in two styles side by side ("2025-12-31
        // 00:15:13" beside "23:52:45.999 -1d") read as two days.
        // Cut at the separators, not at fixed offsets: years before 0 or after 9999 are longer.
        (WatermarkStyle::Near(now), _) if (w.ms().div_euclid(DAY as i64) - now.ms().div_euclid(DAY as i64)).abs() <= 1 => {
            let time = format_utc(w.ms()).rsplit_once(' ').map_or_else(String::new, |(_, time)| time.to_string());
            match w.ms().div_euclid(DAY as i64) - now.ms().div_euclid(DAY as i64) {
                0 => time,
                // After the time: "-1d 23:59:54.000" first read as a duration, minus one day
                // and 23 hours (a walk); a day mark after a time reads as a timetable's "+1".
                days => format!("{time} {days:+}d"),
            }
        }
        (WatermarkStyle::Near(_), _) if (w.ms() as i128).abs() < 200_000 * 365 * DAY => {
            format_utc(w.ms()).rsplit_once('.').map_or_else(String::new, |(seconds, _)| seconds.to_string())
        }
        (WatermarkStyle::Near(_), _) => format!("{:+.2e} ms", w.ms() as f64),
    }
}

/// Human text for a watermark value, the way Flink's web UI reads it.
pub fn describe_watermark(w: EventTime) -> String {
    format_watermark(w, WatermarkStyle::Utc)
}

/// `YYYY-MM-DD HH:MM:SS.mmm` in UTC, computed without any clock or locale.
pub fn format_utc(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}.{:03}", rem / 3_600_000, rem / 60_000 % 60, rem / 1000 % 60, rem % 1000)
}

/// `HH:MM:SS.mmm` of a processing time `ms` after the job start (the clock the page shows).
pub fn format_elapsed(ms: i64) -> String {
    let d = ms.max(0);
    format!("{:02}:{:02}:{:02}.{:03}", d / 3_600_000, d / 60_000 % 60, d / 1000 % 60, d % 1000)
}

/// A duration in ms as short human text ("87 min", "1.5 s").
pub fn format_duration(ms: i64) -> String {
    let a = ms.unsigned_abs();
    let sign = if ms < 0 { "-" } else { "" };
    if a < 1000 {
        format!("{sign}{a} ms")
    } else if a < 120_000 {
        format!("{sign}{:.1} s", a as f64 / 1000.0)
    } else if a < 7_200_000 {
        format!("{sign}{} min", a / 60_000)
    } else if a < 172_800_000 {
        format!("{sign}{:.1} h", a as f64 / 3_600_000.0)
    } else if a < 2 * YEAR_MS {
        format!("{sign}{} days", a / 86_400_000)
    } else {
        // Seconds read as milliseconds put windows tens of thousands of years out: "20433547
        // days" was not read as anything.
        format!("{sign}{} years", thousands(a / YEAR_MS))
    }
}

/// A Gregorian year's average length.
const YEAR_MS: u64 = 31_556_952_000;

/// A duration as the fields show it and accept it back ("5 s", "2.5 s", "200 ms", "90 min",
/// "1 h"). Tenths of a second from one second up read as seconds: "30 s → 2500 ms" beside each
/// other read as a change of unit.
pub fn format_duration_exact(ms: i64) -> String {
    if ms == 0 {
        "0".into()
    } else if ms % 3_600_000 == 0 {
        format!("{} h", ms / 3_600_000)
    } else if ms % 60_000 == 0 {
        format!("{} min", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else if ms % 100 == 0 && ms.unsigned_abs() >= 1000 {
        format!("{}{}.{} s", if ms < 0 { "-" } else { "" }, ms.unsigned_abs() / 1000, ms.unsigned_abs() % 1000 / 100)
    } else {
        format!("{ms} ms")
    }
}

/// [`format_duration_exact`], or "off" for a setting that is not set.
pub fn format_opt_duration_exact(ms: Option<i64>) -> String {
    ms.map_or_else(|| "off".into(), format_duration_exact)
}

/// A count with thousands separators: 12345678 → "12,345,678".
pub fn thousands(n: impl Into<u128>) -> String {
    let s = n.into().to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and its noun, the count with thousands separators; every sentence that counts
/// something says "1 partition" and "12,345 records" this one way.
///
/// ```
/// use wmp::engine::time::count;
/// assert_eq!(count(1u32, "partition", "partitions"), "1 partition");
/// assert_eq!(count(0u32, "partition", "partitions"), "0 partitions");
/// assert_eq!(count(12_345u64, "window waits", "windows wait"), "12,345 windows wait");
/// ```
pub fn count(n: impl Into<u128>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

// Howard Hinnant's days-to-civil algorithm: proleptic Gregorian, valid for the whole i64 ms range.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1).unsigned_abs() as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 }.unsigned_abs() as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_epoch_and_sentinels() {
        assert_eq!(format_utc(0), "1970-01-01 00:00:00.000");
        assert_eq!(format_utc(1_767_225_600_000), "2026-01-01 00:00:00.000");
        assert_eq!(format_utc(-1), "1969-12-31 23:59:59.999");
        assert_eq!(describe_watermark(NO_WATERMARK), "No Watermark");
        assert!(describe_watermark(END_OF_TIME).contains("end of input"));
        let day = ProcTime(1_767_225_600_000);
        assert_eq!(format_watermark(EventTime(day.ms() + 65_250), WatermarkStyle::Near(day)), "00:01:05.250");
        assert_eq!(format_watermark(EventTime(day.ms() - 6_000), WatermarkStyle::Near(day)), "23:59:54.000 -1d", "the day before");
        assert_eq!(format_watermark(EventTime(day.ms() - 1_000), WatermarkStyle::Near(ProcTime(day.ms() - 2_000))), "23:59:59.000");
        assert_eq!(format_watermark(EventTime(day.ms() + 1_000), WatermarkStyle::Near(ProcTime(day.ms() - 2_000))), "00:00:01.000 +1d");
        assert_eq!(format_watermark(EventTime(5), WatermarkStyle::Near(day)), "1970-01-01 00:00:00");
        let (yesterday_early, late) = (EventTime(day.ms() - 86_400_000 + 913_000), ProcTime(day.ms() + 80_000_000));
        assert_eq!(format_watermark(yesterday_early, WatermarkStyle::Near(late)), "00:15:13.000 -1d", "the day before, 46 h back");
        assert_eq!(format_watermark(EventTime(day.ms() - 86_400_001), WatermarkStyle::Near(day)), format_utc(day.ms() - 86_400_001)[..19]);
        assert_eq!(format_watermark(END_OF_TIME, WatermarkStyle::Near(day)), "end of input");
        // Before year 0 the date is longer; the text is still a whole date and time.
        let bc = -358_190_000_000_000;
        assert_eq!(format_watermark(EventTime(bc), WatermarkStyle::Near(day)), "-9381-05-31 09:46:40");
        assert_eq!(format_watermark(EventTime(bc), WatermarkStyle::Near(ProcTime(bc))), "09:46:40.000");
        assert_eq!(format_watermark(NO_WATERMARK, WatermarkStyle::Raw), "Long.MIN_VALUE");
        assert_eq!(format_watermark(EventTime(-3), WatermarkStyle::Raw), "-3");
        assert_eq!(format_duration(3 * 86_400_000), "3 days");
        assert_eq!(format_duration(-1_765_458_000_000_000), "-55,945 years", "seconds read as milliseconds");
        assert_eq!(format_duration_exact(5_400_000), "90 min");
        assert_eq!(format_duration_exact(2_500), "2.5 s");
        assert_eq!(format_duration_exact(-1_500), "-1.5 s");
        assert_eq!(format_duration_exact(1_250), "1250 ms");
        assert_eq!(format_duration_exact(500), "500 ms");
        assert_eq!(format_opt_duration_exact(None), "off");
    }
}
