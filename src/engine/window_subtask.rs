//! One subtask of the keyed operator: its input side (valves), the operator itself and its
//! metrics.

use super::job::JobConfig;
use super::operator::interval_join::IntervalJoinOperator;
use super::operator::window_operator::WindowOperator;
use super::operator_input::OperatorInput;
use super::time::{EventTime, ProcTime, NO_WATERMARK};

#[derive(Clone, Debug)]
pub struct WindowSubtask {
    pub index: u32,
    pub input: OperatorInput,
    pub op: WindowOperator,
    /// The keyed operator is an interval join instead (the window operator then sees nothing).
    pub join: Option<IntervalJoinOperator>,
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
    /// `channel_sources[i]`: the source subtasks feeding logical input i, one channel each.
    pub fn new(index: u32, channel_sources: Vec<Vec<u32>>, cfg: &JobConfig) -> Self {
        WindowSubtask {
            index,
            input: OperatorInput::new(channel_sources, cfg.valve, cfg.combined_all_idle_flush),
            op: WindowOperator::new(cfg.window, cfg.allowed_lateness_ms).with_trigger(cfg.trigger).with_api(cfg.window_api),
            join: cfg.interval_join.map(IntervalJoinOperator::new),
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

    /// The watermark the operator has processed: the last one the valve handed to it (with two
    /// inputs, their combination without the idle ones).
    pub fn current_input_watermark(&self) -> EventTime {
        match &self.join {
            Some(j) => j.current_watermark(),
            None => self.op.current_watermark(),
        }
    }

    /// Flink's `currentInputWatermark` gauge: with one input the operator's watermark; with two
    /// the `MinWatermarkGauge`, the lower of both inputs' last watermarks, idle or not (reference
    /// §6.4), so an idle input that never sent one keeps it at No Watermark while the windows,
    /// which leave it out, fire.
    pub fn input_watermark_gauge(&self) -> EventTime {
        match self.input.inputs() {
            1 => self.current_input_watermark(),
            n => (0..n).map(|i| self.input.input_watermark(i)).min().unwrap_or(NO_WATERMARK),
        }
    }
}
