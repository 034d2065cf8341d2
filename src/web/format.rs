//! Text for times, durations and counts, and the parsers behind every time field. Pure
//! functions (no DOM), so the formats are the same in every view and testable natively.

use crate::engine::scenario::flink_version::FlinkVersion;
use crate::engine::scenario::schema::FlinkSwitches;
use crate::engine::time::{format_duration, format_watermark, EventTime, ProcTime, WatermarkStyle, END_OF_TIME, NO_WATERMARK};

/// The Flink release whose watermark behaviour a run with `flink` simulates, as the page names
/// it ("Flink 1.19.1"), and whether it is the newest, Flink 2.3: the one a downloaded job runs
/// (`flink` switches of older releases are not replayed, docs/EXPORT.md).
/// Switches no release has (`FlinkVersion::extras`) are named after it: a downloaded job does
/// not replay them either.
pub fn simulated_flink(flink: &FlinkSwitches) -> (String, bool) {
    let extras = FlinkVersion::extras(flink);
    let (release, newest) = match FlinkVersion::of(flink) {
        Some(FlinkVersion::V2_3) => ("Flink 2.3".to_string(), true),
        Some(v) => (format!("Flink {}", v.label()), false),
        None => ("a mix of Flink switches no release had".into(), false),
    };
    match extras.as_slice() {
        [] => (release, newest),
        _ => (format!("{release} with {}", extras.join(" and ")), false),
    }
}

/// The two sentinels as the raw `long`s the views work in.
pub const MIN_WM: i64 = NO_WATERMARK.ms();
pub const MAX_WM: i64 = END_OF_TIME.ms();
/// A live job's watermark that its metrics did not report (shown as `?`).
pub const UNKNOWN_WM: i64 = crate::engine::live::to_snapshot::UNKNOWN_WATERMARK.ms();

const DAY: i64 = 86_400_000;

/// A watermark as people read it next to a clock at `now` (see [`WatermarkStyle::Near`]).
pub fn wm_human(w: i64, now: i64) -> String {
    if w == UNKNOWN_WM {
        return "?".into();
    }
    format_watermark(EventTime(w), WatermarkStyle::Near(ProcTime(now)))
}

/// The raw `long`, with Flink's names for the two sentinels ("not reported" for a live job's
/// watermark its metrics did not give).
pub fn wm_raw(w: i64) -> String {
    if w == UNKNOWN_WM {
        return "not reported".into();
    }
    format_watermark(EventTime(w), WatermarkStyle::Raw)
}

/// `HH:MM:SS.mmm` of a processing time relative to the job start (elapsed).
pub fn elapsed(now: i64, start: i64) -> String {
    crate::engine::time::format_elapsed(now - start)
}

/// A UTC time of day (`HH:MM:SS.mmm`), marked `-1d` / `+1d` on the day before or after
/// `reference`'s, or the date further out ([`wm_human`]).
pub fn time_of(t: i64, reference: i64) -> String {
    wm_human(t, reference)
}

/// A short duration ("87 min", "1.5 s").
pub fn dur(ms: i64) -> String {
    format_duration(ms)
}

/// An interval join's bounds as an interval of `right.ts − left.ts`: `[−2 s, 5 s)` (a round
/// bracket where `lowerBoundExclusive()` / `upperBoundExclusive()` is set).
pub fn join_bounds(b: &crate::engine::operator::interval_join::JoinBounds) -> String {
    let signed = |ms: i64| if ms < 0 { format!("−{}", dur_input(ms.unsigned_abs().min(i64::MAX as u64) as i64)) } else { dur_input(ms) };
    format!(
        "{}{}, {}{}",
        if b.lower_exclusive { "(" } else { "[" },
        signed(b.lower_ms),
        signed(b.upper_ms),
        if b.upper_exclusive { ")" } else { "]" }
    )
}

pub use crate::engine::time::{format_duration_exact as dur_input, format_opt_duration_exact as opt_dur_input};

/// Characters of 10 px monospace a keyed subtask's node holds on a line (`graph_layout::O_W`).
pub const NODE_LINE_CHARS: usize = 26;

/// Characters of the 11.5 px bold name line a keyed subtask's node holds (`graph_layout::O_W`,
/// the widest digits of a system sans).
pub const NODE_NAME_CHARS: usize = 22;

/// What a two-input operator's per-input watermark ("input 2 watermark") is, for its titles:
/// Flink 2.3 registers no `currentInput1Watermark`/`currentInput2Watermark` (docs/LIVE.md).
pub const PER_INPUT_NOTE: &str =
    "the playground's per-input view: Flink 2.3 reports only the operator's currentInputWatermark (the minimum), \
     so the holding input shows up as the source whose currentOutputWatermark equals it";

/// A count in a few characters: "9,999", "123 k", "12.4 M", "1.23 G".
pub fn short_count(n: u64) -> String {
    let (unit, name) = match n {
        0..=9_999 => return thousands(n),
        10_000..=999_999 => (1_000u128, "k"),
        1_000_000..=999_999_999 => (1_000_000, "M"),
        _ => (1_000_000_000, "G"),
    };
    // Three significant digits, rounded half up in integers (12.35 M is 12.349999… as a float);
    // rounding up to 1000 stays in the unit ("1000 k").
    let whole = n as u128 / unit;
    let decimals = if whole < 10 {
        2
    } else if whole < 100 {
        1
    } else {
        0
    };
    let scale = 10u128.pow(decimals);
    let r = (n as u128 * scale + unit / 2) / unit;
    if decimals == 0 {
        format!("{r} {name}")
    } else {
        format!("{}.{:0w$} {name}", r / scale, r % scale, w = decimals as usize)
    }
}

/// A keyed subtask's name line with what it holds ("win 0 · 1,234 states"); a count that would
/// run out of the node is given short ("win 0 · 12.4 M states"), without its noun if it still
/// would ("join 12 · IDLE · 123 k"): the node's title has it in full.
pub fn node_name_line(head: &str, count: u64, noun: &str) -> String {
    let fits = |s: &String| s.chars().count() <= NODE_NAME_CHARS;
    let short = short_count(count);
    [format!("{head} · {} {noun}", thousands(count)), format!("{head} · {short} {noun}")]
        .into_iter()
        .find(fits)
        .unwrap_or_else(|| format!("{head} · {short}"))
}

/// What a keyed subtask holds, counted in full, for its node's title and label (its name
/// line may give it short, or without its noun): a join's buffered records, a window's
/// (key, window) states.
pub fn node_holds(count: u64, join_buffer: bool) -> String {
    let n = thousands(count);
    match (join_buffer, count) {
        (true, 1) => "1 record buffered".into(),
        (true, _) => format!("{n} records buffered"),
        (false, 1) => "1 (key, window) state".into(),
        (false, _) => format!("{n} (key, window) states, one per key and open window"),
    }
}

/// Which side of processing time a watermark is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Behind,
    /// Past processing time: a far-future timestamp's, or milliseconds read as seconds.
    Ahead,
}

/// How far a watermark is from processing time, given its event-time lag (`now − watermark`,
/// negative when it is ahead): the distance as a duration, and the side. Every view words the
/// side itself, never the sign: "lag -24.0 h" ran out of its node and "-24.0 h behind" read as
/// a typo.
pub fn lag_side(lag_ms: i64) -> (String, Side) {
    if lag_ms < 0 {
        (dur(lag_ms.saturating_neg()), Side::Ahead)
    } else {
        (dur(lag_ms), Side::Behind)
    }
}

/// A raw watermark and how far it is behind processing time ("lag 2.0 s") or ahead ("24.0 h
/// ahead"); longer than `max_chars`, the watermark ahead alone (that is the news), else the raw
/// value alone, which a live job's REST API reports (a node's title has both).
pub fn raw_and_lag(raw: &str, lag_ms: i64, max_chars: usize) -> String {
    let (d, side) = lag_side(lag_ms);
    let lag = match side {
        Side::Behind => format!("lag {d}"),
        Side::Ahead => format!("{d} ahead"),
    };
    let both = format!("{raw} · {lag}");
    if both.chars().count() <= max_chars {
        both
    } else if side == Side::Ahead {
        lag
    } else {
        raw.to_string()
    }
}

/// Parses "5s", "5 s", "200ms", "1.5 min", "2h", "1d" or a bare number of milliseconds.
/// Negative values are refused (use [`parse_signed_duration`] for offsets).
pub fn parse_duration(s: &str) -> Result<i64, String> {
    let v = parse_signed_duration(s)?;
    if v < 0 {
        return Err("must not be negative".into());
    }
    Ok(v)
}

/// `off`, `none`, `null` or an empty field mean "not set".
pub fn parse_opt_duration(s: &str) -> Result<Option<i64>, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "" | "off" | "none" | "null" | "-" => Ok(None),
        _ => parse_duration(s).map(Some),
    }
}

/// A signed duration: "-2s", "+1 h", "now" (0).
pub fn parse_signed_duration(s: &str) -> Result<i64, String> {
    let t = s.trim().to_ascii_lowercase();
    if t.is_empty() {
        return Err("enter a duration, e.g. 5 s, 200 ms, 1 min".into());
    }
    if t == "now" || t == "0" {
        return Ok(0);
    }
    let t = t.strip_prefix("now").map(str::trim).unwrap_or(&t).to_string();
    let (sign, body) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, t[1..].trim()),
        Some(b'+') => (1.0, t[1..].trim()),
        _ => (1.0, t.as_str()),
    };
    let split = body.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_' || c == ',')).unwrap_or(body.len());
    let (num, unit) = body.split_at(split);
    let num = without_separators(num, s.trim())?;
    let n: f64 = num.parse().map_err(|_| format!("'{s}' is not a duration (try 5 s, 200 ms, 1 min)"))?;
    let unit_ms = match unit.trim() {
        "" | "ms" | "millis" => 1.0,
        "s" | "sec" | "secs" | "second" | "seconds" => 1000.0,
        "m" | "min" | "mins" | "minute" | "minutes" => 60_000.0,
        "h" | "hr" | "hour" | "hours" => 3_600_000.0,
        "d" | "day" | "days" => 86_400_000.0,
        u => return Err(format!("unknown unit '{u}' (use ms, s, min, h, d)")),
    };
    let v = sign * n * unit_ms;
    if !v.is_finite() || v.abs() > 9.0e15 {
        return Err("too large: at most 9,000,000,000,000,000 ms (about 285,000 years)".into());
    }
    // A decimal times the unit is not exact in binary ("16.1 s" gives 16100.000000000002 ms):
    // only what is off by more than rounding is a fraction of a millisecond.
    let whole = v.round();
    if (v - whole).abs() > 1e-9 * v.abs().max(1.0) {
        return Err("must be a whole number of milliseconds".into());
    }
    Ok(whole as i64)
}

/// The digits of a number written with `_` or thousands commas ("1,000", "12,345.5"). A comma
/// that does not separate thousands is refused: "1,5 s" read as 15 s was a silent 10× error
/// (a decimal comma, as much of Europe writes it).
fn without_separators(num: &str, typed: &str) -> Result<String, String> {
    let (whole, fraction) = num.split_once('.').unwrap_or((num, ""));
    let mut groups = whole.trim_start_matches(['-', '+']).split(',');
    let first = groups.next().unwrap_or("");
    let thousands = groups.all(|g| g.len() == 3) && (1..=3).contains(&first.trim_matches('_').len());
    // "2.000,000 s" is European for 2000 s, not 2 s.
    if (whole.contains(',') && !thousands) || fraction.contains(',') {
        return Err(format!("'{typed}': a comma separates thousands here (1,000); write a decimal with a point (1.5 s)"));
    }
    Ok(num.chars().filter(|c| *c != '_' && *c != ',').collect())
}

/// A whole number within `lo..=hi`.
pub fn parse_int(s: &str, lo: i64, hi: i64) -> Result<i64, String> {
    let t = without_separators(s.trim(), s.trim())?;
    let v: i64 = t.parse().map_err(|_| format!("'{}' is not a whole number", s.trim()))?;
    if v < lo || v > hi {
        return Err(format!("must be between {lo} and {hi}"));
    }
    Ok(v)
}

/// [`parse_utc`], or "now" in any case: the simulation's current time, `now` (a relative
/// field took "now", an absolute one refused it).
pub fn parse_utc_or_now(s: &str, day_of: i64, now: i64) -> Result<i64, String> {
    if s.trim().eq_ignore_ascii_case("now") {
        Ok(now)
    } else {
        parse_utc(s, day_of)
    }
}

/// An absolute event time: epoch milliseconds, or UTC `YYYY-MM-DD HH:MM[:SS[.mmm]]`, or a
/// time of day `HH:MM[:SS[.mmm]]` on `day_of`'s UTC day, or on a day from it (`23:59:54 -1d`,
/// as [`wm_human`] writes a time on the day before, or `-1d 23:59:54`, as it wrote it before).
pub fn parse_utc(s: &str, day_of: i64) -> Result<i64, String> {
    // Spaces between the parts are one space however many were typed (or pasted), and a
    // typographic minus (U+2212) is a hyphen.
    let spaced = s.replace('\u{2212}', "-").split_whitespace().collect::<Vec<_>>().join(" ");
    let spaced = day_mark_apart(&spaced);
    let t = spaced.as_str();
    if let Ok(v) = t.parse::<i64>() {
        return Ok(v);
    }
    let bad = || format!("'{t}' is not a time: use 2026-01-01 00:01:05, 00:01:05, 23:59:54 -1d, epoch milliseconds or now");
    let day_after = t.rsplit_once(' ').filter(|(_, d)| d.len() > 1 && d.ends_with('d') && d[..d.len() - 1].parse::<i64>().is_ok());
    let (date, time) = match day_after.or_else(|| t.split_once([' ', 'T'])).map(|(a, b)| if day_after.is_some() { (b, a) } else { (a, b) })
    {
        Some((d, tm)) => (Some(d), tm.trim_end_matches('Z')),
        None if t.contains(':') => (None, t),
        None => (Some(t), "00:00"),
    };
    let day = match date {
        Some(d) if d.len() > 1 && d.ends_with('d') => {
            d[..d.len() - 1].parse::<i64>().ok().and_then(|n| day_of.div_euclid(DAY).checked_add(n)).ok_or_else(bad)?
        }
        Some(d) => {
            let parts: Vec<&str> = d.split('-').collect();
            if parts.len() != 3 {
                return Err(bad());
            }
            let y: i64 = parts[0].parse().map_err(|_| bad())?;
            let m: u32 = parts[1].parse().map_err(|_| bad())?;
            let dd: u32 = parts[2].parse().map_err(|_| bad())?;
            if !(1..=12).contains(&m) || !(1..=31).contains(&dd) {
                return Err(bad());
            }
            days_from_civil(y, m, dd)
        }
        None => day_of.div_euclid(DAY),
    };
    let mut hms = time.split(':');
    let h: i64 = hms.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
    let mi: i64 = hms.next().unwrap_or("0").parse().map_err(|_| bad())?;
    let sec: f64 = hms.next().unwrap_or("0").parse().map_err(|_| bad())?;
    if hms.next().is_some() || !(0..24).contains(&h) || !(0..60).contains(&mi) || !(0.0..60.0).contains(&sec) {
        return Err(bad());
    }
    // A day far out (a huge year, `1000000000000d`) is a bad time, not an overflow.
    day.checked_mul(DAY).and_then(|ms| ms.checked_add(h * 3_600_000 + mi * 60_000 + (sec * 1000.0).round() as i64)).ok_or_else(bad)
}

/// A day mark after a time written against it or with its sign apart ("23:59:54-1d",
/// "23:59:54 - 1d") as the page writes it ("23:59:54 -1d").
fn day_mark_apart(t: &str) -> String {
    let Some(body) = t.strip_suffix('d') else { return t.to_string() };
    let digits = body.len() - body.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let before = body[..body.len() - digits].trim_end();
    let Some(sign) = before.chars().last().filter(|c| matches!(c, '+' | '-')) else { return t.to_string() };
    let time = before[..before.len() - 1].trim_end();
    if digits == 0 || !time.contains(':') {
        return t.to_string();
    }
    format!("{time} {sign}{}d", &body[body.len() - digits..])
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub use crate::engine::time::{count, thousands};

/// A speed factor as the picker shows it ("0.1×", "100×", "10,000×").
pub fn speed(x: f64) -> String {
    if x >= 1.0 {
        format!("{}×", thousands(x.round() as u64))
    } else {
        format!("{x}×")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legacy consumer's lesson step ran "Flink 2.3" in the footer, and the download
    /// promised the same results.
    #[test]
    fn a_switch_no_release_has_is_named_and_promises_nothing() {
        use crate::engine::scenario::schema::{FlinkSwitches, KafkaConnector};
        assert_eq!(simulated_flink(&FlinkSwitches::default()), ("Flink 2.3".to_string(), true));
        let legacy = FlinkSwitches { kafka_connector: KafkaConnector::Legacy, ..FlinkSwitches::default() };
        assert_eq!(simulated_flink(&legacy), ("Flink 2.3 with the legacy FlinkKafkaConsumer".to_string(), false));
    }

    /// A time across midnight reads back as the page writes it, the day after the time, and
    /// as it wrote it before (links and habits keep working).
    #[test]
    fn a_time_on_another_day_reads_back_in_either_order() {
        let day = 20_454 * DAY;
        assert_eq!(wm_human(day - 6_000, day), "23:59:54.000 -1d");
        assert_eq!(parse_utc(&wm_human(day - 6_000, day), day + 5), Ok(day - 6_000));
        assert_eq!(parse_utc("-1d 23:59:54", day + 5), Ok(day - 6_000));
        assert_eq!(parse_utc("00:00:01 +1d", day - 5), Ok(day + 1_000));
        assert!(parse_utc("00:00:01 xd", day).is_err());
        assert!(parse_utc("00:00 1000000000000d", day).is_err(), "a day far out is refused, not an overflow");
    }

    /// "now" in any case, with spaces around it, is the current time, whatever day the field
    /// reads a time of day on.
    #[test]
    fn now_is_the_current_time() {
        let day = 20_454 * DAY;
        for typed in ["now", "NOW", " Now\t"] {
            assert_eq!(parse_utc_or_now(typed, 0, day + 5), Ok(day + 5), "{typed:?}");
        }
        assert_eq!(parse_utc_or_now("00:00:01", day, day + 5), Ok(day + 1_000));
        assert!(parse_utc_or_now("nowish", day, day).unwrap_err().ends_with("epoch milliseconds or now"));
    }

    /// Spaces typed or pasted twice between the parts are one space, and a day mark typed
    /// against the time, with its sign apart or with a typographic minus reads (all were refused).
    #[test]
    fn extra_spaces_between_the_parts_are_one() {
        let day = 20_454 * DAY;
        assert_eq!(parse_utc("23:59:54   -1d", day + 5), Ok(day - 6_000));
        assert_eq!(parse_utc(" -1d\t 23:59:54 ", day + 5), Ok(day - 6_000));
        assert_eq!(parse_utc("2026-01-01  00:01:05", 0), parse_utc("2026-01-01 00:01:05", 0));
        assert!(parse_utc("2026-01-01 00:01:05", 0).is_ok());
        assert_eq!(
            parse_utc("23:59 : 54", day),
            Err("'23:59 : 54' is not a time: use 2026-01-01 00:01:05, 00:01:05, 23:59:54 -1d, epoch milliseconds or now".into())
        );
        for typed in ["23:59:54-1d", "23:59:54 - 1d", "23:59:54 \u{2212}1d", "23:59:54 -1d"] {
            assert_eq!(parse_utc(typed, day + 5), Ok(day - 6_000), "{typed}");
        }
        assert_eq!(parse_utc("00:00:01+1d", day - 5), Ok(day + 1_000));
        assert_eq!(parse_utc("2026-01-01", 0), parse_utc("2026-01-01 00:00", 0), "a date's hyphens are no day mark");
        assert!(parse_utc("12-1d", day).is_err());
    }

    /// A node's line keeps the raw value while both fit, and says "ahead" for a watermark past
    /// processing time ("lag -24.0 h" ran out of the node).
    #[test]
    fn a_node_line_fits_and_says_ahead() {
        assert_eq!(raw_and_lag("1767225600000", 2_000, NODE_LINE_CHARS), "1767225600000 · lag 2.0 s");
        assert_eq!(raw_and_lag("1767225600000", 86_400_000, NODE_LINE_CHARS), "1767225600000 · lag 24.0 h");
        assert_eq!(raw_and_lag("1767312028999", -86_398_501, NODE_LINE_CHARS), "24.0 h ahead");
        assert_eq!(raw_and_lag("1767312028999", -86_398_501, usize::MAX), "1767312028999 · 24.0 h ahead");
        // A recorded live job's watermark, read months later: the value Flink reported stays.
        assert_eq!(raw_and_lag("1767225600000", 300 * 86_400_000, NODE_LINE_CHARS), "1767225600000");
    }

    /// A window subtask's state count stays inside its node: 12,350,000 states ran past it.
    #[test]
    fn a_node_name_line_fits() {
        assert_eq!(node_name_line("win 0", 1_234, "states"), "win 0 · 1,234 states");
        assert_eq!(node_name_line("win 0", 12_350_000, "states"), "win 0 · 12.4 M states");
        assert_eq!(node_name_line("join 12 · IDLE", 123_456, "buffered"), "join 12 · IDLE · 123 k");
        for n in [0, 9_999, 10_000, 99_950, 999_999, 1_000_000, 12_350_000, 999_999_999, 999_999_999_999] {
            assert!(node_name_line("win 99", n, "states").chars().count() <= NODE_NAME_CHARS, "{n}");
        }
        // …and its title and label say it in full, a two-input join's too.
        assert_eq!(node_holds(123_456, true), "123,456 records buffered");
        assert_eq!(node_holds(12_350_000, false), "12,350,000 (key, window) states, one per key and open window");
        assert_eq!(short_count(999_999), "1000 k");
        assert_eq!(short_count(1_230_000_000), "1.23 G");
        assert_eq!(short_count(10_000), "10.0 k");
    }

    /// The lag's side comes from its sign, the distance is its size: a watermark exactly at
    /// processing time is not ahead, and the most negative lag does not overflow.
    #[test]
    fn a_lag_is_a_distance_and_a_side() {
        assert_eq!(lag_side(2_000), ("2.0 s".to_string(), Side::Behind));
        assert_eq!(lag_side(0), (dur(0), Side::Behind));
        assert_eq!(lag_side(-86_398_501), ("24.0 h".to_string(), Side::Ahead));
        assert_eq!(lag_side(i64::MIN), (dur(i64::MAX), Side::Ahead));
    }

    /// Every duration a field shows reads back as itself ("16.1 s" was refused as a fraction
    /// of a millisecond).
    #[test]
    fn what_the_fields_show_reads_back() {
        for ms in (0..200_000).step_by(100).chain([1, 999, 1_250, 59_999, 3_600_000, 5_400_000]) {
            assert_eq!(parse_duration(&dur_input(ms)), Ok(ms), "{}", dur_input(ms));
            assert_eq!(parse_signed_duration(&dur_input(-ms)), Ok(-ms), "{}", dur_input(-ms));
        }
        assert!(parse_duration("0.5 ms").is_err());
        assert_eq!(parse_duration("1.5 min"), Ok(90_000));
    }

    /// A decimal comma is refused, not read as a thousands separator ("1,5 s" was 15 s).
    #[test]
    fn only_a_thousands_comma_is_a_separator() {
        assert_eq!(parse_duration("1,000 ms"), Ok(1_000));
        assert_eq!(parse_duration("12,345.5 s"), Ok(12_345_500));
        assert_eq!(parse_duration("1_000"), Ok(1_000));
        for bad in ["1,5 s", "+1,5 s", "1,50 s", ",500", "1,0000", "1234,567"] {
            let e = parse_signed_duration(bad).unwrap_err();
            assert!(e.contains("a comma separates thousands"), "{bad}: {e}");
        }
        assert_eq!(parse_int("2,048", 0, 10_000), Ok(2_048));
        assert_eq!(parse_int("-100,000", -200_000, 0), Ok(-100_000));
        assert!(parse_duration("2.000,000 s").unwrap_err().contains("a comma separates thousands"));
        assert!(parse_int("1,5", 0, 100).unwrap_err().contains("a comma separates thousands"));
        assert!(parse_duration("99999999999 h").unwrap_err().contains("at most"));
    }
}
