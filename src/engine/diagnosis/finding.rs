//! One finding of the diagnosis: a symptom with its kind, severity, the culprit, the evidence
//! in numbers, the Flink metric or REST value that confirms it on a real job, and the fixes the
//! engine can apply (each one checked by a test under `tests/diagnosis/` to help).

use crate::engine::session::action::Action;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Windows cannot fire, or most data is lost.
    Critical,
    /// Results are late, data is dropped, or a setting is a trap.
    Warning,
    /// Worth knowing; nothing is wrong yet.
    Info,
}

/// What was found. The culprit and the numbers are fields of the finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// Nothing has been read yet: no culprit can be named.
    NothingReadYet,
    /// A source's topic has no partitions: no subtask gets a split, nothing is ever read.
    EmptyTopic,
    /// A partition that never received a record holds the watermark (or will until idle).
    EmptyPartition,
    /// A partition that stopped holds the watermark (or is excluded as idle).
    IdlePartition,
    /// A source subtask owns no partition and holds every window subtask.
    SubtaskWithoutSplit,
    /// A source subtask's splits were all released while it was active: it holds every
    /// window subtask at its last watermark, and no idle timeout marks it idle.
    AllSplitsReleased,
    /// Heartbeats keep a partition active, so idleness never excludes it.
    HeartbeatPartition,
    /// The keyed operator cannot keep up: it back-pressures the sources (and, since 2.0, keeps
    /// their silent splits from going idle).
    BackPressure,
    /// A partition with steady data behind its peers holds the watermark; idleness cannot help.
    SlowPartition,
    /// A partition came back from idle below the watermark: its records are late.
    ReturningPartition,
    /// The idle timeout is shorter than a partition's normal gaps: it flips idle/active.
    FlappingPartition,
    /// Idleness hides a partition whose producer stopped after steady traffic.
    StalledPartitionHidden,
    /// `auto_watermark_interval_ms` is 0 with periodic emission: no watermark at all.
    PeriodicEmissionDisabled,
    /// The interval is 0: idleness is never detected, whatever the timeout.
    IdlenessNeverDetected,
    /// The idle timeout is below the auto-watermark interval.
    IdleTimeoutBelowInterval,
    /// `noWatermarks()`: windows fire only at the end of input.
    NoWatermarkStrategy,
    /// A generator that emits `Long.MAX_VALUE` on silence: later data is late.
    MaxValueGenerator,
    /// One far-future timestamp jumped the watermark.
    FarFutureTimestamp,
    /// Epoch seconds read as milliseconds.
    SecondsReadAsMillis,
    /// Milliseconds read as seconds.
    MillisReadAsSeconds,
    /// The bound is smaller than the measured disorder: records are dropped as late.
    BoundTooSmall,
    /// Late records are dropped silently (no side output).
    LateRecordsDropped,
    /// Allowed lateness re-fires windows into an append sink: duplicates.
    AppendSinkDuplicates,
    /// The bound is far larger than the measured disorder: every result is late by it.
    BoundTooLarge,
    /// Window state piles up while partitions are out of step (a backfill).
    WindowStateGrowing,
    /// Watermark alignment pauses splits or source subtasks that ran ahead.
    AlignmentPauses,
    /// The job failed and restarted (a lost TaskManager, a killed task): what it costs.
    JobRestarts,
    /// A channel came back active below the watermark and is ignored until it catches up.
    ChannelNotRealigned,
    /// Every input of a window subtask is idle: its watermark waits.
    AllInputsIdle,
    /// Event-time lag (wall clock minus watermark) is over the alert threshold.
    EventTimeLag,
    /// One input of a two-input operator holds it (the other is ahead).
    QuietInputHolds,
    /// A two-input operator's input came back below its watermark and stalls it.
    TwoInputStall,
    /// A watermark operator after the source decides the watermark (and may hide idleness).
    MidstreamAssignerHolds,
}

impl FindingKind {
    /// As the JSON and the JS API spell it (`heartbeat_partition`): the `--text` report, the
    /// page's `data-kind` and the docs name it so.
    pub fn name(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }
}

/// One number behind a finding: `name` is stable (tests and scripts read it), `text` says it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Evidence {
    pub name: &'static str,
    pub value: f64,
    pub text: String,
}

/// A fix the engine can apply: `applyFix(fix.action)` in the JS API.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Fix {
    pub label: String,
    pub action: Action,
    /// Whether applying it restarts the scenario from time zero.
    pub restarts: bool,
}

impl Fix {
    pub fn new(label: impl Into<String>, action: Action) -> Self {
        Fix { label: label.into(), action, restarts: action.restarts() }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub kind: FindingKind,
    pub severity: Severity,
    pub partition: Option<u32>,
    pub source_subtask: Option<u32>,
    pub window_subtask: Option<u32>,
    /// Whether it explains what holds the slowest window subtask.
    pub holds_watermark: bool,
    /// The finding in one sentence.
    pub title: String,
    /// Why, and what not to do.
    pub detail: String,
    pub evidence: Vec<Evidence>,
    /// What to check on a real job to confirm it (a Flink metric, the Web UI, the REST API).
    pub check: String,
    pub fixes: Vec<Fix>,
}

impl Finding {
    pub fn new(kind: FindingKind, severity: Severity, title: String) -> Self {
        Finding {
            kind,
            severity,
            partition: None,
            source_subtask: None,
            window_subtask: None,
            holds_watermark: false,
            title,
            detail: String::new(),
            evidence: Vec::new(),
            check: String::new(),
            fixes: Vec::new(),
        }
    }

    pub fn partition(mut self, p: u32) -> Self {
        self.partition = Some(p);
        self
    }

    pub fn source_subtask(mut self, s: u32) -> Self {
        self.source_subtask = Some(s);
        self
    }

    pub fn detail(mut self, d: impl Into<String>) -> Self {
        self.detail = d.into();
        self
    }

    pub fn check(mut self, c: impl Into<String>) -> Self {
        self.check = c.into();
        self
    }

    /// A number, stated.
    pub fn evidence(mut self, name: &'static str, value: impl Into<i128>, text: impl Into<String>) -> Self {
        self.evidence.push(Evidence { name, value: num(value), text: text.into() });
        self
    }

    pub fn fix(mut self, label: impl Into<String>, action: Action) -> Self {
        if !self.fixes.iter().any(|f| f.action == action) {
            self.fixes.push(Fix::new(label, action));
        }
        self
    }

    /// The value of a piece of evidence by name.
    pub fn number(&self, name: &str) -> Option<f64> {
        self.evidence.iter().find(|e| e.name == name).map(|e| e.value)
    }
}

/// A count or span as a JS number (exact up to 2^53, which every count here stays below).
#[allow(clippy::cast_precision_loss)]
pub fn num(v: impl Into<i128>) -> f64 {
    v.into() as f64
}
