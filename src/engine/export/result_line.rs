//! The exported job's output format, one line per window firing, and the comparison of a real
//! Flink run's output with the playground's results:
//! ```text
//! window key=K start=S end=E count=C sum=S min=M max=X firing=F[ end_of_input]
//! ```
//! `start`/`end` in ms since the epoch (end exclusive), `count/sum/min/max` over the records'
//! values, `firing` the window's firings before this one (0 for the first; re-firings come
//! from allowed lateness or a continuous trigger). ` end_of_input` marks a firing caused by the
//! `Long.MAX_VALUE` watermark Flink emits when the replay ends: the playground only fires those
//! when the scenario sets `end_of_input`.

use crate::engine::operator::sink::WindowResult;
use std::fmt;

/// One window firing as the exported job prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultLine {
    pub key: String,
    pub start: i64,
    pub end: i64,
    pub count: u64,
    pub sum: i64,
    pub min: i64,
    pub max: i64,
    pub firing: u32,
}

/// The suffix of a firing caused by the end of the replay.
pub const END_OF_INPUT: &str = " end_of_input";

impl ResultLine {
    pub fn of(r: &WindowResult, key: &str) -> Self {
        ResultLine {
            key: key.to_string(),
            start: r.start.0,
            end: r.end.0,
            count: r.agg.count,
            sum: r.agg.sum,
            min: r.agg.min,
            max: r.agg.max,
            firing: r.firing,
        }
    }
}

impl fmt::Display for ResultLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "window key={} start={} end={} count={} sum={} min={} max={} firing={}",
            self.key, self.start, self.end, self.count, self.sum, self.min, self.max, self.firing
        )
    }
}

/// The window lines of a Flink run that the playground would have printed, sorted: firings
/// caused by the end of the replay only when the scenario ends its input too (then without the
/// suffix). Other lines (Flink's own logging, late records) are left out.
pub fn comparable(flink_output: &str, end_of_input: bool) -> Vec<String> {
    let mut lines: Vec<String> = flink_output
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("window "))
        .filter_map(|l| match l.strip_suffix(END_OF_INPUT) {
            Some(rest) => end_of_input.then(|| rest.to_string()),
            None => Some(l.to_string()),
        })
        .collect();
    lines.sort();
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_of_input_firings_count_only_when_the_scenario_ends_its_input() {
        let out = "log line\nwindow key=a start=0 end=10 count=1 sum=1 min=1 max=1 firing=0 end_of_input\nwindow key=b start=0 end=10 count=2 sum=2 min=1 max=1 firing=0\n";
        assert_eq!(comparable(out, false), vec!["window key=b start=0 end=10 count=2 sum=2 min=1 max=1 firing=0"]);
        assert_eq!(comparable(out, true).len(), 2);
        assert_eq!(comparable(out, true)[0], "window key=a start=0 end=10 count=1 sum=1 min=1 max=1 firing=0");
    }
}
