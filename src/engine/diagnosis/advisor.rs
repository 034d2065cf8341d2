//! The advisor for the three parameters people set blind (seed 002 §2.3, seed 000 §7): the
//! out-of-orderness bound, the idle timeout and allowed lateness, from what the simulation
//! observed — disorder per partition, gaps between records, the lateness of late records —
//! with the constraints each must meet and what each choice costs, and one action per change.
//!
//! The constraints are seed 002's: idle timeout > a partition's normal gaps (about twice their
//! P99), > the emission interval (it is checked only then), > twice the bound, and ≤ the delay
//! the user tolerates (by default one window); its rule of thumb, ≤ a third of the window, is
//! met too when a round value allows; bound ≈ a disorder quantile (P99 here).
//! Allowed lateness, which rests on the advised bound, is in `advisor_lateness`; what the
//! partitions say about silence, in `advisor_silence`.

use super::advisor_lateness::lateness;
use super::advisor_silence::{holds_silently, idleness_cannot_act, nothing_ahead_of, silent_with_nothing_ahead};
use super::classify::{PartitionClass, PartitionFacts};
use super::histogram::Histogram;
use crate::engine::explain::Ahead;
use crate::engine::session::action::Action;
use crate::engine::time::{format_duration, END_OF_TIME};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Recommendation {
    pub current_ms: Option<i64>,
    /// `None` when there is not enough data to recommend anything.
    pub recommended_ms: Option<i64>,
    /// What the recommendation rests on.
    pub basis: String,
    /// What the recommended value costs (delay, drops, state).
    pub cost: String,
    /// Why "Apply advice" (`Advice::actions`) leaves this change out: it changes nothing now,
    /// meets no value's constraints, or idleness cannot act in this job. `None` when the change
    /// is applied, or there is none. The UI and the API read the same reason.
    pub not_applied: Option<String>,
}

/// One of seed 002's constraints on the idle timeout, and whether a value meets it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Constraint {
    pub text: String,
    /// Whether the current setting meets it.
    pub current_ok: bool,
    /// Whether the recommended setting meets it.
    pub recommended_ok: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Advice {
    pub bound: Recommendation,
    pub idle_timeout: Recommendation,
    pub allowed_lateness: Recommendation,
    /// The idle timeout to set with the bound left as it is: what a finding's fix offers.
    /// Fitted to the set bound when the advice changes it (alone, one fitted to a lower
    /// advised bound broke "more than twice the bound"); the package's otherwise.
    pub idle_timeout_alone_ms: Option<i64>,
    /// The allowed lateness to set with the bound left as it is: what the late findings offer.
    pub allowed_lateness_alone_ms: Option<i64>,
    /// The delay the idle timeout may add (set by the user, or one window).
    pub tolerated_delay_ms: i64,
    pub constraints: Vec<Constraint>,
    /// The changes that apply the advice, in one click (empty when it is what is set).
    pub actions: Vec<crate::engine::session::action::Action>,
}

/// Records with real data before the disorder says anything about a bound.
pub const MIN_RECORDS: u64 = 100;

/// Records older than this many windows on arrival are history (a backfill), as the window
/// state finding reads them.
pub const HISTORY_WINDOWS: i64 = 10;

/// Whether records `age_ms` old on arrival are history (a backfill) for windows of `window_ms`.
pub fn reads_history(age_ms: i64, window_ms: i64) -> bool {
    age_ms > history_age_ms(window_ms)
}

/// The age on arrival above which records are history, for windows of `window_ms`.
#[inline]
pub fn history_age_ms(window_ms: i64) -> i64 {
    HISTORY_WINDOWS.saturating_mul(window_ms.max(1))
}

/// What the advisor reads.
pub struct Inputs<'a> {
    pub partitions: &'a [PartitionFacts],
    pub bound_ms: Option<i64>,
    /// Each source's idle timeout (one per input, never empty): setting it sets them all, so
    /// with two sources that differ the advice always proposes one value for both.
    pub idle_timeouts_ms: &'a [Option<i64>],
    pub interval_ms: i64,
    pub allowed_lateness_ms: i64,
    pub window_size_ms: i64,
    pub lateness: &'a Histogram,
    /// The late records' lateness plus the job's bound then in force (`LateRecords::disorder`).
    pub late_disorder: &'a Histogram,
    /// The largest bound of a watermark operator after a source: with it after only one
    /// input, the job's bound under an advised source bound is the larger of the two.
    pub operator_bound_ms: Option<i64>,
    pub tolerated_delay_ms: Option<i64>,
    /// A far-future timestamp or a unit mistake was found: the measured disorder and
    /// lateness are the broken timestamps', not the data's.
    pub timestamps_broken: bool,
    /// The sink appends: allowed lateness then needs an upsert sink too.
    pub sink_append: bool,
    /// A watermark operator after every source decides the watermark: a bound for the
    /// sources' strategy would change nothing, so none is advised.
    pub bound_set_after_source: bool,
    /// Source subtasks (as the views name them) that own no split and that only an idle
    /// timeout marks idle (`Simulation::subtasks_waiting_without_split`): each holds the
    /// watermark as a silent partition does.
    pub splitless_subtasks: &'a [String],
    /// What idleness would release the watermark to (`Explanation::ahead`): with nothing, an
    /// idle timeout changes nothing now.
    pub ahead_of_holder: Ahead,
    /// SQL's watermark operator after every source decides idleness: its
    /// `table.exec.source.idle-timeout` (`None` inside: off) is what the advice sets.
    pub sql_idle_timeout_ms: Option<Option<i64>>,
}

impl Inputs<'_> {
    /// The delay the user tolerates; a window (at least a second) unless they said.
    fn tolerated_ms(&self) -> i64 {
        self.tolerated_delay_ms.unwrap_or(self.window_size_ms.max(1_000))
    }
}

pub fn advise(i: &Inputs) -> Advice {
    if i.timestamps_broken {
        return wait_for_timestamps(i);
    }
    let tolerated = i.tolerated_ms();
    let bound = if i.bound_set_after_source { bound_not_advised(i) } else { bound(i) };
    // Against the advised bound: the advice is one package, and applying it is a fixed
    // point (asked again, the advisor proposes what is set).
    let idle_for = |b: Option<i64>| match i.sql_idle_timeout_ms {
        Some(current) => sql_operator_idle_timeout(i, b.unwrap_or(0), tolerated, current),
        None => idle_timeout(i, b.unwrap_or(0), tolerated),
    };
    let (idle_timeout, constraints) = idle_for(bound.recommended_ms.or(i.bound_ms));
    let changes_bound = bound.recommended_ms.is_some_and(|b| Some(b) != i.bound_ms);
    let idle_timeout_alone_ms = if changes_bound { idle_for(i.bound_ms).0.recommended_ms } else { idle_timeout.recommended_ms };
    let mut idle_timeout = idle_timeout;
    // The WHY panel's fix is the timeout at the set bound: the row says why the package's
    // differs (5 s beside a fix of 15 s read as two answers, in two walks). With nothing silent
    // no finding offers one, and the row named a fix that was not there (late data); nor when
    // it is what every source has set already (the findings offer no fix then).
    let offered = |a: i64| holds_silently(i) && !i.idle_timeouts_ms.iter().all(|&c| c == Some(a));
    if let Some((alone, set)) =
        idle_timeout_alone_ms.zip(i.bound_ms).filter(|&(a, _)| changes_bound && Some(a) != idle_timeout.recommended_ms && offered(a))
    {
        idle_timeout.basis += &as_it_is(set, "it needs", alone, "the WHY panel's fix");
    }
    let mut allowed_lateness = lateness(i, bound.recommended_ms.or(i.bound_ms), changes_bound);
    // Offered alone, with the bound as it is: after a raised bound's records it keeps what is set.
    let allowed_lateness_alone_ms =
        if changes_bound { lateness(i, i.bound_ms, false).recommended_ms } else { allowed_lateness.recommended_ms };
    // The same rule at the set bound is what the late-records finding offers: the row says why
    // the package's value differs ("0 (keep)" beside a finding offering 15 s read as a contradiction).
    if let Some((alone, set)) =
        allowed_lateness_alone_ms.zip(i.bound_ms).filter(|&(a, _)| changes_bound && Some(a) != allowed_lateness.recommended_ms)
    {
        allowed_lateness.basis += &as_it_is(set, "they need", alone, "the late-records finding");
    }
    let mut actions = Vec::new();
    if let Some(b) = bound.recommended_ms.filter(|&b| Some(b) != i.bound_ms) {
        actions.push(Action::Bound(b));
    }
    let set_now = i.sql_idle_timeout_ms.as_ref().map_or(i.idle_timeouts_ms, std::slice::from_ref);
    // A change that does nothing now or meets no constraint is shown, not applied (`not_applied`).
    if let Some(t) = idle_timeout.recommended_ms.filter(|&t| idle_timeout.not_applied.is_none() && set_now.iter().any(|&c| c != Some(t))) {
        actions.push(Action::IdleTimeout(Some(t)));
    }
    if let Some(l) = allowed_lateness.recommended_ms.filter(|&l| l != i.allowed_lateness_ms) {
        actions.push(Action::AllowedLateness(l));
        if i.sink_append && l > 0 {
            actions.push(Action::Sink(crate::engine::operator::sink::SinkMode::Upsert));
        }
    }
    Advice {
        bound,
        idle_timeout,
        idle_timeout_alone_ms,
        allowed_lateness,
        allowed_lateness_alone_ms,
        tolerated_delay_ms: tolerated,
        constraints,
        actions,
    }
}

/// What a value is with the bound left as it is (`set`), which is what a finding offers alone
/// (`by`): the package's value goes with the bound it advises.
fn as_it_is(set: i64, need: &str, alone: i64, by: &str) -> String {
    format!("; with the bound as it is ({}) {need} {}, which is what {by} offers alone", format_duration(set), format_duration(alone))
}

/// The partitions whose records are real data (heartbeats and empty ones say nothing about
/// disorder or normal gaps).
fn data_partitions<'a>(i: &'a Inputs) -> impl Iterator<Item = &'a PartitionFacts> + 'a {
    // A split whose maximum is far ahead of processing time (a far-future record) measures
    // the outlier, not the data.
    i.partitions
        .iter()
        .filter(move |p| p.records > 0 && p.heartbeats * 2 <= p.records && p.class != PartitionClass::Removed && !far_future(p))
}

fn bound(i: &Inputs) -> Recommendation {
    let p99 = data_partitions(i).filter_map(|p| p.disorder_p99_ms).max();
    let max = data_partitions(i).filter_map(|p| p.disorder_max_ms).max();
    let d = format_duration;
    let records: u64 = data_partitions(i).map(|p| p.records).sum();
    let (Some(p99), true) = (p99, records >= MIN_RECORDS) else {
        let basis = format!("too few records yet to measure disorder ({records}, at least {MIN_RECORDS})");
        return Recommendation { current_ms: i.bound_ms, recommended_ms: None, basis, cost: String::new(), not_applied: None };
    };
    let rec = nice_up(p99);
    // A backfill reads history in order: that says nothing of the live disorder to come, and
    // lowering the bound to it (30 s → 0 in a replay) would drop live records later.
    // History read stays in the disorder measured after the job caught up, until live records
    // outnumber it (`history_delay_ms`).
    let now = data_partitions(i).filter_map(|p| p.data_delay_ms).filter(|&a| reads_history(a, i.window_size_ms)).max();
    let read = data_partitions(i).filter_map(|p| p.history_delay_ms).max();
    let history = match (now, read) {
        (Some(age), _) => Some(format!("records arrive up to {} old: the job reads history", d(age))),
        (None, Some(age)) => Some(format!("records arrived up to {} old: the job read history", d(age))),
        (None, None) => None,
    };
    if let (Some(history), Some(cur)) = (history, i.bound_ms.filter(|&b| rec < b)) {
        let basis =
            format!("{history}, whose order ({} out of order at P99, measured over it) says nothing of the live disorder to come", d(p99));
        return Recommendation { current_ms: i.bound_ms, recommended_ms: Some(cur), basis, cost: String::new(), not_applied: None };
    }
    Recommendation {
        current_ms: i.bound_ms,
        recommended_ms: Some(rec),
        basis: format!(
            "records come up to {} out of order (P99 of max_ts − ts over the partitions; the maximum {})",
            d(p99),
            d(max.unwrap_or(p99))
        ),
        cost: format!(
            "each window closes about {} after its end; records more out of order than that are late",
            // A watermark operator's larger bound after another input holds the windows longer.
            d(rec.max(i.operator_bound_ms.unwrap_or(0)).saturating_add(i.interval_ms))
        ),
        not_applied: None,
    }
}

fn idle_timeout(i: &Inputs, bound_ms: i64, tolerated: i64) -> (Recommendation, Vec<Constraint>) {
    let d = format_duration;
    let gap = data_partitions(i).filter_map(|p| p.gap_p99_ms).max();
    let longest = data_partitions(i).filter_map(|p| p.gap_max_ms).max();
    let twice = |v: i64| v.saturating_mul(2);
    let gap2 = twice(gap.unwrap_or(0));
    let lower = [gap2.saturating_add(1), twice(i.interval_ms) + 1, twice(bound_ms).saturating_add(1)].into_iter().max().unwrap_or(1);
    // What must hold (the rule of thumb is shown, not enforced).
    let hard = |t: i64| t > gap2 && t > i.interval_ms && t > twice(bound_ms) && t <= tolerated;
    let all = i.idle_timeouts_ms;
    let same = all.iter().all(|t| *t == all[0]);
    // A timeout that already meets every constraint stays: the advice does not churn.
    // Within the rule of thumb if a round value allows, else within the tolerated delay.
    let fit = |upper: i64| Some(round_between(lower, upper)).filter(|&t| t <= upper);
    let third = i.window_size_ms / 3;
    let kept = all[0].filter(|&t| same && hard(t) && i.interval_ms > 0);
    let rec = (i.interval_ms > 0)
        .then(|| kept.or_else(|| fit(tolerated.min(third))).or_else(|| fit(tolerated)).unwrap_or_else(|| nice_up(lower)));
    // What the advice changes: with sources that differ, one of theirs that is not the advice.
    let cur = all.iter().copied().find(|&t| t != rec).unwrap_or(all[0]);
    let mut constraints =
        vec![constraint(format!("longer than the partitions' normal gaps: > 2 × P99 gap = {}", d(gap2)), all, rec, &|t| t > gap2)];
    constraints.extend(common_constraints(i, bound_ms, tolerated, all, rec, false));
    let mut basis = match (gap, rec) {
        (_, None) => "the auto-watermark interval is 0, so no idle timeout is ever checked".to_string(),
        (Some(g), Some(_)) => format!(
            "records of the partitions with data are {} apart at P99 (the longest gap {}), the interval is {}, the bound {}",
            d(g),
            d(longest.unwrap_or(g)),
            d(i.interval_ms),
            d(bound_ms)
        ),
        (None, Some(_)) => format!("no gaps measured yet; the interval is {}, the bound {}", d(i.interval_ms), d(bound_ms)),
    };
    if let Some(t) = kept.filter(|&t| t > third) {
        // A "keep" beside a ✗ on the rule of thumb read as a contradiction: say why it stays.
        basis += &match fit(tolerated.min(third)) {
            Some(within) => format!(
                "; {} is kept although above the rule of thumb (≤ {}): a set timeout that meets every constraint stays (in Flink a change means a restart), though {} would meet the rule too",
                d(t),
                d(third),
                d(within)
            ),
            None => format!(
                "; {} is kept although above the rule of thumb (≤ {}): the gaps, the interval and the bound require more than {}, so no value meets it",
                d(t),
                d(third),
                d(lower.saturating_sub(1))
            ),
        };
    }
    let silent = holds_silently(i);
    if let Some((last, first)) = i.splitless_subtasks.split_last() {
        basis += &match first {
            [] => format!("; source subtask {last} owns no partition, and an idle timeout lets it go idle as it does a silent partition"),
            _ => format!(
                "; source subtasks {} and {last} own no partition, and an idle timeout lets them go idle as it does a silent partition",
                first.join(", ")
            ),
        };
    }
    if rec.is_some() && !silent {
        // A backfill's advice read as the fix beside a WHY panel that names another one.
        basis += &if silent_with_nothing_ahead(i) {
            format!("; {}, so it changes nothing now", nothing_ahead_of(i, "the silent partitions holding the watermark"))
        } else {
            "; no partition is silent now, so it changes nothing until one goes silent".to_string()
        };
    }
    if !same {
        basis += "; the sources' idle timeouts differ (";
        for (n, t) in all.iter().enumerate() {
            basis += if n == 0 { "" } else { " and " };
            basis += &t.map_or_else(|| "none".into(), d);
        }
        basis += "), and the advice sets one for both";
    }
    let cannot_act = idleness_cannot_act(i);
    let cost = rec.map_or(String::new(), |t| {
        let conflict = if t > tolerated {
            "; no value meets every constraint: this one is above the delay you tolerate, which the gaps and the bound require"
        } else {
            ""
        };
        // Where idleness cannot release windows, "holds windows up to …" promised what it cannot do.
        let hold = cannot_act.clone().unwrap_or_else(|| {
            format!(
                "a silent partition holds windows up to {} (the timeout plus up to three watermark intervals) before it is excluded",
                d(t.saturating_add(i.interval_ms.saturating_mul(3)))
            )
        });
        format!("{hold}{conflict}")
    });
    // "Apply advice" applies what acts now and meets the constraints; the rest is shown only.
    // Turning idleness on while nothing is silent changes nothing now (a backfill's only advice
    // read as the fix); a timeout already set is corrected all the same, since the value in force
    // is what acts the moment a partition goes silent.
    let changes = rec.is_some_and(|t| all.iter().any(|&c| c != Some(t)));
    // Whether it only turns idleness on where it is off: it corrects no timeout in force.
    let only_turns_on = |t: i64| all.iter().all(|&c| c.is_none() || c == Some(t));
    let not_applied = rec.filter(|_| changes).and_then(|t| {
        // Judged on the sources' gaps, it would set the operators' timeout too: the findings
        // offer the operator's own fix (SQL's operator has its own advice).
        if i.bound_set_after_source && i.sql_idle_timeout_ms.is_none() {
            Some("the watermark operator after the source decides idleness; the WHY panel's fix gives it its own withIdleness".to_string())
        } else if cannot_act.is_some() {
            Some("idleness cannot release windows in this job now (see its cost)".to_string())
        } else if silent_with_nothing_ahead(i) && only_turns_on(t) {
            // Before the constraints, as below; and with a source that has this timeout already
            // (two sources, one with a timeout: it turned the other's on, which moves nothing).
            Some(format!("it changes nothing now: {}", nothing_ahead_of(i, "the silent partitions")))
        } else if !silent && only_turns_on(t) {
            // Before the constraints: with nothing silent, a value meeting them would not be
            // applied either (late data read "no value meets every constraint" as the reason).
            Some("it changes nothing now: no partition is silent".into())
        } else if !hard(t) {
            Some(format!("no value meets every constraint: {} is above the delay you tolerate ({})", d(t), d(tolerated)))
        } else {
            None
        }
    });
    (Recommendation { current_ms: cur, recommended_ms: rec, basis, cost, not_applied }, constraints)
}

/// Seed 002's constraints but the gaps': the interval, twice the bound, the tolerated delay
/// and the rule of thumb. SQL's watermark operator (`sql`) checks idleness on a timer of its
/// own, also with the interval at 0 (reference §10.1): no interval row, and a row holds the job
/// for the timeout plus that timer's interval.
fn common_constraints(i: &Inputs, bound_ms: i64, tolerated: i64, current: &[Option<i64>], rec: Option<i64>, sql: bool) -> Vec<Constraint> {
    let d = format_duration;
    let twice = bound_ms.saturating_mul(2);
    let mut rows = Vec::with_capacity(4);
    let tolerated_row = if sql {
        constraint(format!("a row's hold (timeout + timer) within the delay you tolerate: ≤ {}", d(tolerated)), current, rec, &|t| {
            sql_hold_ms(i.interval_ms, t) <= tolerated
        })
    } else {
        constraint(format!("within the delay you tolerate: ≤ {}", d(tolerated)), current, rec, &|t| t <= tolerated)
    };
    if !sql {
        rows.push(constraint(format!("longer than the emission interval ({}), which checks it", d(i.interval_ms)), current, rec, &|t| {
            t > i.interval_ms && i.interval_ms > 0
        }));
    }
    rows.extend([
        constraint(format!("more than twice the bound: > {}", d(twice)), current, rec, &|t| t > twice),
        tolerated_row,
        constraint(format!("rule of thumb: ≤ a third of the window ({})", d(i.window_size_ms / 3)), current, rec, &|t| {
            t <= i.window_size_ms / 3
        }),
    ]);
    rows
}

/// The `table.exec.source.idle-timeout` to propose for SQL's watermark operator: half the
/// delay the user tolerates (each row can hold the job for the timeout).
pub(crate) fn sql_idle_timeout_ms(tolerated_delay_ms: i64) -> i64 {
    (tolerated_delay_ms / 2).max(1)
}

/// SQL's watermark operator goes idle after the timeout without rows, and any row makes it
/// active again: each row can hold the job for the timeout, so half the tolerated delay. Its
/// rows' gaps are no constraint (flapping is the price, and harmless here), so the table has
/// no row for them; nor for the interval: the operator checks idleness on a timer of its own,
/// also with the interval at 0 (reference §10.1). The others are judged on the operator's
/// timeout, not the sources'.
fn sql_operator_idle_timeout(i: &Inputs, bound_ms: i64, tolerated: i64, current: Option<i64>) -> (Recommendation, Vec<Constraint>) {
    // A set timeout above twice the bound whose hold is within the tolerated delay stays.
    let keeps = |c: i64| c > bound_ms.saturating_mul(2) && sql_hold_ms(i.interval_ms, c) <= tolerated;
    let t = current.filter(|&c| keeps(c)).unwrap_or(sql_idle_timeout_ms(tolerated));
    let rec = Recommendation {
        current_ms: current,
        recommended_ms: Some(t),
        basis: "SQL's watermark operator goes idle after the timeout without rows and any row makes it active again: each row can hold the job for the timeout and one check of its timer (the timeout itself with the interval at 0), so half the tolerated delay".into(),
        cost: format!(
            "the operator flips idle/active with sparse rows; each row holds the job for up to {}",
            format_duration(sql_hold_ms(i.interval_ms, t))
        ),
        not_applied: None,
    };
    (rec, common_constraints(i, bound_ms, tolerated, &[current], Some(t), true))
}

/// How long one row can hold the job behind SQL's watermark operator with idle timeout `t`:
/// the operator notes activity at its next timer after the row, and goes idle at the first
/// timer `t` after that (reference §10.1).
fn sql_hold_ms(interval_ms: i64, t: i64) -> i64 {
    t.saturating_add(crate::engine::operator::watermark_assigner::timer_interval(interval_ms, t).unwrap_or(t))
}

/// A constraint, met by the current setting when every source's timeout meets it.
fn constraint(text: String, current: &[Option<i64>], rec: Option<i64>, ok: &dyn Fn(i64) -> bool) -> Constraint {
    Constraint { text, current_ok: current.iter().all(|c| c.is_some_and(ok)), recommended_ok: rec.is_some_and(ok) }
}

fn bound_not_advised(i: &Inputs) -> Recommendation {
    Recommendation {
        current_ms: i.bound_ms,
        recommended_ms: None,
        basis: "the watermark operator after the source decides the watermark; its delay is set there, not in the source's strategy".into(),
        cost: String::new(),
        not_applied: None,
    }
}

/// No advice while timestamps are broken: it would be advice for the outlier. Nor while a
/// generator's Long.MAX_VALUE has closed every window: every later record is late whatever the
/// three are, and the fault is the generator, not the timestamps (they read "fix the timestamps").
fn wait_for_timestamps(i: &Inputs) -> Advice {
    let basis = if generator_emitted_max(i) {
        "fix the watermark generator first: it emitted Long.MAX_VALUE (the timestamps are fine), so every window is closed and whatever comes later is late, whatever the bound, idle timeout or lateness; the WHY panel's fix, withIdleness instead, lets a silent split go idle"
    } else {
        "fix the timestamps first: what was measured is the broken timestamps, not the data"
    };
    let none =
        |current_ms| Recommendation { current_ms, recommended_ms: None, basis: basis.into(), cost: String::new(), not_applied: None };
    Advice {
        bound: none(i.bound_ms),
        // SQL's operator's timeout, where it decides idleness (the sources' says nothing then).
        idle_timeout: none(i.sql_idle_timeout_ms.unwrap_or(i.idle_timeouts_ms[0])),
        idle_timeout_alone_ms: None,
        allowed_lateness_alone_ms: None,
        allowed_lateness: none(Some(i.allowed_lateness_ms)),
        tolerated_delay_ms: i.tolerated_ms(),
        constraints: Vec::new(),
        actions: Vec::new(),
    }
}

/// Whether a split's own watermark is Long.MAX_VALUE while no record is far ahead: only its
/// generator puts it there (a record's timestamp leaves it the bound below, and the end of input
/// goes out of the subtask's output, not a split's), so the timestamps are not what is broken.
fn generator_emitted_max(i: &Inputs) -> bool {
    i.partitions.iter().any(|p| p.watermark == Some(END_OF_TIME)) && !i.partitions.iter().any(far_future)
}

/// A split whose maximum is far ahead of processing time (a far-future record, or milliseconds
/// read as seconds).
fn far_future(p: &PartitionFacts) -> bool {
    p.data_delay_ms.is_some_and(|d| d < -crate::engine::diagnosis::diagnose::FAR_FUTURE_MS)
}

/// The round value for at least `lower` that also stays within `upper` when one does: the next
/// [`nice_up`] value, or a finer one (whole half seconds below 10 s, 5 s below a minute, half
/// minutes below 10 min) when that one is over `upper`. The next nice value after 2 s is 5 s:
/// with a 10 s window the advice broke its own rule of thumb (≤ 3.3 s) while 2.5 s meets it.
fn round_between(lower: i64, upper: i64) -> i64 {
    let nice = nice_up(lower);
    let step = [(10_000, 500), (60_000, 5_000), (600_000, 30_000)]
        .into_iter()
        .find(|&(below, _)| lower <= below)
        .map_or(300_000, |(_, step)| step);
    let fine = lower.saturating_add(step - 1).div_euclid(step).saturating_mul(step);
    if nice > upper && fine <= upper {
        fine
    } else {
        nice
    }
}

/// The next round value at or above `v` ms: 0, 50, 100, 200, 250, 500 ms, 1, 2, 5, 10, 15,
/// 20, 30, 45 s, 1, 2, 3, 5, 10, 15, 20, 30 min, then whole hours.
pub fn nice_up(v: i64) -> i64 {
    const STEPS: [i64; 22] = [
        0, 50, 100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000, 120_000, 180_000, 300_000, 600_000,
        900_000, 1_200_000, 1_800_000,
    ];
    const HOUR: i64 = 3_600_000;
    STEPS.into_iter().find(|&s| s >= v).unwrap_or_else(|| v.saturating_add(HOUR - 1).div_euclid(HOUR).saturating_mul(HOUR))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finer_value_when_the_next_round_one_is_over_the_limit() {
        assert_eq!(round_between(2_001, 3_333), 2_500);
        assert_eq!(round_between(1_001, 1_666), 1_500);
        assert_eq!(round_between(4_001, 20_000), 5_000, "the round value when it fits");
        assert_eq!(round_between(2_001, 2_400), 5_000, "none fits: the round one");
        assert_eq!(round_between(61_000, 100_000), 90_000);
    }

    #[test]
    fn round_values() {
        assert_eq!(nice_up(0), 0);
        assert_eq!(nice_up(1), 50);
        assert_eq!(nice_up(401), 500);
        assert_eq!(nice_up(30_000), 30_000);
        assert_eq!(nice_up(30_001), 45_000);
        assert_eq!(nice_up(1_800_001), 3_600_000);
        assert_eq!(nice_up(3_600_000), 3_600_000);
        assert_eq!(nice_up(3_600_001), 7_200_000);
    }
}
