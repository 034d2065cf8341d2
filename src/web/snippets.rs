//! The current settings as code to paste into a job: Java (DataStream) and Flink SQL, for every
//! shape the engine runs — one source or two (`a.union(b)`, `a.connect(b).keyBy(..).process(..)`),
//! keyed windows or an interval join (`.intervalJoin(..).between(Duration, Duration)` with
//! `lowerBoundExclusive()` / `upperBoundExclusive()`), watermarks from the source's
//! `WatermarkStrategy` or from an operator after it (a mid-stream `assignTimestampsAndWatermarks`,
//! or SQL's `WatermarkAssigner` when the `WATERMARK` clause is not pushed into the source).
//! API names are Flink 2.3's (`KeyedStream.IntervalJoin.between(Duration, Duration)`, the
//! operator names "Timestamps/Watermarks" and "Interval Join"). Pure: unit tested natively.

use crate::engine::flow::IdlenessClock;
use crate::engine::job::{InputConfig, JobConfig, TwoInputMode};
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::interval_join::JoinBounds;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sink::SinkMode;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::source::start_offset::{OffsetResetStrategy, StartOffset};
use crate::engine::source::timestamp::TimestampAssigner;
use crate::engine::source::SourceSettings;

/// `Duration.ofSeconds(5)` style (negative for a join's lower bound).
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

/// `INTERVAL '5' SECOND` style (of a magnitude: the sign goes in the expression).
fn sql_interval(ms: i64) -> String {
    let ms = ms.saturating_abs();
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

/// A Java identifier from a topic name (`impressions` → `impressions`, `page-views` → `pageViews`).
fn ident(topic: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in topic.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(if upper { c.to_ascii_uppercase() } else { c });
            upper = false;
        } else {
            upper = !out.is_empty();
        }
    }
    match out.chars().next() {
        None => "events".into(),
        Some(c) if c.is_ascii_digit() => format!("t{out}"),
        Some(_) => out,
    }
}

/// A SQL table name from a topic (quoted when it is not a plain identifier).
fn table(topic: &str) -> String {
    if !topic.is_empty() && topic.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !topic.starts_with(|c: char| c.is_ascii_digit())
    {
        topic.to_string()
    } else {
        format!("`{}`", topic.replace('`', "``"))
    }
}

/// The element type of input `i`: a union needs one type, two connected inputs may differ.
fn element_type(cfg: &JobConfig, i: usize) -> &'static str {
    if i == 0 || cfg.two_input_mode == TwoInputMode::Union {
        "Event"
    } else {
        "OtherEvent"
    }
}

// ---- Java -----------------------------------------------------------------------------------

/// The Java DataStream job: strategies, environment, sources (with any mid-stream assigner),
/// how the inputs meet, then the keyed windows or the interval join.
pub fn java(cfg: &JobConfig) -> String {
    let mut s = String::new();
    for (i, input) in cfg.inputs.iter().enumerate() {
        s += &java_strategy(cfg, i, input);
    }
    s += &java_env(cfg);
    for input in &cfg.inputs {
        s += &java_cleanup(&input.source);
    }
    for (i, input) in cfg.inputs.iter().enumerate() {
        s += &java_source(cfg, i, input);
    }
    s += &match (cfg.interval_join, cfg.inputs.len()) {
        (Some(b), 2) => java_interval_join(cfg, &b),
        (_, 2) if cfg.two_input_mode == TwoInputMode::Connect => java_connect(cfg),
        _ => java_window(cfg),
    };
    s
}

/// The variable holding input `i`'s strategy.
fn strategy_var(cfg: &JobConfig, i: usize) -> String {
    if cfg.inputs.len() == 1 {
        "watermarks".into()
    } else {
        format!("{}Watermarks", ident(&cfg.inputs[i].topic))
    }
}

/// The `WatermarkStrategy`: generator, timestamp assigner and idleness.
fn java_strategy(cfg: &JobConfig, i: usize, input: &InputConfig) -> String {
    let src = &input.source;
    let ty = element_type(cfg, i);
    let var = strategy_var(cfg, i);
    if src.generator == GeneratorKind::NoWatermarks {
        let why = if input.midstream.is_some() {
            "the watermarks are assigned after the source (below)"
        } else {
            "event-time windows never fire"
        };
        return format!("WatermarkStrategy<{ty}> {var} = WatermarkStrategy.noWatermarks();  // {why}\n\n");
    }
    let mut s = format!(
        "WatermarkStrategy<{ty}> {var} = WatermarkStrategy\n    {}\n{}",
        java_generator(src.generator, ty),
        java_assigner(src.assigner)
    );
    if let Some(t) = src.idle_timeout_ms {
        s += &format!("\n    .withIdleness({})", java_duration(t));
    }
    if let Some(a) = &input.alignment {
        s += &format!(
            "\n    .withWatermarkAlignment(\"{}\", {}, {})",
            a.group.replace('"', "\\\""),
            java_duration(a.max_drift_ms),
            java_duration(a.update_interval_ms)
        );
    }
    s += if src.idle_timeout_ms.is_some() { ";" } else { ";  // no withIdleness: a silent partition holds the watermark forever" };
    if src.idle_timeout_ms.is_some() && src.idleness_clock == IdlenessClock::Wall {
        s += "\n// Flink <= 1.20.0: the idle timeout runs on the wall clock, also while the task is back-pressured\n// (1.20.1 / 2.0, FLIP-471: only time the source could read counts)";
    }
    if input.midstream.is_some() {
        s += "\n// (a watermark operator after the source replaces these watermarks and statuses: see below)";
    }
    s + "\n\n"
}

fn java_generator(g: GeneratorKind, ty: &str) -> String {
    match g {
        GeneratorKind::BoundedOutOfOrderness { bound_ms } => format!(".<{ty}>forBoundedOutOfOrderness({})", java_duration(bound_ms)),
        GeneratorKind::Monotonous => format!(".<{ty}>forMonotonousTimestamps()"),
        GeneratorKind::NoWatermarks => format!(".<{ty}>noWatermarks()"),
        GeneratorKind::MaxOnSilence { bound_ms, silence_ms } => format!(
            ".<{ty}>forGenerator(ctx -> new MaxOnSilenceGenerator({}, {}))  // DON'T: emits Long.MAX_VALUE after silence; use withIdleness",
            java_duration(bound_ms),
            java_duration(silence_ms)
        ),
        GeneratorKind::SqlBounded { delay_ms } if delay_ms > 0 => format!(
            ".<{ty}>forBoundedOutOfOrderness({})  // = SQL's WATERMARK FOR ts AS ts - {} (max - delay, no - 1)",
            java_duration(delay_ms - 1),
            sql_interval(delay_ms)
        ),
        GeneratorKind::SqlBounded { .. } => {
            format!(".<{ty}>forGenerator(ctx -> new MaxTimestampGenerator())  // SQL's WATERMARK FOR ts AS ts: the max itself")
        }
    }
}

fn java_assigner(a: TimestampAssigner) -> &'static str {
    match a {
        TimestampAssigner::EventField => "    .withTimestampAssigner((e, kafkaTs) -> e.getEventTimeMillis())",
        TimestampAssigner::BrokerTime => "    // no timestamp assigner: KafkaSource uses the record's broker timestamp",
        TimestampAssigner::SecondsAsMillis => {
            "    .withTimestampAssigner((e, kafkaTs) -> e.getEventTimeSeconds())  // BUG: seconds used as ms; multiply by 1000"
        }
        TimestampAssigner::MillisAsSeconds => {
            "    .withTimestampAssigner((e, kafkaTs) -> e.getEventTimeMillis() * 1000)  // BUG: ms used as seconds; drop the * 1000"
        }
    }
}

/// The job-wide alignment options that differ from Flink 2.3's defaults, as `key = value`.
fn alignment_options(cfg: &JobConfig) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let defaults = crate::engine::alignment::AlignmentSwitches::default();
    if cfg.alignment.buffer_size != defaults.buffer_size {
        out.push(("pipeline.watermark-alignment.buffer-size", cfg.alignment.buffer_size.to_string()));
    }
    if cfg.alignment.allow_unaligned_source_splits != defaults.allow_unaligned_source_splits {
        out.push(("pipeline.watermark-alignment.allow-unaligned-source-splits", cfg.alignment.allow_unaligned_source_splits.to_string()));
    }
    out
}

/// The environment (with a configuration when an option differs from the default), the
/// auto-watermark interval and the keyed operator's parallelism.
fn java_env(cfg: &JobConfig) -> String {
    let mut s = String::new();
    let options = alignment_options(cfg);
    if !options.is_empty() {
        let entries: Vec<String> = options.iter().map(|(k, v)| format!("\n    \"{k}\", \"{v}\"")).collect();
        s += &format!(
            "Configuration conf = Configuration.fromMap(Map.of({}));\nStreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);\n",
            entries.join(",")
        );
    }
    s += &format!(
        "env.getConfig().setAutoWatermarkInterval({}L);{}\n",
        cfg.auto_watermark_interval_ms,
        if cfg.auto_watermark_interval_ms == 0 { "  // 0 disables periodic watermarks and idleness" } else { "" }
    );
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

/// The variable holding input `i`'s stream.
fn stream_var(cfg: &JobConfig, i: usize) -> String {
    if cfg.inputs.len() == 1 {
        "events".into()
    } else {
        ident(&cfg.inputs[i].topic)
    }
}

/// The `KafkaSource` when it does not start at `OffsetsInitializer.earliest()` (the builder's
/// default): where it starts, with the committed offsets or the time in a comment.
fn java_kafka_source(ty: &str, var: &str, input: &InputConfig) -> String {
    let (init, note) = match &input.start_offset {
        StartOffset::Earliest => return String::new(),
        StartOffset::Latest => ("OffsetsInitializer.latest()".to_string(), "skips what the topic holds at start".to_string()),
        StartOffset::TimestampMs(t) => {
            (format!("OffsetsInitializer.timestamp({t}L)"), format!("the first record at or after {}", super::format::wm_human(*t, *t)))
        }
        StartOffset::Committed(c) => (
            format!("OffsetsInitializer.committedOffsets(OffsetResetStrategy.{})", reset_name(c.reset).to_uppercase()),
            format!("the group's committed offsets: {}", c.offsets.iter().map(|o| o.to_string()).collect::<Vec<_>>().join(", ")),
        ),
    };
    format!(
        "KafkaSource<{ty}> {var} = KafkaSource.<{ty}>builder()\n    .setTopics(\"{}\")\n    .setStartingOffsets({init})  // {note}\n    // .setBootstrapServers(..), .setGroupId(..), .setValueOnlyDeserializer(..)\n    .build();\n\n",
        input.topic
    )
}

/// A reset strategy as Kafka names it (`earliest`, `latest`, `none`).
fn reset_name(r: OffsetResetStrategy) -> &'static str {
    match r {
        OffsetResetStrategy::Earliest => "earliest",
        OffsetResetStrategy::Latest => "latest",
        OffsetResetStrategy::None => "none",
    }
}

/// `fromSource(...)`, and the watermark operator chained after it, if any.
fn java_source(cfg: &JobConfig, i: usize, input: &InputConfig) -> String {
    let ty = element_type(cfg, i);
    let source = if cfg.inputs.len() == 1 { "kafkaSource".to_string() } else { format!("{}Source", ident(&input.topic)) };
    let builder = java_kafka_source(ty, &source, input);
    let mut s = format!(
        "DataStream<{ty}> {} = env\n    .fromSource({source}, {}, \"{}\")\n    .setParallelism({})",
        stream_var(cfg, i),
        strategy_var(cfg, i),
        input.topic,
        input.source_parallelism
    );
    match input.midstream {
        Some(MidstreamSpec::TimestampsAndWatermarks { generator, idle_timeout_ms, .. }) => {
            s += "\n    // DON'T: a mid-stream assigner (operator \"Timestamps/Watermarks\") swallows the source's watermarks\n    // and idleness (FLINK-26708): one watermark per subtask, idle only by its own withIdleness.";
            s += &format!(
                "\n    .assignTimestampsAndWatermarks(WatermarkStrategy\n        {}\n    {}",
                java_generator(generator, ty),
                java_assigner(input.source.assigner)
            );
            if let Some(t) = idle_timeout_ms {
                s += &format!("\n        .withIdleness({})", java_duration(t));
            }
            s += ")";
        }
        Some(MidstreamSpec::SqlWatermarkAssigner { .. }) => {
            s = format!("// The watermarks of this job come from SQL's WatermarkAssigner after the source (see the SQL tab).\n{s}");
        }
        None => {}
    }
    builder + &s + ";\n\n"
}

/// The window's lateness settings and aggregate after `.window(...)`, and what they imply.
fn java_window(cfg: &JobConfig) -> String {
    let mut s = String::new();
    let window = java_window_assigner(cfg.window);
    if cfg.late_side_output {
        s += "OutputTag<Event> late = new OutputTag<Event>(\"late-events\") {};\n";
    }
    let stream = if cfg.inputs.len() == 2 {
        // One logical input: its valve covers the channels of both sources.
        format!("{}\n    .union({})", stream_var(cfg, 0), stream_var(cfg, 1))
    } else {
        "events".into()
    };
    if cfg.inputs.len() == 2 {
        s += "// union: one input whose watermark is the minimum over both sources' channels (an idle one is left out)\n";
    }
    s += &format!("SingleOutputStreamOperator<Result> results = {stream}\n    .keyBy(Event::getKey)\n");
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
    s += &format!("    .aggregate(new {}());\n", java_aggregate(cfg.aggregate));
    if cfg.late_side_output {
        s += "results.getSideOutput(late).sinkTo(lateSink);\n";
    }
    if cfg.allowed_lateness_ms > 0 && cfg.sink == SinkMode::Append {
        s += "// allowedLateness re-fires windows: write to a sink that upserts by (key, window), or expect duplicates\n";
    }
    s
}

fn java_aggregate(a: AggregateKind) -> &'static str {
    match a {
        AggregateKind::Count => "CountAggregate",
        AggregateKind::Sum => "SumAggregate",
        AggregateKind::Min => "MinAggregate",
        AggregateKind::Max => "MaxAggregate",
    }
}

/// Two connected inputs, keyed alike, into one two-input operator that keeps its own
/// event-time windows with timers (what the simulator's connected window operator does).
fn java_connect(cfg: &JobConfig) -> String {
    let (a, b) = (stream_var(cfg, 0), stream_var(cfg, 1));
    format!(
        "// connect: a two-input operator; its watermark is min(currentInput1Watermark, currentInput2Watermark)\n\
         // over the inputs that are not idle: a quiet input holds it unless its source has withIdleness.\n\
         SingleOutputStreamOperator<Result> results = {a}\n    .connect({b})\n    .keyBy(Event::getKey, OtherEvent::getKey)\n    \
         .process(new WindowedCoProcessFunction({}, new {}()));  // event-time timers at each window's end\n",
        java_window_assigner(cfg.window),
        java_aggregate(cfg.aggregate)
    )
}

/// `left.keyBy(..).intervalJoin(right.keyBy(..)).between(lower, upper)` with its exclusive
/// bounds and late side outputs.
fn java_interval_join(cfg: &JobConfig, b: &JoinBounds) -> String {
    let (a, r) = (stream_var(cfg, 0), stream_var(cfg, 1));
    let mut s = String::new();
    if cfg.late_side_output {
        s += "OutputTag<Event> lateLeft = new OutputTag<Event>(\"late-left\") {};\nOutputTag<OtherEvent> lateRight = new OutputTag<OtherEvent>(\"late-right\") {};\n";
    }
    s += "// Interval Join: a two-input operator; an element is late when ts < min(currentInput1Watermark, currentInput2Watermark)\n";
    s += &format!(
        "SingleOutputStreamOperator<Joined> joined = {a}\n    .keyBy(Event::getKey)\n    .intervalJoin({r}.keyBy(OtherEvent::getKey))\n    .between({}, {})  // right.ts - left.ts in {}\n",
        java_duration(b.lower_ms),
        java_duration(b.upper_ms),
        super::format::join_bounds(b)
    );
    if b.lower_exclusive {
        s += "    .lowerBoundExclusive()\n";
    }
    if b.upper_exclusive {
        s += "    .upperBoundExclusive()\n";
    }
    if cfg.late_side_output {
        s += "    .sideOutputLeftLateData(lateLeft)\n    .sideOutputRightLateData(lateRight)\n";
    }
    s += "    .process(new ProcessJoinFunction<Event, OtherEvent, Joined>() {\n        @Override\n        public void processElement(Event left, OtherEvent right, Context ctx, Collector<Joined> out) {\n            out.collect(new Joined(left, right));  // its timestamp: max(left, right)\n        }\n    });\n";
    if !cfg.late_side_output {
        s += "// late elements are dropped silently: Flink 2.3 counts no numLateRecordsDropped for an interval join\n";
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
        WindowSpec::Tumbling { size_ms, offset_ms } => {
            format!("TumblingEventTimeWindows.of({}, {})", java_duration(size_ms), java_duration(offset_ms))
        }
        WindowSpec::Sliding { size_ms, slide_ms, .. } => {
            format!("SlidingEventTimeWindows.of({}, {})", java_duration(size_ms), java_duration(slide_ms))
        }
        WindowSpec::Session { gap_ms } => format!("EventTimeSessionWindows.withGap({})", java_duration(gap_ms)),
        WindowSpec::Cumulate { .. } => "/* CUMULATE is a Flink SQL window: no DataStream assigner, see the SQL */".into(),
    }
}

// ---- SQL ------------------------------------------------------------------------------------

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
fn sql_table(input: &InputConfig, own_idle: Option<Option<i64>>) -> String {
    let src = &input.source;
    let ts_expr = match src.assigner {
        TimestampAssigner::EventField => "  event_time TIMESTAMP_LTZ(3),".to_string(),
        TimestampAssigner::BrokerTime => "  event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',".to_string(),
        TimestampAssigner::SecondsAsMillis => "  event_time_s BIGINT,\n  event_time AS TO_TIMESTAMP_LTZ(event_time_s, 3),  -- BUG: seconds read as ms; use TO_TIMESTAMP_LTZ(event_time_s, 0)".to_string(),
        TimestampAssigner::MillisAsSeconds => "  event_time_ms BIGINT,\n  event_time AS TO_TIMESTAMP_LTZ(event_time_ms, 0),  -- BUG: ms read as seconds; use TO_TIMESTAMP_LTZ(event_time_ms, 3)".to_string(),
    };
    let (wm, _) = sql_strategy(input);
    let mut s = String::new();
    if matches!(input.midstream, Some(MidstreamSpec::SqlWatermarkAssigner { .. })) {
        s += "-- This WATERMARK runs as an operator after the source (WatermarkAssigner), not pushed into it:\n\
              -- one watermark per source subtask (not per partition), starting at 0; any row makes it active again.\n\
              -- A connector with watermark push-down (SupportsWatermarkPushDown, as Kafka's) generates\n\
              -- per-partition watermarks in the source instead.\n";
    }
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
        s += "-- Flink <= 1.20.0: the idle timeout runs on the wall clock, also while the source is back-pressured\n";
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
    s += &format!(
        "SELECT `key`, window_start, window_end, {agg} AS result\nFROM TABLE(\n  {tvf})\nGROUP BY `key`, window_start, window_end;\n"
    );
    if cfg.allowed_lateness_ms > 0 || cfg.late_side_output {
        s += "-- Flink SQL window aggregations have no allowed lateness or late side output: late rows are dropped.\n";
    }
    if cfg.trigger != TriggerSpec::EventTime {
        s += "-- Flink SQL window aggregations fire once, at the window's end: no early firings, no purging trigger.\n";
    }
    s
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{build, catalog};

    fn cfg_of(json: &str) -> JobConfig {
        build::parse(json).unwrap().build().unwrap().config().clone()
    }

    fn preset(id: &str) -> JobConfig {
        cfg_of(catalog::preset(id).unwrap().json)
    }

    #[test]
    fn a_union_is_one_stream_in_java_and_union_all_in_sql() {
        let c = preset("union-idle-stream");
        let j = java(&c);
        assert!(j.contains("DataStream<Event> clicks = env\n    .fromSource(clicksSource, clicksWatermarks, \"clicks\")"), "{j}");
        assert!(j.contains("= clicks\n    .union(impressions)\n    .keyBy(Event::getKey)\n    .window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))"), "{j}");
        let q = sql(&c);
        assert!(q.contains("CREATE TABLE clicks (") && q.contains("CREATE TABLE impressions ("), "{q}");
        assert!(q.contains("UNION ALL") && q.contains("TUMBLE(TABLE all_events, DESCRIPTOR(event_time), INTERVAL '10' SECOND)"), "{q}");
    }

    #[test]
    fn connect_keys_both_inputs_and_processes_them_together() {
        let j = java(&preset("quiet-side-join"));
        assert!(j.contains("orders\n    .connect(rates)\n    .keyBy(Event::getKey, OtherEvent::getKey)\n    .process("), "{j}");
        assert!(j.contains("WatermarkStrategy<OtherEvent> ratesWatermarks = WatermarkStrategy\n    .<OtherEvent>forBoundedOutOfOrderness(Duration.ofSeconds(2))"), "{j}");
    }

    #[test]
    fn a_midstream_assigner_follows_the_source_with_its_own_strategy() {
        let c = preset("midstream-assigner");
        let j = java(&c);
        assert!(j.contains(".withIdleness(Duration.ofSeconds(5));"), "the source's strategy stays: {j}");
        assert!(
            j.contains(".assignTimestampsAndWatermarks(WatermarkStrategy\n        .<Event>forBoundedOutOfOrderness(Duration.ofSeconds(2))"),
            "{j}"
        );
        assert!(j.contains("\"Timestamps/Watermarks\""), "{j}");
    }

    #[test]
    fn sql_with_a_watermark_operator_says_so_and_sets_its_idle_timeout() {
        let c = preset("sql-idle-reactivates");
        let q = sql(&c);
        assert!(q.starts_with("SET 'table.exec.source.idle-timeout' = '1 min';"), "{q}");
        assert!(q.contains("WATERMARK FOR event_time AS event_time - INTERVAL '2' SECOND"), "{q}");
        assert!(q.contains("not pushed into it"), "{q}");
        let j = java(&c);
        assert!(j.contains("WatermarkStrategy.noWatermarks()") && j.contains("see the SQL tab).\nDataStream<Event> events = env"), "{j}");
        assert!(j.contains("    .setParallelism(2);\n"), "no statement ends inside a comment: {j}");
    }

    #[test]
    fn an_interval_join_has_its_bounds_in_java_and_sql() {
        let c = cfg_of(include_str!("../../tests/scenarios/interval_join_orders_payments.json"));
        let j = java(&c);
        assert!(
            j.contains(".intervalJoin(payments.keyBy(OtherEvent::getKey))\n    .between(Duration.ofSeconds(-2), Duration.ofSeconds(5))  // right.ts - left.ts in [−2 s, 5 s)\n    .upperBoundExclusive()\n    .process(new ProcessJoinFunction<Event, OtherEvent, Joined>()"),
            "{j}"
        );
        assert!(!j.contains(".lowerBoundExclusive()") && !j.contains(".window("), "{j}");
        let q = sql(&c);
        assert!(q.contains("WHERE l.`key` = r.`key`\n  AND r.event_time >= l.event_time - INTERVAL '2' SECOND AND r.event_time < l.event_time + INTERVAL '5' SECOND;"), "{q}");
        let mut inclusive = c.clone();
        inclusive.interval_join.as_mut().unwrap().upper_exclusive = false;
        assert!(sql(&inclusive).contains("r.event_time BETWEEN l.event_time - INTERVAL '2' SECOND AND l.event_time + INTERVAL '5' SECOND"));
    }

    #[test]
    fn alignment_start_offsets_and_pipeline_options_only_when_set() {
        let plain = preset("backpressure-never-idle");
        let (j, q) = (java(&plain), sql(&plain));
        assert!(
            !j.contains("withWatermarkAlignment") && !j.contains("KafkaSource.<Event>builder()") && !j.contains("Configuration"),
            "{j}"
        );
        assert!(q.contains("'scan.startup.mode' = 'earliest-offset'") && !q.contains("alignment"), "{q}");
        let mut c = plain.clone();
        c.inputs[0].alignment =
            Some(crate::engine::alignment::AlignmentParams { group: "backfill".into(), max_drift_ms: 20_000, update_interval_ms: 500 });
        c.inputs[0].start_offset = StartOffset::TimestampMs(1_767_139_200_000);
        c.alignment.buffer_size = 0;
        let (j, q) = (java(&c), sql(&c));
        assert!(j.contains("    .withIdleness(Duration.ofSeconds(5))\n    .withWatermarkAlignment(\"backfill\", Duration.ofSeconds(20), Duration.ofMillis(500));"), "{j}");
        assert!(j.contains("KafkaSource<Event> kafkaSource = KafkaSource.<Event>builder()\n    .setTopics(\"clicks\")\n    .setStartingOffsets(OffsetsInitializer.timestamp(1767139200000L))"), "{j}");
        assert!(
            j.starts_with("WatermarkStrategy<Event>")
                && j.contains("Configuration.fromMap(Map.of(\n    \"pipeline.watermark-alignment.buffer-size\", \"0\"));"),
            "{j}"
        );
        assert!(q.contains("'scan.startup.mode' = 'timestamp',\n  'scan.startup.timestamp-millis' = '1767139200000'"), "{q}");
        assert!(q.contains("'scan.watermark.alignment.group' = 'backfill',\n  'scan.watermark.alignment.max-drift' = '20 s',\n  'scan.watermark.alignment.update-interval' = '500 ms'"), "{q}");
        assert!(q.contains("SET 'pipeline.watermark-alignment.buffer-size' = '0';"), "{q}");
        c.inputs[0].start_offset = StartOffset::Committed(crate::engine::source::start_offset::CommittedOffsets {
            offsets: vec![120, 4000],
            reset: OffsetResetStrategy::Latest,
        });
        c.inputs[0].source.idleness_clock = IdlenessClock::Wall;
        let (j, q) = (java(&c), sql(&c));
        assert!(j.contains(".setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.LATEST))  // the group's committed offsets: 120, 4000"), "{j}");
        assert!(j.contains("// Flink <= 1.20.0: the idle timeout runs on the wall clock"), "{j}");
        assert!(q.contains("'scan.startup.mode' = 'group-offsets',\n  'properties.group.id' = 'my-group',\n  'properties.auto.offset.reset' = 'latest'"), "{q}");
    }

    #[test]
    fn one_input_reads_as_before() {
        let c = preset("seed-001-heartbeat");
        assert!(java(&c).starts_with("WatermarkStrategy<Event> watermarks = WatermarkStrategy\n    .<Event>forBoundedOutOfOrderness("));
        assert!(java(&c).contains("DataStream<Event> events = env\n    .fromSource(kafkaSource, watermarks, \"clickstream\")"));
        assert!(sql(&c).contains("TUMBLE(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '1' MINUTE)"));
    }
}
