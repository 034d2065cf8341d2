//! Where the charts put their grid lines and what the tick labels say. One rule for every
//! chart (timeline, state size): a label shows exactly the precision its step needs, so two
//! ticks never read the same ("00:00:00" four times at 200 ms steps), and event-time labels
//! name the day when the view crosses midnight and fit the chart's label column at any year.
//! No DOM: the rules are tested natively.

use super::format::wm_human;
use crate::engine::time::format_utc;

const DAY: i64 = 86_400_000;

/// The axis titles, the same on every chart.
pub const PROC_AXIS_TITLE: &str = "processing time since the job started (hh:mm:ss) →";
/// The processing-time title of a plot under 560 px wide (a phone), where the long one is cut.
pub const PROC_AXIS_TITLE_NARROW: &str = "processing time since start (hh:mm:ss) →";
pub const EVENT_AXIS_TITLE: &str = "event time (UTC) →";

/// A round step such that a span holds at most about seven of them.
pub fn nice_step(span: i64) -> i64 {
    const STEPS: &[i64] = &[
        100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
        7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
    ];
    STEPS.iter().copied().find(|&s| s * 7 >= span).unwrap_or(DAY * ((span / DAY / 7).max(1)))
}

/// The multiples of `step` strictly inside `(lo, hi)`.
fn multiples(lo: i64, hi: i64, step: i64) -> impl Iterator<Item = i64> {
    let first = lo.div_euclid(step).saturating_add(1).saturating_mul(step);
    (0..).map(move |k: i64| first.saturating_add(k.saturating_mul(step))).take_while(move |&t| t < hi && t > lo)
}

/// Processing-time ticks in `(t0, t1)` every `step` of time since `start`, labelled with it;
/// none before the job started (there is nothing to read there).
pub fn proc_ticks(t0: i64, t1: i64, step: i64, start: i64) -> Vec<(i64, String)> {
    multiples((t0 - start).max(-1), t1 - start, step).map(|d| (start + d, proc_label(d, step))).collect()
}

/// `hh:mm:ss` as the page's clock writes it (`engine::time::format_elapsed`), with tenths
/// when the step is under a second.
fn proc_label(d: i64, step: i64) -> String {
    let hms = format!("{:02}:{:02}:{:02}", d / 3_600_000, d / 60_000 % 60, d / 1000 % 60);
    if step % 1000 == 0 {
        hms
    } else {
        format!("{hms}.{}", d % 1000 / 100)
    }
}

/// Event-time ticks in `(e0, e1)` every `step`.
pub fn event_ticks(e0: i64, e1: i64, step: i64, now: i64) -> Vec<(i64, String)> {
    let crosses_midnight = e0.div_euclid(DAY) != e1.div_euclid(DAY);
    multiples(e0, e1, step).map(|e| (e, event_label(e, step, crosses_midnight, now))).collect()
}

/// The date of the lowest event-time tick, to write over its label when no label there names
/// it: times of day alone never said on which day the scenario runs (2026-01-01). A tick at
/// midnight further up names the next day itself (`event_label`).
pub fn first_tick_date(ticks: &[(i64, String)]) -> Option<(i64, String)> {
    let (e, label) = ticks.first()?;
    let utc = format_utc(*e);
    let (date, _) = utc.rsplit_once(' ')?;
    // "01-01 22:00" (hour ticks across midnight) names the day already.
    let month_day = date.get(date.len().saturating_sub(5)..).unwrap_or(date);
    (!label.contains(date) && !label.starts_with(month_day)).then(|| (*e, date.to_string()))
}

/// A day's date when steps are days; `MM-DD hh:mm` for hour steps across midnight (the reader
/// needs the day; a span of a day or more has steps of hours, so a time of day alone could
/// repeat); the new day's date at a midnight tick of shorter steps; the time of day otherwise,
/// with milliseconds under a second.
fn event_label(e: i64, step: i64, crosses_midnight: bool, now: i64) -> String {
    let utc = format_utc(e);
    let Some((date, time)) = utc.rsplit_once(' ') else { return wm_human(e, now) };
    let month_day = &date[date.len().saturating_sub(5)..];
    match () {
        _ if step % DAY == 0 => date.to_string(),
        _ if crosses_midnight && step >= 3_600_000 => format!("{month_day} {}", &time[..5]),
        _ if e.rem_euclid(DAY) == 0 => date.to_string(),
        _ if step % 1000 == 0 => time[..8].to_string(),
        _ => time.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(ticks: &[(i64, String)]) -> Vec<&str> {
        ticks.iter().map(|(_, l)| l.as_str()).collect()
    }

    fn all_distinct(ticks: &[(i64, String)]) -> bool {
        let mut l = labels(ticks);
        l.sort_unstable();
        l.windows(2).all(|w| w[0] != w[1])
    }

    #[test]
    fn sub_second_processing_ticks_show_tenths_and_never_repeat() {
        let start = 1_000_000;
        let step = nice_step(1_000);
        let t = proc_ticks(start - 300, start + 1_000, step, start);
        assert_eq!(labels(&t), ["00:00:00.0", "00:00:00.2", "00:00:00.4", "00:00:00.6", "00:00:00.8"]);
        assert!(all_distinct(&t));
    }

    #[test]
    fn no_processing_tick_before_the_job_started() {
        let t = proc_ticks(-10_000, 10_000, 5_000, 0);
        assert_eq!(labels(&t), ["00:00:00", "00:00:05"]);
    }

    #[test]
    fn event_ticks_name_the_day_when_the_view_crosses_midnight() {
        let midnight = 20_000 * DAY;
        let t = event_ticks(midnight - 3 * 3_600_000, midnight + 3 * 3_600_000, 3_600_000, midnight);
        assert!(all_distinct(&t), "{t:?}");
        assert!(labels(&t).iter().all(|l| l.len() == 11), "{t:?}");
        let t = event_ticks(midnight - 10 * DAY, midnight + 10 * DAY, nice_step(20 * DAY), midnight);
        assert!(all_distinct(&t) && labels(&t).iter().all(|l| l.len() == 10), "{t:?}");
    }

    #[test]
    fn the_lowest_tick_carries_the_date_and_a_midnight_tick_the_next_one() {
        let jan1 = 1_767_225_600_000; // 2026-01-01 00:00 UTC
        let t = event_ticks(jan1 + 60_000, jan1 + 120_000, 10_000, jan1);
        assert_eq!(first_tick_date(&t), Some((jan1 + 70_000, "2026-01-01".to_string())));
        assert_eq!(labels(&t)[0], "00:01:10");
        let t = event_ticks(jan1 + DAY - 30_000, jan1 + DAY + 30_000, 10_000, jan1);
        assert_eq!(labels(&t), ["23:59:40", "23:59:50", "2026-01-02", "00:00:10", "00:00:20"]);
        assert_eq!(first_tick_date(&t), Some((jan1 + DAY - 20_000, "2026-01-01".to_string())));
        // A label that is the date needs no date over it.
        let t = event_ticks(jan1 - 5_000, jan1 + 20_000, 10_000, jan1);
        assert_eq!(labels(&t)[0], "2026-01-01");
        assert_eq!(first_tick_date(&t), None);
        let t = event_ticks(jan1 - DAY, jan1 + 7 * DAY, DAY, jan1);
        assert_eq!(first_tick_date(&t), None);
        // Hour ticks across midnight name the day in their labels already.
        let t = event_ticks(jan1 - 6 * 3_600_000, jan1 + 6 * 3_600_000, 3_600_000, jan1);
        assert!(labels(&t)[0].starts_with("12-31"), "{t:?}");
        assert_eq!(first_tick_date(&t), None);
    }

    #[test]
    fn any_span_and_any_year_gives_distinct_labels_that_fit_the_label_column() {
        // The column is ~12 monospace characters wide.
        for &center in &[0, 1_700_000_000_000, -358_000_000_000_000, 250_000_000_000_000] {
            for &span in &[700, 9_000, 600_000, 7_200_000, 2 * DAY, 40 * DAY] {
                let t = event_ticks(center - span / 2, center + span / 2, nice_step(span), center);
                assert!(!t.is_empty() && all_distinct(&t), "{center} {span}: {t:?}");
                assert!(labels(&t).iter().all(|l| l.chars().count() <= 12), "{center} {span}: {t:?}");
            }
        }
    }

    #[test]
    fn the_year_minus_9382_reads_as_a_date() {
        let e = -358_000_000_000_000;
        let t = event_ticks(e - 20 * DAY, e + 20 * DAY, nice_step(40 * DAY), e);
        let shape = |l: &str| l.len() == 11 && l.starts_with('-') && l[1..].split('-').count() == 3;
        assert!(t.iter().all(|(_, l)| shape(l)), "{t:?}");
    }
}
