//! Times as Flink SQL writes them, in ms: duration options (`'60 s'`, `'1 min'`, `'500'` — Flink's
//! `TimeUtils.parseDuration`, a bare number being ms) and interval literals (`INTERVAL '5'
//! SECOND`, `INTERVAL '0.5' SECOND`). Sub-millisecond values are refused: the engine counts ms.

/// `TimeUtils.parseDuration`'s units, in ms per unit (ns and µs need a whole ms).
const UNITS: [(&[&str], f64); 7] = [
    (&["ns", "nano", "nanos", "nanosecond", "nanoseconds"], 1e-6),
    (&["us", "µs", "micro", "micros", "microsecond", "microseconds"], 1e-3),
    (&["", "ms", "milli", "millis", "millisecond", "milliseconds"], 1.0),
    (&["s", "sec", "secs", "second", "seconds"], 1e3),
    (&["min", "m", "minute", "minutes"], 6e4),
    (&["h", "hour", "hours"], 3.6e6),
    (&["d", "day", "days"], 8.64e7),
];

/// A duration option's value in ms (`'60 s'` → 60000), or why it is not one.
pub fn parse_duration(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = (&t[..split], t[split..].trim());
    if digits.is_empty() {
        return Err(format!("'{text}' is not a duration: write a whole number and a unit, e.g. '60 s', '500 ms', '1 min'"));
    }
    let n: i64 = digits.parse().map_err(|_| format!("'{text}' is too large"))?;
    let per = UNITS
        .iter()
        .find(|(names, _)| names.iter().any(|u| u.eq_ignore_ascii_case(unit)))
        .map(|u| u.1)
        .ok_or_else(|| format!("'{unit}' in '{text}' is not a time unit (ms, s, min, h, d)"))?;
    whole_ms(n as f64 * per, text)
}

/// Ms per unit of an interval literal (`SECOND` → 1000).
pub fn interval_unit_ms(unit: &str) -> Result<f64, String> {
    match unit.to_ascii_uppercase().trim_end_matches('S') {
        "SECOND" => Ok(1e3),
        "MINUTE" => Ok(6e4),
        "HOUR" => Ok(3.6e6),
        "DAY" => Ok(8.64e7),
        _ => Err(format!("{unit} is not an interval unit the playground reads (SECOND, MINUTE, HOUR, DAY)")),
    }
}

/// An interval literal's value in ms: `'5'` of a unit of 1000 ms → 5000 (`'0.25'` → 250).
pub fn interval_ms(value: &str, unit_ms: f64) -> Result<i64, String> {
    let v = value.trim();
    let ok = !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.') && v.matches('.').count() <= 1 && !v.starts_with('.');
    if !ok {
        return Err(format!("'{value}' is not an interval value: write a number without a sign, e.g. INTERVAL '5' SECOND"));
    }
    let n: f64 = v.parse().map_err(|_| format!("'{value}' is not a number"))?;
    whole_ms(n * unit_ms, value)
}

fn whole_ms(ms: f64, text: &str) -> Result<i64, String> {
    if !ms.is_finite() || ms > 1e15 {
        return Err(format!("'{text}' is too large"));
    }
    let rounded = ms.round();
    if (ms - rounded).abs() > 1e-9 {
        return Err(format!("'{text}' is not a whole number of milliseconds (the playground counts ms)"));
    }
    Ok(rounded as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flink_duration_strings() {
        assert_eq!(parse_duration("60 s"), Ok(60_000));
        assert_eq!(parse_duration("1min"), Ok(60_000));
        assert_eq!(parse_duration("500"), Ok(500));
        assert_eq!(parse_duration("2 h"), Ok(7_200_000));
        assert_eq!(parse_duration("0 s"), Ok(0));
        assert_eq!(parse_duration("3000000 ns"), Ok(3));
        assert!(parse_duration("1 ns").unwrap_err().contains("whole number of milliseconds"));
        assert!(parse_duration("5 weeks").unwrap_err().contains("not a time unit"));
        assert!(parse_duration("-5 s").unwrap_err().contains("not a duration"));
        assert!(parse_duration("99999999999999999999 s").unwrap_err().contains("too large"));
    }

    #[test]
    fn interval_literals() {
        let ms = |v: &str, u: &str| interval_ms(v, interval_unit_ms(u)?);
        assert_eq!(ms("5", "SECOND"), Ok(5_000));
        assert_eq!(ms("0.001", "second"), Ok(1));
        assert_eq!(ms("1", "MINUTE"), Ok(60_000));
        assert_eq!(ms("2", "HOURS"), Ok(7_200_000));
        assert!(ms("-5", "SECOND").unwrap_err().contains("without a sign"));
        assert!(ms("1", "MONTH").unwrap_err().contains("not an interval unit"));
        assert!(ms("0.0001", "SECOND").unwrap_err().contains("whole number"));
    }
}
