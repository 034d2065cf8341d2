//! `StatusWatermarkValve`: how one operator input combines the watermarks and statuses of its
//! input channels (reference §6.2, vectors V-VAL-*).
//!
//! Per channel: watermark (initially MIN), status (ACTIVE) and an *aligned* flag. The output is
//! the min over active aligned channels and only ever increases. A channel that comes back from
//! IDLE below the current output stays unaligned (ignored for the min) until it catches up.
//! When the last active channel goes idle, released Flink (≤ 2.3.0) flushes the max of all
//! channels only if that channel held the output watermark; Flink's main branch (FLINK-40475)
//! flushes unconditionally and re-derives the min on reactivation: both are switches.

use super::status::{Signal, WatermarkStatus};
use super::time::{EventTime, NO_WATERMARK};
use serde::Serialize;

/// One input channel's state, as the channels table shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct InputChannelStatus {
    pub watermark: EventTime,
    pub status: WatermarkStatus,
    pub aligned: bool,
}

/// Flink-version switches for the valve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValveSwitches {
    /// FLINK-40475 (main): flush the max when all channels go idle, whichever went last.
    pub unconditional_flush: bool,
    /// FLINK-40475 (main): re-derive the min when a channel becomes active again.
    pub rederive_on_reactivate: bool,
}

#[derive(Clone, Debug)]
pub struct StatusWatermarkValve {
    channels: Vec<InputChannelStatus>,
    last_output: EventTime,
    last_status: WatermarkStatus,
    switches: ValveSwitches,
}

impl StatusWatermarkValve {
    pub fn new(num_channels: usize, switches: ValveSwitches) -> Self {
        let ch = InputChannelStatus { watermark: NO_WATERMARK, status: WatermarkStatus::Active, aligned: true };
        StatusWatermarkValve { channels: vec![ch; num_channels], last_output: NO_WATERMARK, last_status: WatermarkStatus::Active, switches }
    }

    pub fn channels(&self) -> &[InputChannelStatus] {
        &self.channels
    }

    pub fn output_watermark(&self) -> EventTime {
        self.last_output
    }

    pub fn output_status(&self) -> WatermarkStatus {
        self.last_status
    }

    /// The aligned channel with the lowest watermark: the one holding the output (ties: lowest index).
    pub fn min_channel(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, c) in self.channels.iter().enumerate() {
            if c.aligned && best.is_none_or(|b| c.watermark < self.channels[b].watermark) {
                best = Some(i);
            }
        }
        best
    }

    /// Either kind of signal on one channel.
    pub fn input(&mut self, ch: usize, sig: Signal, out: &mut Vec<Signal>) {
        match sig {
            Signal::Watermark(w) => self.input_watermark(ch, w, out),
            Signal::Status(s) => self.input_status(ch, s, out),
        }
    }

    pub fn input_watermark(&mut self, ch: usize, w: EventTime, out: &mut Vec<Signal>) {
        let c = &mut self.channels[ch];
        if self.last_status.is_idle() || c.status.is_idle() || w <= c.watermark {
            return;
        }
        c.watermark = w;
        if !c.aligned && w >= self.last_output {
            c.aligned = true;
        }
        self.output_new_min(out);
    }

    pub fn input_status(&mut self, ch: usize, s: WatermarkStatus, out: &mut Vec<Signal>) {
        let c = &mut self.channels[ch];
        if c.status == s {
            return;
        }
        c.status = s;
        match s {
            WatermarkStatus::Idle => {
                c.aligned = false;
                let held_output = c.watermark == self.last_output;
                if self.channels.iter().all(|c| c.status.is_idle()) {
                    if held_output || self.switches.unconditional_flush {
                        let max = self.channels.iter().map(|c| c.watermark).max().unwrap_or(NO_WATERMARK);
                        if max > self.last_output {
                            self.last_output = max;
                            out.push(Signal::Watermark(max));
                        }
                    }
                    self.last_status = WatermarkStatus::Idle;
                    out.push(Signal::Status(WatermarkStatus::Idle));
                } else if held_output {
                    self.output_new_min(out);
                }
            }
            WatermarkStatus::Active => {
                if c.watermark >= self.last_output {
                    c.aligned = true;
                }
                if self.last_status.is_idle() {
                    self.last_status = WatermarkStatus::Active;
                    out.push(Signal::Status(WatermarkStatus::Active));
                }
                if self.switches.rederive_on_reactivate {
                    self.output_new_min(out);
                }
            }
        }
    }

    fn output_new_min(&mut self, out: &mut Vec<Signal>) {
        if let Some(i) = self.min_channel() {
            let m = self.channels[i].watermark;
            if m > self.last_output {
                self.last_output = m;
                out.push(Signal::Watermark(m));
            }
        }
    }
}
