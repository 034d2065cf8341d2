//! The scenario's `checkpointing` block: `execution.checkpointing.interval` and the restart
//! strategy (`docs/FLOW.md`). Without `restart` the job runs Flink's default: exponential delay
//! when checkpointing is on, no restart when it is off.

use crate::engine::checkpoint::CheckpointConfig;
use crate::engine::error::InputError;
use crate::engine::limits::MAX_DURATION_MS;
use crate::engine::restart_strategy::RestartStrategy;
use serde::{Deserialize, Serialize};

/// Flink's `MINIMAL_CHECKPOINT_TIME`: a shorter interval is rejected.
pub const MIN_CHECKPOINT_INTERVAL_MS: i64 = 10;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CheckpointingSpec {
    /// `null`: checkpointing is off.
    pub interval_ms: Option<i64>,
    /// `null`: Flink's default for the interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restart: Option<RestartStrategy>,
}

impl CheckpointingSpec {
    /// Paths relative to the block.
    pub fn validate(&self) -> Result<(), InputError> {
        if let Some(i) = self.interval_ms {
            if !(MIN_CHECKPOINT_INTERVAL_MS..=MAX_DURATION_MS).contains(&i) {
                return Err(InputError::new(
                    "interval_ms",
                    format!(
                        "must be in {MIN_CHECKPOINT_INTERVAL_MS}..={MAX_DURATION_MS} (Flink's minimum is 10 ms), or null for off; got {i}"
                    ),
                ));
            }
        }
        if let Some(r) = &self.restart {
            r.validate().map_err(|e| e.within("restart"))?;
        }
        Ok(())
    }

    pub fn config(&self) -> CheckpointConfig {
        CheckpointConfig {
            interval_ms: self.interval_ms,
            restart: self.restart.unwrap_or(RestartStrategy::default_for(self.interval_ms.is_some())),
        }
    }
}
