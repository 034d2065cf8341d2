//! The current settings as code to paste into a job: a Java `WatermarkStrategy` (+ window) and
//! Flink SQL (`WATERMARK FOR … AS … - INTERVAL`, `table.exec.source.idle-timeout`).

use crate::engine::job::JobConfig;
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::sink::SinkMode;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::source::generator::GeneratorKind;
use crate::engine::source::SourceSettings;
use crate::engine::source::timestamp::TimestampAssigner;

/// `Duration.ofSeconds(5)` style.
fn java_duration(ms: i64) -> String {
    if ms != 0 && ms % 3_600_000 == 0 {
        format!("Duration.ofHours({})", ms / 3_600_000)
    } else if ms != 0 && ms % 60_000 == 0 {
        format!("Duration.ofMinutes({})", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("Duration.ofSeconds({})", ms / 1000)
    } else {
        format!("Duration.ofMillis({ms})")
    }
}

/// `INTERVAL '5' SECOND` style.
fn sql_interval(ms: i64) -> String {
    if ms != 0 && ms % 3_600_000 == 0 {
        format!("INTERVAL '{}' HOUR", ms / 3_600_000)
    } else if ms != 0 && ms % 60_000 == 0 {
        format!("INTERVAL '{}' MINUTE", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("INTERVAL '{}' SECOND", ms / 1000)
    } else {
        format!("INTERVAL '{}.{:03}' SECOND", ms / 1000, ms % 1000)
    }
}

/// `'60 s'` style, as Flink's duration options are written.
fn sql_duration(ms: i64) -> String {
    if ms % 60_000 == 0 && ms != 0 {
        format!("{} min", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// The Java DataStream job: strategy, environment, source, then the keyed window.
pub fn java(cfg: &JobConfig) -> String {
    [java_strategy(&cfg.first().source), java_env(cfg), java_cleanup(&cfg.first().source), java_source(cfg), java_window(cfg)].concat()
}

/// The `WatermarkStrategy`: generator, timestamp assigner and idleness.
fn java_strategy(src: &SourceSettings) -> String {
    let mut s = String::new();
    let strategy = java_generator(src.generator);
    let assigner = java_assigner(src.assigner);
    s += "WatermarkStrategy<Event> watermarks = WatermarkStrategy\n";
    s += &format!("    {strategy}\n{assigner}");
    match src.idle_timeout_ms {
        Some(t) => s += &format!("\n    .withIdleness({});", java_duration(t)),
        None => s += ";  // no withIdleness: a silent partition holds the watermark forever",
    }
    s += "\n\n";
    s
}

fn java_generator(g: GeneratorKind) -> String {
    match g {
        GeneratorKind::BoundedOutOfOrderness { bound_ms } => format!(".<Event>forBoundedOutOfOrderness({})", java_duration(bound_ms)),
        GeneratorKind::Monotonous => ".<Event>forMonotonousTimestamps()".into(),
        GeneratorKind::NoWatermarks => ".<Event>noWatermarks()".into(),
        GeneratorKind::MaxOnSilence { bound_ms, silence_ms } => format!(
            ".<Event>forGenerator(ctx -> new MaxOnSilenceGenerator({}, {}))  // DON'T: emits Long.MAX_VALUE after silence; use withIdleness",
            java_duration(bound_ms),
            java_duration(silence_ms)
        ),
        GeneratorKind::SqlBounded { delay_ms } if delay_ms > 0 => format!(
            ".<Event>forBoundedOutOfOrderness({})  // = SQL's WATERMARK FOR ts AS ts - {} (max - delay, no - 1)",
            java_duration(delay_ms - 1),
            sql_interval(delay_ms)
        ),
        GeneratorKind::SqlBounded { .. } => ".<Event>forGenerator(ctx -> new MaxTimestampGenerator())  // SQL's WATERMARK FOR ts AS ts: the max itself".into(),
    }
}

fn java_assigner(a: TimestampAssigner) -> &'static str {
    match a {
        TimestampAssigner::EventField => "    .withTimestampAssigner((e, kafkaTs) -> e.getEventTimeMillis())",
        TimestampAssigner::BrokerTime => "    // no timestamp assigner: KafkaSource uses the record's broker timestamp",
        TimestampAssigner::SecondsAsMillis => "    .withTimestampAssigner((e, kafkaTs) -> e.getEventTimeSeconds())  // BUG: seconds used as ms; multiply by 1000",
        TimestampAssigner::MillisAsSeconds => "    .withTimestampAssigner((e, kafkaTs) -> e.getEventTimeMillis() * 1000)  // BUG: ms used as seconds; drop the * 1000",
    }
}

/// The auto-watermark interval and the window parallelism.
fn java_env(cfg: &JobConfig) -> String {
    let mut s = String::new();
    s += &format!("env.getConfig().setAutoWatermarkInterval({}L);{}\n", cfg.auto_watermark_interval_ms, if cfg.auto_watermark_interval_ms == 0 { "  // 0 disables periodic watermarks and idleness" } else { "" });
    s += &format!("env.setParallelism({});\n\n", cfg.window_parallelism);
    s
}

/// Clamping and heartbeat filtering, as a comment: Java has no switch for them, they belong in
/// the deserializer or source reader (nothing when neither is set).
fn java_cleanup(src: &SourceSettings) -> String {
    let mut s = String::new();
    if src.transform.max_future_skew_ms.is_some() || src.transform.drop_heartbeats {
        s += "// Clean timestamps inside the deserializer/source reader, before the watermark generator:\n";
        if let Some(skew) = src.transform.max_future_skew_ms {
            s += &format!("//   eventTime = Math.min(eventTime, System.currentTimeMillis() + {skew});\n");
        }
        if src.transform.drop_heartbeats {
            s += "//   skip heartbeat records (return nothing for them)\n";
        }
        s += "\n";
    }
    s
}

fn java_source(cfg: &JobConfig) -> String {
    format!("DataStream<Event> events = env\n    .fromSource(kafkaSource, watermarks, \"{}\")\n    .setParallelism({});\n\n", cfg.first().topic, cfg.first().source_parallelism)
}

/// The keyed window with its lateness settings and aggregate, and what lateness implies for
/// the sink.
fn java_window(cfg: &JobConfig) -> String {
    let mut s = String::new();
    let window = java_window_assigner(cfg.window);
    if cfg.late_side_output {
        s += "OutputTag<Event> late = new OutputTag<Event>(\"late-events\") {};\n";
    }
    s += "SingleOutputStreamOperator<Result> results = events\n    .keyBy(Event::getKey)\n";
    s += &format!("    .window({window})\n");
    if let Some(trigger) = java_trigger(cfg.trigger) {
        s += &format!("    .trigger({trigger})\n");
    }
    if cfg.allowed_lateness_ms > 0 {
        s += &format!("    .allowedLateness({})\n", java_duration(cfg.allowed_lateness_ms));
    }
    if cfg.late_side_output {
        s += "    .sideOutputLateData(late)\n";
    }
    let agg = match cfg.aggregate {
        AggregateKind::Count => "CountAggregate",
        AggregateKind::Sum => "SumAggregate",
        AggregateKind::Min => "MinAggregate",
        AggregateKind::Max => "MaxAggregate",
    };
    s += &format!("    .aggregate(new {agg}());\n");
    if cfg.late_side_output {
        s += "results.getSideOutput(late).sinkTo(lateSink);\n";
    }
    if cfg.allowed_lateness_ms > 0 && cfg.sink == SinkMode::Append {
        s += "// allowedLateness re-fires windows: write to a sink that upserts by (key, window), or expect duplicates\n";
    }
    s
}

/// `.trigger(...)` for anything but the assigner's default `EventTimeTrigger`.
fn java_trigger(t: TriggerSpec) -> Option<String> {
    let continuous = |i: i64| format!("ContinuousEventTimeTrigger.of({})", java_duration(i));
    match t {
        TriggerSpec::EventTime => None,
        TriggerSpec::Purging => Some("PurgingTrigger.of(EventTimeTrigger.create())".into()),
        TriggerSpec::Continuous { interval_ms, purging: false } => Some(continuous(interval_ms)),
        TriggerSpec::Continuous { interval_ms, purging: true } => Some(format!("PurgingTrigger.of({})", continuous(interval_ms))),
    }
}

fn java_window_assigner(w: WindowSpec) -> String {
    match w {
        WindowSpec::Tumbling { size_ms, offset_ms: 0 } => format!("TumblingEventTimeWindows.of({})", java_duration(size_ms)),
        WindowSpec::Tumbling { size_ms, offset_ms } => format!("TumblingEventTimeWindows.of({}, {})", java_duration(size_ms), java_duration(offset_ms)),
        WindowSpec::Sliding { size_ms, slide_ms, .. } => format!("SlidingEventTimeWindows.of({}, {})", java_duration(size_ms), java_duration(slide_ms)),
        WindowSpec::Session { gap_ms } => format!("EventTimeSessionWindows.withGap({})", java_duration(gap_ms)),
        WindowSpec::Cumulate { .. } => "/* CUMULATE is a Flink SQL window: no DataStream assigner, see the SQL */".into(),
    }
}

pub fn sql(cfg: &JobConfig) -> String {
    let src = &cfg.first().source;
    let mut s = String::new();
    match src.idle_timeout_ms {
        Some(t) => s += &format!("SET 'table.exec.source.idle-timeout' = '{}';\n", sql_duration(t)),
        None => s += "-- table.exec.source.idle-timeout is 0 (off): a silent partition holds the watermark\n",
    }
    s += &format!("SET 'pipeline.auto-watermark-interval' = '{}';\n", sql_duration(cfg.auto_watermark_interval_ms));
    s += &format!("SET 'parallelism.default' = '{}';\n\n", cfg.window_parallelism);
    let ts_expr = match src.assigner {
        TimestampAssigner::EventField => "  event_time TIMESTAMP_LTZ(3),".to_string(),
        TimestampAssigner::BrokerTime => "  event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',".to_string(),
        TimestampAssigner::SecondsAsMillis => "  event_time_s BIGINT,\n  event_time AS TO_TIMESTAMP_LTZ(event_time_s, 3),  -- BUG: seconds read as ms; use TO_TIMESTAMP_LTZ(event_time_s, 0)".to_string(),
        TimestampAssigner::MillisAsSeconds => "  event_time_ms BIGINT,\n  event_time AS TO_TIMESTAMP_LTZ(event_time_ms, 0),  -- BUG: ms read as seconds; use TO_TIMESTAMP_LTZ(event_time_ms, 3)".to_string(),
    };
    let wm = match src.generator {
        GeneratorKind::BoundedOutOfOrderness { bound_ms } | GeneratorKind::MaxOnSilence { bound_ms, .. } if bound_ms > 0 => {
            format!("  WATERMARK FOR event_time AS event_time - {}", sql_interval(bound_ms))
        }
        GeneratorKind::SqlBounded { delay_ms } if delay_ms > 0 => format!("  WATERMARK FOR event_time AS event_time - {}", sql_interval(delay_ms)),
        GeneratorKind::NoWatermarks => "  -- no WATERMARK clause: event-time windows never fire".to_string(),
        _ => "  WATERMARK FOR event_time AS event_time".to_string(),
    };
    s += &format!("CREATE TABLE {} (\n  `key` STRING,\n  `value` BIGINT,\n{ts_expr}\n{wm}\n) WITH (\n", cfg.first().topic);
    s += &format!("  'connector' = 'kafka',\n  'topic' = '{}',\n  'properties.bootstrap.servers' = 'broker:9092',\n  'scan.startup.mode' = 'earliest-offset',\n  'format' = 'json',\n  'scan.parallelism' = '{}'\n);\n\n", cfg.first().topic, cfg.first().source_parallelism);
    let agg = match cfg.aggregate {
        AggregateKind::Count => "COUNT(*)",
        AggregateKind::Sum => "SUM(`value`)",
        AggregateKind::Min => "MIN(`value`)",
        AggregateKind::Max => "MAX(`value`)",
    };
    let tvf = match cfg.window {
        WindowSpec::Tumbling { size_ms, .. } => format!("TUMBLE(TABLE {}, DESCRIPTOR(event_time), {})", cfg.first().topic, sql_interval(size_ms)),
        WindowSpec::Sliding { size_ms, slide_ms, .. } => format!("HOP(TABLE {}, DESCRIPTOR(event_time), {}, {})", cfg.first().topic, sql_interval(slide_ms), sql_interval(size_ms)),
        WindowSpec::Session { gap_ms } => format!("SESSION(TABLE {} PARTITION BY `key`, DESCRIPTOR(event_time), {})", cfg.first().topic, sql_interval(gap_ms)),
        WindowSpec::Cumulate { step_ms, max_size_ms, .. } => {
            format!("CUMULATE(TABLE {}, DESCRIPTOR(event_time), {}, {})", cfg.first().topic, sql_interval(step_ms), sql_interval(max_size_ms))
        }
    };
    s += &format!("SELECT `key`, window_start, window_end, {agg} AS result\nFROM TABLE(\n  {tvf})\nGROUP BY `key`, window_start, window_end;\n");
    if cfg.allowed_lateness_ms > 0 || cfg.late_side_output {
        s += "-- Flink SQL window aggregations have no allowed lateness or late side output: late rows are dropped.\n";
    }
    if cfg.trigger != TriggerSpec::EventTime {
        s += "-- Flink SQL window aggregations fire once, at the window's end: no early firings, no purging trigger.\n";
    }
    if src.transform.drop_heartbeats {
        s += "-- Heartbeats must be dropped before the watermark is computed (in the format/deserializer), not with a WHERE clause.\n";
    }
    s
}
