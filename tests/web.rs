//! Browser tests of the playground's components, run in headless Chromium by
//! wasm-bindgen-test-runner:
//!   cargo test --target wasm32-unknown-unknown --test web
//! (scripts/test.sh sets CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER and CHROMEDRIVER; the
//! Chromium flags are in webdriver.json at the repo root).
//!
//! Component tests mount the playground over a state `pg` they drive directly (no frame loop),
//! then check the DOM: graph, WHY panel, tables, controls, timeline, share panel. The page
//! around them (embed layout, keys and focus, the panic banner, the engine in wasm) is in
//! `tests/web_page.rs`.
#![cfg(target_arch = "wasm32")]

mod web_common;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_common::*;
use wmp::engine::command::{Command, Param};
use wmp::web::Pg;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn app_shell_renders_the_first_preset() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    settle().await;
    assert_eq!(text(&c, "h1.title"), "Watermark Playground");
    assert_eq!(count(&c, "svg.graph .node.part"), 16);
    assert_eq!(count(&c, "svg.graph .node.src"), 8);
    assert_eq!(count(&c, "svg.graph .node.op"), 8);
    assert_eq!(count(&c, "#splits-table tbody tr"), 16);
    assert_eq!(text(&c, "#clock"), "00:00:00.000");
    assert!(text(&c, ".preset-card").contains("heartbeat"));
    drop(handle);
    assert!(c.query_selector(".app").unwrap().is_none(), "dropping the handle unmounts");
    c.remove();
}

#[wasm_bindgen_test]
async fn step_and_next_interesting_advance_the_clock() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    settle().await;
    // The first step processes the start instant itself; the next one moves the clock.
    click(&c, "#btn-step");
    click(&c, "#btn-step");
    settle().await;
    assert_ne!(text(&c, "#clock"), "00:00:00.000");
    click(&c, "#btn-next");
    settle().await;
    assert!(pg.now() > pg.start_time());
    click(&c, "#btn-reset");
    settle().await;
    assert_eq!(text(&c, "#clock"), "00:00:00.000");
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn why_panel_names_partition_11_and_the_fix_releases_the_windows() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    pg.run_until(at(&pg, 20 * 60)).unwrap();
    pg.refresh();
    settle().await;
    let why = text(&c, ".why");
    assert!(why.contains("partition 11 has had no record"), "{why}");
    assert_eq!(q(&c, ".why [data-culprit-partition]").get_attribute("data-culprit-partition").as_deref(), Some("11"));
    assert_eq!(count(&c, "svg.graph .node.part.holding[data-partition='11']"), 1);
    assert_eq!(count(&c, "svg.graph-edges .edge.culprit"), 2, "partition → source and source → window edges");
    assert!(text(&c, "#emissions-count").starts_with("0 results"));
    // Screen readers hear the verdict (the diagnosis' headline) in the live region, with the
    // moment it was true (20 minutes in).
    let live = text(&c, "[data-testid=why-live]");
    assert!(live.starts_with("At 00:20:00.000: Partition 11 "), "{live}");
    // The one-click fix; paused, the notice says that it shows once time passes.
    click(&c, ".why .btn.fix");
    settle().await;
    assert!(text(&c, ".notices").contains("; press ▶ to see it take effect"), "{}", text(&c, ".notices"));
    pg.run_until(at(&pg, 23 * 60)).unwrap();
    pg.refresh();
    settle().await;
    assert!(text(&c, "#splits-table tr[data-partition='11']").contains("IDLE"));
    assert!(!text(&c, "#emissions-count").starts_with("0 results"));
    assert!(count(&c, "#emissions-table tbody tr") > 0);
    drop(handle);
    c.remove();
}

/// The `data-culprit-partition` and `data-cause` of the four places that name a culprit: the
/// graph, the WHY panel, the preset card's live line and (in the full layout) nothing else.
fn named(c: &web_sys::HtmlElement) -> Vec<(Option<String>, Option<String>)> {
    [".graph-wrap", ".why-main", ".live-line"]
        .iter()
        .map(|sel| (q(c, sel).get_attribute("data-culprit-partition"), q(c, sel).get_attribute("data-cause")))
        .collect()
}

#[wasm_bindgen_test]
async fn one_diagnosis_names_one_culprit_everywhere() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    settle().await;
    // t = 0: nothing read, nobody blamed.
    assert!(named(&c).iter().all(|n| *n == (Some(String::new()), Some("nothing_read_yet".into()))), "{:?}", named(&c));
    assert_eq!(count(&c, "svg.graph .node.part.holding"), 0);
    assert_eq!(count(&c, ".why .chain"), 0);
    assert!(text(&c, ".live-line").contains("Nothing has been read yet"));
    pg.run_until(at(&pg, 20 * 60)).unwrap();
    pg.refresh();
    settle().await;
    let n = named(&c);
    assert!(n.iter().all(|x| *x == n[0]), "{n:?}");
    assert_eq!(n[0].0.as_deref(), Some("11"));
    assert_eq!(count(&c, "svg.graph .node.part.holding[data-partition='11']"), 1);
    assert_eq!(q(&c, ".finding").get_attribute("data-partition").as_deref(), Some("11"));
    assert_eq!(q(&c, ".finding").get_attribute("data-kind"), n[0].1);
    assert_eq!(count(&c, ".finding.holds"), count(&c, ".finding.holds[data-partition='11']"));
    assert!(text(&c, ".finding").contains("partition 11 — "), "the class badge");
    // The first finding is open; a click closes it, and a refresh keeps it closed.
    assert!(!q(&c, ".finding .finding-body").class_list().contains("hidden"));
    click(&c, ".finding .finding-head");
    pg.refresh();
    settle().await;
    assert!(q(&c, ".finding .finding-body").class_list().contains("hidden"));
    drop(handle);
    c.remove();
}

/// The shapes beyond one source, in the graph: a band per topic, a two-input operator's ports
/// with the holding input marked, a union's valve, the chained operator beside its idle source;
/// and one diagnosis everywhere (graph, WHY, card) with partitions named `topic-N`.
#[wasm_bindgen_test]
async fn two_inputs_and_chained_operators_are_drawn_and_named_alike() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    pg.load_preset("quiet-side-join").unwrap();
    pg.run_until(at(&pg, 30)).unwrap();
    pg.refresh();
    settle().await;
    assert_eq!(count(&c, "svg.graph .band-heads text"), 2);
    assert_eq!(count(&c, "svg.graph .node.op .port.input"), 4);
    assert_eq!(count(&c, "svg.graph .node.op[data-operator='0'] .port.input.holding[data-input='1']"), 1);
    let n = named(&c);
    assert!(n.iter().all(|x| *x == n[0]), "{n:?}");
    assert_eq!(n[0].0.as_deref(), Some("4"));
    assert!(text(&c, ".why").contains("partition rates-0"), "{}", text(&c, ".why"));
    assert!(text(&c, "#splits-table tr[data-partition='4'] th").starts_with("rates-0"));
    assert!(text(&c, "#inputs-strip").contains("input 2 watermark (rates)"));
    pg.load_preset("union-idle-stream").unwrap();
    settle().await;
    assert_eq!(count(&c, "svg.graph .node.op .port.valve"), 2);
    assert_eq!(count(&c, "svg.graph .node.op .port.input"), 0);
    pg.load_preset("midstream-assigner").unwrap();
    pg.run_until(at(&pg, 60)).unwrap();
    pg.refresh();
    settle().await;
    assert_eq!(count(&c, "svg.graph .node.chained"), 2);
    assert_eq!(count(&c, "svg.graph .node.src.idle[data-source='0']"), 1, "the source subtask is idle");
    assert_eq!(count(&c, "svg.graph .node.chained.holding[data-chained='0']"), 1, "the operator after it holds");
    assert_eq!(count(&c, "svg.graph .node.chained.idle"), 0);
    assert!(text(&c, "#strategy-scope").contains("Timestamps/Watermarks"));
    drop(handle);
    c.remove();
}

/// Two sources: a source subtask is named by its source and its index there (`impressions·0`,
/// as Flink and the live vertex tables count), never by its number over both sources, in the
/// graph's label, title and accessible label, the channels table, the WHY chain and the reasons.
#[wasm_bindgen_test]
async fn a_source_subtask_of_two_sources_has_one_name_in_every_view() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    pg.load_preset("union-idle-stream").unwrap();
    pg.run_until(at(&pg, 60)).unwrap();
    pg.refresh();
    settle().await;
    // Source subtask 1 over both sources is the impressions source's subtask 0; it holds.
    let node = q(&c, "svg.graph .node.src.holding");
    assert_eq!(node.get_attribute("data-source").as_deref(), Some("1"));
    let label = text(&c, "svg.graph .node.src.holding text.name");
    assert!(label.starts_with("src impressions·0"), "{label}");
    assert!(text(&c, "svg.graph .node.src[data-source='0'] text.name").starts_with("src clicks·0"));
    assert!(node.get_attribute("aria-label").unwrap().starts_with("Source subtask impressions·0:"));
    assert!(
        text(&c, "svg.graph .node.src.holding title").starts_with("source subtask impressions·0 (2 splits)"),
        "{}",
        text(&c, "svg.graph .node.src.holding title")
    );
    // The channels table names it as the graph does.
    let row = text(&c, "#channels-table tr.holding");
    assert!(row.contains("src impressions·0"), "{row}");
    assert!(!c.text_content().unwrap_or_default().contains("src 1"), "no global number anywhere");
    assert!(text(&c, ".why .chain").contains("source subtask impressions·0"), "{}", text(&c, ".why .chain"));
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn advisor_applies_its_advice_and_the_lag_alert_shows() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    pg.run_until(at(&pg, 60)).unwrap();
    pg.refresh();
    settle().await;
    // The lag alert: a threshold the held subtasks are over.
    type_into(&c, "#f-tolerated", "30 s", true);
    settle().await;
    assert_eq!(pg.diag_opts.with_untracked(|o| o.tolerated_delay_ms), Some(30_000));
    click(&c, "#why-tab-lag");
    type_into(&c, "#f-lag-alert", "10 s", true);
    settle().await;
    assert_eq!(pg.diag_opts.with_untracked(|o| o.lag_alert_ms), Some(10_000));
    assert_eq!(count(&c, ".finding[data-kind='event_time_lag']"), 1);
    assert!(text(&c, "#why-tab-lag").contains('⚠'));
    let crossings: u32 = q(&c, "svg.lag-chart").get_attribute("data-crossings").unwrap().parse().unwrap();
    assert!(crossings > 0);
    assert!(count(&c, "svg.lag-chart .lag-line") >= 8);
    assert_eq!(count(&c, "#advisor .rec"), 3);
    assert!(count(&c, "#advisor .constraints tbody tr") >= 3);
    let actions = pg.reading_slow.with_untracked(|r| r.diag.advice.actions.clone());
    assert!(!actions.is_empty(), "seed 001 after a minute: an idle timeout at least");
    click(&c, "#btn-apply-advice");
    settle().await;
    use wmp::engine::session::action::Action;
    for a in &actions {
        match *a {
            Action::IdleTimeout(t) => assert_eq!(pg.cfg.with_untracked(|c| c.first().source.idle_timeout_ms), t),
            Action::AllowedLateness(l) => assert_eq!(pg.cfg.with_untracked(|c| c.allowed_lateness_ms), l),
            Action::Bound(b) => {
                assert_eq!(pg.cfg.with_untracked(|c| wmp::engine::diagnosis::diagnose::bound_of(c.first().source.generator)), Some(b))
            }
            _ => panic!("the advice changes the three parameters only: {a:?}"),
        }
    }
    assert!(text(&c, ".notices").contains("Applied the advice"), "{}", text(&c, ".notices"));
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn clicking_a_node_explains_it() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    pg.run_until(at(&pg, 60)).unwrap();
    pg.refresh();
    settle().await;
    click(&c, "svg.graph .node.part[data-partition='3']");
    settle().await;
    assert!(text(&c, ".why .subject").contains("Partition 3 is read by source subtask"));
    assert_eq!(text(&c, ".why .subject .badge.class"), "partition 3 — steady", "the diagnosis' class");
    click(&c, "svg.graph .node.op[data-operator='2']");
    settle().await;
    assert!(text(&c, ".why .headline").contains("Window subtask 2"));
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn silence_a_split_with_one_click_and_see_it_go_idle() {
    let pg = Pg::new();
    pg.load_preset("late-data").unwrap();
    let (c, handle) = mount(pg);
    settle().await;
    click(&c, "#splits-table tr[data-partition='0'] button");
    settle().await;
    assert!(text(&c, "#splits-table tr[data-partition='0'] button").contains("resume"));
    assert!(pg.snap.with_untracked(|s| s.splits[0].silent));
    pg.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(2_000)) }).unwrap();
    pg.run_until(at(&pg, 10)).unwrap();
    pg.refresh();
    settle().await;
    assert!(text(&c, "#splits-table tr[data-partition='0']").contains("IDLE"));
    assert_eq!(count(&c, "svg.graph .node.part.idle[data-partition='0']"), 1);
    drop(handle);
    c.remove();
}

/// A bubbling keydown of `key` on the first element matching `sel`.
fn press_on(root: &web_sys::HtmlElement, sel: &str, key: &str) {
    let k = web_sys::KeyboardEventInit::new();
    k.set_key(key);
    k.set_bubbles(true);
    k.set_cancelable(true);
    q(root, sel).dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &k).unwrap()).unwrap();
}

#[wasm_bindgen_test]
async fn window_nodes_count_what_they_fired_and_dropped() {
    let pg = Pg::new();
    pg.load_preset("late-data").unwrap();
    let (c, handle) = mount(pg);
    for s in 1..=60 {
        pg.run_until(at(&pg, s)).unwrap();
        pg.refresh();
    }
    settle().await;
    let n = count(&c, "svg.graph .node.op");
    let (mut fired, mut dropped) = (0u64, 0u64);
    for o in 0..n {
        let line = text(&c, &format!("svg.graph .node.op[data-operator='{o}'] text.counts"));
        let num = |after: &str| -> u64 {
            let head = line.split(after).next().unwrap();
            head.rsplit(|ch: char| !ch.is_ascii_digit() && ch != ',').find(|w| !w.is_empty()).unwrap().replace(',', "").parse().unwrap()
        };
        fired += num(" fired");
        dropped += num(" dropped");
    }
    let total_dropped: u64 = text(&c, "#late-dropped b").replace(',', "").parse().unwrap();
    assert!(total_dropped > 0, "late-data drops records in its first minute");
    assert_eq!(dropped, total_dropped, "the nodes' dropped counts add up to numLateRecordsDropped");
    assert_eq!(fired, pg.snap.with_untracked(|s| s.windows_fired as u64), "and their fired counts to the sink's results");
    assert!(count(&c, "svg.graph .node.op text.counts .dropped.some") > 0, "a node that dropped records says so in red");
    let label = q(&c, "svg.graph .node.op[data-operator='0']").get_attribute("aria-label").unwrap();
    assert!(label.starts_with("Window subtask 0: watermark ") && label.contains("late records dropped"), "{label}");
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn partitions_show_state_badges_and_verb_buttons_that_keys_press() {
    let (pg, c, handle) = mounted_at("empty-partition", 5).await;
    // Partition 3 has no producer: a state, and nothing to silence or resume.
    let p3 = q(&c, "svg.graph .node.part[data-partition='3']");
    assert_eq!(p3.get_attribute("data-state").as_deref(), Some("no producer"));
    assert!(p3.get_attribute("aria-label").unwrap().starts_with("Partition 3: no producer, watermark "));
    assert!(q(&c, "svg.graph .silence-btn[data-silence='3']").class_list().contains("hidden"));
    assert_eq!(q(&c, "svg.graph .node.part[data-partition='0']").get_attribute("data-state").as_deref(), Some("active"));
    let btn = "svg.graph .silence-btn[data-silence='0']";
    assert_eq!(q(&c, btn).get_attribute("aria-label").as_deref(), Some("Silence partition 0"));
    // Reached by the arrow keys inside the graph, which is one Tab stop (tests/web_page.rs).
    assert_eq!(q(&c, btn).get_attribute("tabindex").as_deref(), Some("-1"));
    assert_eq!(text(&c, &format!("{btn} text")), "Silence");
    // Space on the focused button presses it (and does not reach play / pause).
    press_on(&c, btn, " ");
    settle().await;
    assert!(pg.snap.with_untracked(|s| s.splits[0].silent));
    assert!(!pg.playing.get_untracked(), "Space pressed the button, it did not start playing");
    assert_eq!(q(&c, "svg.graph .node.part[data-partition='0']").get_attribute("data-state").as_deref(), Some("silenced"));
    assert_eq!(q(&c, btn).get_attribute("aria-label").as_deref(), Some("Resume partition 0"));
    press_on(&c, btn, "Enter");
    settle().await;
    assert!(!pg.snap.with_untracked(|s| s.splits[0].silent), "Enter resumed it");
    // Enter on a node explains it.
    press_on(&c, "svg.graph .node.part[data-partition='1']", "Enter");
    settle().await;
    assert!(text(&c, ".why .subject").contains("Partition 1"));
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn fields_validate_and_apply() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    settle().await;
    type_into(&c, "#f-bound", "five", false);
    settle().await;
    assert!(text(&c, "#f-bound-err").contains("not a duration"));
    assert_eq!(q(&c, "#f-bound").get_attribute("aria-invalid").as_deref(), Some("true"));
    type_into(&c, "#f-idle", "0", true);
    settle().await;
    assert!(text(&c, "#f-idle-err").contains("greater than 0"));
    assert_eq!(pg.cfg.get_untracked().first().source.idle_timeout_ms, None, "refused input changes nothing");
    type_into(&c, "#f-idle", "90 s", true);
    settle().await;
    assert_eq!(pg.cfg.get_untracked().first().source.idle_timeout_ms, Some(90_000));
    assert!(text(&c, "#java-code").contains("withIdleness(Duration.ofSeconds(90))"));
    assert!(text(&c, "#sql-code").contains("'table.exec.source.idle-timeout' = '90 s'"));
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn a_sql_generators_delay_is_the_bound_field() {
    use wmp::engine::source::generator::GeneratorKind;
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    pg.apply(Command::SetParam { param: Param::Generator(GeneratorKind::SqlBounded { delay_ms: 3_000 }) }).unwrap();
    settle().await;
    let bound: web_sys::HtmlInputElement = q(&c, "#f-bound").unchecked_into();
    assert_eq!(bound.value(), "3 s", "SQL's INTERVAL delay, not n/a");
    assert!(!bound.disabled());
    type_into(&c, "#f-bound", "5 s", true);
    settle().await;
    assert_eq!(pg.cfg.get_untracked().first().source.generator, GeneratorKind::SqlBounded { delay_ms: 5_000 });
    // Switching to forBoundedOutOfOrderness keeps it.
    let select: web_sys::HtmlSelectElement = q(&c, "#f-generator").unchecked_into();
    select.set_value("bounded");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    settle().await;
    assert_eq!(pg.cfg.get_untracked().first().source.generator, GeneratorKind::BoundedOutOfOrderness { bound_ms: 5_000 });
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn add_partition_and_inject_an_event() {
    let pg = Pg::new();
    pg.load_preset("late-data").unwrap();
    let (c, handle) = mount(pg);
    settle().await;
    click(&c, "#btn-add-partition");
    settle().await;
    assert_eq!(count(&c, "svg.graph .node.part"), 3);
    // Nobody writes to the new partition: no Silence / Resume that would do nothing, in the
    // table as in the graph.
    let row = "#splits-table tr[data-partition='2']";
    assert_eq!(count(&c, &format!("{row} button.hidden")), 1, "its button is hidden");
    assert_eq!(text(&c, &format!("{row} td:last-child span:not(.hidden)")).trim(), "none");
    assert_eq!(count(&c, "#splits-table tr[data-partition='0'] button:not(.hidden)"), 1, "a partition with producers keeps its button");
    let sel: web_sys::HtmlSelectElement = q(&c, "#f-inj-part").unchecked_into();
    sel.set_value("2");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    sel.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    type_into(&c, "#f-inj-ts", "-1 s", false);
    click(&c, "#btn-send");
    pg.step_once();
    settle().await;
    assert_eq!(text(&c, "#splits-table tr[data-partition='2'] td:nth-child(4)").trim(), "1");
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn late_records_and_the_timeline_are_drawn() {
    let pg = Pg::new();
    pg.load_preset("late-data").unwrap();
    let (c, handle) = mount(pg);
    for s in 1..=60 {
        pg.run_until(at(&pg, s)).unwrap();
        pg.refresh();
    }
    settle().await;
    let dropped: u64 = text(&c, "#late-dropped b").replace(',', "").parse().unwrap();
    assert!(dropped > 0);
    assert!(count(&c, "#late-table tbody tr") > 0);
    assert!(text(&c, "#late-table").contains("✕ dropped"));
    assert!(timeline_marks(&c, "operators") >= 1);
    assert!(timeline_marks(&c, "dropped") > 0);
    assert!(timeline_marks(&c, "fired") > 0);
    // And painted: the window subtask's line, the firing marks and the dropped marks each left
    // pixels of their theme colour on the canvas.
    // (No stylesheet here: the painter's fallbacks, the light theme's colours, apply.)
    for (var, light) in [("--accent", "#0b62c4"), ("--ok", "#1a7f37"), ("--late", "#c62828")] {
        assert!(canvas_has_colour(&c, var, light), "no {var} pixel on the timeline");
    }
    drop(handle);
    c.remove();
}

#[wasm_bindgen_test]
async fn export_import_round_trip() {
    let pg = Pg::new();
    pg.load_preset("empty-partition").unwrap();
    pg.run_until(at(&pg, 10)).unwrap();
    pg.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(30_000)) }).unwrap();
    let json = wmp::web::share::export_json(&pg);
    assert!(json.contains("\"idle_timeout_ms\""));
    let other = Pg::new();
    wmp::web::share::import_json(&other, &json).unwrap();
    assert_eq!(wmp::web::share::export_json(&other), json);
    let err = wmp::web::share::import_json(
        &other,
        r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": -5}}}"#,
    )
    .unwrap_err();
    assert!(err.contains("window.assigner.size_ms"), "{err}");
    // The replay reaches the same state as the original run.
    pg.run_until(at(&pg, 90)).unwrap();
    other.run_until(at(&other, 90)).unwrap();
    let results =
        |p: &Pg| p.with_sim(|s| s.downstream().sink.results().map(|r| (r.time, r.key, r.start, r.end, r.agg.count)).collect::<Vec<_>>());
    assert!(!results(&pg).is_empty());
    assert_eq!(results(&pg), results(&other));
    let wms = |p: &Pg| p.with_sim(|s| s.snapshot().operators.iter().map(|o| o.input_watermark).collect::<Vec<_>>());
    assert_eq!(wms(&pg), wms(&other));
}

/// A UI action is checked together with the scripted commands still waiting, as the JS API
/// checks it: removing a partition that a later scripted command needs is refused up front
/// (naming that command), and nothing is recorded.
#[wasm_bindgen_test]
fn an_action_that_would_break_a_scripted_command_is_refused() {
    let pg = Pg::new();
    let json = r#"{"topic": {"partitions": 3}, "window": {"assigner": {"type": "tumbling", "size_ms": 10000}},
        "producers": [{"partitions": "all", "kind": "steady", "rate_per_s": 5}],
        "commands": [{"at_ms": 60000, "command": "mark_split_idle", "partition": 2}]}"#;
    wmp::web::share::import_json(&pg, json).unwrap();
    pg.run_until(at(&pg, 10)).unwrap();
    let err = pg.apply(Command::RemovePartition { partition: 2 }).unwrap_err().to_string();
    assert!(err.contains("commands[0]"), "{err}");
    assert!(pg.untouched());
    assert_eq!(pg.with_sim(|s| s.partitions().len()), 3);
    pg.apply(Command::Silence { partition: 1 }).unwrap();
    assert!(!pg.untouched());
}

/// Live actions are recorded as the JS API records them (applied at now + 1 and processed at
/// once), and the export runs to the present: building the exported scenario and running it to
/// the same time gives the live trace hash.
#[wasm_bindgen_test]
fn exported_session_reproduces_the_trace_hash() {
    let pg = Pg::new();
    pg.load_preset("empty-partition").unwrap();
    pg.run_until(at(&pg, 5)).unwrap();
    pg.apply(Command::Silence { partition: 1 }).unwrap();
    pg.run_until(at(&pg, 12)).unwrap();
    pg.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(20_000)) }).unwrap();
    pg.step_once();
    pg.apply(Command::Resume { partition: 1 }).unwrap();
    pg.run_until(at(&pg, 30)).unwrap();
    let live = pg.with_sim(|s| (s.trace().hash_hex(), s.now()));
    let sc = pg.export_scenario();
    assert_eq!(sc.start_time_ms + sc.duration_ms, live.1.ms());
    let mut replay = sc.build().unwrap();
    replay.run_until(live.1).unwrap();
    assert_eq!(replay.trace().hash_hex(), live.0);
}
