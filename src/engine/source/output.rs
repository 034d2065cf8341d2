//! A source subtask's watermark output: `IdlenessManager` (the "main" and "splits" wrappers)
//! in front of `WatermarkToDataOutput` (reference §4.4, §4.5, §3).
//!
//! Both wrappers start idle. A wrapper becomes non-idle on *any* watermark it is handed, even
//! one that is then dropped as not increasing; the subtask is marked idle only when both
//! wrappers are idle. `WatermarkToDataOutput` forwards a watermark only if it is strictly
//! greater than everything forwarded so far, announcing ACTIVE first if it was idle. Records
//! never change the status.

use crate::engine::status::{Signal, WatermarkStatus};
use crate::engine::time::{EventTime, END_OF_TIME, NO_WATERMARK};

/// Which idleness-aware wrapper a call comes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The reader's main output (per-split connectors never emit records through it).
    Main,
    /// The split multiplexer.
    Splits,
}

/// The subtask's watermark output towards the network.
#[derive(Clone, Debug)]
pub struct SourceWatermarkOutput {
    main_idle: bool,
    splits_idle: bool,
    max_so_far: EventTime,
    is_idle: bool,
}

impl Default for SourceWatermarkOutput {
    fn default() -> Self {
        SourceWatermarkOutput { main_idle: true, splits_idle: true, max_so_far: NO_WATERMARK, is_idle: false }
    }
}

impl SourceWatermarkOutput {
    /// The highest watermark forwarded downstream (`currentOutputWatermark`).
    pub fn current_watermark(&self) -> EventTime {
        self.max_so_far
    }

    /// The announced status downstream.
    pub fn is_idle(&self) -> bool {
        self.is_idle
    }

    pub fn wrapper_idle(&self, path: Path) -> bool {
        match path {
            Path::Main => self.main_idle,
            Path::Splits => self.splits_idle,
        }
    }

    pub fn emit_watermark(&mut self, path: Path, w: EventTime, out: &mut Vec<Signal>) {
        *self.flag(path) = false;
        if w <= self.max_so_far {
            return;
        }
        self.max_so_far = w;
        if self.is_idle {
            self.is_idle = false;
            out.push(Signal::Status(WatermarkStatus::Active));
        }
        out.push(Signal::Watermark(w));
    }

    pub fn mark_idle(&mut self, path: Path, out: &mut Vec<Signal>) {
        *self.flag(path) = true;
        if self.main_idle && self.splits_idle && !self.is_idle {
            self.is_idle = true;
            out.push(Signal::Status(WatermarkStatus::Idle));
        }
    }

    pub fn mark_active(&mut self, path: Path, out: &mut Vec<Signal>) {
        *self.flag(path) = false;
        if self.is_idle {
            self.is_idle = false;
            out.push(Signal::Status(WatermarkStatus::Active));
        }
    }

    /// Marks the subtask idle regardless of the wrappers: the legacy `FlinkKafkaConsumer`
    /// did this for subtasks that own no partition.
    pub fn force_idle(&mut self, out: &mut Vec<Signal>) {
        self.main_idle = true;
        self.splits_idle = true;
        if !self.is_idle {
            self.is_idle = true;
            out.push(Signal::Status(WatermarkStatus::Idle));
        }
    }

    /// End of input: the task emits `Long.MAX_VALUE` straight into its record-writer output,
    /// which drops watermarks while it has announced IDLE (FLINK-40499). Returns whether it went out.
    pub fn end_of_input(&mut self, out: &mut Vec<Signal>) -> bool {
        if self.is_idle || self.max_so_far == END_OF_TIME {
            return false;
        }
        self.max_so_far = END_OF_TIME;
        out.push(Signal::Watermark(END_OF_TIME));
        true
    }

    fn flag(&mut self, path: Path) -> &mut bool {
        match path {
            Path::Main => &mut self.main_idle,
            Path::Splits => &mut self.splits_idle,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Signal::*;
    use WatermarkStatus::*;

    #[test]
    fn both_wrappers_must_be_idle() {
        let mut o = SourceWatermarkOutput::default();
        let mut out = Vec::new();
        o.emit_watermark(Path::Main, NO_WATERMARK, &mut out); // main generator's MIN: dropped, but main is now active
        assert!(out.is_empty());
        o.mark_idle(Path::Splits, &mut out);
        assert!(out.is_empty(), "main wrapper is active: never idle");
        o.mark_idle(Path::Main, &mut out);
        assert_eq!(out, vec![Status(Idle)]);
        out.clear();
        o.emit_watermark(Path::Splits, EventTime(7), &mut out);
        assert_eq!(out, vec![Status(Active), Watermark(EventTime(7))]);
        out.clear();
        o.emit_watermark(Path::Splits, EventTime(7), &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn end_of_input_is_dropped_while_idle() {
        let mut o = SourceWatermarkOutput::default();
        let mut out = Vec::new();
        o.mark_idle(Path::Splits, &mut out);
        o.mark_idle(Path::Main, &mut out);
        out.clear();
        assert!(!o.end_of_input(&mut out));
        assert!(out.is_empty());
    }
}
