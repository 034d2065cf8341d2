//! The reader clause by clause, and each error with its line and column.

use super::reader::{read, ColumnKind, Statement};
use super::{sql_to_scenario, Note};
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::scenario::schema::Scenario;
use crate::engine::scenario::{build, catalog};
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::source::start_offset::{OffsetResetStrategy, StartOffset};
use crate::engine::source::timestamp::TimestampAssigner;

fn base(id: &str) -> Scenario {
    build::parse(catalog::preset(id).unwrap().json).unwrap()
}

fn seed() -> Scenario {
    base("seed-001-heartbeat")
}

/// The error of `sql` on the seed-001 preset, as the CLI prints it.
fn error(sql: &str) -> String {
    sql_to_scenario(sql, &seed()).unwrap_err().to_string()
}

fn notes(sql: &str) -> Vec<String> {
    sql_to_scenario(sql, &seed()).unwrap().1.iter().map(Note::to_string).collect()
}

const TABLE: &str = "CREATE TABLE clickstream (\n  `key` STRING,\n  event_time TIMESTAMP_LTZ(3),\n  WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND\n) WITH (\n  'connector' = 'kafka',\n  'topic' = 'clickstream',\n  'scan.startup.mode' = 'earliest-offset'";

fn table_with(extra: &str) -> String {
    format!("{TABLE}{extra}\n);")
}

#[test]
fn set_statements_change_the_job() {
    let sql = "SET 'table.exec.source.idle-timeout' = '1 min';\nSET 'pipeline.auto-watermark-interval' = '500 ms';\nSET 'table.exec.resource.default-parallelism' = '4';\nSET 'execution.checkpointing.interval' = '30 s';";
    let (s, n) = sql_to_scenario(sql, &seed()).unwrap();
    assert_eq!(s.source.watermark.idle_timeout_ms, Some(60_000));
    assert_eq!(s.source.watermark.auto_watermark_interval_ms, 500);
    assert_eq!((s.source.parallelism, s.window.as_ref().unwrap().parallelism), (4, 4));
    assert_eq!(s.checkpointing.interval_ms, Some(30_000));
    assert!(n.is_empty(), "{n:?}");
    let (s, _) = sql_to_scenario("SET 'table.exec.source.idle-timeout' = '0 s';", &s).unwrap();
    assert_eq!(s.source.watermark.idle_timeout_ms, None, "0 is Flink's off");
}

#[test]
fn a_table_sets_the_source() {
    let sql = table_with(",\n  'scan.parallelism' = '4',\n  'scan.watermark.idle-timeout' = '30 s',\n  'scan.watermark.emit.strategy' = 'on-event',\n  'scan.watermark.alignment.group' = 'g',\n  'scan.watermark.alignment.max-drift' = '20 s'");
    let (s, n) = sql_to_scenario(&sql, &seed()).unwrap();
    let wm = &s.source.watermark;
    assert_eq!(wm.generator, GeneratorKind::SqlBounded { delay_ms: 5_000 });
    assert_eq!((wm.idle_timeout_ms, wm.emit, s.source.parallelism), (Some(30_000), EmitMode::PerEvent, 4));
    let a = wm.alignment.as_ref().unwrap();
    assert_eq!((a.group.as_str(), a.max_drift_ms, a.update_interval_ms), ("g", 20_000, 1_000));
    assert_eq!(s.source.start_offset, StartOffset::Earliest);
    assert!(n.is_empty(), "{n:?}");
}

#[test]
fn the_table_option_wins_over_the_session_idle_timeout() {
    let sql = format!("SET 'table.exec.source.idle-timeout' = '60 s';\n{}", table_with(",\n  'scan.watermark.idle-timeout' = '5 s'"));
    assert_eq!(sql_to_scenario(&sql, &seed()).unwrap().0.source.watermark.idle_timeout_ms, Some(5_000));
}

#[test]
fn start_modes() {
    let start = |extra: &str| {
        let sql = format!("CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka'{extra});");
        sql_to_scenario(&sql, &seed()).map(|(s, n)| (s.source.start_offset, n.len()))
    };
    assert_eq!(start(", 'scan.startup.mode' = 'latest-offset'").unwrap().0, StartOffset::Latest);
    assert_eq!(
        start(", 'scan.startup.mode' = 'timestamp', 'scan.startup.timestamp-millis' = '1000'").unwrap().0,
        StartOffset::TimestampMs(1000)
    );
    let committed = start(", 'scan.startup.mode' = 'group-offsets', 'properties.auto.offset.reset' = 'latest'").unwrap().0;
    assert!(matches!(committed, StartOffset::Committed(c) if c.reset == OffsetResetStrategy::Latest && c.offsets.is_empty()));
    assert_eq!(start("").unwrap(), (StartOffset::Earliest, 1), "no mode: the base's is kept, with a note");
    assert_eq!(
        start(", 'scan.startup.mode' = 'timestamp'").unwrap_err().to_string(),
        "line 1, column 109: 'scan.startup.mode' = 'timestamp' needs 'scan.startup.timestamp-millis'"
    );
    assert!(start(", 'scan.startup.mode' = 'newest'").unwrap_err().to_string().contains("'newest' is not earliest-offset"));
}

#[test]
fn the_rowtime_column_says_how_timestamps_are_read() {
    let assigner = |cols: &str, base: &Scenario| {
        let sql = format!(
            "CREATE TABLE t ({cols}, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset');"
        );
        sql_to_scenario(&sql, base).unwrap().0.source.timestamp_assigner
    };
    let s = seed();
    assert_eq!(assigner("ts TIMESTAMP_LTZ(3)", &s), TimestampAssigner::EventField);
    assert_eq!(assigner("ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL", &s), TimestampAssigner::BrokerTime);
    assert_eq!(assigner("ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 0)", &s), TimestampAssigner::MillisAsSeconds);
    let seconds = base("timestamp-units");
    assert_eq!(seconds.source.timestamp_assigner, TimestampAssigner::SecondsAsMillis);
    assert_eq!(assigner("s BIGINT, ts AS TO_TIMESTAMP_LTZ(s, 0)", &seconds), TimestampAssigner::EventField, "the fix");
    assert_eq!(assigner("s BIGINT, ts AS TO_TIMESTAMP_LTZ(s, 3)", &seconds), TimestampAssigner::SecondsAsMillis);
}

#[test]
fn columns_and_clauses_are_read() {
    let sql = "CREATE TEMPORARY TABLE IF NOT EXISTS cat.db.`t` (\n  id BIGINT NOT NULL,\n  ts TIMESTAMP(3) WITH LOCAL TIME ZONE,\n  PRIMARY KEY (id) NOT ENFORCED,\n  WATERMARK FOR ts AS ts - INTERVAL '0.5' SECOND\n) COMMENT 'x' WITH ('connector' = 'kafka');";
    let Statement::Table(t) = &read(sql).unwrap()[0] else { panic!() };
    assert_eq!(t.name.v, "t");
    assert_eq!(t.columns[1].kind, ColumnKind::Physical("TIMESTAMP(3) WITH LOCAL TIME ZONE".into()));
    assert_eq!(t.watermark.as_ref().unwrap().delay_ms, 500);
    let extras: Vec<&str> = t.extras.iter().map(|e| e.v.as_str()).collect();
    assert_eq!(extras, ["PRIMARY KEY(id) NOT ENFORCED", "COMMENT 'x'"]);
}

/// A script with no statement is an error in every face (the CLI, the API, the page): the base
/// came back unchanged, which read as applied.
#[test]
fn a_script_without_a_statement_is_an_error() {
    for sql in ["", "  \n", "-- a comment only\n/* and a block */"] {
        assert_eq!(error(sql), "line 1, column 1: the SQL script is empty", "{sql:?}");
    }
}

/// Flink's column types, each read as one (the check that a word after a type is a slip must
/// not refuse any of them).
#[test]
fn every_kind_of_column_type_is_read() {
    let types = [
        "STRING",
        "VARCHAR(20) NOT NULL",
        "CHAR VARYING(5)",
        "DOUBLE PRECISION",
        "DECIMAL(10, 2) COMMENT 'price'",
        "INT ARRAY",
        "ARRAY<STRING>",
        "MAP<STRING, ARRAY<INT>>",
        "ROW<a INT, b ROW<c STRING>>",
        "ROW(a INT, b STRING)",
        "INTERVAL DAY(2) TO SECOND(3)",
        "INTERVAL YEAR TO MONTH",
        "TIME(0) WITHOUT TIME ZONE",
        "BIGINT PRIMARY KEY NOT ENFORCED",
        "INT NULL",
        "BINARY VARYING(3)",
        "BIGINT MULTISET",
        "STRING CONSTRAINT c PRIMARY KEY NOT ENFORCED",
    ];
    for ty in types {
        let sql = format!("CREATE TABLE t (x {ty}, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka');");
        let Statement::Table(t) = &read(&sql).unwrap_or_else(|e| panic!("{ty}: {e}"))[0] else { panic!() };
        assert_eq!(t.columns.len(), 2, "{ty}");
    }
}

#[test]
fn window_tvfs() {
    let q = |tvf: &str| {
        let sql = format!(
            "{}\nSELECT `key`, window_start, window_end, SUM(`value`)\nFROM TABLE({tvf})\nGROUP BY window_start, window_end, `key`;",
            table_with("")
        );
        sql_to_scenario(&sql, &seed()).map(|(s, _)| s.window.unwrap())
    };
    let w = q("TUMBLE(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '10' SECOND, INTERVAL '2' SECOND)").unwrap();
    assert_eq!((w.assigner, w.api), (WindowSpec::Tumbling { size_ms: 10_000, offset_ms: 2_000 }, WindowApi::Sql));
    let w = q("HOP(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '5' SECOND, INTERVAL '1' MINUTE)").unwrap();
    assert_eq!(w.assigner, WindowSpec::Sliding { size_ms: 60_000, slide_ms: 5_000, offset_ms: 0 });
    let w = q("CUMULATE(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '1' MINUTE, INTERVAL '1' HOUR)").unwrap();
    assert_eq!(w.assigner, WindowSpec::Cumulate { step_ms: 60_000, max_size_ms: 3_600_000, offset_ms: 0 });
    let w = q("SESSION(TABLE clickstream PARTITION BY `key`, DESCRIPTOR(event_time), INTERVAL '30' SECOND)").unwrap();
    assert_eq!(w.assigner, WindowSpec::Session { gap_ms: 30_000 });
    let e = q("HOP(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '7' SECOND, INTERVAL '1' MINUTE)").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 11, column 12: window.assigner.size_ms: HOP needs size % slide == 0 (Flink's slicing window aggregation)"
    );
    let e = q("TUMBLE(TABLE clickstream, DESCRIPTOR(event_time))").unwrap_err();
    assert!(e.to_string().starts_with("line 11, column 12: TUMBLE takes a size"), "{e}");
    let e = q("TUMBLE(TABLE nope, DESCRIPTOR(event_time), INTERVAL '1' MINUTE)").unwrap_err();
    assert!(e.to_string().starts_with("line 11, column 25: no table nope"), "{e}");
}

#[test]
fn a_datastream_base_becomes_a_sql_window_and_says_what_it_lost() {
    let mut b = seed();
    let w = b.window.as_mut().unwrap();
    (w.allowed_lateness_ms, w.late_side_output) = (5_000, true);
    let sql = format!(
        "SELECT `key`, COUNT(*) FROM TABLE(TUMBLE(TABLE {}, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, `key`",
        b.topic.name
    );
    let (s, n) = sql_to_scenario(&sql, &b).unwrap();
    let w = s.window.unwrap();
    assert_eq!((w.api, w.allowed_lateness_ms, w.late_side_output), (WindowApi::Sql, 0, false));
    assert!(n.iter().any(|n| n.message.starts_with("the base's allowed lateness")), "{n:?}");
    assert!(n.iter().any(|n| n.message.starts_with("the base's late side output")), "{n:?}");
}

#[test]
fn the_base_s_sql_watermark_operator_stays_after_the_source() {
    let b = base("sql-idle-reactivates");
    let sql = "SET 'table.exec.source.idle-timeout' = '5 s';\nCREATE TABLE readings (event_time TIMESTAMP_LTZ(3), WATERMARK FOR event_time AS event_time - INTERVAL '3' SECOND) WITH ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset');";
    let (s, n) = sql_to_scenario(sql, &b).unwrap();
    assert_eq!(s.source.midstream, Some(MidstreamSpec::SqlWatermarkAssigner { delay_ms: 3_000, idle_timeout_ms: 5_000 }));
    assert_eq!(
        n[0].to_string(),
        "line 2, column 67: the base runs this WATERMARK as an operator after the source (SQL's WatermarkAssigner, not pushed down): kept"
    );
}

#[test]
fn unsupported_clauses_are_named() {
    let sql = format!(
        "SET 'table.local-time-zone' = 'Europe/Berlin';\nSET 'my.option' = 'x';\n{}\nSELECT `key`, AVG(`value`), COUNT(*), MAX(`value`) FROM TABLE(TUMBLE(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '1' MINUTE))\nWHERE `value` > 0\nGROUP BY window_start, window_end, `key`\nHAVING COUNT(*) > 1;\nSELECT * FROM clickstream;\nDROP TABLE x;",
        table_with(",\n  'properties.bootstrap.servers' = 'b:9092',\n  'scan.foo' = 'bar'")
    );
    let n = notes(&sql);
    let want = [
        "line 1, column 5: 'table.local-time-zone' = 'Europe/Berlin' is read but not modelled: the playground computes windows in UTC",
        "line 2, column 5: 'my.option' = 'x' is not an option the playground knows: not modelled",
        "line 19, column 1: DROP TABLE x … is read but not modelled",
        "line 11, column 3: 'properties.bootstrap.servers' = 'b:9092' is read but not modelled: Kafka client properties do not change event time here",
        "line 12, column 3: 'scan.foo' = 'bar' is not an option the playground knows: not modelled",
        "line 14, column 15: AVG(`value`) is read but not modelled",
        "line 15, column 1: WHERE `value` > 0 is read but not modelled",
        "line 17, column 1: HAVING COUNT(*) > 1 is read but not modelled",
        "line 14, column 39: MAX is read but not modelled: the playground computes one aggregate (COUNT)",
        "line 18, column 1: a second query is read but not modelled: the playground runs one",
    ];
    assert_eq!(n, want);
}

#[test]
fn errors_point_at_line_and_column() {
    let cases: [(&str, &str); 19] = [
        ("SET table.exec.source.idle-timeout = '1 s';", "line 1, column 5: expected a quoted key: SET 'key' = 'value', found \"table\""),
        (
            "SET 'table.exec.source.idle-timeout' = '1 lightyear';",
            "line 1, column 40: 'table.exec.source.idle-timeout': 'lightyear' in '1 lightyear' is not a time unit (ms, s, min, h, d)",
        ),
        ("SET 'parallelism.default' = '0';", "line 1, column 29: 'parallelism.default': must be > 0, got 0"),
        (
            "SET 'a.b' = 'c';\nSET 'parallelism.default' = '100000';",
            "line 2, column 29: the script gives a scenario the playground cannot run: window.parallelism: must be between 1 and 4,096, got 100,000",
        ),
        (
            "\n\n   FROBNICATE;",
            "line 3, column 4: expected a statement (SET, CREATE TABLE, CREATE VIEW, SELECT or INSERT INTO), found \"FROBNICATE\"",
        ),
        (
            "CREATE TABLE t (ts TIMESTAMP(3)) WITH ('connector' = 'filesystem');",
            "line 1, column 54: 'connector' = 'filesystem': the playground models Kafka sources only ('kafka')",
        ),
        (
            "CREATE TABLE t (ts TIMESTAMP(3)) WITH ('topic' = 'x');",
            "line 1, column 14: the table needs 'connector' = 'kafka' in its WITH options",
        ),
        (
            "CREATE TABLE t (\n  ts TIMESTAMP(3),\n  WATERMARK FOR ts AS ts + INTERVAL '1' SECOND\n) WITH ('connector' = 'kafka');",
            "line 3, column 26: the playground reads only ts or ts - INTERVAL '…' UNIT as a watermark expression",
        ),
        (
            "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR tx AS tx) WITH ('connector' = 'kafka');",
            "line 1, column 48: the table has no column tx (WATERMARK FOR names a column of the table)",
        ),
        (
            // A typo in the FOR column, not in the expression.
            "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR tss AS ts) WITH ('connector' = 'kafka');",
            "line 1, column 48: the table has no column tss (WATERMARK FOR names a column of the table: ts?)",
        ),
        (
            // A slip in WATERMARK FOR read as a column WATERMARK of type FRO: the job lost its watermarks.
            "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FRO ts AS ts) WITH ('connector' = 'kafka');",
            "line 1, column 48: column WATERMARK has type FRO: ts cannot follow it (WATERMARK FOR column AS …?)",
        ),
        (
            "CREATE TABLE t (ts TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL, n DECIMAL(10, 2) x, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka');",
            "line 1, column 81: column n has type DECIMAL: x cannot follow it",
        ),
        (
            // A quote missing at the end of line 1: the string ran on into line 2.
            "SET 'table.exec.source.idle-timeout' = '1 s;\nSET 'pipeline.auto-watermark-interval' = '200 ms';",
            "line 1, column 40: this string runs over a line end, and a later one is never closed: a ' missing here?",
        ),
        (
            // Two quotes missing: every string closes, the parse fails a line later.
            "SET 'a' = '1 s;\nSET 'b' = '2 s;",
            "line 2, column 6: expected ';' (the end of the statement), found \"b\" (the string at line 1, column 11 runs over a line end: a quote missing?)",
        ),
        (
            // The missing > took the rest of the table into the type, WATERMARK too.
            "CREATE TABLE t (m MAP<STRING, INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka');",
            "line 1, column 22: column m's type opens a < that is never closed",
        ),
        (
            "CREATE TABLE t (ts BIGINT, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka');",
            "line 1, column 17: the rowtime column ts is BIGINT: it must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)",
        ),
        (
            "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' MONTH) WITH ('connector' = 'kafka');",
            "line 1, column 72: MONTH is not an interval unit the playground reads (SECOND, MINUTE, HOUR, DAY)",
        ),
        ("CREATE TABLE t (ts TIMESTAMP(3)) WITH ('connector' = 'kafka'", "line 1, column 61: expected ')', found the end of the script"),
        (
            "SELECT COUNT(*) FROM TABLE(TUMBLE(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '1' MINUTE)) GROUP BY window_start;",
            "line 1, column 1: a window aggregation groups by window_start and window_end (GROUP BY window_start, window_end[, key])",
        ),
    ];
    for (sql, want) in cases {
        assert_eq!(error(sql), want, "{sql}");
    }
}

/// As Flink's validation: `DESCRIPTOR` names the table's time attribute and `GROUP BY` a column
/// of the window or the table; each error points at the name.
#[test]
fn the_descriptor_and_group_by_name_columns_of_the_table() {
    let sql = |descriptor: &str, key: &str| {
        format!("CREATE TABLE t (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset');\nSELECT k, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR({descriptor}), INTERVAL '1' MINUTE))\nGROUP BY window_start, window_end, {key};")
    };
    assert_eq!(error(&sql("nots", "k")), "line 2, column 58: Can't find the time attribute field 'nots' in the input schema t (k, ts)");
    assert_eq!(
        error(&sql("k", "k")),
        "line 2, column 58: The window function requires the timecol is a time attribute type, but k is not: the time attribute of t is ts (WATERMARK FOR ts)"
    );
    assert_eq!(
        error(&sql("ts", "kk")),
        "line 3, column 36: Column 'kk' not found in any table: the window reads t (k, ts) and adds window_start, window_end, window_time"
    );
    assert!(sql_to_scenario(&sql("ts", "k"), &seed()).is_ok());
    // Expressions are not columns: Flink groups by them (GROUPING SETS, ROLLUP, a function).
    for expr in ["UPPER(k)", "GROUPING SETS ((k), ())", "ROLLUP(k)", "CUBE(k)"] {
        assert!(sql_to_scenario(&sql("ts", expr), &seed()).is_ok(), "{expr}");
    }
    // A session's PARTITION BY key is a column too.
    let session = sql("ts", "k").replace("TUMBLE(TABLE t,", "SESSION(TABLE t PARTITION BY kk,");
    assert!(error(&session).contains("Column 'kk' not found in any table"), "{}", error(&session));
    // The base's topic has no schema to check against: its columns are not named.
    let base_topic = format!(
        "SELECT COUNT(*) FROM TABLE(TUMBLE(TABLE {}, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, x",
        seed().topic.name
    );
    assert!(sql_to_scenario(&base_topic, &seed()).is_ok());
}

#[test]
fn two_tables_need_a_two_input_base_and_a_union_view_unions_them() {
    let two = "CREATE TABLE a (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset');\nCREATE TABLE b (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset');";
    assert_eq!(
        error(two),
        "line 2, column 14: a second table needs a base scenario with a second input (second_input): start from a two-source preset"
    );
    let b = base("union-idle-stream");
    let sql = format!("{two}\nCREATE TEMPORARY VIEW v AS SELECT ts FROM a UNION ALL SELECT ts FROM b;\nSELECT COUNT(*) FROM TABLE(TUMBLE(TABLE v, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end, k;");
    let (s, _) = sql_to_scenario(&sql, &b).unwrap();
    assert_eq!(
        (s.topic.name.as_str(), s.second_input.as_ref().unwrap().topic.name.as_str()),
        ("clicks", "impressions"),
        "no 'topic': the base's"
    );
    assert_eq!(s.window.unwrap().assigner, WindowSpec::Tumbling { size_ms: 5_000, offset_ms: 0 });
}

#[test]
fn a_renamed_topic_takes_its_producers_along() {
    let b = base("union-idle-stream");
    assert!(b.producers.iter().any(|p| p.topic.as_deref() == Some("impressions")));
    let sql = "CREATE TABLE a (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'c2', 'scan.startup.mode' = 'earliest-offset');\nCREATE TABLE b (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'views', 'scan.startup.mode' = 'earliest-offset');";
    let (s, _) = sql_to_scenario(sql, &b).unwrap();
    assert!(s.producers.iter().any(|p| p.topic.as_deref() == Some("views")));
    assert!(!s.producers.iter().any(|p| p.topic.as_deref() == Some("impressions")));
    s.build().unwrap();
}

/// Flink rejects `INTERVAL '100' SECOND` (a leading precision of 2 digits by default): the
/// writer says the precision of a longer value, and the reader takes it back.
#[test]
fn an_interval_of_three_digits_says_its_precision() {
    use crate::engine::export::java_fragments::sql_interval;
    assert_eq!(sql_interval(99_000), "INTERVAL '99' SECOND");
    assert_eq!(sql_interval(100_000), "INTERVAL '100' SECOND(3)");
    assert_eq!(sql_interval(100_500), "INTERVAL '100.500' SECOND(3)");
    assert_eq!(sql_interval(150 * 60_000), "INTERVAL '150' MINUTE(3)");
    assert_eq!(sql_interval(3_600_000), "INTERVAL '1' HOUR");
    let sql = TABLE.replace("INTERVAL '5' SECOND", &sql_interval(100_500)) + "\n);";
    let (s, _) = sql_to_scenario(&sql, &seed()).unwrap();
    assert_eq!(s.source.watermark.generator, GeneratorKind::SqlBounded { delay_ms: 100_500 });
    // The error points at the bad precision itself, with its line and column.
    let e = error(&table_with("").replace("SECOND\n", "SECOND(x)\n"));
    assert!(e.contains("the interval's precision, 1 to 6") && e.contains("found \"x\"") && e.contains("4:"), "{e}");
    // As Flink's validation: the value's digits fit the precision, 2 by default.
    let e = error(&table_with("").replace("'5' SECOND", "'100' SECOND"));
    assert!(e.contains("'100' has 3 digits") && e.contains("write SECOND(3)"), "{e}");
    assert!(error(&table_with("").replace("'5' SECOND", "'100' SECOND(2)")).contains("'100' has 3 digits"));
    assert!(error(&table_with("").replace("'5' SECOND", "'5' SECOND(7)")).contains("1 to 6"));
}
