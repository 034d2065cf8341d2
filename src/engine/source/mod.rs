//! The FLIP-27 source side: splits (one per partition), per-split watermark generators with
//! idleness, the split multiplexer and the subtask's watermark output (reference §1–§4).

pub mod enumerator;
pub mod fetcher;
pub mod generator;
pub mod idleness;
pub mod multiplexer;
pub mod output;
pub mod split;
pub mod start_offset;
pub mod subtask;
pub mod timestamp;

use crate::engine::flow::IdlenessClock;
use generator::{EmitMode, GeneratorKind};
use timestamp::{SourceTransform, TimestampAssigner};

/// The `WatermarkStrategy` and reader settings shared by all subtasks of the source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SourceSettings {
    pub generator: GeneratorKind,
    pub emit: EmitMode,
    /// `withIdleness(...)`; `None` = not configured (Flink's default).
    pub idle_timeout_ms: Option<i64>,
    pub assigner: TimestampAssigner,
    pub transform: SourceTransform,
    /// Flink ≥ 2.2: when all splits are idle, flush the max of their watermarks (FLINK-38454).
    pub combined_all_idle_flush: bool,
    /// The legacy `FlinkKafkaConsumer` marked a subtask that owns no partition idle at once.
    pub legacy_idle_without_splits: bool,
    /// Which clock the idleness timers read (reference §1.8).
    pub idleness_clock: IdlenessClock,
    /// 2.1.3 / 2.3.0: the periodic split-alignment check skips idle splits.
    pub alignment_skip_idle_splits: bool,
}
