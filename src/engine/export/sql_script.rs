//! The settings as a Flink SQL script: `SET` options, `CREATE TABLE … WATERMARK FOR … WITH (…)`
//! per source, and the window TVF or interval-join query. One writer for the playground's SQL
//! snippet (`web::snippets::sql`) and the exported job's `job.sql` (`super::job_sql`, which runs
//! the same window query over the replay); `engine::sql` reads it back.

use super::java_fragments::{alignment_options, reset_name, sql_duration, sql_interval, sql_table_name as table};
use crate::engine::flow::IdlenessClock;
use crate::engine::job::{InputConfig, JobConfig, TwoInputMode};
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::interval_join::JoinBounds;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::source::start_offset::{OffsetResetStrategy, StartOffset};
use crate::engine::source::timestamp::TimestampAssigner;

/// The `WATERMARK` clause's delay and the idle timeout of input `i` in SQL terms: from SQL's
/// watermark operator when there is one, else from the source's strategy.
fn sql_strategy(input: &InputConfig) -> (Option<String>, Option<i64>) {
    match input.midstream {
        Some(MidstreamSpec::SqlWatermarkAssigner { delay_ms, idle_timeout_ms }) => (
            Some(format!("  WATERMARK FOR event_time AS event_time - {}", sql_interval(delay_ms))),
            Some(idle_timeout_ms).filter(|&t| t > 0),
        ),
        Some(MidstreamSpec::TimestampsAndWatermarks { generator, idle_timeout_ms, .. }) => {
            (Some(sql_watermark(generator)), idle_timeout_ms)
        }
        None => (Some(sql_watermark(input.source.generator)), input.source.idle_timeout_ms),
    }
}

fn sql_watermark(g: GeneratorKind) -> String {
    match g {
        // DataStream's bounded generator emits max − bound − 1; SQL's expression has no − 1.
        GeneratorKind::BoundedOutOfOrderness { bound_ms } | GeneratorKind::MaxOnSilence { bound_ms, .. } if bound_ms > 0 => {
            format!("  WATERMARK FOR event_time AS event_time - {}", sql_interval(bound_ms))
        }
        GeneratorKind::SqlBounded { delay_ms } if delay_ms > 0 => {
            format!("  WATERMARK FOR event_time AS event_time - {}", sql_interval(delay_ms))
        }
        GeneratorKind::NoWatermarks => "  -- no WATERMARK clause: event-time windows never fire".to_string(),
        _ => "  WATERMARK FOR event_time AS event_time".to_string(),
    }
}

/// One input's `CREATE TABLE`; `own_idle`: its idle timeout as a table option (when the inputs'
/// timeouts differ, the session-wide `table.exec.source.idle-timeout` cannot say both).
pub fn sql_table(input: &InputConfig, own_idle: Option<Option<i64>>) -> String {
    let src = &input.source;
    let ts_expr = match src.assigner {
        TimestampAssigner::EventField => "  event_time TIMESTAMP_LTZ(3),".to_string(),
        TimestampAssigner::BrokerTime => "  event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',".to_string(),
        TimestampAssigner::SecondsAsMillis => "  event_time_s BIGINT,\n  event_time AS TO_TIMESTAMP_LTZ(event_time_s, 3),  -- BUG: seconds read as ms; use TO_TIMESTAMP_LTZ(event_time_s, 0)".to_string(),
        TimestampAssigner::MillisAsSeconds => "  event_time_ms BIGINT,\n  event_time AS TO_TIMESTAMP_LTZ(event_time_ms, 0),  -- BUG: ms read as seconds; use TO_TIMESTAMP_LTZ(event_time_ms, 3)".to_string(),
    };
    let (wm, _) = sql_strategy(input);
    let mut s = String::new();
    s += &untranslated(input);
    s += &format!(
        "CREATE TABLE {} (\n  `key` STRING,\n  `value` BIGINT,\n{ts_expr}\n{}\n) WITH (\n",
        table(&input.topic),
        wm.unwrap_or_default()
    );
    s += &format!(
        "  'connector' = 'kafka',\n  'topic' = '{}',\n  'properties.bootstrap.servers' = 'broker:9092',\n{},\n  'format' = 'json',\n  'scan.parallelism' = '{}'",
        input.topic,
        sql_startup(&input.start_offset),
        input.source_parallelism
    );
    if let Some(t) = own_idle {
        s += &format!(",\n  'scan.watermark.idle-timeout' = '{}'", t.map_or("0 s".to_string(), sql_duration));
    }
    if input.midstream.is_none() && src.emit == EmitMode::PerEvent && src.generator != GeneratorKind::NoWatermarks {
        s += ",\n  'scan.watermark.emit.strategy' = 'on-event'";
    }
    s += &sql_alignment(input);
    s += "\n);\n\n";
    s
}

/// What of input `i`'s watermarks this script cannot say, as comments above its table: the
/// SQL tab read as a faithful copy where it was not.
fn untranslated(input: &InputConfig) -> String {
    let mut s = String::new();
    match input.midstream {
        Some(MidstreamSpec::SqlWatermarkAssigner { .. }) => {
            s += "-- In this scenario the WATERMARK runs as an operator after the source (WatermarkAssigner):\n\
                  -- one watermark per source subtask (not per partition), starting at 0; any row makes it active again.\n\
                  -- The Kafka connector below pushes it into the source instead (SupportsWatermarkPushDown: per-partition\n\
                  -- watermarks, no re-activation by rows). The operator is what a connector without push-down gives,\n\
                  -- or tEnv.fromDataStream(stream, Schema.newBuilder()...watermark(...).build()).\n";
        }
        Some(MidstreamSpec::TimestampsAndWatermarks { .. }) => {
            s += "-- The DataStream job assigns its watermarks after the source (assignTimestampsAndWatermarks), which SQL\n\
                  -- cannot say: this WATERMARK is that operator's strategy, generated in the source per partition. The\n\
                  -- source's own strategy (and its idle timeout) is not used: that operator swallows it.\n";
        }
        None => {}
    }
    // The SQL panel said "it follows the controls", and a reader compared its watermark with the
    // running job's: 1 ms apart, which docs/SQL.md said and the text did not.
    let datastream_bound = match input.midstream {
        Some(MidstreamSpec::TimestampsAndWatermarks { generator, .. }) => generator,
        Some(MidstreamSpec::SqlWatermarkAssigner { .. }) => GeneratorKind::NoWatermarks,
        None => input.source.generator,
    };
    // forMonotonousTimestamps() and a bound of 0 are bounded(0): max - 1 ms against SQL's max.
    let bound = match datastream_bound {
        GeneratorKind::BoundedOutOfOrderness { bound_ms } | GeneratorKind::MaxOnSilence { bound_ms, .. } => Some(bound_ms),
        GeneratorKind::Monotonous => Some(0),
        GeneratorKind::NoWatermarks | GeneratorKind::SqlBounded { .. } => None,
    };
    if let Some(b) = bound {
        let minus = |b: i64| if b > 0 { format!(" - {}", crate::engine::time::format_duration_exact(b)) } else { String::new() };
        s += &format!(
            "-- The DataStream job's generator emits the max timestamp{m} - 1 ms; this WATERMARK emits the max\n\
             -- timestamp{m}, 1 ms later (SQL has no - 1).\n",
            m = minus(b)
        );
    }
    // An assigner after the source replaces this generator: nothing of it reaches SQL.
    if let (GeneratorKind::MaxOnSilence { .. }, None) = (input.source.generator, input.midstream) {
        s += "-- The DataStream job's generator emits Long.MAX_VALUE after a silence, which SQL cannot say: this\n\
              -- WATERMARK is its bounded part only.\n";
    }
    s
}

/// `scan.startup.mode` (the Kafka table's default is `group-offsets`, so it is always written)
/// and the options it needs.
fn sql_startup(start: &StartOffset) -> String {
    match start {
        StartOffset::Earliest => "  'scan.startup.mode' = 'earliest-offset'".into(),
        StartOffset::Latest => "  'scan.startup.mode' = 'latest-offset'".into(),
        StartOffset::TimestampMs(t) => format!("  'scan.startup.mode' = 'timestamp',\n  'scan.startup.timestamp-millis' = '{t}'"),
        StartOffset::Committed(c) => {
            let mut s = "  'scan.startup.mode' = 'group-offsets',\n  'properties.group.id' = 'my-group'".to_string();
            if c.reset != OffsetResetStrategy::None {
                s += &format!(",\n  'properties.auto.offset.reset' = '{}'", reset_name(c.reset));
            }
            s
        }
    }
}

/// FLIP-296's watermark alignment table options (Flink >= 1.18), when the source is aligned;
/// the update interval only when it is not the default 1 s.
fn sql_alignment(input: &InputConfig) -> String {
    let Some(a) = &input.alignment else { return String::new() };
    let mut s = format!(
        ",\n  'scan.watermark.alignment.group' = '{}',\n  'scan.watermark.alignment.max-drift' = '{}'",
        a.group.replace('\'', "''"),
        sql_duration(a.max_drift_ms)
    );
    if a.update_interval_ms != 1_000 {
        s += &format!(",\n  'scan.watermark.alignment.update-interval' = '{}'", sql_duration(a.update_interval_ms));
    }
    s
}

pub fn sql(cfg: &JobConfig) -> String {
    let idles: Vec<Option<i64>> = cfg.inputs.iter().map(|i| sql_strategy(i).1).collect();
    let same = idles.windows(2).all(|w| w[0] == w[1]);
    let mut s = String::new();
    match (same, idles[0]) {
        (true, Some(t)) => s += &format!("SET 'table.exec.source.idle-timeout' = '{}';\n", sql_duration(t)),
        (true, None) => s += "-- table.exec.source.idle-timeout is 0 (off): a silent partition holds the watermark\n",
        (false, _) => s += "-- the inputs' idle timeouts differ: each table sets 'scan.watermark.idle-timeout' (Flink >= 1.18)\n",
    }
    s += &format!("SET 'pipeline.auto-watermark-interval' = '{}';\n", sql_duration(cfg.auto_watermark_interval_ms));
    s += &format!("SET 'parallelism.default' = '{}';\n", cfg.window_parallelism);
    for (k, v) in alignment_options(cfg) {
        s += &format!("SET '{k}' = '{v}';\n");
    }
    if cfg.inputs.iter().any(|i| i.source.idleness_clock == IdlenessClock::Wall && sql_strategy(i).1.is_some()) {
        s += "-- Flink <= 1.19.1 / 1.20.0: the idle timeout runs on the wall clock, also while the source is back-pressured\n";
    }
    s += "\n";
    for (i, input) in cfg.inputs.iter().enumerate() {
        s += &sql_table(input, (!same).then_some(idles[i]));
    }
    s += &match (cfg.interval_join, cfg.inputs.len()) {
        (Some(b), 2) => sql_interval_join(cfg, &b),
        _ => sql_window(cfg),
    };
    if cfg.inputs.iter().any(|i| i.source.transform.drop_heartbeats) {
        s += "-- Heartbeats must be dropped before the watermark is computed (in the format/deserializer), not with a WHERE clause.\n";
    }
    s
}

/// The window TVF over the first table, or over both tables' `UNION ALL`.
fn sql_window(cfg: &JobConfig) -> String {
    let mut s = String::new();
    let source = match (cfg.inputs.len(), cfg.two_input_mode) {
        (2, TwoInputMode::Union) => {
            s += &format!(
                "-- union: one input whose watermark is the minimum over both sources' channels\nCREATE TEMPORARY VIEW all_events AS\n  SELECT `key`, `value`, event_time FROM {}\n  UNION ALL\n  SELECT `key`, `value`, event_time FROM {};\n\n",
                table(&cfg.inputs[0].topic),
                table(&cfg.inputs[1].topic)
            );
            "all_events".to_string()
        }
        (2, TwoInputMode::Connect) => {
            s += &format!(
                "-- connect has no SQL form. A join of {} with {} is a two-input operator too: its watermark is the\n-- minimum of both inputs', so a quiet table holds it unless it goes idle (table.exec.source.idle-timeout).\n",
                table(&cfg.inputs[0].topic),
                table(&cfg.inputs[1].topic)
            );
            table(&cfg.inputs[0].topic)
        }
        _ => table(&cfg.inputs[0].topic),
    };
    let agg = match cfg.aggregate {
        AggregateKind::Count => "COUNT(*)",
        AggregateKind::Sum => "SUM(`value`)",
        AggregateKind::Min => "MIN(`value`)",
        AggregateKind::Max => "MAX(`value`)",
    };
    s += &window_query(cfg, &source, &format!("{agg} AS result"));
    if cfg.allowed_lateness_ms > 0 || cfg.late_side_output {
        s += "-- Flink SQL window aggregations have no allowed lateness or late side output: late rows are dropped.\n";
    }
    if cfg.trigger != TriggerSpec::EventTime {
        s += "-- Flink SQL window aggregations fire once, at the window's end: no early firings, no purging trigger.\n";
    }
    s
}

/// `SELECT key, window_start, window_end, <select> FROM TABLE(<the window TVF over source>) GROUP BY
/// key, window_start, window_end;`: the one window query of the snippet and the exported job.
pub fn window_query(cfg: &JobConfig, source: &str, select: &str) -> String {
    let tvf = match cfg.window {
        WindowSpec::Tumbling { size_ms, .. } => format!("TUMBLE(TABLE {source}, DESCRIPTOR(event_time), {})", sql_interval(size_ms)),
        WindowSpec::Sliding { size_ms, slide_ms, .. } => {
            format!("HOP(TABLE {source}, DESCRIPTOR(event_time), {}, {})", sql_interval(slide_ms), sql_interval(size_ms))
        }
        WindowSpec::Session { gap_ms } => {
            format!("SESSION(TABLE {source} PARTITION BY `key`, DESCRIPTOR(event_time), {})", sql_interval(gap_ms))
        }
        WindowSpec::Cumulate { step_ms, max_size_ms, .. } => {
            format!("CUMULATE(TABLE {source}, DESCRIPTOR(event_time), {}, {})", sql_interval(step_ms), sql_interval(max_size_ms))
        }
    };
    format!("SELECT `key`, window_start, window_end, {select}\nFROM TABLE(\n  {tvf})\nGROUP BY `key`, window_start, window_end;\n")
}

/// `r.ts BETWEEN l.ts + lower AND l.ts + upper` (strict comparisons for exclusive bounds).
fn sql_interval_join(cfg: &JobConfig, b: &JoinBounds) -> String {
    let (l, r) = (table(&cfg.inputs[0].topic), table(&cfg.inputs[1].topic));
    let at = |ms: i64| match ms {
        0 => "l.event_time".to_string(),
        m if m < 0 => format!("l.event_time - {}", sql_interval(m)),
        m => format!("l.event_time + {}", sql_interval(m)),
    };
    let cond = if b.lower_exclusive || b.upper_exclusive {
        format!(
            "r.event_time {} {} AND r.event_time {} {}",
            if b.lower_exclusive { ">" } else { ">=" },
            at(b.lower_ms),
            if b.upper_exclusive { "<" } else { "<=" },
            at(b.upper_ms)
        )
    } else {
        format!("r.event_time BETWEEN {} AND {}", at(b.lower_ms), at(b.upper_ms))
    };
    format!(
        "-- An interval join: a two-input operator; rows behind min(both inputs' watermarks) are dropped (no side output).\n\
         SELECT l.`key`, l.event_time AS left_ts, r.event_time AS right_ts\nFROM {l} l, {r} r\nWHERE l.`key` = r.`key`\n  AND {cond};\n"
    )
}
