//! The input side of one keyed subtask: its channels, one `StatusWatermarkValve` per logical
//! input, and for a two-input operator (`connect`, interval join) the combination of the two
//! valves' outputs (`IndexedCombinedWatermarkStatus`, reference §6.1, §6.4).
//!
//! A `union` is one logical input: its valve covers the channels of both sources. A two-input
//! operator has a valve per input; unlike a valve's channel, an input that comes back from
//! idle below the combined watermark is part of the minimum at once, so it stalls the
//! operator instead of being skipped (V-2IN-1).

use super::combined_watermark::IndexedCombinedWatermarkStatus;
use super::downstream::HISTORY_LIMIT;
use super::status::Signal;
use super::time::{EventTime, END_OF_TIME};
use super::valve::{InputChannelStatus, StatusWatermarkValve, ValveSwitches};

/// One input channel of a keyed subtask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelRef {
    /// The logical input (0, or 1 for the second input of a two-input operator).
    pub input: usize,
    /// The channel within that input's valve.
    pub channel: usize,
    /// The global source subtask that feeds it.
    pub source: u32,
}

#[derive(Clone, Debug)]
pub struct OperatorInput {
    valves: Vec<StatusWatermarkValve>,
    /// Per logical input: the source subtask feeding each channel.
    sources: Vec<Vec<u32>>,
    /// Two logical inputs: their combination (absent for one).
    combined: Option<IndexedCombinedWatermarkStatus>,
    scratch: Vec<Signal>,
    /// Two logical inputs: what each valve handed on (`processWatermark1/2`,
    /// `processWatermarkStatus(s, i)`), in order; the first `HISTORY_LIMIT` entries.
    pub valve_log: Vec<(u8, Signal)>,
}

impl OperatorInput {
    /// `sources[i]` lists the source subtasks of logical input i, one channel each.
    pub fn new(sources: Vec<Vec<u32>>, switches: ValveSwitches, all_idle_flush: bool) -> Self {
        let valves = sources.iter().map(|s| StatusWatermarkValve::new(s.len(), switches)).collect();
        let combined = (sources.len() > 1).then(|| IndexedCombinedWatermarkStatus::new(sources.len(), all_idle_flush));
        OperatorInput { valves, sources, combined, scratch: Vec::new(), valve_log: Vec::new() }
    }

    /// Logical inputs: 1, or 2 for a two-input operator.
    pub fn inputs(&self) -> usize {
        self.valves.len()
    }

    pub fn valve(&self, input: usize) -> &StatusWatermarkValve {
        &self.valves[input]
    }

    pub fn combination(&self) -> Option<&IndexedCombinedWatermarkStatus> {
        self.combined.as_ref()
    }

    /// The channel a source subtask feeds, if it is connected to this subtask.
    pub fn channel_of(&self, source: u32) -> Option<(usize, usize)> {
        self.sources.iter().enumerate().find_map(|(i, s)| s.iter().position(|&x| x == source).map(|c| (i, c)))
    }

    /// Every channel in input order, with its state.
    pub fn channels(&self) -> impl Iterator<Item = (ChannelRef, InputChannelStatus)> + '_ {
        self.valves.iter().enumerate().flat_map(move |(input, v)| {
            v.channels()
                .iter()
                .enumerate()
                .map(move |(channel, st)| (ChannelRef { input, channel, source: self.sources[input][channel] }, *st))
        })
    }

    /// Whether the operator's input is idle as a whole.
    pub fn is_idle(&self) -> bool {
        match &self.combined {
            Some(c) => c.is_idle(),
            None => self.valves[0].output_status().is_idle(),
        }
    }

    /// `currentInputNWatermark`: the last watermark input `i`'s valve handed on.
    pub fn input_watermark(&self, input: usize) -> EventTime {
        self.valves[input].output_watermark()
    }

    /// The channel holding the operator's watermark: for two inputs, the held input's minimum
    /// channel; `None` when that input (or the only one) is idle or nothing is aligned, and at
    /// Long.MAX_VALUE, where every channel is and none holds it back. The explanation, the
    /// channel table and the graph all mark this one.
    pub fn min_channel(&self) -> Option<ChannelRef> {
        let input = self.min_input()?;
        let channel = self.valves[input].min_channel()?;
        (self.valves[input].channels()[channel].watermark != END_OF_TIME).then(|| ChannelRef {
            input,
            channel,
            source: self.sources[input][channel],
        })
    }

    /// The input holding the operator's watermark (input 0 with one input): `None` while every
    /// input is idle, or once the held one is at Long.MAX_VALUE.
    pub fn min_input(&self) -> Option<usize> {
        match &self.combined {
            Some(c) => c.min_input().filter(|&i| self.input_watermark(i) != END_OF_TIME),
            None => Some(0),
        }
    }

    /// A watermark or status on one channel; `out` receives what the operator gets.
    pub fn input_signal(&mut self, input: usize, channel: usize, sig: Signal, out: &mut Vec<Signal>) {
        let Some(combined) = &mut self.combined else {
            return self.valves[0].input(channel, sig, out);
        };
        self.scratch.clear();
        self.valves[input].input(channel, sig, &mut self.scratch);
        for &s in &self.scratch {
            if self.valve_log.len() < HISTORY_LIMIT {
                self.valve_log.push((input as u8, s));
            }
            match s {
                Signal::Watermark(w) => combined.input_watermark(input, w, out),
                Signal::Status(st) => combined.input_status(input, st, out),
            }
        }
    }
}
