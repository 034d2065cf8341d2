//! What `SET 'key' = 'value'` and a table's `WITH ('key' = 'value', …)` mean for the scenario:
//! the keys the playground models, read into [`JobSettings`] / [`TableOptions`]; keys Flink has
//! but the playground does not model, and keys it does not know, become notes naming them.

use super::cursor::At;
use super::duration::parse_duration;
use super::{Note, SqlError};
use crate::engine::alignment::AlignmentParams;
use crate::engine::source::generator::EmitMode;
use crate::engine::source::start_offset::{OffsetResetStrategy, StartOffset};

/// The job-wide options a script sets (`None`: not set, the base's stays).
#[derive(Debug, Default)]
pub struct JobSettings {
    /// `table.exec.source.idle-timeout` in ms (0 = off).
    pub idle_timeout_ms: Option<i64>,
    pub auto_watermark_interval_ms: Option<i64>,
    /// `parallelism.default` / `table.exec.resource.default-parallelism`.
    pub parallelism: Option<u32>,
    /// `execution.checkpointing.interval` (0 = off).
    pub checkpoint_interval_ms: Option<i64>,
    pub alignment_buffer_size: Option<usize>,
    pub allow_unaligned_source_splits: Option<bool>,
}

/// Keys Flink has that change nothing the playground models (or that it assumes).
const NOT_MODELLED_SETS: [(&str, &str); 6] = [
    ("table.local-time-zone", "the playground computes windows in UTC"),
    ("execution.runtime-mode", "the playground runs a streaming job"),
    ("sql-client.execution.result-mode", "a SQL client display setting"),
    ("pipeline.name", "a job name"),
    ("table.exec.state.ttl", "the window state is freed when a window fires"),
    ("table.exec.mini-batch.enabled", "mini-batches do not change when windows fire"),
];

pub fn job_settings(key: &At<String>, value: &At<String>, s: &mut JobSettings, notes: &mut Vec<Note>) -> Result<(), SqlError> {
    let err = |m: String| SqlError::at(value.pos, format!("'{}': {m}", key.v));
    let ms = || parse_duration(&value.v).map_err(err);
    match key.v.as_str() {
        "table.exec.source.idle-timeout" => s.idle_timeout_ms = Some(ms()?),
        "pipeline.auto-watermark-interval" => s.auto_watermark_interval_ms = Some(ms()?),
        "parallelism.default" | "table.exec.resource.default-parallelism" => {
            let p = value.v.trim().parse::<i64>().map_err(|_| err(format!("'{}' is not a whole number", value.v)))?;
            // -1 is Flink's "use parallelism.default" for the table option.
            if p == -1 && key.v != "parallelism.default" {
                return Ok(());
            }
            s.parallelism = Some(u32::try_from(p).ok().filter(|&p| p > 0).ok_or_else(|| err(format!("must be > 0, got {p}")))?);
        }
        "execution.checkpointing.interval" => s.checkpoint_interval_ms = Some(ms()?),
        "pipeline.watermark-alignment.buffer-size" => {
            s.alignment_buffer_size = Some(value.v.trim().parse().map_err(|_| err(format!("'{}' is not a whole number >= 0", value.v)))?)
        }
        "pipeline.watermark-alignment.allow-unaligned-source-splits" => {
            s.allow_unaligned_source_splits = Some(boolean(value).map_err(err)?)
        }
        k => notes.push(not_modelled(key, value, k, &NOT_MODELLED_SETS)),
    }
    Ok(())
}

fn not_modelled(key: &At<String>, value: &At<String>, k: &str, known: &[(&str, &str)]) -> Note {
    match known.iter().find(|(p, _)| k == *p || (p.ends_with('.') && k.starts_with(p))) {
        Some((_, why)) => Note::at(key.pos, format!("'{k}' = '{}' is read but not modelled: {why}", value.v)),
        None => Note::at(key.pos, format!("'{k}' = '{}' is not an option the playground knows: not modelled", value.v)),
    }
}

fn boolean(v: &At<String>) -> Result<bool, String> {
    match v.v.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("'{other}' is not true or false")),
    }
}

/// What a Kafka table's `WITH` options say (`None`: not said).
#[derive(Debug, Default)]
pub struct TableOptions {
    pub topic: Option<At<String>>,
    pub parallelism: Option<u32>,
    pub start: Option<StartOffset>,
    /// `'scan.startup.mode' = 'group-offsets'`: the offsets are the base's (or none).
    pub group_offsets: Option<OffsetResetStrategy>,
    /// `scan.watermark.idle-timeout` and where it was written.
    pub idle_timeout_ms: Option<(i64, super::Pos)>,
    pub emit: Option<EmitMode>,
    pub alignment: Option<AlignmentParams>,
}

/// Options that do not touch event time: read, named once per table.
const NOT_MODELLED_OPTIONS: [(&str, &str); 8] = [
    ("properties.", "Kafka client properties do not change event time here"),
    ("format", "every format gives the playground the same records"),
    ("key.", "the record's key comes from the producers"),
    ("value.", "the record's value comes from the producers"),
    ("json.", "every format gives the playground the same records"),
    ("avro", "every format gives the playground the same records"),
    ("scan.topic-partition-discovery.interval", "partitions appear when a command adds them"),
    ("sink.", "this table is read, not written"),
];

pub fn table_options(opts: &[super::reader::Opt], notes: &mut Vec<Note>, at: super::Pos) -> Result<TableOptions, SqlError> {
    let mut t = TableOptions::default();
    let get = |k: &str| opts.iter().rev().find(|(key, _)| key.v == k).map(|(_, v)| v);
    match get("connector") {
        Some(v) if v.v == "kafka" => {}
        Some(v) => return Err(SqlError::at(v.pos, format!("'connector' = '{}': the playground models Kafka sources only ('kafka')", v.v))),
        None => return Err(SqlError::at(at, "the table needs 'connector' = 'kafka' in its WITH options")),
    }
    let err = |v: &At<String>, k: &str, m: String| SqlError::at(v.pos, format!("'{k}': {m}"));
    for (key, value) in opts {
        let k = key.v.as_str();
        let ms = || parse_duration(&value.v).map_err(|m| err(value, k, m));
        match k {
            "connector" | "scan.startup.mode" | "scan.startup.timestamp-millis" | "properties.auto.offset.reset" => {}
            "topic" if value.v.contains(';') => return Err(err(value, k, "the playground reads one topic per table".into())),
            "topic" => t.topic = Some(value.clone()),
            "scan.parallelism" => {
                t.parallelism = Some(
                    value
                        .v
                        .trim()
                        .parse()
                        .ok()
                        .filter(|&p: &u32| p > 0)
                        .ok_or_else(|| err(value, k, "must be a whole number > 0".into()))?,
                )
            }
            "scan.watermark.idle-timeout" => t.idle_timeout_ms = Some((ms()?, key.pos)),
            "scan.watermark.emit.strategy" => t.emit = Some(emit_strategy(value).map_err(|m| err(value, k, m))?),
            "scan.watermark.alignment.group" | "scan.watermark.alignment.max-drift" | "scan.watermark.alignment.update-interval" => {}
            _ => notes.push(not_modelled(key, value, k, &NOT_MODELLED_OPTIONS)),
        }
    }
    t.alignment = alignment(&get)?;
    startup(&get, &mut t, notes, at)?;
    Ok(t)
}

fn emit_strategy(v: &At<String>) -> Result<EmitMode, String> {
    match v.v.as_str() {
        "on-periodic" => Ok(EmitMode::Periodic),
        "on-event" => Ok(EmitMode::PerEvent),
        other => Err(format!("'{other}' is not 'on-periodic' or 'on-event'")),
    }
}

/// FLIP-296's `scan.watermark.alignment.*`: a group and a max drift, or neither.
fn alignment<'a>(get: &impl Fn(&str) -> Option<&'a At<String>>) -> Result<Option<AlignmentParams>, SqlError> {
    let (group, drift) = (get("scan.watermark.alignment.group"), get("scan.watermark.alignment.max-drift"));
    let ms = |v: &At<String>, k: &str| parse_duration(&v.v).map_err(|m| SqlError::at(v.pos, format!("'{k}': {m}")));
    match (group, drift) {
        (None, None) => Ok(None),
        (Some(g), Some(d)) => {
            let update = get("scan.watermark.alignment.update-interval");
            Ok(Some(AlignmentParams {
                group: g.v.clone(),
                max_drift_ms: ms(d, "scan.watermark.alignment.max-drift")?,
                update_interval_ms: update.map(|u| ms(u, "scan.watermark.alignment.update-interval")).transpose()?.unwrap_or(1_000),
            }))
        }
        (Some(v), None) | (None, Some(v)) => Err(SqlError::at(
            v.pos,
            "watermark alignment needs both 'scan.watermark.alignment.group' and 'scan.watermark.alignment.max-drift'",
        )),
    }
}

/// `scan.startup.mode` and the options it needs.
fn startup<'a>(
    get: &impl Fn(&str) -> Option<&'a At<String>>,
    t: &mut TableOptions,
    notes: &mut Vec<Note>,
    at: super::Pos,
) -> Result<(), SqlError> {
    let Some(mode) = get("scan.startup.mode") else {
        notes.push(Note::at(
            at,
            "no 'scan.startup.mode': Flink's Kafka table starts from 'group-offsets'; the base's start position is kept",
        ));
        return Ok(());
    };
    let k = "scan.startup.mode";
    t.start = match mode.v.as_str() {
        "earliest-offset" => Some(StartOffset::Earliest),
        "latest-offset" => Some(StartOffset::Latest),
        "timestamp" => {
            let ms = get("scan.startup.timestamp-millis")
                .ok_or_else(|| SqlError::at(mode.pos, "'scan.startup.mode' = 'timestamp' needs 'scan.startup.timestamp-millis'"))?;
            Some(StartOffset::TimestampMs(
                ms.v.trim()
                    .parse()
                    .map_err(|_| SqlError::at(ms.pos, format!("'scan.startup.timestamp-millis': '{}' is not a time in ms", ms.v)))?,
            ))
        }
        "group-offsets" => {
            t.group_offsets = Some(match get("properties.auto.offset.reset").map(|v| (v.v.as_str(), v.pos)) {
                None => OffsetResetStrategy::None,
                Some(("earliest", _)) => OffsetResetStrategy::Earliest,
                Some(("latest", _)) => OffsetResetStrategy::Latest,
                Some(("none", _)) => OffsetResetStrategy::None,
                Some((v, pos)) => {
                    return Err(SqlError::at(pos, format!("'properties.auto.offset.reset': '{v}' is not earliest, latest or none")))
                }
            });
            None
        }
        "specific-offsets" => {
            notes.push(Note::at(
                mode.pos,
                "'scan.startup.mode' = 'specific-offsets' is read but not modelled: the base's start position is kept",
            ));
            None
        }
        other => {
            return Err(SqlError::at(
                mode.pos,
                format!("'{k}': '{other}' is not earliest-offset, latest-offset, timestamp, group-offsets or specific-offsets"),
            ))
        }
    };
    Ok(())
}
