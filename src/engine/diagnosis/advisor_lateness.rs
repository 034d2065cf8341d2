//! The advisor's allowed lateness: what the late records so far ask for, within the package
//! whose bound the advisor proposes. Apart from `advisor`, which weighs the bound and the idle
//! timeout: lateness depends on the bound (a raised bound takes in records the lateness would
//! otherwise have to), and on nothing else the advisor decides.

use super::advisor::{nice_up, Inputs, Recommendation};
use super::histogram::Histogram;
use crate::engine::time::format_duration;

/// The allowed lateness the late records so far ask for, at the current bound: their P99
/// lateness, rounded up (never below what is set); for a job with no bound to measure against.
fn lateness_needed(lateness: &Histogram, allowed_lateness_ms: i64) -> Option<i64> {
    lateness.quantile(0.99, 0).map(|p99| nice_up(p99.saturating_add(1)).max(allowed_lateness_ms))
}

/// The allowed lateness within the package, whose bound is `bound_ms` (`advised`: a change).
/// The late records' disorder (lateness plus the bound then in force) does not change with
/// the bound: under `bound_ms` each stays late by its disorder minus it, and records it takes
/// in need no lateness on top (the advice offered bound 15 s *and* lateness 15 s for the same
/// records). Read the same way once the bound is applied, the advice stays what it is.
pub(super) fn lateness(i: &Inputs, bound_ms: Option<i64>, advised: bool) -> Recommendation {
    let d = format_duration;
    let cur = Some(i.allowed_lateness_ms);
    let Some(p99) = i.lateness.quantile(0.99, 0) else {
        return Recommendation {
            current_ms: cur,
            recommended_ms: None,
            basis: "no late records so far".into(),
            cost: String::new(),
            not_applied: None,
        };
    };
    let late = format!("{} late records, late by up to {} (P99; the maximum {})", i.lateness.total(), d(p99), d(i.lateness.max()));
    let job_bound = bound_ms.into_iter().chain(i.operator_bound_ms).max();
    let whose = match (job_bound == bound_ms, advised) {
        (false, _) => "the watermark operator's bound",
        (true, true) => "the advised bound",
        (true, false) => "the bound",
    };
    let still_late = job_bound.zip(i.late_disorder.quantile(0.99, 0)).map(|(b, disorder)| (b, disorder.saturating_sub(b)));
    let rec = match still_late {
        Some((b, left)) if left <= 0 => {
            let basis = format!("{late} when they came; {whose} ({}) keeps such records on time", d(b));
            return Recommendation {
                current_ms: cur,
                recommended_ms: Some(i.allowed_lateness_ms),
                basis,
                cost: String::new(),
                not_applied: None,
            };
        }
        Some((_, left)) => nice_up(left).max(i.allowed_lateness_ms),
        None => lateness_needed(i.lateness, i.allowed_lateness_ms).unwrap_or(i.allowed_lateness_ms),
    };
    let basis = match still_late {
        Some((b, left)) if advised => format!("{late} at the current bound; up to {} with {whose} ({})", d(left.saturating_sub(1)), d(b)),
        _ => late,
    };
    let cost = format!("window state is kept {} longer and windows re-fire for late records: the sink must upsert", d(rec));
    Recommendation { current_ms: cur, recommended_ms: Some(rec), basis, cost, not_applied: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Late records 8 s late under a 10 s bound were 18 s out of order: a 15 s bound leaves
    /// them 3 s late, so the package keeps lateness (it said the bound "keeps them on time",
    /// comparing lateness with the data's disorder); records 3 s late are taken in.
    #[test]
    fn a_raised_bound_takes_in_only_the_late_records_within_it() {
        assert_eq!(lateness_with(8_000, None), Some(5_000));
        assert_eq!(lateness_with(3_000, None), Some(0));
    }

    /// A watermark operator with a 20 s bound after one of two inputs: the job's bound stays
    /// 20 s under a 15 s source bound, so records 3 s late stay 3 s late (it asked for 10 s,
    /// subtracting the source's bound from a disorder measured with the operator's).
    #[test]
    fn an_operator_bound_after_one_input_is_the_jobs_bound() {
        assert_eq!(lateness_with(3_000, Some(20_000)), Some(5_000));
    }

    /// The package's allowed lateness with a 15 s source bound advised, for 100 records
    /// `late_ms` late under a 10 s source bound (or the operator's, when larger).
    fn lateness_with(late_ms: i64, operator_bound_ms: Option<i64>) -> Option<i64> {
        let (mut lateness, mut disorder) = (Histogram::default(), Histogram::default());
        let job_bound = operator_bound_ms.unwrap_or(0).max(10_000);
        for _ in 0..100 {
            lateness.add(late_ms);
            disorder.add(late_ms + job_bound + 1);
        }
        let i = Inputs {
            partitions: &[],
            bound_ms: Some(10_000),
            idle_timeouts_ms: &[None],
            interval_ms: 200,
            allowed_lateness_ms: 0,
            window_size_ms: 60_000,
            lateness: &lateness,
            late_disorder: &disorder,
            operator_bound_ms,
            tolerated_delay_ms: None,
            timestamps_broken: false,
            sink_append: true,
            bound_set_after_source: false,
            splitless_subtasks: &[],
            ahead_of_holder: crate::engine::explain::Ahead::NotJudged,
            sql_idle_timeout_ms: None,
        };
        super::lateness(&i, Some(15_000), true).recommended_ms
    }
}
