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
use crate::engine::operator::interval_join::JoinBounds;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sink::SinkMode;
use crate::engine::source::generator::GeneratorKind;
use crate::engine::source::start_offset::StartOffset;
use crate::engine::source::timestamp::TimestampAssigner;
use crate::engine::source::SourceSettings;

// One rule for the snippets and the exported job (`engine::export`): the Java fragments, and
// the whole SQL script (`engine::export::sql_script`, which the exported job's job.sql reuses).
pub(crate) use crate::engine::export::java_fragments::{alignment_options, java_duration, reset_name};
pub use crate::engine::export::sql_script::sql;

mod java;
pub use java::java;

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

/// The element type of input `i`: a union needs one type, two connected inputs may differ.
fn element_type(cfg: &JobConfig, i: usize) -> &'static str {
    if i == 0 || cfg.two_input_mode == TwoInputMode::Union {
        "Event"
    } else {
        "OtherEvent"
    }
}

// ---- Java -----------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{build, catalog};
    use crate::engine::source::start_offset::OffsetResetStrategy;

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
        assert!(q.contains("runs as an operator after the source (WatermarkAssigner)") && q.contains("fromDataStream"), "{q}");
        let q = sql(&preset("midstream-assigner"));
        assert!(q.contains("which SQL\n-- cannot say"), "a DataStream assigner after the source is named: {q}");
        let q = sql(&preset("max-on-silence"));
        assert!(q.contains("Long.MAX_VALUE after a silence, which SQL cannot say"), "{q}");
        let j = java(&preset("max-on-silence"));
        assert!(j.contains("emits Long.MAX_VALUE on silence instead") && !j.contains("holds the watermark forever"), "{j}");
        let q = sql(&preset("seed-001-heartbeat"));
        assert!(q.contains("emits the max timestamp - 5 s - 1 ms; this WATERMARK emits the max\n-- timestamp - 5 s, 1 ms later"), "{q}");
        let j = java(&c);
        assert!(j.contains("WatermarkStrategy.noWatermarks()") && j.contains("see the SQL tab).\nDataStream<Event> events = env"), "{j}");
        assert!(j.contains("    .setParallelism(2);\n"), "no statement ends inside a comment: {j}");
    }

    #[test]
    fn an_interval_join_has_its_bounds_in_java_and_sql() {
        let c = cfg_of(include_str!("../../../tests/scenarios/interval_join_orders_payments.json"));
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
        // Without alignment (1.19.1's switches set the buffer to 0) there is no option to write.
        let mut unaligned = c.clone();
        unaligned.inputs[0].alignment = None;
        assert!(!java(&unaligned).contains("buffer-size") && !sql(&unaligned).contains("buffer-size"), "{}", sql(&unaligned));
        c.inputs[0].start_offset = StartOffset::Committed(crate::engine::source::start_offset::CommittedOffsets {
            offsets: vec![120, 4000],
            reset: OffsetResetStrategy::Latest,
        });
        c.inputs[0].source.idleness_clock = IdlenessClock::Wall;
        let (j, q) = (java(&c), sql(&c));
        assert!(j.contains(".setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.LATEST))  // the group's committed offsets: 120, 4000"), "{j}");
        assert!(j.contains("// Flink <= 1.19.1 / 1.20.0: the idle timeout runs on the wall clock"), "{j}");
        assert!(q.contains("'scan.startup.mode' = 'group-offsets',\n  'properties.group.id' = 'my-group',\n  'properties.auto.offset.reset' = 'latest'"), "{q}");
    }

    #[test]
    fn one_input_reads_as_before() {
        let c = preset("seed-001-heartbeat");
        assert!(java(&c).starts_with("WatermarkStrategy<Event> watermarks = WatermarkStrategy\n    .<Event>forBoundedOutOfOrderness("));
        assert!(java(&c).contains("DataStream<Event> events = env\n    .fromSource(kafkaSource, watermarks, \"clickstream\")"));
        assert!(sql(&c).contains("TUMBLE(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '1' MINUTE)"));
    }

    /// The Java snippet's code without its comments (`//` to the line's end, `/* */`).
    fn java_code(j: &str) -> String {
        let mut out = String::new();
        for line in j.lines() {
            let mut rest = line.split("//").next().unwrap_or("").to_string();
            while let (Some(a), Some(b)) = (rest.find("/*"), rest.find("*/")) {
                rest.replace_range(a..b + 2, "");
            }
            out += &rest;
            out.push('\n');
        }
        out
    }

    /// Every preset's Java snippet, with each timestamp assigner (the unit mistakes put a `//`
    /// note where the chain's `;` went, and the statement never ended): parentheses balance,
    /// and each statement ends before the next begins.
    #[test]
    fn every_java_snippet_ends_its_statements() {
        for p in catalog::presets() {
            for a in [
                TimestampAssigner::EventField,
                TimestampAssigner::BrokerTime,
                TimestampAssigner::SecondsAsMillis,
                TimestampAssigner::MillisAsSeconds,
            ] {
                let mut c = cfg_of(p.json);
                c.inputs.iter_mut().for_each(|i| i.source.assigner = a);
                let code = java_code(&java(&c));
                assert_eq!(code.matches('(').count(), code.matches(')').count(), "{} {a:?}:\n{code}", p.id);
                let mut before = ' ';
                for line in code.lines().filter(|l| !l.trim().is_empty()) {
                    let starts = line.starts_with(|c: char| c.is_ascii_alphabetic());
                    assert!(
                        !starts || matches!(before, ' ' | ';' | '{' | '}'),
                        "{} {a:?}: {line:?} follows an unended statement:\n{code}",
                        p.id
                    );
                    before = line.trim_end().chars().last().unwrap_or(before);
                }
            }
        }
    }
}
