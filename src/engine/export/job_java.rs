//! `PlaygroundJob.java`: the template (`template/PlaygroundJob.java`: the replay source, the
//! replay clock, the result format) filled with the scenario's strategy and window, whose
//! fragments come from `java_fragments`, the rule the UI's snippets use too. A SQL window
//! (`window.api: "sql"`) is the Table API over the replayed stream running `job.sql`
//! (`template/SqlWindow.java`: the script runner and the result lines).

use super::java_fragments::{java_duration, java_generator, java_trigger, java_windowed_with, sql_duration, sql_interval, sql_table_name};
use super::replay::Recorded;
use crate::engine::job::JobConfig;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::scenario::schema::Scenario;
use crate::engine::source::generator::{EmitMode, GeneratorKind};

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
        .replace("{{SUBTASKS}}", &subtasks(run))
        .replace("{{END_OF_INPUT_ABOVE}}", &end_of_input_above(s, &cfg, run).to_string())
        .replace("{{STRATEGY}}", &strategy(&cfg))
        .replace("{{SOURCE}}", &source(&cfg))
        .replace("{{FAILURES}}", &run.failures.to_string())
        .replace("{{PACED}}", &is_paced(&cfg).to_string())
        .replace("{{WINDOW}}", &if is_sql_window(&cfg) { sql_window(&cfg) } else { window(&cfg, run.failures > 0) })
        .replace("{{IMPORTS}}", if uses_table_api(&cfg) { SQL_IMPORTS } else { "" })
        .replace("{{CLASSES}}", if is_sql_window(&cfg) { SQL_CLASSES } else { "" })
}

/// The scenario's `WatermarkStrategy`, wrapped to run on the replay's clock, and the mid-stream
/// operator's as `midstream` when there is one.
fn strategy(cfg: &JobConfig) -> String {
    let mut s = String::new();
    for (i, input) in cfg.inputs.iter().enumerate() {
        let var = if i == 0 { "watermarks" } else { "watermarks2" };
        let src = &input.source;
        if i > 0 {
            s += "\n\n        // The second source, with its own strategy.\n";
        }
        s += &replay_strategy(var, src.generator, src.emit, src.idle_timeout_ms);
        if let Some(a) = &input.alignment {
            s += &format!(
                "\n        {var} = {var}.withWatermarkAlignment({}, {}, {});",
                java_string(&a.group),
                java_duration(a.max_drift_ms),
                java_duration(a.update_interval_ms)
            );
        }
    }
    if cfg.inputs.len() == 2 {
        s += "\n        // One reader replays both sources' splits, each split with its own input's strategy.\n        watermarks = new ByInput(watermarks, watermarks2);";
    }
    s
}

/// `WatermarkStrategy<Event> <var> = ReplayWatermarks.of(<generator>, <idle timeout>, <per event>);`
fn replay_strategy(var: &str, generator: GeneratorKind, emit: EmitMode, idle_timeout_ms: Option<i64>) -> String {
    let idle = match idle_timeout_ms {
        Some(t) => format!("{},  // withIdleness", java_duration(t)),
        None => "null,  // no withIdleness: a silent split holds the watermark".into(),
    };
    let per_event = match emit {
        EmitMode::PerEvent => "true);  // a watermark after every record",
        EmitMode::Periodic => "false);  // periodic emission",
    };
    format!(
        "        WatermarkStrategy<Event> {var} = ReplayWatermarks.of(\n            WatermarkStrategy\n                {}\n            ,\n            {idle}\n            {per_event}",
        java_generator(generator, "Event"),
    )
}

/// The window watermark above which a firing comes from the end of the replay (see the template).
/// `Long.MAX_VALUE` (no firing marked) when the playground's window reached it without an end of
/// input (a `max_on_silence` generator emits it): those firings are the playground's, and the
/// end of the replay has nothing left to fire.
fn end_of_input_above(s: &Scenario, cfg: &JobConfig, run: &Recorded) -> i64 {
    match cfg.first().midstream {
        _ if run.final_watermark_ms == i64::MAX && !s.end_of_input => i64::MAX,
        Some(_) => run.final_watermark_ms,
        None => i64::MAX - 1,
    }
}

/// The splits of each playground source subtask (its index: the records' `subtask`).
fn subtasks(run: &Recorded) -> String {
    let groups: Vec<String> =
        run.subtask_splits.iter().map(|g| format!("{{ {} }}", g.iter().map(|id| java_string(id)).collect::<Vec<_>>().join(", "))).collect();
    format!(
        "    /** The splits each of the playground's source subtasks read (a watermark operator follows each). */\n    static final String[][] SUBTASKS = {{ {} }};\n",
        groups.join(", ")
    )
}

/// The replayed stream `events`: one source reading every split (of both inputs of a union),
/// and, with a watermark operator after the source, each playground source subtask's records
/// through their own operator (`assignTimestampsAndWatermarks` on the replay's clock), unioned.
fn source(cfg: &JobConfig) -> String {
    let topic = java_text(&cfg.inputs.iter().map(|i| i.topic.as_str()).collect::<Vec<_>>().join(" + "));
    let read = format!("env\n            .fromSource(new ReplaySource(SPLITS, replay), watermarks, \"{topic}\")");
    let (generator, emit, idle_timeout_ms) = match cfg.first().midstream {
        Some(MidstreamSpec::TimestampsAndWatermarks { generator, emit, idle_timeout_ms }) => (generator, emit, idle_timeout_ms),
        Some(MidstreamSpec::SqlWatermarkAssigner { delay_ms, idle_timeout_ms }) => {
            return sql_midstream(&read, delay_ms, idle_timeout_ms, cfg.auto_watermark_interval_ms);
        }
        None => {
            let events = format!(
                "        DataStream<Event> events = {read}\n            .filter(e -> !e.tick)\n            .name(\"drop replay ticks\");\n"
            );
            return if cfg.two_logical_inputs() { events + &connect(cfg) } else { events };
        }
    };
    let mut s = "        // The watermark operator after each source subtask swallows the source's watermarks and idleness:\n\
                 \x20       // each playground source subtask's records go through their own operator, as in the playground.\n"
        .to_string();
    s += &replay_strategy("midstream", generator, emit, idle_timeout_ms);
    s += &format!(
        "\n        DataStream<Event> read = {read};\n        DataStream<Event> events = null;\n        for (int s = 0; s < SUBTASKS.length; s++) {{\n            final int subtask = s;\n            DataStream<Event> one = read\n                .filter(e -> e.subtask == subtask).name(\"source subtask \" + s)\n                .assignTimestampsAndWatermarks(midstream)  // ticks pass through to drive its periodic emission\n                .name(\"Timestamps/Watermarks\");\n            events = events == null ? one : events.union(one);\n        }}\n        events = events.filter(e -> !e.tick).name(\"drop replay ticks\");\n"
    );
    s
}

/// SQL's watermark operator after each playground source subtask: the planner puts Flink's own
/// `WatermarkAssignerOperator` after a view whose `WATERMARK` is an expression. Its timers read
/// the wall clock, so the reader is paced (`PACED`) and the operator runs as Flink runs it.
fn sql_midstream(read: &str, delay_ms: i64, idle_timeout_ms: i64, interval_ms: i64) -> String {
    format!(
        "        // SQL's watermark operator (WatermarkAssigner) after each playground source subtask: it swallows the\n\
         \x20       // source's watermarks, emits every pipeline.auto-watermark-interval of wall-clock time and goes idle after\n\
         \x20       // table.exec.source.idle-timeout without rows; the reader replays in real time (PACED).\n\
         \x20       env.getConfig().setAutoWatermarkInterval({interval_ms}L);\n\
         \x20       StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);\n\
         \x20       tEnv.getConfig().set(\"table.exec.source.idle-timeout\", \"{}\");\n\
         \x20       DataStream<Event> read = {read}\n            .filter(e -> !e.tick).name(\"drop replay ticks\");\n\
         \x20       DataStream<Event> events = null;\n\
         \x20       for (int s = 0; s < SUBTASKS.length; s++) {{\n\
         \x20           final int subtask = s;\n\
         \x20           Table rows = tEnv.fromDataStream(read.filter(e -> e.subtask == subtask).name(\"source subtask \" + s), Schema.newBuilder()\n\
         \x20               .columnByMetadata(\"event_time\", \"TIMESTAMP_LTZ(3)\", \"rowtime\", true)\n\
         \x20               .watermark(\"event_time\", \"event_time - {}\")\n\
         \x20               .build());\n\
         \x20           DataStream<Event> one = tEnv.toDataStream(rows).map(r -> {{\n\
         \x20               Event e = new Event();\n\
         \x20               e.key = r.getFieldAs(\"key\");\n\
         \x20               e.ts = r.<Long>getFieldAs(\"ts\");\n\
         \x20               e.value = r.<Long>getFieldAs(\"value\");\n\
         \x20               return e;\n\
         \x20           }}).returns(Event.class).name(\"rows to events\");\n\
         \x20           events = events == null ? one : events.union(one);\n\
         \x20       }}\n",
        sql_duration(idle_timeout_ms.max(0)),
        sql_interval(delay_ms)
    )
}

/// `first.connect(second)` into the two-input operator, whose watermark the windows then see.
fn connect(cfg: &JobConfig) -> String {
    let name = |i: usize| java_text(&cfg.inputs[i].topic);
    format!(
        "        // connect: the replay's records of each input into a two-input operator (TwoInputs), keyed alike;\n\
         \x20       // the windows after it see its watermark, the minimum over its inputs that are not idle.\n\
         \x20       events = events.filter(e -> e.input == 0).name(\"{}\")\n\
         \x20           .connect(events.filter(e -> e.input == 1).name(\"{}\"))\n\
         \x20           .keyBy(e -> e.key, e -> e.key)\n\
         \x20           .process(new TwoInputs())\n\
         \x20           .name(\"connect\");\n",
        name(0),
        name(1)
    )
}

/// `keyBy(..).window(..)` with the trigger, lateness and side output, into the printing sink.
/// Replaying failures, the trigger throws on the replay's failure markers (`FailOnMarker`).
fn window(cfg: &JobConfig, failures: bool) -> String {
    let mut s = String::new();
    if cfg.late_side_output {
        s += "        OutputTag<Event> late = new OutputTag<Event>(\"late-events\") {};\n";
    }
    s += "        SingleOutputStreamOperator<String> results = events\n            .keyBy(e -> e.key)\n";
    let trigger = java_trigger(cfg.trigger);
    let trigger =
        if failures { Some(format!("new FailOnMarker({})", trigger.as_deref().unwrap_or("EventTimeTrigger.create()"))) } else { trigger };
    s += &java_windowed_with(cfg, "            ", trigger);
    s += "            .aggregate(new Stats(), new ResultLine());\n        results.print().name(\"window results\");\n";
    if cfg.late_side_output {
        s += "        results.getSideOutput(late)\n            .map(e -> \"late key=\" + e.key + \" ts=\" + e.ts + \" value=\" + e.value)\n            .print().name(\"late records\");\n";
    }
    s
}

/// The replayed stream as the view `job.sql` reads (named as the Kafka table of the SQL snippet),
/// and the query's rows printed as result lines.
fn sql_window(cfg: &JobConfig) -> String {
    // SQL's watermark operator before it has made the table environment already.
    let env = if is_paced(cfg) { "" } else { "        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);\n" };
    format!(
        "        // The window is Flink SQL's window TVF aggregation, read from job.sql, over a view of the\n\
         \x20       // replayed stream: its rowtime is each record's timestamp and its watermark the stream's own\n\
         \x20       // (SOURCE_WATERMARK()), so the replay's per-split watermarks and idleness reach the window.\n\
         {env}\
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

/// Whether the job reads the replay in real time: SQL's watermark operator runs on wall-clock timers.
pub fn is_paced(cfg: &JobConfig) -> bool {
    matches!(cfg.first().midstream, Some(MidstreamSpec::SqlWatermarkAssigner { .. }))
}

/// Whether the job needs the Table API (its planner and runtime): a SQL window or SQL's watermark operator.
pub fn uses_table_api(cfg: &JobConfig) -> bool {
    is_sql_window(cfg) || is_paced(cfg)
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
