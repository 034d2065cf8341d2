//! One subtask of the window operator: its input valve, the operator itself and its metrics.

use super::job::JobConfig;
use super::operator::window_operator::WindowOperator;
use super::time::{EventTime, ProcTime, NO_WATERMARK};
use super::valve::{StatusWatermarkValve, ValveSwitches};

#[derive(Clone, Debug)]
pub struct WindowSubtask {
    pub index: u32,
    pub valve: StatusWatermarkValve,
    pub op: WindowOperator,
    /// Which source subtask feeds each input channel.
    pub channel_sources: Vec<u32>,
    pub num_records_in: u64,
    pub num_records_out: u64,
    pub num_late_records_dropped: u64,
    pub num_late_records_side_output: u64,
    pub num_records_no_window: u64,
    pub current_output_watermark: EventTime,
    pub idle_since: Option<ProcTime>,
    pub idle_time_ms: i64,
    pub last_watermark_at: Option<ProcTime>,
}

impl WindowSubtask {
    pub fn new(index: u32, channel_sources: Vec<u32>, cfg: &JobConfig, switches: ValveSwitches) -> Self {
        WindowSubtask {
            index,
            valve: StatusWatermarkValve::new(channel_sources.len(), switches),
            op: WindowOperator::new(cfg.window, cfg.allowed_lateness_ms),
            channel_sources,
            num_records_in: 0,
            num_records_out: 0,
            num_late_records_dropped: 0,
            num_late_records_side_output: 0,
            num_records_no_window: 0,
            current_output_watermark: NO_WATERMARK,
            idle_since: None,
            idle_time_ms: 0,
            last_watermark_at: None,
        }
    }

    /// `currentInputWatermark`: the last watermark the valve handed to the operator.
    pub fn current_input_watermark(&self) -> EventTime {
        self.op.current_watermark()
    }

    /// The input channel fed by a source subtask, if connected.
    pub fn channel_of(&self, source: u32) -> Option<usize> {
        self.channel_sources.iter().position(|&s| s == source)
    }
}
