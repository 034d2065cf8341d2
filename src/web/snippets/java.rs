//! The settings as a Java DataStream program (`super::java`): the environment, the sources and
//! their `WatermarkStrategy`, the exchange and the keyed window, join or co-process.

use super::*;
use crate::engine::export::java_fragments::{java_generator, java_window_assigner, java_windowed};

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
    s += match (src.idle_timeout_ms, src.generator) {
        (Some(_), _) => ";",
        // Beside the generator that stops the hold, "holds the watermark forever" contradicted it.
        (None, GeneratorKind::MaxOnSilence { .. }) => ";  // no withIdleness: the generator emits Long.MAX_VALUE on silence instead",
        (None, _) => ";  // no withIdleness: a silent partition holds the watermark forever",
    };
    if src.idle_timeout_ms.is_some() && src.idleness_clock == IdlenessClock::Wall {
        s += "\n// Flink <= 1.19.1 / 1.20.0: the idle timeout runs on the wall clock, also while the task is back-pressured\n// (1.19.2 / 1.20.1 / 2.0, FLIP-471: only time the source could read counts)";
    }
    if input.midstream.is_some() {
        s += "\n// (a watermark operator after the source replaces these watermarks and statuses: see below)";
    }
    s + "\n\n"
}

/// The assigner's line of the strategy's chain. Its notes are block comments: the chain's `;`
/// (or the mid-stream assigner's `)`) follows on the same line, and after a `//` note it was
/// commented out, so the snippet did not compile.
fn java_assigner(a: TimestampAssigner) -> &'static str {
    match a {
        TimestampAssigner::EventField => "    .withTimestampAssigner((e, kafkaTs) -> e.getEventTimeMillis())",
        TimestampAssigner::BrokerTime => "    /* no timestamp assigner: KafkaSource uses the record's broker timestamp */",
        TimestampAssigner::SecondsAsMillis => {
            "    .withTimestampAssigner((e, kafkaTs) -> e.getEventTimeSeconds() /* BUG: seconds used as ms; multiply by 1000 */)"
        }
        TimestampAssigner::MillisAsSeconds => {
            "    .withTimestampAssigner((e, kafkaTs) -> e.getEventTimeMillis() * 1000 /* BUG: ms used as seconds; drop the * 1000 */)"
        }
    }
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
        StartOffset::TimestampMs(t) => (
            format!("OffsetsInitializer.timestamp({t}L)"),
            format!("the first record at or after {}", crate::web::format::wm_human(*t, *t)),
        ),
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
    s += &java_windowed(cfg, "    ");
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
        "// connect: a two-input operator; its watermark is the minimum of both inputs' watermarks (an idle input left out)\n\
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
    s += "// Interval Join: a two-input operator; an element is late when ts < the operator's watermark, the minimum of both inputs' watermarks (an idle input left out)\n";
    s += &format!(
        "SingleOutputStreamOperator<Joined> joined = {a}\n    .keyBy(Event::getKey)\n    .intervalJoin({r}.keyBy(OtherEvent::getKey))\n    .between({}, {})  // right.ts - left.ts in {}\n",
        java_duration(b.lower_ms),
        java_duration(b.upper_ms),
        crate::web::format::join_bounds(b)
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

// ---- SQL ------------------------------------------------------------------------------------
