//! The arguments of the commands both JS objects issue — `WatermarkPlayground` and a mounted
//! playground (`mount()`'s result, `el.playground`) — parsed once, so that their errors read
//! the same.

use super::convert::{from_js, index_arg, string_arg, to_json};
use super::error::{ApiError, ApiResult};
use crate::engine::command::Command;
use crate::engine::error::InputError;
use crate::engine::observer::Observer;
use crate::engine::scenario::schema::RecordSpec;
use crate::engine::session::Session;
use wasm_bindgen::JsValue;

/// `setParam(name, value)`'s arguments: the name, and the value as JSON (required: `null`
/// turns an optional parameter off).
pub fn param_args(name: &JsValue, value: &JsValue) -> ApiResult<(String, serde_json::Value)> {
    let name = string_arg(name, "name")?;
    let value = to_json(value, "value")?.ok_or_else(|| ApiError::type_("value", "is required (null turns optional parameters off)"))?;
    Ok((name, value))
}

/// `addPartition()` in the session: the partition's index, read in the instant that added it
/// (a listener of its events may add another before the call returns).
pub fn add_partition(s: &mut Session, obs: &mut impl Observer) -> Result<u32, InputError> {
    s.apply_now(vec![Command::AddPartition { topic: None }], &[String::new()], obs)?;
    Ok(s.sim().partitions().len().saturating_sub(1) as u32)
}

/// The command a method that names one partition issues.
pub fn partition_command(method: &str, partition: u32) -> Command {
    match method {
        "silence" => Command::Silence { partition },
        "resume" => Command::Resume { partition },
        "markIdle" => Command::MarkSplitIdle { partition },
        "markActive" => Command::MarkSplitActive { partition },
        "releaseSplit" => Command::ReleaseSplit { partition },
        "detach" => Command::DetachProducers { partition },
        "removePartition" => Command::RemovePartition { partition },
        _ => unreachable!("{method} issues no partition command"),
    }
}

/// One command or an array of them, with the path of each (`commands[2]`).
pub fn commands_arg(v: &JsValue) -> ApiResult<(Vec<Command>, Vec<String>)> {
    if js_sys::Array::is_array(v) {
        let cmds: Vec<Command> = from_js(v, "commands")?;
        let paths = (0..cmds.len()).map(|i| format!("commands[{i}]")).collect();
        Ok((cmds, paths))
    } else {
        Ok((vec![from_js(v, "commands")?], vec!["commands".to_string()]))
    }
}

/// `produce(partition, records)`'s arguments: one record or an array of them.
pub struct Produce {
    pub command: Command,
    pub count: u32,
    /// One record, not an array: its errors read `records.ts`, an array's `records[2].ts`.
    single: bool,
}

impl Produce {
    pub fn parse(partition: &JsValue, records: &JsValue) -> ApiResult<Self> {
        let p = index_arg(partition, "partition")?;
        let single = !js_sys::Array::is_array(records);
        let records: Vec<RecordSpec> = if single { vec![from_js(records, "records")?] } else { from_js(records, "records")? };
        Ok(Produce { count: records.len() as u32, command: Command::Produce { partition: p, records }, single })
    }

    /// The engine's error on the command, with the argument's path.
    pub fn named(&self, mut e: InputError) -> InputError {
        if self.single {
            e.path = e.path.replace("records[0]", "records");
        }
        e
    }
}

/// The methods that name one partition, once for both classes: each has
/// `partition_command(method, partition)`, which checks the argument and issues
/// [`partition_command`]'s command at the next instant.
macro_rules! partition_methods {
    ($class:ty) => {
        #[wasm_bindgen::prelude::wasm_bindgen]
        impl $class {
            /// Stops the producers of a partition (the split goes silent).
            pub fn silence(&self, partition: JsValue) -> Result<(), JsValue> {
                self.partition_command("silence", partition)
            }

            /// Resumes the producers of a partition.
            pub fn resume(&self, partition: JsValue) -> Result<(), JsValue> {
                self.partition_command("resume", partition)
            }

            /// `markIdle()` on a split's output.
            #[wasm_bindgen(js_name = markIdle)]
            pub fn mark_idle(&self, partition: JsValue) -> Result<(), JsValue> {
                self.partition_command("markIdle", partition)
            }

            /// `markActive()` on a split's output.
            #[wasm_bindgen(js_name = markActive)]
            pub fn mark_active(&self, partition: JsValue) -> Result<(), JsValue> {
                self.partition_command("markActive", partition)
            }

            /// The split finished (`releaseOutputForSplit`).
            #[wasm_bindgen(js_name = releaseSplit)]
            pub fn release_split(&self, partition: JsValue) -> Result<(), JsValue> {
                self.partition_command("releaseSplit", partition)
            }

            /// Detaches every producer of a partition.
            pub fn detach(&self, partition: JsValue) -> Result<(), JsValue> {
                self.partition_command("detach", partition)
            }

            /// Removes a partition: its producers stop and its split is released.
            #[wasm_bindgen(js_name = removePartition)]
            pub fn remove_partition(&self, partition: JsValue) -> Result<(), JsValue> {
                self.partition_command("removePartition", partition)
            }
        }
    };
}
pub(crate) use partition_methods;
