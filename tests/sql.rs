//! SQL in (`engine::sql`): the snippet's SQL read back onto its scenario gives its settings
//! again, for every preset and for random settings; seed 001's queries become its scenario.

// It runs the `wmp` binary or the SQL reader / export: the `tools` feature's (on by default).
#![cfg(feature = "tools")]

use proptest::prelude::*;
use wmp::engine::operator::aggregate::AggregateKind;
use wmp::engine::operator::assigner::WindowSpec;
use wmp::engine::operator::sql_window::WindowApi;
use wmp::engine::scenario::schema::Scenario;
use wmp::engine::scenario::{build, catalog};
use wmp::engine::source::generator::{EmitMode, GeneratorKind};
use wmp::engine::source::start_offset::StartOffset;
use wmp::engine::sql::sql_to_scenario;

fn snippet(s: &Scenario) -> String {
    wmp::web::snippets::sql(&s.job_config())
}

/// The snippet without its comment lines (they explain, they do not set anything).
fn statements(sql: &str) -> String {
    sql.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join("\n")
}

fn read(sql: &str, base: &Scenario) -> Scenario {
    match sql_to_scenario(sql, base) {
        Ok((s, _)) => s,
        Err(e) => panic!("{e}\n{sql}"),
    }
}

/// What the SQL says about a scenario besides the WATERMARK clause (compared as text): per input
/// the topic, idle timeout, parallelism, start and alignment; the interval and the window.
fn settings(s: &Scenario) -> String {
    let c = s.job_config();
    let inputs: Vec<String> = c
        .inputs
        .iter()
        .map(|i| {
            let idle = i.midstream.map_or(i.source.idle_timeout_ms, |m| m.idle_timeout_ms());
            format!("{} {idle:?} {} {:?} {:?}", i.topic, i.source_parallelism, i.start_offset, i.alignment)
        })
        .collect();
    format!("{inputs:?} {} {} {:?} {:?}", c.auto_watermark_interval_ms, c.window_parallelism, c.window, c.aggregate)
}

#[test]
fn every_preset_round_trips_through_its_sql() {
    for p in catalog::presets() {
        let s = build::parse(p.json).unwrap();
        let sql = snippet(&s);
        let t = read(&sql, &s);
        assert_eq!(statements(&snippet(&t)), statements(&sql), "{}: the SQL of the scenario read from the SQL", p.id);
        assert_eq!(settings(&t), settings(&s), "{}", p.id);
        assert_eq!((&t.producers, &t.commands, t.topic.partitions), (&s.producers, &s.commands, s.topic.partitions), "{}", p.id);
        t.build().unwrap_or_else(|e| panic!("{}: {e}", p.id));
        // Once it is a SQL job, reading its SQL changes nothing at all.
        assert_eq!(read(&snippet(&t), &t), t, "{}", p.id);
    }
}

fn window() -> impl Strategy<Value = WindowSpec> {
    prop_oneof![
        (1i64..=120).prop_map(|s| WindowSpec::Tumbling { size_ms: s * 1000, offset_ms: 0 }),
        (1i64..=10, 1i64..=6).prop_map(|(slide, k)| WindowSpec::Sliding {
            size_ms: slide * k * 1000,
            slide_ms: slide * 1000,
            offset_ms: 0
        }),
        (1i64..=10, 1i64..=6).prop_map(|(step, k)| WindowSpec::Cumulate {
            step_ms: step * 60_000,
            max_size_ms: step * k * 60_000,
            offset_ms: 0
        }),
        (1i64..=600).prop_map(|g| WindowSpec::Session { gap_ms: g * 100 }),
    ]
}

fn start() -> impl Strategy<Value = StartOffset> {
    prop_oneof![Just(StartOffset::Earliest), Just(StartOffset::Latest), (0i64..2_000_000_000_000).prop_map(StartOffset::TimestampMs)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_settings_round_trip(
        delay in 0i64..100_000, idle in proptest::option::of(1i64..600_000), interval in 0i64..5_000,
        src_p in 1u32..8, win_p in 1u32..8, w in window(), agg in 0usize..4, start in start(), per_event: bool,
        aligned in proptest::option::of((1i64..60, 1i64..5)),
    ) {
        let mut s = build::parse(catalog::preset("seed-001-heartbeat").unwrap().json).unwrap();
        let wm = &mut s.source.watermark;
        wm.generator = GeneratorKind::SqlBounded { delay_ms: delay };
        wm.idle_timeout_ms = idle;
        wm.auto_watermark_interval_ms = interval;
        wm.emit = if per_event { EmitMode::PerEvent } else { EmitMode::Periodic };
        wm.alignment = aligned.map(|(d, u)| wmp::engine::alignment::AlignmentParams { group: "g'1".into(), max_drift_ms: d * 1000, update_interval_ms: u * 500 });
        s.source.parallelism = src_p;
        s.source.start_offset = start;
        let win = s.window.as_mut().unwrap();
        (win.assigner, win.parallelism, win.api, win.allowed_lateness_ms, win.late_side_output) = (w, win_p, WindowApi::Sql, 0, false);
        win.aggregate = [AggregateKind::Count, AggregateKind::Sum, AggregateKind::Min, AggregateKind::Max][agg];
        prop_assume!(s.validate().is_ok());
        let sql = snippet(&s);
        let (t, _) = sql_to_scenario(&sql, &s).map_err(|e| TestCaseError::fail(format!("{e}\n{sql}")))?;
        prop_assert_eq!(t, s);
    }
}

/// Seed 001, question 2: the one-line fix.
#[test]
fn seed_001_idle_timeout_set() {
    let base = build::parse(catalog::preset("seed-001-heartbeat").unwrap().json).unwrap();
    assert_eq!(base.source.watermark.idle_timeout_ms, None);
    let (s, notes) = sql_to_scenario("SET 'table.exec.source.idle-timeout' = '60 s';", &base).unwrap();
    assert_eq!(s.source.watermark.idle_timeout_ms, Some(60_000));
    assert!(notes.is_empty(), "{notes:?}");
    let mut expected = base.clone();
    expected.source.watermark.idle_timeout_ms = Some(60_000);
    assert_eq!(s, expected, "nothing else changes");
}

/// Seed 001's job: a 1-minute TUMBLE count per window over 16 partitions, parallelism 8.
#[test]
fn seed_001_tumble_count_on_sixteen_partitions() {
    let base = build::parse(catalog::preset("seed-001-heartbeat").unwrap().json).unwrap();
    assert_eq!(base.topic.partitions, 16);
    let sql = "SET 'parallelism.default' = '8';\n\
        CREATE TABLE clickstream (\n  user_id STRING,\n  event_time TIMESTAMP(3),\n  WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND\n) WITH (\n  'connector' = 'kafka',\n  'topic' = 'clickstream',\n  'scan.startup.mode' = 'earliest-offset',\n  'format' = 'json'\n);\n\
        INSERT INTO dashboard\nSELECT window_start, window_end, COUNT(*) AS clicks\nFROM TABLE(TUMBLE(TABLE clickstream, DESCRIPTOR(event_time), INTERVAL '1' MINUTE))\nGROUP BY window_start, window_end;";
    let (s, notes) = sql_to_scenario(sql, &base).unwrap();
    let w = s.window.as_ref().unwrap();
    assert_eq!(w.assigner, WindowSpec::Tumbling { size_ms: 60_000, offset_ms: 0 });
    assert_eq!((w.api, w.aggregate), (WindowApi::Sql, AggregateKind::Count));
    assert_eq!(s.source.watermark.generator, GeneratorKind::SqlBounded { delay_ms: 5_000 });
    assert_eq!((s.source.parallelism, s.topic.partitions, s.source.watermark.idle_timeout_ms), (8, 16, None));
    assert_eq!(w.parallelism, 1, "a global window aggregate runs with parallelism 1");
    let text: Vec<String> = notes.iter().map(|n| n.to_string()).collect();
    assert!(text.iter().any(|n| n.starts_with("line 10, column 3: 'format' = 'json' is read but not modelled")), "{text:?}");
    assert!(text.iter().any(|n| n.starts_with("line 12, column 13: the sink table dashboard")), "{text:?}");
    assert!(text.iter().any(|n| n.starts_with("line 12, column 1: no key in GROUP BY")), "{text:?}");
    // Question 2's fix on top: windows fire every minute instead of not at all before the
    // heartbeat at 90 minutes.
    let fixed = read("SET 'table.exec.source.idle-timeout' = '60 s';", &s);
    let windows = |sc: &Scenario| {
        let mut sc = sc.clone();
        sc.duration_ms = 20 * 60_000;
        let report = wmp::engine::report::report(&sc.name, &sc.run().unwrap(), false);
        report["windows"].as_array().unwrap().len()
    };
    assert_eq!(windows(&s), 0, "partition 11 holds the watermark");
    assert!(windows(&fixed) >= 15, "{}", windows(&fixed));
}
