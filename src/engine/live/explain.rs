//! Which source subtask holds a live job's minimum watermark, and what its metrics say about
//! why. Only what the answers show: a metric that was not reported is "unknown", and the
//! reading at the end says what the numbers suggest, not what caused them (the REST API shows
//! no records, no partitions and no watermark strategy).

use super::job::{LiveJob, LiveSubtask, LiveVertex};
use crate::engine::time::{describe_watermark, format_duration, EventTime, NO_WATERMARK};
use serde::Serialize;

/// The source subtask with the lowest output watermark, when it is lower than another's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Holder {
    pub vertex_id: String,
    pub vertex_name: String,
    pub subtask: u32,
    pub watermark: i64,
    /// Its split with the lowest watermark, when the source reports per-split watermarks.
    pub split: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LiveExplanation {
    pub holder: Option<Holder>,
    /// One finding per line, the holder first.
    pub lines: Vec<String>,
}

pub(super) fn wm(w: i64) -> String {
    if EventTime(w) == NO_WATERMARK {
        "no watermark yet (Long.MIN_VALUE)".into()
    } else {
        format!("{} ({w})", describe_watermark(EventTime(w)))
    }
}

pub(super) fn unknown_or<T>(v: Option<T>, f: impl FnOnce(T) -> String) -> String {
    v.map_or_else(|| "unknown".into(), f)
}

/// Explains `job`: who holds the watermark and why, then any window's late records.
pub fn explain(job: &LiveJob) -> LiveExplanation {
    let mut e = holder(job);
    e.lines.extend(late(job));
    e
}

/// The holder of the minimum, what the vertices after it read, and what its metrics say.
fn holder(job: &LiveJob) -> LiveExplanation {
    let sources: Vec<(&LiveVertex, &LiveSubtask, i64)> = job
        .vertices
        .iter()
        .filter(|v| v.is_source())
        .flat_map(|v| v.subtasks.iter().filter_map(move |s| Some((v, s, s.output_watermark?))))
        .collect();
    let Some(&(v, s, low)) = sources.iter().min_by_key(|(_, s, w)| (*w, s.index)) else {
        let lines = vec!["Unknown: no source subtask reports currentOutputWatermark yet.".to_string()];
        return LiveExplanation { holder: None, lines };
    };
    let high = sources.iter().map(|x| x.2).max().unwrap_or(low);
    if high == low {
        let mut lines =
            vec![format!("Every source subtask ({}) is at the same watermark: {}; none holds the others back.", sources.len(), wm(low))];
        lines.extend(downstream(job, low));
        return LiveExplanation { holder: None, lines };
    }
    // Its lowest split that counts: one marked idle does not hold the subtask's watermark.
    let counts = |p: &&super::job::LiveSplit| p.watermark.is_some() && !p.idle_ms_per_s.is_some_and(|x| x > 0.0);
    let split = s.splits.iter().filter(counts).min_by_key(|p| p.watermark).map(|p| p.id.clone());
    let holder = Holder { vertex_id: v.id.clone(), vertex_name: v.name.clone(), subtask: s.index, watermark: low, split };
    let (fast_v, fast) = sources.iter().max_by_key(|(_, s, w)| (*w, std::cmp::Reverse(s.index))).map(|x| (x.0, x.1)).unwrap_or((v, s));
    let mut lines = vec![format!(
        "\"{}\" subtask {} holds the watermark: output watermark {}, {} behind subtask {}{} at {}.",
        v.name,
        s.index,
        wm(low),
        behind(low, high),
        fast.index,
        if fast_v.id == v.id { String::new() } else { format!(" of \"{}\"", fast_v.name) },
        wm(high)
    )];
    lines.extend(downstream(job, low));
    lines.extend(why(s, fast));
    LiveExplanation { holder: Some(holder), lines }
}

/// How far `high` is ahead of `low`.
pub(super) fn behind(low: i64, high: i64) -> String {
    if EventTime(low) == NO_WATERMARK {
        "infinitely".into()
    } else {
        format_duration(high.saturating_sub(low))
    }
}

/// What the vertices fed by the sources read as their input watermark, compared with `low`.
fn downstream(job: &LiveJob, low: i64) -> Vec<String> {
    job.vertices
        .iter()
        .filter(|v| !v.is_source())
        .map(|v| {
            let ins: Vec<i64> = v.subtasks.iter().filter_map(|s| s.input_watermark).collect();
            match ins.iter().min() {
                None => format!("\"{}\": input watermark unknown (not reported).", v.name),
                Some(&m) if m == low => {
                    format!("\"{}\": input watermark {} on {} of {} subtasks, equal to the minimum: held back by it.", v.name, wm(m), count(&ins, m), v.parallelism)
                }
                Some(&m) if m < low => {
                    format!("\"{}\": input watermark {} is below every source's: something else holds it (an input not shown, or data in flight).", v.name, wm(m))
                }
                Some(&m) => format!("\"{}\": input watermark {} (above the minimum: the minimum is of a vertex not upstream of it).", v.name, wm(m)),
            }
        })
        .collect()
}

/// The vertices that report late records dropped (`numLateRecordsDropped` > 0).
fn late(job: &LiveJob) -> Vec<String> {
    job.vertices
        .iter()
        .filter_map(|v| {
            let n: i64 = v.subtasks.iter().filter_map(|s| s.late_records_dropped).sum();
            (n > 0).then(|| {
                format!(
                    "\"{}\": {n} late records dropped (numLateRecordsDropped): they arrived after the watermark had passed their window's end (plus allowed lateness).",
                    v.name
                )
            })
        })
        .collect()
}

fn count(xs: &[i64], x: i64) -> usize {
    xs.iter().filter(|&&y| y == x).count()
}

/// How long a source subtask has emitted nothing (`sourceIdleTime`), or that it never did.
pub(super) fn quiet_for(s: &LiveSubtask) -> String {
    let ms = unknown_or(s.source_idle_time_ms, |ms| format!("{} (sourceIdleTime)", format_duration(ms)));
    match s.records_out {
        Some(0) => format!("No record emitted yet (numRecordsOut 0); nothing for {ms}."),
        _ => format!("No record for {ms}."),
    }
}

/// What the holder's metrics say, compared with the fastest subtask's where that helps.
fn why(s: &LiveSubtask, fast: &LiveSubtask) -> Vec<String> {
    let mut lines = vec![
        format!(
            "Records out: {} (subtask {}: {}).",
            unknown_or(s.records_out, |n| n.to_string()),
            fast.index,
            unknown_or(fast.records_out, |n| n.to_string())
        ),
        quiet_for(s),
        format!("Task idle: {}.", unknown_or(s.idle_ms_per_s, |x| format!("{x:.0} ms/s (idleTimeMsPerSecond: waiting for data)"))),
        format!(
            "Back-pressure: {}.",
            unknown_or(s.back_pressured_ms_per_s, |x| if x > 0.0 {
                format!("{x:.0} ms/s: its output is blocked, so it may be slow rather than quiet")
            } else {
                "none (0 ms/s)".into()
            })
        ),
    ];
    for p in &s.splits {
        let idle = match p.idle_ms_per_s {
            None => "idleness unknown".to_string(),
            Some(x) if x > 0.0 => format!("marked idle {x:.0} ms/s: Flink skips it"),
            Some(_) => "not marked idle: it counts in the subtask's minimum".to_string(),
        };
        lines.push(format!("Split {}: watermark {}, {idle}.", p.id, unknown_or(p.watermark, wm)));
    }
    lines.extend(reading(s, fast));
    lines
}

/// The one-line reading, only when the metrics agree: few records, long quiet, no back-pressure.
fn reading(s: &LiveSubtask, fast: &LiveSubtask) -> Option<String> {
    let quiet = s.source_idle_time_ms? >= 1000 && s.back_pressured_ms_per_s? == 0.0;
    let fewer = s.records_out? < fast.records_out?;
    let not_idle = s.splits.iter().all(|p| p.idle_ms_per_s == Some(0.0));
    // One that never emitted has no last watermark to hold with: its Long.MIN_VALUE does.
    let (what, holds) = match (s.records_out, s.output_watermark.filter(|&w| EventTime(w) != NO_WATERMARK)) {
        (Some(0), _) => ("has received no data yet", "having no watermark yet (Long.MIN_VALUE), it holds"),
        (Some(_), None) => ("has emitted records but has no watermark yet (a split that never received data?)", "its Long.MIN_VALUE holds"),
        (None, None) => ("has no watermark yet", "its Long.MIN_VALUE holds"),
        (_, Some(_)) => ("has stopped receiving data", "its last watermark holds"),
    };
    (quiet && fewer && not_idle).then(|| {
        format!(
            "Reading: this subtask {what} and none of its splits is marked idle, so {holds} every downstream event-time window. \
             Idleness (WatermarkStrategy.withIdleness, scan.watermark.idle-timeout or table.exec.source.idle-timeout) would let \
             the others advance."
        )
    })
}
