//! `PlaygroundJob.java`: the template (`template/PlaygroundJob.java`: the replay source, the
//! replay clock, the result format) filled with the scenario's strategy and window, whose
//! fragments come from `java_fragments`, the rule the UI's snippets use too. A SQL window
//! (`window.api: "sql"`) is the Table API over the replayed stream running `job.sql`
//! (`template/SqlWindow.java`: the script runner and the result lines).

use super::java_fragments::{java_duration, java_generator, java_windowed, sql_table_name};
use super::replay::Recorded;
use crate::engine::job::JobConfig;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::scenario::schema::Scenario;
use crate::engine::source::generator::EmitMode;

const TEMPLATE: &str = include_str!("template/PlaygroundJob.java");
const SQL_CLASSES: &str = include_str!("template/SqlWindow.java");
const SQL_IMPORTS: &str = "import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
";

/// The Java program of the exported project.
pub fn java(s: &Scenario, run: &Recorded) -> String {
    let cfg = s.job_config();
    let splits: Vec<String> = run.splits.iter().map(|id| java_string(id)).collect();
    TEMPLATE
        .replace("{{NAME}}", &java_text(&s.name))
        .replace("{{TOPIC}}", &java_text(&cfg.first().topic))
        .replace("{{SPLITS}}", &format!("{{ {} }}", splits.join(", ")))
        .replace("{{STRATEGY}}", &strategy(&cfg))
        .replace("{{WINDOW}}", &if is_sql_window(&cfg) { sql_window(&cfg) } else { window(&cfg) })
        .replace("{{IMPORTS}}", if is_sql_window(&cfg) { SQL_IMPORTS } else { "" })
        .replace("{{CLASSES}}", if is_sql_window(&cfg) { SQL_CLASSES } else { "" })
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

/// The replayed stream as the view `job.sql` reads (named as the Kafka table of the SQL snippet),
/// and the query's rows printed as result lines.
fn sql_window(cfg: &JobConfig) -> String {
    format!(
        "        // The window is Flink SQL's window TVF aggregation, read from job.sql, over a view of the\n\
         \x20       // replayed stream: its rowtime is each record's timestamp and its watermark the stream's own\n\
         \x20       // (SOURCE_WATERMARK()), so the replay's per-split watermarks and idleness reach the window.\n\
         \x20       StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);\n\
         \x20       tEnv.createTemporaryView({}, events, Schema.newBuilder()\n\
         \x20           .columnByMetadata(\"event_time\", \"TIMESTAMP_LTZ(3)\", \"rowtime\", true)\n\
         \x20           .watermark(\"event_time\", \"SOURCE_WATERMARK()\")\n\
         \x20           .build());\n\
         \x20       tEnv.toDataStream(SqlScript.run(tEnv))\n\
         \x20           .transform(\"window results\", Types.STRING, new SqlResultLine())\n\
         \x20           .print().name(\"window results\");\n",
        java_string(&sql_table_name(&cfg.first().topic))
    )
}

/// Whether the window is a SQL window TVF aggregation (CUMULATE is SQL's alone).
pub fn is_sql_window(cfg: &JobConfig) -> bool {
    cfg.window_api == WindowApi::Sql || matches!(cfg.window, WindowSpec::Cumulate { .. })
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
