//! Which clause set which scenario fields, so that a result the scenario's own validation
//! refuses (a parallelism over the limit, an interval the engine cannot run) is reported at the
//! line and column of the clause that set it, not at the top of the script.

use super::token::Pos;
use super::SqlError;
use crate::engine::error::InputError;

/// Field-path prefixes and the clause that set them, in script order.
#[derive(Default)]
pub struct Origins(Vec<(&'static str, Pos)>);

impl Origins {
    pub fn set(&mut self, prefixes: &[&'static str], pos: Pos) {
        self.0.extend(prefixes.iter().map(|&p| (p, pos)));
    }

    /// The fields a `SET` key changes.
    pub fn set_key(&mut self, key: &str, pos: Pos) {
        let fields: &[&'static str] = match key {
            "table.exec.source.idle-timeout" => &["source.watermark.idle_timeout_ms", "source.midstream", "second_input.source"],
            "pipeline.auto-watermark-interval" => &["source.watermark.auto_watermark_interval_ms", "second_input.source.watermark"],
            "parallelism.default" | "table.exec.resource.default-parallelism" => &[
                "source.parallelism",
                "second_input.source.parallelism",
                "window.parallelism",
                "interval_join.parallelism",
                "exchange",
                "flow",
            ],
            "execution.checkpointing.interval" => &["checkpointing"],
            k if k.starts_with("pipeline.watermark-alignment.") => &["flink"],
            _ => &[],
        };
        self.set(fields, pos);
    }

    /// `e` at the clause that set the longest prefix of its path (the last such clause), else
    /// at the script's start.
    pub fn error(&self, e: InputError) -> SqlError {
        let best = self.0.iter().rev().filter(|(p, _)| e.path.starts_with(p)).max_by_key(|(p, _)| p.len());
        let pos = best.map_or(Pos { line: 1, column: 1 }, |&(_, pos)| pos);
        SqlError::at(pos, format!("the script gives a scenario the playground cannot run: {e}"))
    }
}
