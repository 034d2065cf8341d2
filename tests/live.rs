//! The live link's engine on answers recorded from a real Flink 2.3 MiniCluster
//! (tests/fixtures/live/, written by tools/oracle/live-record.sh): the job whose split-1 went
//! quiet after 3 records parses into a LiveJob, `explain` names source subtask 1 (split-1) as the
//! holder of the minimum and the window vertex as held back by it, "turn into a scenario" gives a
//! scenario the engine accepts; garbage, wrong shapes, a cancelled job and Flink's 404 body are
//! typed errors with the field path.

use serde_json::{json, Value};
use wmp::engine::live::bundle::{job_path, metric_chunks, parse_answer, vertex_path};
use wmp::engine::live::explain::explain;
use wmp::engine::live::job::parse_overview;
use wmp::engine::live::to_scenario::to_scenario;
use wmp::engine::live::to_snapshot::{to_snapshot, UNKNOWN_WATERMARK};
use wmp::engine::live::{Bundle, LiveError, LiveJob};
use wmp::engine::session::Session;

const RUNNING: &str = include_str!("fixtures/live/running.json");
const CANCELLED: &str = include_str!("fixtures/live/cancelled.json");
const NOT_FOUND: &str = include_str!("fixtures/live/not_found.json");
const CONNECT: &str = include_str!("fixtures/live/connect.json");
const PRESSURE: &str = include_str!("fixtures/live/pressure.json");
const THREE: &str = include_str!("fixtures/live/three.json");

fn job_of(text: &str) -> LiveJob {
    let b = Bundle::parse(text).unwrap();
    LiveJob::from_bundle(&b, &LiveJob::only_job_id(&b).unwrap()).unwrap()
}

fn running() -> (Bundle, LiveJob) {
    let b = Bundle::parse(RUNNING).unwrap();
    let id = LiveJob::only_job_id(&b).unwrap();
    let job = LiveJob::from_bundle(&b, &id).unwrap();
    (b, job)
}

#[test]
fn the_real_jobs_shape_and_metrics_are_read() {
    let (b, job) = running();
    assert_eq!(job.state, "RUNNING");
    assert_eq!(job.name, "live-fixture: one quiet split");
    let overview = parse_overview(b.get("/jobs/overview").unwrap()).unwrap();
    assert_eq!(overview.len(), 1);
    assert_eq!(overview[0].id, job.id);
    let [src, win] = &job.vertices[..] else { panic!("two vertices: {:?}", job.vertices) };
    assert_eq!((src.name.as_str(), src.parallelism, src.is_source()), ("Source: events", 2, true));
    assert!(!win.is_source());
    assert_eq!(win.inputs, std::slice::from_ref(&src.id));
    assert_eq!(win.back_pressure_level.as_deref(), Some("ok"));
    // split-N on subtask N, each with its per-split watermark; split-1 emitted 3 records.
    for s in &src.subtasks {
        assert_eq!(s.splits.len(), 1);
        assert_eq!(s.splits[0].id, format!("split-{}", s.index));
        assert_eq!(s.splits[0].watermark, s.output_watermark);
        assert!(s.idle_ms_per_s.is_some() && s.back_pressured_ms_per_s.is_some());
    }
    assert_eq!(src.subtasks[1].records_out, Some(3));
    assert!(src.subtasks[0].records_out.unwrap() > 3);
    // The window subtasks' input watermark is the quiet subtask's output watermark.
    let low = src.subtasks[1].output_watermark.unwrap();
    assert!(low < src.subtasks[0].output_watermark.unwrap());
    assert!(win.subtasks.iter().all(|s| s.input_watermark == Some(low)));
    assert!(win.subtasks.iter().all(|s| s.output_watermark.is_some()), "the head operator's output watermark");
    // The window operator reports its late records (none: no window has fired).
    assert!(win.subtasks.iter().all(|s| s.late_records_dropped == Some(0)), "{:?}", win.subtasks);
    assert!(src.subtasks.iter().all(|s| s.late_records_dropped.is_none()));
}

#[test]
fn explain_names_the_quiet_subtask_and_its_split() {
    let (_, job) = running();
    let e = explain(&job);
    let h = e.holder.expect("a holder");
    assert_eq!((h.vertex_name.as_str(), h.subtask, h.split.as_deref()), ("Source: events", 1, Some("split-1")));
    let text = e.lines.join("\n");
    assert!(e.lines[0].starts_with("\"Source: events\" subtask 1 holds the watermark"), "{text}");
    assert!(text.contains("held back by it"), "{text}");
    assert!(text.contains("Records out: 3 (subtask 0: "), "{text}");
    assert!(text.contains("sourceIdleTime"), "{text}");
    assert!(text.contains("Split split-1: watermark 2026-01-01 00:00:00.999 (1767225600999), not marked idle"), "{text}");
    assert!(text.contains("Reading: this subtask has stopped receiving data"), "{text}");
    assert!(!text.contains("late records dropped"), "none dropped: {text}");
}

#[test]
fn explain_names_a_window_that_drops_late_records() {
    let (_, mut job) = running();
    job.vertices[1].subtasks[0].late_records_dropped = Some(40);
    job.vertices[1].subtasks[1].late_records_dropped = Some(2);
    let text = explain(&job).lines.join("\n");
    let name = &job.vertices[1].name;
    assert!(text.contains(&format!("\"{name}\": 42 late records dropped (numLateRecordsDropped)")), "{text}");
}

#[test]
fn a_missing_metric_is_unknown_not_zero() {
    let b = Bundle::parse(RUNNING).unwrap();
    let id = LiveJob::only_job_id(&b).unwrap();
    let mut v: Value = serde_json::from_str(RUNNING).unwrap();
    let map = v.as_object_mut().unwrap();
    let src = map[&job_path(&id)]["vertices"][0]["id"].as_str().unwrap().to_string();
    // Without the source's metrics answer nothing about it is known, and the explanation says so.
    map.remove(&vertex_path(&id, &src, "metrics"));
    let job = LiveJob::from_bundle(&Bundle::parse(&v.to_string()).unwrap(), &id).unwrap();
    assert!(job.vertices[0].subtasks.iter().all(|s| s.output_watermark.is_none() && s.records_out.is_none()));
    let e = explain(&job);
    assert_eq!(e.holder, None);
    assert!(e.lines[0].starts_with("Unknown: no source subtask reports currentOutputWatermark"), "{:?}", e.lines);
    // Without the source's idle and back-pressure metrics: the holder is named, the cause unknown.
    let map = v.as_object_mut().unwrap();
    map.insert(
        vertex_path(&id, &src, "metrics"),
        json!([{ "id": "0.Source__events.currentOutputWatermark", "value": "5000" }, { "id": "1.Source__events.currentOutputWatermark", "value": "1000" }]),
    );
    let e = explain(&LiveJob::from_bundle(&Bundle::parse(&v.to_string()).unwrap(), &id).unwrap());
    assert_eq!(e.holder.unwrap().subtask, 1);
    let text = e.lines.join("\n");
    assert!(text.contains("Records out: unknown") && text.contains("Back-pressure: unknown."), "{text}");
    assert!(!text.contains("Reading:"), "no reading without the metrics: {text}");
}

/// The real job in the simulated job's picture: the splits it reports on the source subtasks
/// that read them, the window vertex as the keyed column, the sink named; the channel from the
/// quiet subtask marked as every window subtask's minimum, and the chain through split-1.
#[test]
fn the_real_job_becomes_the_graphs_snapshot_with_the_holder_marked() {
    let (_, job) = running();
    let g = to_snapshot(&job);
    let s = &g.snapshot;
    assert_eq!(g.job_name, "live-fixture: one quiet split");
    assert_eq!(g.source_names, ["Source: events"]);
    assert_eq!(g.keyed_name.as_deref(), Some("Window(TumblingEventTimeWindows(10000)) -> Results: Writer"));
    assert_eq!(g.keyed_ship_strategy.as_deref(), Some("HASH"));
    assert!(g.sink_names.is_empty(), "the sink is chained into the window vertex");
    assert_eq!(g.split_ids, ["split-0", "split-1"]);
    assert_eq!(s.splits.iter().map(|p| p.subtask).collect::<Vec<_>>(), [Some(0), Some(1)]);
    assert_eq!(s.sources.iter().map(|x| x.partitions.clone()).collect::<Vec<_>>(), [vec![0], vec![1]]);
    let src = &job.vertices[0].subtasks;
    for (i, v) in s.sources.iter().enumerate() {
        assert_eq!(Some(v.output_watermark.ms()), src[i].output_watermark);
        assert_eq!(s.splits[i].watermark.map(|w| w.ms()), src[i].splits[0].watermark);
    }
    let low = src[1].output_watermark.unwrap();
    assert_eq!(s.operators.len(), 2);
    for o in &s.operators {
        assert_eq!(o.input_watermark.ms(), low);
        assert_eq!(o.channels.iter().map(|c| c.source_subtask).collect::<Vec<_>>(), [0, 1], "keyBy: every source subtask feeds it");
        assert!(o.channels.iter().all(|c| c.watermark == UNKNOWN_WATERMARK), "Flink reports no per-channel watermark");
        assert_eq!(o.channels.iter().filter(|c| c.is_min).map(|c| c.source_subtask).collect::<Vec<_>>(), [1]);
    }
    assert_eq!(g.chain, (Some(0), Some(1), Some(1)));
    assert_eq!(g.keyed_records_out.len(), 2);
    assert!(g.keyed_records_out.iter().all(Option::is_some));
}

#[test]
fn a_watermark_not_reported_is_unknown_in_the_snapshot_and_nothing_is_marked() {
    let b = Bundle::parse(RUNNING).unwrap();
    let id = LiveJob::only_job_id(&b).unwrap();
    let mut v: Value = serde_json::from_str(RUNNING).unwrap();
    let map = v.as_object_mut().unwrap();
    let src = map[&job_path(&id)]["vertices"][0]["id"].as_str().unwrap().to_string();
    map.remove(&vertex_path(&id, &src, "metrics"));
    let g = to_snapshot(&LiveJob::from_bundle(&Bundle::parse(&v.to_string()).unwrap(), &id).unwrap());
    assert!(g.snapshot.splits.is_empty(), "no split is reported: none is drawn");
    assert!(g.snapshot.sources.iter().all(|s| s.output_watermark == UNKNOWN_WATERMARK));
    assert_eq!(g.chain, (None, None, None));
    assert!(g.snapshot.operators.iter().all(|o| o.channels.iter().all(|c| !c.is_min)));
    assert!(g.snapshot.operators.iter().all(|o| o.input_watermark != UNKNOWN_WATERMARK), "the window vertex's own answer is still read");
}

#[test]
fn the_metric_chunks_ask_only_for_what_is_read() {
    let list = json!([{ "id": "0.numRecordsIn" }, { "id": "0.mailboxLatencyMs_p99" }, { "id": "1.Source__events.split.split-1.watermark.currentWatermark" }]);
    assert_eq!(metric_chunks(&list), [["0.numRecordsIn", "1.Source__events.split.split-1.watermark.currentWatermark"]]);
}

#[test]
fn turn_into_a_scenario_keeps_the_shape_and_the_quiet_split() {
    let (_, job) = running();
    let s = to_scenario(&job);
    assert_eq!(s["topic"]["partitions"], 2);
    assert_eq!(s["source"]["parallelism"], 2);
    assert_eq!(s["window"]["parallelism"], 2);
    assert_eq!(s["window"]["assigner"]["size_ms"], 10_000);
    // The quiet split was subtask 1's: its partition is the one Kafka's assignment gives
    // subtask 1 in the scenario (partition 0 for the topic "events"; the scenario had put it on 0).
    assert_eq!(s["producers"][0]["partitions"], json!({ "all_except": [0] }));
    assert_eq!(s["start_time_ms"], 1_767_225_600_000i64);
    let mut session = Session::from_json(&s.to_string()).expect("a valid scenario");
    session.run_until(120_000, &mut ()).unwrap();
    assert_eq!(session.sim().snapshot().splits[0].subtask, Some(1));
}

/// A split at the minimum whose reader still emits (back-pressure) is not made silent: the
/// scenario gave it no producer, and the WHY panel then proposed an idle timeout.
#[test]
fn turn_into_a_scenario_does_not_silence_a_back_pressured_split() {
    let s = to_scenario(&job_of(PRESSURE));
    let all_except = &s["producers"][0]["partitions"]["all_except"];
    assert_eq!(all_except, &json!([]), "{s}");
    assert!(s["description"].as_str().unwrap().contains("does not reproduce"), "{}", s["description"]);
}

/// A subtask that emits from one split says nothing of its other split at the minimum: that one
/// is still silent (it was made busy, and the scenario reproduced nothing).
#[test]
fn turn_into_a_scenario_silences_a_stuck_split_beside_a_flowing_one() {
    let mut job = job_of(RUNNING);
    let v = job.vertices.iter_mut().find(|v| v.is_source()).unwrap();
    let s = v.subtasks.iter_mut().find(|s| s.splits.len() == 1 && s.index == 1).expect("subtask 1 with one split");
    let mut ahead = s.splits[0].clone();
    ahead.id = "split-3".into();
    ahead.watermark = v.subtasks[0].splits.first().and_then(|p| p.watermark).or(v.subtasks[0].output_watermark);
    let s = &mut v.subtasks[1];
    s.splits.push(ahead);
    s.source_idle_time_ms = Some(10);
    let sc = to_scenario(&job);
    assert_eq!(sc["producers"][0]["partitions"], json!({ "all_except": [0] }), "{sc}");
}

/// With several sources the scenario is of the one that holds the minimum (it took the first,
/// a healthy job).
#[test]
fn turn_into_a_scenario_takes_the_source_that_holds_the_minimum() {
    let job = job_of(THREE);
    let holder = wmp::engine::live::explain::explain(&job).holder.expect("a holder");
    let s = to_scenario(&job);
    let name = job.vertices.iter().find(|v| v.id == holder.vertex_id).unwrap().name.clone();
    assert!(s["description"].as_str().unwrap().contains(&format!("only {name}")), "{}", s["description"]);
    assert_ne!(s["producers"][0]["partitions"]["all_except"], json!([]), "{s}");
}

/// A source subtask that never emitted holds with Long.MIN_VALUE, not a "last watermark" of data
/// it "stopped receiving".
#[test]
fn a_subtask_that_never_emitted_is_read_as_such() {
    let text = wmp::engine::live::explain::explain(&job_of(THREE)).lines.join("\n");
    assert!(text.contains("has received no data yet"), "{text}");
    assert!(!text.contains("stopped receiving"), "{text}");
}

#[test]
fn a_cancelled_job_a_404_garbage_and_wrong_shapes_are_typed_errors() {
    let b = Bundle::parse(CANCELLED).unwrap();
    let id = parse_overview(b.get("/jobs/overview").unwrap()).unwrap()[0].id.clone();
    assert_eq!(LiveJob::from_bundle(&b, &id), Err(LiveError::NotRunning { job_id: id.clone(), state: "CANCELED".into() }));
    let nf: Value = serde_json::from_str(NOT_FOUND).unwrap();
    let e = parse_answer(nf["path"].as_str().unwrap(), &nf["body"].to_string()).unwrap_err();
    assert_eq!(
        e,
        LiveError::Flink {
            path: "/jobs/00000000000000000000000000000000".into(),
            message: "Job 00000000000000000000000000000000 not found".into()
        }
    );
    assert!(matches!(Bundle::parse("<html><body>502 Bad Gateway"), Err(LiveError::Garbage { .. })));
    assert!(matches!(Bundle::parse(&RUNNING[..RUNNING.len() / 2]), Err(LiveError::Garbage { .. })));
    // A vertex without a parallelism: the path names the field.
    let mut v: Value = serde_json::from_str(RUNNING).unwrap();
    let jid = LiveJob::only_job_id(&Bundle::parse(RUNNING).unwrap()).unwrap();
    v[job_path(&jid)]["vertices"][1]["parallelism"] = json!("two");
    let e = LiveJob::from_bundle(&Bundle::parse(&v.to_string()).unwrap(), &jid).unwrap_err();
    assert_eq!(e, LiveError::shape(format!("/jobs/{jid}.vertices[1].parallelism"), "expected a parallelism from 1 to 32768"));
    v[job_path(&jid)]["vertices"] = json!({});
    let e = LiveJob::from_bundle(&Bundle::parse(&v.to_string()).unwrap(), &jid).unwrap_err();
    assert_eq!(e, LiveError::shape(format!("/jobs/{jid}.vertices"), "expected an array"));
    assert_eq!(LiveJob::from_bundle(&Bundle::default(), &jid), Err(LiveError::Missing { path: job_path(&jid) }));
    // An overview that lists no job says so (it said no job had its details in the bundle).
    let e = LiveJob::only_job_id(&Bundle::parse(r#"{"/jobs/overview": {"jobs": []}}"#).unwrap()).unwrap_err();
    assert!(e.to_string().contains("the overview lists no job"), "{e}");
}

/// `wmp serve`'s answers (src/engine/rest) read back by the live link: one set of Flink shapes,
/// written and read by the same crate, agree. Seed 001's heartbeat partition 11 is read by
/// source subtask 3 of 8 and pins the window's watermark.
#[test]
fn wmp_serves_answers_read_back_name_seed_001s_heartbeat_subtask() {
    use wmp::engine::live::bundle::overview_path;
    use wmp::engine::rest::{graph::JobGraph, route};
    let mut s = Session::from_json(include_str!("../presets/seed_001_heartbeat.json")).unwrap();
    s.run_until(1_200_000, &mut ()).unwrap();
    let g = JobGraph::of(s.sim(), &s.scenario().name);
    let get = |path: &str, query: &[(String, String)]| parse_answer(path, &route(&g, s.sim(), "GET", path, query).body).unwrap();
    let mut b = Bundle::default();
    b.merge(&overview_path(), get(&overview_path(), &[]));
    b.merge(&job_path(&g.job_id), get(&job_path(&g.job_id), &[]));
    for v in &g.vertices {
        for tail in ["watermarks", "backpressure"] {
            b.merge(&vertex_path(&g.job_id, &v.id, tail), get(&vertex_path(&g.job_id, &v.id, tail), &[]));
        }
        let path = vertex_path(&g.job_id, &v.id, "metrics");
        for names in metric_chunks(&get(&path, &[])) {
            b.merge(&path, get(&path, &[("get".into(), names.join(","))]));
        }
    }
    let job = LiveJob::from_bundle(&b, &LiveJob::only_job_id(&b).unwrap()).unwrap();
    assert_eq!(job.vertices.iter().map(|v| v.parallelism).collect::<Vec<_>>(), [8, 8]);
    let e = explain(&job);
    let h = e.holder.expect("a holder");
    assert_eq!(h.subtask, 11 % 8, "{:?}", e.lines);
    assert!(e.lines.join("\n").contains("held back by it"), "{:?}", e.lines);
    // Drawn as the graph: 8 source subtasks, 8 window subtasks of 8 channels, the chain
    // through source subtask 3.
    let g = to_snapshot(&job);
    assert_eq!((g.snapshot.sources.len(), g.snapshot.operators.len()), (8, 8));
    assert!(g.snapshot.operators.iter().all(|o| o.channels.len() == 8));
    assert_eq!(g.chain.1, Some(3));
}

/// A two-input job recorded on real Flink 2.3: the events connected with a "rates" source that
/// never sent a record. Flink reports no per-input watermark for the two-input operator (no
/// `currentInput1Watermark`/`currentInput2Watermark` in its metrics: its input watermark is the
/// minimum of both), so the live link finds the holder among the sources: rates' only subtask,
/// at No Watermark, holding the Connect vertex; both sources are drawn as the keyed column's inputs.
#[test]
fn a_connected_job_names_the_silent_input_as_the_holder() {
    assert!(!CONNECT.contains("currentInput1Watermark") && !CONNECT.contains("currentInput2Watermark"));
    let b = Bundle::parse(CONNECT).unwrap();
    let job = LiveJob::from_bundle(&b, &LiveJob::only_job_id(&b).unwrap()).unwrap();
    let names: Vec<_> = job.vertices.iter().map(|v| (v.name.as_str(), v.parallelism, v.is_source())).collect();
    assert_eq!(names, [("Source: events", 2, true), ("Source: rates", 1, true), ("Connect -> Results: Writer", 2, false)]);
    assert_eq!(job.vertices[2].inputs, [job.vertices[0].id.clone(), job.vertices[1].id.clone()]);
    let e = explain(&job);
    let h = e.holder.clone().expect("a holder");
    assert_eq!((h.vertex_name.as_str(), h.subtask, h.watermark, h.split.as_deref()), ("Source: rates", 0, i64::MIN, Some("split-0")));
    let text = e.lines.join("\n");
    assert!(e.lines[0].starts_with("\"Source: rates\" subtask 0 holds the watermark: output watermark no watermark yet"), "{text}");
    assert!(
        text.contains("\"Connect -> Results: Writer\": input watermark no watermark yet (Long.MIN_VALUE) on 2 of 2 subtasks"),
        "{text}"
    );
    let g = to_snapshot(&job);
    assert_eq!(g.source_names, ["Source: events", "Source: rates"]);
    assert_eq!(g.keyed_name.as_deref(), Some("Connect -> Results: Writer"));
    assert_eq!(g.snapshot.sources.iter().map(|x| x.input).collect::<Vec<_>>(), [0, 0, 1]);
    assert_eq!(g.chain.1, Some(2), "the rates subtask, third in the source column");
    for op in &g.snapshot.operators {
        let min: Vec<_> = op.channels.iter().filter(|c| c.is_min).map(|c| c.source_subtask).collect();
        assert_eq!(min, [2], "subtask {}: the channel from rates holds it", op.subtask);
    }
}

/// A job recorded on real Flink 2.3 with a back-pressured source (tools/oracle/live-record.sh,
/// `pressure`): split-0 emits as fast as it can into a keyed operator taking 2 ms a record. Its
/// source subtask reports backPressuredTimeMsPerSecond 1000 (the Web UI's HIGH), the other 0;
/// the snapshot then asks for flow marks, and the rates the graph draws are the metrics'.
#[test]
fn a_back_pressured_real_job_gets_flow_marks_from_its_metrics() {
    use wmp::engine::flow::back_pressure::BackPressureLevel;
    let job = job_of(PRESSURE);
    let src = &job.vertices[0];
    assert_eq!(src.back_pressure_level.as_deref(), Some("high"), "the REST back-pressure endpoint agrees");
    let g = to_snapshot(&job);
    assert!(g.snapshot.job.flow_marks && g.snapshot.job.keyed_capacity_per_s.is_none(), "flow marks, but no capacity (buffers unknown)");
    let levels: Vec<_> = g.snapshot.sources.iter().map(|v| v.back_pressure_level).collect();
    assert_eq!(levels, [BackPressureLevel::High, BackPressureLevel::Ok]);
    assert_eq!(g.back_pressured_ms_per_s, [Some(1000), Some(0)]);
    let busy: Vec<i64> = g.busy_ms_per_s.iter().map(|b| b.expect("busyTimeMsPerSecond reported")).collect();
    assert!(busy.iter().any(|&b| b > 500), "a keyed subtask is busy: {busy:?}");
    let note = &g.notes.sources[0];
    assert_eq!(note.title, "\"Source: events\" subtask 0");
    assert!(
        note.lines.iter().any(|l| l.starts_with("Back-pressure: HIGH, 1000 ms/s (backPressuredTimeMsPerSecond): its output is blocked")),
        "{note:?}"
    );
    let busiest = busy.iter().enumerate().max_by_key(|x| x.1).unwrap().0;
    let op = &g.notes.operators[busiest];
    assert!(op.lines.iter().any(|l| l.starts_with(&format!("Busy: {} ms/s (busyTimeMsPerSecond)", busy[busiest]))), "{op:?}");
    // Keyed subtask 1 is behind on its backlog: its input watermark (No Watermark) is below every
    // source subtask's, and its note says why that can be.
    assert_eq!(job.vertices[1].subtasks[1].input_watermark, Some(i64::MIN));
    assert!(
        g.notes.operators[1].lines.iter().any(|l| l.starts_with("Below every source subtask's output watermark")),
        "{:?}",
        g.notes.operators[1]
    );
    assert!(!g.notes.operators[0].lines.iter().any(|l| l.starts_with("Below every")), "{:?}", g.notes.operators[0]);
    // A subtask that does not report it gets no colour (unknown is not "OK"), the other keeps its own.
    use wmp::web::graph_flow::{pressure_edges_svg, FlowRates};
    let mut half = job.clone();
    half.vertices[0].subtasks[1].back_pressured_ms_per_s = None;
    let g = to_snapshot(&half);
    assert!(g.snapshot.job.flow_marks);
    let rates = FlowRates::of_live(&g);
    assert_eq!((rates.back_pressured(0), rates.back_pressured(1)), (Some(1000), None));
    let svg = pressure_edges_svg(&wmp::web::graph_layout::layout_named(900.0, &g.snapshot, &g.split_ids, false), &g.snapshot, &rates);
    assert!(svg.contains(r#"data-bp="HIGH" data-bp-source="0""#) && !svg.contains(r#"data-bp-source="1""#), "{svg}");
    // Without the metric anywhere, no marks at all.
    let mut quiet = job.clone();
    quiet.vertices.iter_mut().flat_map(|v| v.subtasks.iter_mut()).for_each(|s| s.back_pressured_ms_per_s = None);
    let g = to_snapshot(&quiet);
    assert!(!g.snapshot.job.flow_marks && g.back_pressured_ms_per_s == [None, None]);
    assert!(g.notes.sources[0].lines.contains(&"Back-pressure: unknown.".to_string()));
}

/// Three source vertices unioned into the windows, recorded on real Flink 2.3 (`three`): all
/// three are drawn, a band each, and the silent one ("rates", No Watermark) holds the minimum.
#[test]
fn a_third_source_vertex_is_drawn_and_can_hold_the_minimum() {
    let job = job_of(THREE);
    let g = to_snapshot(&job);
    assert_eq!(g.source_names, ["Source: events", "Source: clicks", "Source: rates"]);
    let s = &g.snapshot;
    assert_eq!(s.job.topics.len(), 3);
    assert_eq!(s.sources.iter().map(|x| (x.input, x.subtask_in_source)).collect::<Vec<_>>(), [(0, 0), (0, 1), (1, 0), (2, 0)]);
    assert_eq!(
        s.splits.iter().map(|p| (p.input, p.partition_in_topic, p.subtask)).collect::<Vec<_>>(),
        [(0, 0, Some(0)), (0, 1, Some(1)), (1, 0, Some(2)), (2, 0, Some(3))]
    );
    assert_eq!(g.split_ids, ["split-0", "split-1", "split-0", "split-0"]);
    assert_eq!(g.chain.1, Some(3), "rates' subtask, fourth in the source column");
    assert_eq!(g.chain.2, Some(3), "rates' split");
    for op in &s.operators {
        assert_eq!(op.channels.len(), 4, "every source subtask feeds every window subtask");
        assert_eq!(op.channels.iter().filter(|c| c.is_min).map(|c| c.source_subtask).collect::<Vec<_>>(), [3]);
    }
    // The WHY notes of the chain: the split, its subtask, a window subtask it holds.
    assert!(
        g.notes.splits[3].lines.iter().any(|l| l.starts_with("The lowest split of the subtask that holds the watermark")),
        "{:?}",
        g.notes.splits[3]
    );
    let rates = &g.notes.sources[3].lines;
    assert!(rates.contains(&"Holds the minimum: the lowest output watermark of all source subtasks.".to_string()), "{rates:?}");
    assert!(
        rates.iter().any(|l| l.starts_with("No record emitted yet (numRecordsOut 0); nothing for ")),
        "never 'last record … ago': {rates:?}"
    );
    assert!(
        g.notes.sources[0].lines.iter().any(|l| *l == "Ahead of the holder, \"Source: rates\" subtask 0, which has no watermark yet."),
        "{:?}",
        g.notes.sources[0]
    );
    assert!(
        g.notes.operators[0].lines.iter().any(|l| l.starts_with("Held back by \"Source: rates\" subtask 0")),
        "{:?}",
        g.notes.operators[0]
    );
    assert_eq!(g.notes.splits.len(), 4);
    assert_eq!(g.notes.operators.len(), 2);
}
