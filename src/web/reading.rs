//! One reading of the job: the engine's diagnosis and the explanation of the focused window
//! subtask, taken from the simulation at the same instant as a snapshot and stored beside it.
//! Every view that names a culprit (graph highlight, WHY panel, tables, timeline, preset card,
//! embed line) reads one of these, so no view can name another culprit than the numbers it
//! shows next to it (issue 11, "one truth per frame").

use crate::engine::diagnosis::finding::FindingKind;
use crate::engine::diagnosis::{Diagnosis, DiagnosisOptions};
use crate::engine::time::WatermarkStyle;
use crate::engine::explain::{Culprit, Explanation};
use super::graph_flow::FlowRates;
use crate::engine::sim::Simulation;

/// The diagnosis of one instant and the explanation the WHY panel shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    pub diag: Diagnosis,
    /// The explanation of the selected window subtask, or else the diagnosis' own (of the
    /// slowest one); taken at the same instant as `diag`.
    pub explanation: Option<Explanation>,
    /// Back-pressure and busy time per subtask, for the graph's flow marks.
    pub flow: FlowRates,
}

/// The chain the graph marks: (window subtask, source subtask, partition).
pub type Chain = (Option<u32>, Option<u32>, Option<u32>);

impl Reading {
    /// Reads the simulation now; `selected` is a window subtask the user chose to explain.
    pub fn take(sim: &Simulation, opts: &DiagnosisOptions, selected: Option<u32>) -> Self {
        // Its texts with times as the panels around them write them ("23:59:54.999 -1d"), not
        // the API's full UTC dates.
        let style = WatermarkStyle::Near(sim.now());
        let diag = sim.diagnose(&DiagnosisOptions { time_style: Some(style), ..*opts });
        let explanation = match selected {
            // The partitions' classes of this same diagnosis, so both speak of one instant.
            Some(o) if Some(o) != diag.window_subtask => sim.explain_with(o, &diag.partitions, style),
            _ => diag.explanation.clone(),
        };
        Reading { diag, explanation, flow: FlowRates::take(sim) }
    }

    /// Whether anything has been read: before, nothing may be named as a culprit.
    pub fn started(&self) -> bool {
        self.diag.records_read > 0
    }

    /// Nothing to fix: records were read and no finding is the cause ("No problem found", "No
    /// watermark yet"). The views drop their alarm colours; the chain still names the holder.
    pub fn calm(&self) -> bool {
        self.started() && self.diag.cause.is_none()
    }

    /// What holds the explained window subtask, with that subtask; `None` before anything was
    /// read (an explanation then names whatever happens to be first).
    pub fn held_by(&self) -> Option<(u32, &Culprit)> {
        let e = self.explanation.as_ref().filter(|_| self.started())?;
        Some((e.subtask, e.held_by.as_ref()?))
    }

    /// The chain the graph, the embed graph and the tables mark.
    pub fn chain(&self) -> Chain {
        match self.held_by() {
            Some((o, h)) => (Some(o), Some(h.source_subtask), h.partition),
            None => (None, None, None),
        }
    }

    /// Whether what holds the explained window subtask pushed its watermark ahead of processing
    /// time rather than holding it back ([`Explanation::ahead_of`]): every view that marks the
    /// chain then names its role with `holder_words(true)`, as the WHY chain does.
    pub fn pushed_ahead(&self) -> bool {
        self.explanation.as_ref().filter(|_| self.started()).is_some_and(|e| e.ahead_of(self.diag.now))
    }

    /// The culprit's partition as a `data-culprit-partition` value ("" when none), from the
    /// diagnosis: the same in every view, whichever subtask the WHY panel explains.
    pub fn culprit_attr(&self) -> String {
        self.diag.culprit.as_ref().and_then(|c| c.partition).map_or_else(String::new, |p| p.to_string())
    }

    /// Whether two readings name the same holder: whether anything was read, the cause, the
    /// culprit, the chain the graph marks and what it does to the watermark; not the counts and
    /// times, which move every frame.
    /// The views refreshed at different rates keep to one verdict by it (`Pg::refresh_frame`).
    pub fn same_verdict(&self, other: &Reading) -> bool {
        let culprit = |r: &Reading| r.diag.culprit.as_ref().and_then(|c| c.partition);
        self.started() == other.started()
            && self.diag.cause == other.diag.cause
            && culprit(self) == culprit(other)
            && self.chain() == other.chain()
            && self.pushed_ahead() == other.pushed_ahead()
    }

    /// The cause as a `data-cause` value (the finding kind, snake_case; "" when none).
    pub fn cause_attr(&self) -> String {
        self.diag.cause.map_or_else(String::new, FindingKind::name)
    }
}
