//! `PlaygroundJob.java`: the template (`template/PlaygroundJob.java`: the replay source, the
//! replay clock, the result format) filled with the scenario's strategy and window, whose
//! fragments come from `java_fragments`, the rule the UI's snippets use too.

use super::java_fragments::{java_duration, java_generator, java_windowed};
use super::replay::Recorded;
use crate::engine::job::JobConfig;
use crate::engine::scenario::schema::Scenario;
use crate::engine::source::generator::EmitMode;

const TEMPLATE: &str = include_str!("template/PlaygroundJob.java");

/// The Java program of the exported project.
pub fn java(s: &Scenario, run: &Recorded) -> String {
    let cfg = s.job_config();
    let splits: Vec<String> = run.splits.iter().map(|id| java_string(id)).collect();
    TEMPLATE
        .replace("{{NAME}}", &java_text(&s.name))
        .replace("{{TOPIC}}", &java_text(&cfg.first().topic))
        .replace("{{SPLITS}}", &format!("{{ {} }}", splits.join(", ")))
        .replace("{{STRATEGY}}", &strategy(&cfg))
        .replace("{{WINDOW}}", &window(&cfg))
}

/// The scenario's `WatermarkStrategy`, wrapped to run on the replay's clock.
fn strategy(cfg: &JobConfig) -> String {
    let src = &cfg.first().source;
    let idle = match src.idle_timeout_ms {
        Some(t) => format!("{},  // withIdleness", java_duration(t)),
        None => "null,  // no withIdleness: a silent split holds the watermark".into(),
    };
    let per_event = match src.emit {
        EmitMode::PerEvent => "true);  // a watermark after every record",
        EmitMode::Periodic => "false);  // periodic emission",
    };
    let mut s = format!(
        "        WatermarkStrategy<Event> watermarks = ReplayWatermarks.of(\n            WatermarkStrategy\n                {}\n            ,\n            {idle}\n            {per_event}",
        java_generator(src.generator, "Event"),
    );
    if let Some(a) = &cfg.first().alignment {
        s += &format!(
            "\n        watermarks = watermarks.withWatermarkAlignment({}, {}, {});",
            java_string(&a.group),
            java_duration(a.max_drift_ms),
            java_duration(a.update_interval_ms)
        );
    }
    s
}

/// `keyBy(..).window(..)` with the trigger, lateness and side output, into the printing sink.
fn window(cfg: &JobConfig) -> String {
    let mut s = String::new();
    if cfg.late_side_output {
        s += "        OutputTag<Event> late = new OutputTag<Event>(\"late-events\") {};\n";
    }
    s += "        SingleOutputStreamOperator<String> results = events\n            .keyBy(e -> e.key)\n";
    s += &java_windowed(cfg, "            ");
    s += "            .aggregate(new Stats(), new ResultLine());\n        results.print().name(\"window results\");\n";
    if cfg.late_side_output {
        s += "        results.getSideOutput(late)\n            .map(e -> \"late key=\" + e.key + \" ts=\" + e.ts + \" value=\" + e.value)\n            .print().name(\"late records\");\n";
    }
    s
}

/// A Java string literal.
fn java_string(text: &str) -> String {
    format!("\"{}\"", java_text(text))
}

/// Text inside a Java string literal or a `//` comment: quotes and backslashes escaped, line
/// breaks and other control characters dropped.
fn java_text(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}
