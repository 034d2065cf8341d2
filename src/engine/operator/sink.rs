//! The sink at the end of the job: an *append* sink sees every firing (late re-firings show up
//! as duplicates), an *upsert* sink keeps the latest result per (key, window).

use super::aggregate::Agg;
use crate::engine::keys::KeyId;
use crate::engine::time::{EventTime, ProcTime};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SinkMode {
    #[default]
    Append,
    Upsert,
}

/// One window result as it reaches the sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowResult {
    pub subtask: u32,
    pub key: KeyId,
    pub start: EventTime,
    pub end: EventTime,
    pub agg: Agg,
    /// The window operator's watermark when it fired.
    pub watermark: EventTime,
    pub firing: u32,
    pub time: ProcTime,
}

#[derive(Clone, Debug, Default)]
pub struct Sink {
    pub mode: SinkMode,
    /// Every result in emission order (what an append sink writes).
    pub emitted: Vec<WindowResult>,
    /// Latest result per (key, start, end) (what an upsert sink holds); kept in upsert mode.
    pub table: BTreeMap<(KeyId, EventTime, EventTime), WindowResult>,
}

impl Sink {
    pub fn new(mode: SinkMode) -> Self {
        Sink { mode, ..Default::default() }
    }

    pub fn write(&mut self, r: WindowResult) {
        if self.mode == SinkMode::Upsert {
            self.table.insert((r.key, r.start, r.end), r);
        }
        self.emitted.push(r);
    }

    /// Rows an append sink wrote more than once for the same window (late re-firings).
    pub fn duplicates(&self) -> usize {
        self.emitted.iter().filter(|r| r.firing > 0).count()
    }
}
