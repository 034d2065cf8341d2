//! Findings about the job's shape beyond one source: a two-input operator held or stalled by
//! one of its inputs, and a watermark operator in the middle of the job that replaces what
//! the source knew (reference §6.4, §7, §10.1). They read the explanation's reasons, so the
//! WHY panel and the findings never disagree.

use super::diagnose::{d, exact, FindingContext};
use super::finding::{Finding, FindingKind, Severity};
use crate::engine::explain::Ahead;
use crate::engine::explain::Reason;
use crate::engine::explain_text::{nothing_ahead_words, ordinal};
use crate::engine::session::action::Action;

/// A chained operator this long without records while it holds the watermark is stuck.
const STUCK_MS: i64 = 1_000;

impl FindingContext<'_> {
    pub(crate) fn topology_findings(&self) -> Vec<Finding> {
        let Some(ex) = self.explanation else { return Vec::new() };
        let held = self.culprit.map(|c| c.source_subtask);
        ex.reasons
            .iter()
            .filter_map(|r| match r {
                Reason::InputHolds { input, topic, .. } => Some(self.input_holds(*input, topic, held)),
                Reason::InputStalls { input, topic, behind_ms } => Some(
                    Finding::new(
                        FindingKind::TwoInputStall,
                        Severity::Info,
                        format!("The {} input ({topic}) of window subtask {} came back {} below its watermark and stalls it until it catches up.", ordinal(*input), ex.subtask, d(*behind_ms)),
                    )
                    .detail("A two-input operator combines its inputs without the valve's 'unaligned' state: a returning input counts at once, so the operator waits instead of skipping it (the valve would skip a returning channel).")
                    .check(format!("the {topic} source's currentOutputWatermark, below the other input's source; the operator's currentInputWatermark is the lower of the two (Flink 2.3 registers no per-input watermark metric)")),
                ),
                Reason::MidstreamHolds { source_subtask, operator, source_idle, idle_timeout_ms, silent_ms, sql } => {
                    let f = midstream(*source_subtask, &self.sim.source_subtask_name(*source_subtask), operator, *source_idle, *idle_timeout_ms, *silent_ms, *sql);
                    Some(if *sql { self.shorter_sql_timeout(f, *idle_timeout_ms) } else { f.fix("Generate watermarks in the source ↻", Action::WatermarksInSource) })
                }
                _ => None,
            })
            .collect()
    }

    /// SQL's operator goes idle only after its timeout without rows, and every row makes it
    /// active again: each row holds the job for the timeout. Half the tolerated delay (one
    /// window by default) bounds that; flapping is the price, and harmless here.
    fn shorter_sql_timeout(&self, f: Finding, current: Option<i64>) -> Finding {
        // Where the operator decides idleness the advisor judges its timeout (and keeps one
        // that meets its rows): the fix is the advice, never beside it.
        let advised = match self.sim.sql_operator() {
            Some(_) => self.advice.idle_timeout.recommended_ms.filter(|&a| Some(a) != current),
            None => Some(super::advisor::sql_idle_timeout_ms(self.advice.tolerated_delay_ms)).filter(|&a| current.is_none_or(|c| c > a)),
        };
        let Some(advised) = advised else { return f };
        f.fix(format!("table.exec.source.idle-timeout = {}", exact(advised)), Action::IdleTimeout(Some(advised)))
    }

    fn input_holds(&self, input: usize, topic: &str, held: Option<u32>) -> Finding {
        let mut f = Finding::new(
            FindingKind::QuietInputHolds,
            Severity::Warning,
            format!("The {} input ({topic}) holds the two-input operator: it waits for the slower side.", ordinal(input)),
        )
        .detail("A join or connected stream fires only as far as both inputs' watermarks allow. A quiet side needs withIdleness on its source (an idle input is left out), or a watermark of its own that keeps up.")
        .check(format!("the {topic} source's currentOutputWatermark, below the other input's source and equal to the operator's currentInputWatermark (Flink 2.3 registers no per-input watermark metric)"));
        // The partition findings' rule: with nothing ahead to release to, the timeout moves nothing.
        if let Some(ex) = self.explanation.filter(|_| self.nothing_ahead()) {
            let words = nothing_ahead_words(ex.ahead(), "the watermark");
            f.detail = format!(
                "{} Here {words}, so withIdleness would move nothing now; only new records do.{}",
                f.detail,
                race_words(input, ex.ahead())
            );
        } else if let Some(s) = held.filter(|&s| self.stuck_without_split(s)) {
            let name = self.sim.source_subtask_name(s);
            f.detail = format!("{} Here source subtask {name}'s splits were all released while it was active, so withIdleness would not mark it idle (the finding on it says why).", f.detail);
        } else {
            let t = self.advice.idle_timeout_alone_ms.unwrap_or(5_000);
            f = f.fix(format!("withIdleness({}) on the sources", exact(t)), Action::IdleTimeout(Some(t)));
        }
        if let Some(s) = held {
            f = f.source_subtask(s);
        }
        f
    }
}

/// Held by the second input, with only idle or silent inputs ahead: the playground's sources
/// go idle in index order, so the first input leaves the combination first and nothing moves.
/// In Flink the two source tasks race (`explain_ahead`'s module doc), and the words say so.
fn race_words(held_input: usize, ahead: Ahead) -> &'static str {
    match (held_input, ahead) {
        (1, Ahead::OnlyIdle) => " That assumes the first input goes idle first, as in the playground, which ticks its sources in order; in Flink the two source tasks race, and when this input goes idle first the watermark moves to the first input's.",
        _ => "",
    }
}

/// `s` as every view names it is `name`.
fn midstream(s: u32, name: &str, operator: &str, source_idle: bool, timeout: Option<i64>, silent: Option<i64>, sql: bool) -> Finding {
    let stuck = silent.is_none_or(|t| t >= STUCK_MS) && timeout.is_none();
    let title = match (sql, source_idle) {
        (false, true) => format!(
            "The {operator} after source subtask {name} swallows the source's idleness: its channel stays active and holds the watermark."
        ),
        // With the timeout set the fix is in force: say what it bounds, not only the problem.
        (true, _) => match timeout {
            // Not "lets it go idle between rows": with rows closer than the timeout it never does.
            Some(t) => format!("The {operator} after source subtask {name} decides the watermark; each row makes it active again and only {} without rows (its idle timeout) lets it go idle, so a row holds the job for up to that long.", d(t)),
            None => format!("The {operator} after source subtask {name} decides the watermark; rows re-activate it at once."),
        },
        (false, false) => format!("The {operator} after source subtask {name} decides the watermark for all of its partitions."),
    };
    let detail = if sql {
        "Not pushed into the source, SQL's WATERMARK clause runs as an operator: one watermark per source subtask, starting at 0, idle after table.exec.source.idle-timeout without rows, and active again with the next row — a trickle of rows keeps it holding. With a connector that supports watermark push-down the source generates per-partition watermarks instead."
    } else {
        "assignTimestampsAndWatermarks in the middle of a job swallows the source's watermarks and statuses (only the end of input passes): per-partition watermarks and the source's idleness are lost. Generate watermarks in the source (fromSource with a WatermarkStrategy), or give this strategy its own withIdleness."
    };
    let severity = match (stuck, !sql && source_idle) {
        (true, _) => Severity::Critical,
        (false, true) => Severity::Warning,
        (false, false) => Severity::Info,
    };
    Finding::new(FindingKind::MidstreamAssignerHolds, severity, title)
        .source_subtask(s)
        .detail(detail)
        .evidence(
            "chainedSilentMs",
            silent.unwrap_or(-1),
            silent.map_or("no record passed it yet".into(), |t| format!("last record through it {} ago", d(t))),
        )
        .check("currentOutputWatermark of the assigner operator, and the source's own watermark gauge next to it")
}
