//! `diagnose`: one diagnosis of the current instant — the slowest window subtask, what holds
//! it and why (the cause), every finding sorted by what matters, each partition's class, the
//! advisor and event-time lag. Every view of a moment reads this one value.

use super::advisor::{advise, Advice, Inputs};
use super::classify::{quiet_after_ms, too_early_to_judge, PartitionFacts};
use super::finding::{Finding, FindingKind, Fix, Severity};
use super::lag::{lag_ms, over_threshold, SubtaskLag};
use crate::engine::error::InputError;
use crate::engine::explain::{Ahead, Culprit, Explanation, Reason};
use crate::engine::job::InputConfig;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::session::action::Action;
use crate::engine::sim::Simulation;
use crate::engine::source::generator::GeneratorKind;
use crate::engine::time::{format_duration, format_duration_exact, format_watermark, EventTime, ProcTime, WatermarkStyle, NO_WATERMARK};

/// A watermark this far ahead of processing time has jumped (an hour, as `explain` judges).
pub const FAR_FUTURE_MS: i64 = 3_600_000;
use serde::{Deserialize, Serialize};

/// What the user tells the diagnosis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiagnosisOptions {
    /// The delay an idle timeout may add (default: one window).
    #[serde(default)]
    pub tolerated_delay_ms: Option<i64>,
    /// Alert when event-time lag (processing time − watermark) exceeds this.
    #[serde(default)]
    pub lag_alert_ms: Option<i64>,
    /// How the texts write a time: the API's full UTC dates (`None`), or the page's style
    /// beside its clock ("23:59:54.999 -1d"). Not an option callers give.
    #[serde(skip)]
    pub time_style: Option<WatermarkStyle>,
}

impl DiagnosisOptions {
    /// The style the texts write times in (full UTC unless the page set its own).
    pub fn style(&self) -> WatermarkStyle {
        self.time_style.unwrap_or(WatermarkStyle::Utc)
    }

    /// Options as a caller gives them: both are durations, so 0 or more (a negative lag alert
    /// would fire on every subtask, a negative delay would advise no timeout at all).
    pub fn check(&self) -> Result<(), InputError> {
        for (path, v) in [("toleratedDelayMs", self.tolerated_delay_ms), ("lagAlertMs", self.lag_alert_ms)] {
            if let Some(v) = v.filter(|v| *v < 0) {
                return Err(InputError::new(path, format!("must be >= 0, got {v}")));
            }
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Diagnosis {
    pub now: ProcTime,
    pub elapsed_ms: i64,
    /// Records read by every source subtask so far.
    pub records_read: u64,
    /// The slowest window subtask (the one every result waits for).
    pub window_subtask: Option<u32>,
    /// What holds it: null before anything was read.
    pub culprit: Option<Culprit>,
    /// The kind of the finding that explains the culprit (or the most severe one).
    pub cause: Option<FindingKind>,
    /// The diagnosis in one sentence (the embed's WHY line).
    pub headline: String,
    /// Most important first: what holds the watermark, then by severity.
    pub findings: Vec<Finding>,
    pub partitions: Vec<PartitionFacts>,
    pub advice: Advice,
    pub lag: Vec<SubtaskLag>,
    /// `explain(windowSubtask)`, from the same classes.
    pub explanation: Option<Explanation>,
}

impl Diagnosis {
    /// The finding that names the cause, if any.
    pub fn primary(&self) -> Option<&Finding> {
        self.findings.first().filter(|f| Some(f.kind) == self.cause)
    }

    /// The finding of a kind, if present.
    pub fn finding(&self, kind: FindingKind) -> Option<&Finding> {
        self.findings.iter().find(|f| f.kind == kind)
    }

    /// The fixes of the findings that hold the watermark, then of the critical ones, without
    /// repeats: what the WHY panel offers.
    pub fn fixes(&self) -> Vec<Fix> {
        let mut out: Vec<Fix> = Vec::new();
        for f in self.findings.iter().filter(|f| f.holds_watermark || f.severity == Severity::Critical || Some(f.kind) == self.cause) {
            for x in &f.fixes {
                if !out.iter().any(|o| o.action == x.action) {
                    out.push(x.clone());
                }
            }
        }
        out
    }
}

impl Simulation {
    /// Diagnoses the job at the current instant.
    pub fn diagnose(&self, opts: &DiagnosisOptions) -> Diagnosis {
        let now = self.now.max(self.cfg.start_time);
        let partitions = self.partition_facts();
        let records_read: u64 = self.sources.iter().map(|s| s.num_records_out + s.num_records_filtered).sum();
        let slowest = self.down.windows.iter().min_by_key(|w| (w.current_input_watermark(), w.index)).map(|w| w.index);
        let explanation = slowest.and_then(|o| self.explain_with(o, &partitions, opts.style()));
        // At the end of input (Long.MAX_VALUE) nothing holds it: `held_by` is `None` there.
        let culprit = explanation.as_ref().and_then(|e| e.held_by.clone()).filter(|_| records_read > 0);
        let idle_timeouts_ms: Vec<Option<i64>> = self.cfg.inputs.iter().map(InputConfig::reaching_idle_timeout_ms).collect();
        let splitless: Vec<String> = self.subtasks_waiting_without_split().map(|s| self.source_subtask_name(s.index)).collect();
        let mut advice = advise(&Inputs {
            partitions: &partitions,
            bound_ms: source_bound_ms(&self.cfg),
            idle_timeouts_ms: &idle_timeouts_ms,
            interval_ms: self.cfg.auto_watermark_interval_ms,
            allowed_lateness_ms: self.cfg.allowed_lateness_ms,
            window_size_ms: window_size_ms(self.cfg.window),
            lateness: &self.down.late.lateness,
            late_disorder: &self.down.late.disorder,
            operator_bound_ms: operator_bound_ms(&self.cfg),
            tolerated_delay_ms: opts.tolerated_delay_ms,
            sink_append: self.down.sink.mode == crate::engine::operator::sink::SinkMode::Append,
            bound_set_after_source: self.cfg.operator_after_every_source(),
            splitless_subtasks: &splitless,
            ahead_of_holder: explanation.as_ref().map_or(Ahead::NotJudged, Explanation::ahead),
            sql_idle_timeout_ms: self.sql_operator().map(|m| m.idle_timeout_ms()),
            timestamps_broken: self.watermark_jumped(now)
                || explanation.as_ref().is_some_and(|e| {
                    e.reasons.iter().any(|r| matches!(r, Reason::SecondsReadAsMillis { .. } | Reason::MillisReadAsSeconds { .. }))
                }),
        });
        let lag = self.lags(now, opts);
        let cx = FindingContext {
            sim: self,
            partitions: &partitions,
            advice: &advice,
            explanation: explanation.as_ref(),
            culprit: culprit.as_ref(),
            lag: &lag,
            opts,
        };
        // Before anything is read, only the settings can be judged: nothing names a partition
        // or a source subtask.
        let mut findings = Vec::new();
        if records_read == 0 {
            findings.push(self.empty_topic().unwrap_or_else(nothing_read_yet));
        } else {
            findings.extend(cx.partition_findings());
        }
        findings.extend(cx.topology_findings().into_iter().filter(|_| records_read > 0));
        findings.extend(cx.job_findings().into_iter().filter(|f| records_read > 0 || f.partition.is_none() && f.source_subtask.is_none()));
        if self.cfg.window_api == WindowApi::Sql {
            without_lateness_fixes(&mut findings, &mut advice);
        }
        mark_holders(&mut findings, culprit.as_ref());
        findings.sort_by_key(|f| {
            (f.kind != FindingKind::NothingReadYet, !f.holds_watermark, f.severity, f.kind, f.partition, f.source_subtask)
        });
        let mut cause = findings
            .first()
            .filter(|f| f.holds_watermark || f.severity <= Severity::Warning || f.kind == FindingKind::NothingReadYet)
            .map(|f| f.kind);
        // While the split that holds the watermark is read too briefly to be judged, a warning
        // about another partition is not the cause (a critical finding, as a missing strategy,
        // still is): the headline says so, and no finding is the cause.
        let early = self
            .too_early_for(culprit.as_ref(), &partitions, now, opts.style())
            .filter(|_| findings.first().is_none_or(|f| !f.holds_watermark && f.severity != Severity::Critical));
        if early.is_some() || self.before_first_watermark(explanation.as_ref(), findings.first(), now) {
            cause = None;
        }
        let headline =
            early.unwrap_or_else(|| headline(cause.and(findings.first()), explanation.as_ref(), self.cfg.keyed_noun(), opts.style()));
        Diagnosis {
            now,
            elapsed_ms: if self.started { now - self.cfg.start_time } else { -1 },
            records_read,
            window_subtask: slowest,
            culprit,
            cause,
            headline,
            findings,
            partitions,
            advice,
            lag,
            explanation,
        }
    }

    /// Whether the window subtask waits only for the first periodic watermark since the start
    /// (or a restore): every channel and partition is at No Watermark alike, so nothing holds
    /// it (`Explanation::tied`), and a warning about one partition is not why. A critical
    /// finding (a missing strategy) or one that holds the watermark still is.
    fn before_first_watermark(&self, ex: Option<&Explanation>, first: Option<&Finding>, now: ProcTime) -> bool {
        let since = self.failover.restored_at.unwrap_or(self.cfg.start_time);
        let tied = ex.is_some_and(|e| e.tied.is_some() && e.watermark == NO_WATERMARK);
        tied && now - since < self.cfg.auto_watermark_interval_ms
            && first.is_none_or(|f| !f.holds_watermark && f.severity != Severity::Critical && f.kind != FindingKind::NothingReadYet)
    }

    /// The headline while the culprit's partition is read too briefly to be judged empty: it
    /// holds the watermark, but "no problem" and "never received a record" would both mislead.
    fn too_early_for(
        &self,
        culprit: Option<&Culprit>,
        partitions: &[PartitionFacts],
        now: ProcTime,
        style: WatermarkStyle,
    ) -> Option<String> {
        let interval = self.cfg.auto_watermark_interval_ms;
        let f = partitions.get(culprit?.partition? as usize).filter(|f| too_early_to_judge(f, interval))?;
        // A partition added while the job runs is read for less time than the job has run.
        let what = if f.read_ms.is_some_and(|r| r < now - self.cfg.start_time) { "Just added" } else { "Just started" };
        // The quiet threshold is this diagnosis' own; next to it, what Flink does (the walk of
        // a new user read "judged empty after 1.0 s" as the idle timeout).
        let flink = self.split_idleness(f.partition).map(|f| format!(", and {f}")).unwrap_or_default();
        Some(format!(
            "{what}: partition {} has had no record in the {} it has been read, so its source subtask is {}; this diagnosis calls it empty after {} without one{flink}.",
            self.partition_name(f.partition),
            d(f.read_ms.unwrap_or(0)),
            self.empty_split_holds_at(f.subtask, style),
            d(quiet_after_ms(f, interval))
        ))
    }

    /// Where an empty split holds source subtask `s`: at No Watermark, or, added to a subtask
    /// that had a watermark, at that one: the split's No Watermark is the minimum, and a
    /// subtask's watermark never goes back (the walk read "at No Watermark" beside a graph
    /// and windows at the old watermark).
    pub(crate) fn empty_split_holds_at(&self, s: Option<u32>, style: WatermarkStyle) -> String {
        match s.and_then(|s| self.sources.get(s as usize)).map(|src| src.output.current_watermark()) {
            Some(w) if w != NO_WATERMARK => {
                format!("at {}, where it was when the partition came (a watermark never goes back)", format_watermark(w, style))
            }
            _ => "at No Watermark".into(),
        }
    }

    /// When Flink marks partition `p`'s split idle, in words: after the source's idle timeout
    /// (`withIdleness`), checked only with a watermark interval above 0 (as `explain` reads it).
    /// `None` with a watermark operator after the source: its own idleness is of the subtask's
    /// whole output, not of one split.
    fn split_idleness(&self, p: u32) -> Option<String> {
        let input = self.cfg.inputs.get(self.partitions.get(p as usize)?.input as usize)?;
        if input.midstream.is_some() {
            return None;
        }
        Some(match input.source.idle_timeout_ms {
            Some(_) if self.cfg.auto_watermark_interval_ms <= 0 => {
                "with a watermark interval of 0 Flink never checks its idle timeout".into()
            }
            Some(t) => format!("Flink marks it idle after its {} idle timeout", format_duration_exact(t)),
            None => "without an idle timeout Flink never marks it idle".into(),
        })
    }

    /// SQL's watermark operator, when one runs after every source (a SQL job has one topic).
    pub(crate) fn sql_operator(&self) -> Option<MidstreamSpec> {
        let sql = self.cfg.inputs.iter().find_map(|i| i.midstream.filter(MidstreamSpec::is_sql));
        sql.filter(|_| self.cfg.operator_after_every_source())
    }

    /// Whether a window subtask's watermark is far ahead of processing time or at the end of
    /// input: a far-future timestamp (or the Long.MAX_VALUE generator) reached the windows, and
    /// what was measured since is the broken timestamps', not the data's.
    pub(crate) fn watermark_jumped(&self, now: ProcTime) -> bool {
        let ahead = EventTime::from_proc(now).saturating_add(FAR_FUTURE_MS);
        self.down.windows.iter().any(|w| w.current_input_watermark() > ahead)
    }

    fn lags(&self, now: ProcTime, opts: &DiagnosisOptions) -> Vec<SubtaskLag> {
        let start = self.cfg.start_time;
        self.down
            .windows
            .iter()
            .map(|w| {
                let wm = w.current_input_watermark();
                let over_threshold = opts.lag_alert_ms.is_some_and(|t| over_threshold(now, start, wm, t));
                SubtaskLag { window_subtask: w.index, lag_ms: lag_ms(now, wm), over_threshold }
            })
            .collect()
    }
}

/// What the rules of `partition_findings` and `job_findings` read.
pub(crate) struct FindingContext<'a> {
    pub sim: &'a Simulation,
    pub partitions: &'a [PartitionFacts],
    pub advice: &'a Advice,
    pub explanation: Option<&'a Explanation>,
    pub culprit: Option<&'a Culprit>,
    pub lag: &'a [SubtaskLag],
    pub opts: &'a DiagnosisOptions,
}

fn nothing_read_yet() -> Finding {
    Finding::new(FindingKind::NothingReadYet, Severity::Info, "Nothing has been read yet: no watermark, and no culprit to name.".into())
        .detail("Press play or step: the diagnosis starts with the first records.")
        .check("numRecordsOut of the source and the Watermarks tab")
}

impl Simulation {
    /// The first input whose topic has no partition left, as a finding: "press play" was the
    /// only word for a job that will never read a record.
    fn empty_topic(&self) -> Option<Finding> {
        let (_, input) =
            self.cfg.inputs.iter().enumerate().find(|(i, _)| !self.partitions.iter().any(|p| usize::from(p.input) == *i && !p.removed))?;
        let n = input.source_parallelism;
        let readers = if n == 1 {
            "its source subtask gets no split".to_string()
        } else {
            format!("none of the {n} source subtasks reading it gets a split")
        };
        let title = format!("Topic \"{}\" has no partitions: {readers}, so nothing is read and no window fires.", input.topic);
        let finding = Finding::new(FindingKind::EmptyTopic, Severity::Critical, title)
            .detail("A source subtask without a split holds its window subtasks at No Watermark, or with an idle timeout is marked idle. A KafkaSource whose topic pattern matches no topic runs like this until partition discovery finds one.")
            .evidence("partitions", 0, format!("0 partitions in topic {}", input.topic))
            .evidence("sourceParallelism", n, format!("source parallelism {n}"))
            .check("the topic's partitions (kafka-topics --describe), the source's topic or pattern, and numRecordsIn of the source");
        Some(finding)
    }
}

/// A finding holds the watermark when it names the culprit's partition or, naming no
/// partition, its source subtask while the culprit is that subtask. Back-pressure on the
/// culprit's source subtask holds its partition too: the subtask reads only as fast as the
/// window operator takes, so the back-pressure leads (its kind sorts before the partition's)
/// and the headline stays on it while the slowest of its partitions changes.
fn mark_holders(findings: &mut [Finding], culprit: Option<&Culprit>) {
    let Some(c) = culprit else { return };
    for f in findings {
        let own_subtask = f.source_subtask == Some(c.source_subtask);
        f.holds_watermark = match (f.partition, c.partition) {
            (Some(p), Some(q)) => p == q,
            (None, None) => own_subtask,
            (None, Some(_)) => own_subtask && f.kind == FindingKind::BackPressure,
            _ => false,
        };
    }
}

/// `operator`: what the keyed subtasks are (`window` or `join`).
fn headline(first: Option<&Finding>, ex: Option<&Explanation>, operator: &str, style: WatermarkStyle) -> String {
    match (first, ex) {
        (Some(f), _) => f.title.clone(),
        // Before the first periodic watermark (up to one interval after the start) every
        // subtask is at No Watermark: "no problem" beside it read as a contradiction.
        (None, Some(e)) if e.watermark == NO_WATERMARK => {
            format!("No watermark yet: the slowest {operator} subtask ({}) waits for a first one on each of its input channels.", e.subtask)
        }
        (None, Some(e)) => {
            format!("No problem found: the slowest {operator} subtask ({}) is at {}.", e.subtask, format_watermark(e.watermark, style))
        }
        (None, None) => "No problem found.".into(),
    }
}

/// A SQL window aggregation has no allowed lateness and no late side output: nothing offers
/// them (the scenario and the commands refuse them).
fn without_lateness_fixes(findings: &mut [Finding], advice: &mut Advice) {
    let lateness = |a: &Action| matches!(a, Action::AllowedLateness(_) | Action::SideOutput(_));
    for f in findings {
        f.fixes.retain(|x| !lateness(&x.action));
    }
    advice.actions.retain(|a| !lateness(a));
    advice.allowed_lateness.recommended_ms = None;
    advice.allowed_lateness_alone_ms = None;
    advice.allowed_lateness.basis = "a SQL window aggregation has no allowed lateness: late rows are dropped".into();
    advice.allowed_lateness.cost = String::new();
}

/// The bound the job's watermark trails its newest event by: with two inputs the larger of
/// theirs, since the combined watermark is the minimum of their watermarks; none when no input
/// has a bound. A watermark operator after a source replaces the source's strategy, so its
/// bound is that input's.
pub fn job_bound_ms(cfg: &crate::engine::job::JobConfig) -> Option<i64> {
    cfg.inputs.iter().filter_map(input_bound_ms).max()
}

/// The bound that `Action::Bound` changes: the largest of the sources' whose own strategy makes
/// their input's watermark (a source with an operator after it has none that counts); the job's
/// when every input has such an operator (nothing is then advised for it).
pub fn source_bound_ms(cfg: &crate::engine::job::JobConfig) -> Option<i64> {
    match cfg.inputs.iter().filter(|i| i.midstream.is_none()).filter_map(input_bound_ms).max() {
        None if cfg.operator_after_every_source() => job_bound_ms(cfg),
        b => b,
    }
}

/// The largest bound of the watermark operators after a source, if any has one.
pub fn operator_bound_ms(cfg: &crate::engine::job::JobConfig) -> Option<i64> {
    cfg.inputs.iter().filter(|i| i.midstream.is_some()).filter_map(input_bound_ms).max()
}

fn input_bound_ms(input: &crate::engine::job::InputConfig) -> Option<i64> {
    match input.midstream {
        Some(MidstreamSpec::TimestampsAndWatermarks { generator, .. }) => bound_of(generator),
        // `ts - INTERVAL 'd'`: the delay is the bound the user set, as for `SqlBounded`.
        Some(MidstreamSpec::SqlWatermarkAssigner { delay_ms, .. }) => Some(delay_ms),
        None => bound_of(input.source.generator),
    }
}

/// The out-of-orderness bound of a generator, if it has one.
/// (`Monotonous` is bounded(0); SQL's `max_ts - delay` counts its delay, 1 ms off bounded(delay).)
pub fn bound_of(g: GeneratorKind) -> Option<i64> {
    match g {
        GeneratorKind::Monotonous => Some(0),
        g => g.given_bound_ms(),
    }
}

/// The length of a window (a session's gap).
pub fn window_size_ms(w: WindowSpec) -> i64 {
    match w {
        WindowSpec::Tumbling { size_ms, .. } | WindowSpec::Sliding { size_ms, .. } => size_ms,
        WindowSpec::Session { gap_ms } => gap_ms,
        WindowSpec::Cumulate { max_size_ms, .. } => max_size_ms,
    }
}

/// "3.0 s" and friends, for the findings' sentences.
pub(crate) fn d(ms: i64) -> String {
    format_duration(ms)
}

/// A duration a fix button applies, as the fields show it and read it back: the label says
/// exactly what it sets ("Idle timeout 15 s" beside the field's "15 s", where `d` said
/// "15.0 s"; 150 s is not "2 min").
pub(crate) fn exact(ms: i64) -> String {
    crate::engine::time::format_duration_exact(ms)
}
