//! The Java and SQL fragments of a job's settings, written by one rule for both the snippets
//! the UI shows (`web::snippets`) and the runnable job `export` writes: durations, intervals,
//! the watermark generator, the window assigner and the trigger as Flink 2.3's API spells them.

use crate::engine::job::JobConfig;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::source::generator::GeneratorKind;
use crate::engine::source::start_offset::OffsetResetStrategy;

/// The generator of a `WatermarkStrategy<ty>`: `.<ty>forBoundedOutOfOrderness(..)` and kin.
pub fn java_generator(g: GeneratorKind, ty: &str) -> String {
    match g {
        GeneratorKind::BoundedOutOfOrderness { bound_ms } => format!(".<{ty}>forBoundedOutOfOrderness({})", java_duration(bound_ms)),
        GeneratorKind::Monotonous => format!(".<{ty}>forMonotonousTimestamps()"),
        GeneratorKind::NoWatermarks => format!(".<{ty}>noWatermarks()"),
        GeneratorKind::MaxOnSilence { bound_ms, silence_ms } => format!(
            ".<{ty}>forGenerator(ctx -> new MaxOnSilenceGenerator(ctx.getInputActivityClock(), {}, {}))  // DON'T: emits Long.MAX_VALUE after silence; use withIdleness",
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

/// `.trigger(...)` for anything but the assigner's default `EventTimeTrigger`.
pub fn java_trigger(t: TriggerSpec) -> Option<String> {
    let continuous = |i: i64| format!("ContinuousEventTimeTrigger.of({})", java_duration(i));
    match t {
        TriggerSpec::EventTime => None,
        TriggerSpec::Purging => Some("PurgingTrigger.of(EventTimeTrigger.create())".into()),
        TriggerSpec::Continuous { interval_ms, purging: false } => Some(continuous(interval_ms)),
        TriggerSpec::Continuous { interval_ms, purging: true } => Some(format!("PurgingTrigger.of({})", continuous(interval_ms))),
    }
}

pub fn java_window_assigner(w: WindowSpec) -> String {
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

/// `Duration.ofSeconds(5)` style (negative for a join's lower bound).
pub fn java_duration(ms: i64) -> String {
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

/// `INTERVAL '5' SECOND` style (of a magnitude: the sign goes in the expression). Flink's
/// default leading precision is 2 digits (`INTERVAL '100' SECOND` fails validation), so a
/// longer value says its precision: `INTERVAL '100' SECOND(3)`.
pub fn sql_interval(ms: i64) -> String {
    let ms = ms.saturating_abs();
    let (lead, rest, unit) = if ms != 0 && ms % 3_600_000 == 0 {
        (ms / 3_600_000, String::new(), "HOUR")
    } else if ms != 0 && ms % 60_000 == 0 {
        (ms / 60_000, String::new(), "MINUTE")
    } else if ms % 1000 == 0 {
        (ms / 1000, String::new(), "SECOND")
    } else {
        (ms / 1000, format!(".{:03}", ms % 1000), "SECOND")
    };
    let digits = lead.to_string().len();
    let precision = if digits > 2 { format!("({digits})") } else { String::new() };
    format!("INTERVAL '{lead}{rest}' {unit}{precision}")
}

/// A keyed stream's `.window(..)` with its trigger, allowed lateness and late side output
/// (an `OutputTag` named `late`), one call a line after `indent`.
pub fn java_windowed(cfg: &JobConfig, indent: &str) -> String {
    java_windowed_with(cfg, indent, java_trigger(cfg.trigger))
}

/// The same with `trigger` in place of the scenario's (the exported job wraps it).
pub fn java_windowed_with(cfg: &JobConfig, indent: &str, trigger: Option<String>) -> String {
    let mut s = format!("{indent}.window({})\n", java_window_assigner(cfg.window));
    if let Some(trigger) = trigger {
        s += &format!("{indent}.trigger({trigger})\n");
    }
    if cfg.allowed_lateness_ms > 0 {
        s += &format!("{indent}.allowedLateness({})\n", java_duration(cfg.allowed_lateness_ms));
    }
    if cfg.late_side_output {
        s += &format!("{indent}.sideOutputLateData(late)\n");
    }
    s
}

/// `'60 s'` style, as Flink's duration options are written.
pub fn sql_duration(ms: i64) -> String {
    if ms % 60_000 == 0 && ms != 0 {
        format!("{} min", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// A SQL table name from a topic (quoted when it is not a plain identifier).
pub fn sql_table_name(topic: &str) -> String {
    if !topic.is_empty() && topic.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !topic.starts_with(|c: char| c.is_ascii_digit())
    {
        topic.to_string()
    } else {
        format!("`{}`", topic.replace('`', "``"))
    }
}

/// The job-wide alignment options that differ from Flink 2.3's defaults, as `key = value`;
/// none for a job without alignment (Flink 1.19.1's switches set the 2.3-only buffer size to 0,
/// an option 1.19.1 does not have: the export wrote it for a job that aligns nothing).
pub fn alignment_options(cfg: &JobConfig) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if cfg.inputs.iter().all(|i| i.alignment.is_none()) {
        return out;
    }
    let defaults = crate::engine::alignment::AlignmentSwitches::default();
    if cfg.alignment.buffer_size != defaults.buffer_size {
        out.push(("pipeline.watermark-alignment.buffer-size", cfg.alignment.buffer_size.to_string()));
    }
    if cfg.alignment.allow_unaligned_source_splits != defaults.allow_unaligned_source_splits {
        out.push(("pipeline.watermark-alignment.allow-unaligned-source-splits", cfg.alignment.allow_unaligned_source_splits.to_string()));
    }
    out
}
/// A reset strategy as Kafka names it (`earliest`, `latest`, `none`).
pub fn reset_name(r: OffsetResetStrategy) -> &'static str {
    match r {
        OffsetResetStrategy::Earliest => "earliest",
        OffsetResetStrategy::Latest => "latest",
        OffsetResetStrategy::None => "none",
    }
}
