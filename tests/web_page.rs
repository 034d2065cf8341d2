//! Browser tests of the page around the playground's components, run in headless Chromium by
//! wasm-bindgen-test-runner (`cargo test --target wasm32-unknown-unknown --test web_page`): the
//! embed layout and its "open full" link, the panic banner, keys and focus, formats, and the
//! engine in wasm against the natively pinned trace hashes.
#![cfg(target_arch = "wasm32")]

mod web_common;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_common::*;
use wmp::web::format;
use wmp::web::Pg;

#[path = "pinned/hashes.rs"]
mod pinned;

wasm_bindgen_test_configure!(run_in_browser);

/// The embed's compact graph names a source subtask of two sources as the full graph does.
#[wasm_bindgen_test]
async fn the_embed_names_a_source_subtask_by_its_source() {
    let pg = Pg::new();
    pg.load_preset("union-idle-stream").unwrap();
    pg.run_until(at(&pg, 60)).unwrap();
    pg.refresh();
    let c = fresh_container();
    let _h = leptos::mount::mount_to(c.clone(), move || view! { <wmp::web::Embed pg=pg no_loop=true /> });
    settle().await;
    assert_eq!(text(&c, ".embed svg.graph.compact [data-source='1'] text"), "src impressions·0");
    assert!(text(&c, ".embed svg.graph.compact [data-source='1'] title").starts_with("source subtask impressions·0:"));
    assert_eq!(text(&c, ".embed svg.graph.compact [data-source='0'] text"), "src clicks·0");
}

/// The embed layout: compact graph, timeline, WHY line, "open full" link to where the embed is.
#[wasm_bindgen_test]
async fn embed_layout_renders_and_links_to_the_full_playground() {
    let pg = Pg::new();
    pg.load_preset("seed-001-heartbeat").unwrap();
    pg.run_until(at(&pg, 600)).unwrap();
    pg.refresh();
    pg.host.update_value(|h| h.link_base = Some("https://example.test/index.html".to_string()));
    let c = fresh_container();
    let _h = leptos::mount::mount_to(c.clone(), move || view! { <wmp::web::Embed pg=pg no_loop=true /> });
    settle().await;
    assert_eq!(count(&c, ".embed svg.graph.compact .node.part"), 16);
    assert_eq!(count(&c, ".embed svg.graph.compact .node.op"), 8);
    assert_eq!(q(&c, ".embed svg.graph.compact .node.part.holding").get_attribute("data-partition").as_deref(), Some("11"));
    // The one-line WHY is the diagnosis' headline, naming the same culprit as the graph.
    let headline = pg.reading_slow.with_untracked(|r| r.diag.headline.clone());
    assert!(headline.contains("Partition 11"), "{headline}");
    assert_eq!(text(&c, ".embed-why-text"), headline);
    assert_eq!(q(&c, ".embed-why").get_attribute("data-culprit-partition").as_deref(), Some("11"));
    let first_fix = pg.reading_slow.with_untracked(|r| r.diag.fixes()[0].action);
    assert!(text(&c, ".embed-title").contains("Seed 001"));
    // "open full" goes on where the embed is: the preset, the position and the speed.
    let href = q(&c, "#open-full").get_attribute("href").unwrap();
    let link = href.strip_prefix("https://example.test/index.html#s=").expect(&href);
    let st = wmp::engine::session::link_state::LinkState::decode(link).unwrap();
    assert_eq!((st.preset.as_deref(), st.at_ms, st.speed), (Some("seed-001-heartbeat"), 600_000, Some(300.0)));
    assert_eq!(count(&c, ".embed .timeline-card canvas.timeline"), 1);
    // The one-line WHY offers the fix; applying it is recorded and the link carries it.
    click(&c, ".embed-why .btn.fix");
    settle().await;
    let wmp::engine::session::action::Action::IdleTimeout(t) = first_fix else {
        panic!("the fix for a heartbeat partition: {first_fix:?}")
    };
    assert_eq!(pg.cfg.with_untracked(|c| c.first().source.idle_timeout_ms), t);
    click(&c, ".embed svg.graph.compact [data-operator='3']");
    settle().await;
    assert_eq!(pg.selection.get_untracked(), wmp::web::state::Selection::Operator(3));
}

#[wasm_bindgen_test]
fn formats_and_parsers() {
    let day = 1_767_225_600_000;
    for ms in [0, 1, 200, 1000, 5000, 60_000, 90 * 60_000, 3_600_000, 1500] {
        assert_eq!(format::parse_duration(&format::dur_input(ms)).unwrap(), ms);
    }
    assert_eq!(format::parse_duration("1.5 s").unwrap(), 1500);
    assert_eq!(format::parse_signed_duration("-2s").unwrap(), -2000);
    assert_eq!(format::parse_signed_duration("now - 90 min").unwrap(), -5_400_000);
    assert!(format::parse_duration("-1 s").is_err());
    assert!(format::parse_duration("5 parsecs").is_err());
    assert_eq!(format::parse_opt_duration("off").unwrap(), None);
    assert_eq!(format::parse_utc("2026-01-01 00:01:05", 0).unwrap(), day + 65_000);
    assert_eq!(format::parse_utc("00:01:05.250", day + 5).unwrap(), day + 65_250);
    assert!(format::parse_utc("yesterday", 0).is_err());
    assert_eq!(format::wm_human(day + 65_250, day), "00:01:05.250");
    assert_eq!(format::wm_human(day - 6_000, day), "23:59:54.000 -1d");
    // What the fields show across midnight reads back.
    assert_eq!(format::parse_utc("23:59:54.000 -1d", day + 5).unwrap(), day - 6_000);
    assert_eq!(format::parse_utc("-1d 23:59:54.000", day + 5).unwrap(), day - 6_000, "as it was written before");
    assert_eq!(format::parse_utc("00:00:01 +1d", day - 5).unwrap(), day + 1_000);
    assert_eq!(format::parse_utc("+1d 00:00:01", day - 5).unwrap(), day + 1_000);
    assert!(format::parse_utc("xd 00:00:01", day).is_err());
    assert!(format::parse_utc("1000000000000d 00:00", day).is_err(), "a day far out is refused, not an overflow");
    assert_eq!(format::wm_human(i64::MIN, day), "No Watermark");
    assert_eq!(format::wm_raw(i64::MAX), "Long.MAX_VALUE");
    assert_eq!(format::thousands(1_234_567u64), "1,234,567");
}

/// A key pressed on `target` (a bubbling keydown, as the browser sends it to the focused element).
fn key_on(target: &web_sys::EventTarget, key: &str) {
    let k = web_sys::KeyboardEventInit::new();
    k.set_key(key);
    k.set_bubbles(true);
    target.dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &k).unwrap()).unwrap();
}

fn active_id() -> String {
    web_sys::window().unwrap().document().unwrap().active_element().map(|e| e.id()).unwrap_or_default()
}

/// Space on a focused button is that button's (no play); on the page it plays. The help dialog
/// takes focus, makes the page inert, and gives focus back on Escape.
#[wasm_bindgen_test]
async fn focused_controls_keep_their_keys_and_help_is_modal() {
    let pg = Pg::new();
    let (c, handle) = mount(pg);
    settle().await;
    let body = web_sys::window().unwrap().document().unwrap().body().unwrap();
    let step: web_sys::HtmlElement = q(&c, "#btn-step").unchecked_into();
    step.focus().unwrap();
    key_on(&step, " ");
    assert!(!pg.playing.get_untracked(), "Space on a focused button does not play");
    key_on(&body, " ");
    assert!(pg.playing.get_untracked(), "Space on the page plays");
    key_on(&body, " ");
    let help: web_sys::HtmlElement = q(&c, "#btn-help").unchecked_into();
    help.focus().unwrap();
    help.click();
    settle().await;
    assert_eq!(active_id(), "help-close", "focus moved into the dialog");
    assert!(q(&c, "main").has_attribute("inert"), "the page behind is inert");
    key_on(&q(&c, "#help-close"), "Escape");
    settle().await;
    assert!(q(&c, ".overlay").class_list().contains("hidden"));
    assert!(!q(&c, "main").has_attribute("inert"));
    assert_eq!(active_id(), "btn-help", "focus went back to the help button");
    drop(handle);
    c.remove();
}

/// The job graph is one Tab stop (its svg); the arrow keys, Home and End move focus between its
/// nodes in order, past a Silence button the partition does not offer.
#[wasm_bindgen_test]
async fn the_graph_is_one_tab_stop_and_the_arrows_move_between_its_nodes() {
    let (pg, c, handle) = mounted_at("empty-partition", 5).await;
    let stops = c.query_selector_all(".graph-wrap [tabindex='0']").unwrap();
    assert_eq!(stops.length(), 1, "one Tab stop in the graph");
    let svg: web_sys::SvgElement = q(&c, "svg.graph").unchecked_into();
    assert_eq!(stops.item(0).unwrap(), svg.clone().into());
    assert_eq!(count(&c, "svg.graph [role=button]"), count(&c, "svg.graph [role=button][tabindex='-1']"), "every node by the keys alone");
    let active = || web_sys::window().unwrap().document().unwrap().active_element().unwrap();
    svg.focus().unwrap();
    // Focused, the graph leaves the shortcuts alone (a click on its blank space focuses it).
    key_on(&svg, " ");
    assert!(pg.playing.get_untracked(), "Space on the focused graph plays");
    key_on(&svg, "k");
    assert!(!pg.playing.get_untracked());
    // With a modifier an arrow is the browser's (Alt+← is Back).
    let alt = web_sys::KeyboardEventInit::new();
    alt.set_key("ArrowDown");
    alt.set_alt_key(true);
    alt.set_bubbles(true);
    svg.dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &alt).unwrap()).unwrap();
    assert_eq!(active(), svg.clone().into(), "Alt+ArrowDown does not move focus");
    key_on(&svg, "ArrowDown");
    assert_eq!(active(), q(&c, "svg.graph .node.part[data-partition='0']"), "the first node: partition 0, not its Silence button");
    key_on(&active(), "ArrowUp");
    assert_eq!(active(), q(&c, "svg.graph .node.part[data-partition='0']"), "the top of its column: it stays");
    key_on(&active(), "ArrowLeft");
    assert_eq!(active().get_attribute("data-silence").as_deref(), Some("0"));
    key_on(&active(), "ArrowRight");
    assert_eq!(active(), q(&c, "svg.graph .node.part[data-partition='0']"));
    // Partition 3 has no producer: no Silence button to stop at, and not partition 2's.
    q(&c, "svg.graph .node.part[data-partition='2']").unchecked_into::<web_sys::SvgElement>().focus().unwrap();
    key_on(&active(), "ArrowDown");
    assert_eq!(active(), q(&c, "svg.graph .node.part[data-partition='3']"));
    key_on(&active(), "ArrowLeft");
    assert_eq!(active(), q(&c, "svg.graph .node.part[data-partition='3']"), "Left from partition 3: it stays");
    key_on(&active(), "End");
    let nodes = c.query_selector_all("svg.graph [role=button]:not(.hidden)").unwrap();
    let last = nodes.item(nodes.length() - 1).unwrap();
    assert_eq!(active(), last.clone().unchecked_into(), "End: the last node");
    key_on(&active(), "ArrowDown");
    assert_eq!(active(), last.unchecked_into(), "the last node stays");
    key_on(&active(), "Home");
    assert_eq!(active(), q(&c, "svg.graph .node.part[data-partition='0']"), "Home: the first node");
    // Enter on a node reached by the keys explains it.
    key_on(&q(&c, "svg.graph .node.part[data-partition='3']"), "Enter");
    settle().await;
    assert!(text(&c, ".why .subject").contains("Partition 3"));
    drop(handle);
    c.remove();
}

/// The engine in wasm gives the same traces as natively (the constants pinned in
/// tests/pinned/hashes.rs, which tests/trace_hash.rs checks natively).
#[wasm_bindgen_test]
fn engine_trace_hashes_match_native() {
    let late = include_str!("scenarios/late_data_allowed_lateness.json");
    let sim = wmp::engine::scenario::build::parse(late).unwrap().run().unwrap();
    assert_eq!(sim.trace().hash_hex(), pinned::LATE_DATA_HASH);
    let o = wmp::engine::scenario::oracle::parse(include_str!("golden/oracle/scenarios/06_session_merge_lateness.json")).unwrap();
    assert_eq!(o.run().unwrap().trace().hash_hex(), pinned::ORACLE_06_HASH);
}

/// Bad input is an error value in wasm too, never a trap.
#[wasm_bindgen_test]
fn engine_rejects_bad_input_without_trapping() {
    let err =
        wmp::engine::scenario::build::parse(r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": -5}}}"#)
            .unwrap_err();
    assert_eq!(err.path, "window.assigner.size_ms");
}

/// The panic banner: on the page it is one banner at the top; with playgrounds mounted into a
/// host page it goes into each of their roots (where their styles apply), not the host's body.
/// Its Reload button is a listener, not an inline `onclick` (which a strict CSP blocks).
#[wasm_bindgen_test]
fn the_panic_banner_goes_where_the_playgrounds_are() {
    use wmp::web::error_banner::{forget_hosted_root, register_hosted_root, show_panic_banner};
    let body = web_sys::window().unwrap().document().unwrap().body().unwrap();
    let (a, b) = (fresh_container(), fresh_container());
    register_hosted_root(a.clone().into());
    register_hosted_root(b.clone().into());
    show_panic_banner("boom");
    for root in [&a, &b] {
        assert_eq!(count(root, ":scope > .panic-banner.in-root[role=alert]"), 1);
        assert!(text(root, ".panic-banner p").contains("boom"));
        assert_eq!(q(root, ".panic-banner button").get_attribute("onclick"), None);
    }
    assert!(body.query_selector(":scope > .panic-banner:not(.in-root)").unwrap().is_none());
    // Again: the banner is reused, not stacked.
    show_panic_banner("boom again");
    assert_eq!(count(&a, ".panic-banner"), 1);
    assert!(text(&a, ".panic-banner p").contains("boom again"));
    forget_hosted_root(&a.clone().into());
    forget_hosted_root(&b.clone().into());
    a.remove();
    b.remove();
    show_panic_banner("on the page");
    let page = body.query_selector(":scope > .panic-banner:not(.in-root)").unwrap().expect("a page banner");
    assert!(page.text_content().unwrap().contains("on the page"));
    page.remove();
}

/// The live card's graph of the job in a recorded bundle, mounted and settled.
async fn mount_live(bundle: &str) -> (web_sys::HtmlElement, impl Drop, wmp::engine::live::LiveJob) {
    use wmp::engine::live::to_snapshot::to_snapshot;
    use wmp::engine::live::{Bundle, LiveJob};
    let b = Bundle::parse(bundle).unwrap();
    let job = LiveJob::from_bundle(&b, &LiveJob::only_job_id(&b).unwrap()).unwrap();
    let pg = Pg::new();
    let c = fresh_container();
    let graph = to_snapshot(&job);
    let h = leptos::mount::mount_to(c.clone(), move || {
        provide_context(pg);
        let graph = Memo::new(move |_| Some(graph.clone()));
        view! { <wmp::web::live_graph::LiveGraphView graph=graph /> }
    });
    settle().await;
    (c, h, job)
}

/// The live card's graph: the real job recorded from Flink (tests/fixtures/live/running.json)
/// drawn by the playground's own graph and tables, with its split ids, vertex names and
/// watermarks; the quiet subtask 1, its split-1 and its channel carry the "holds the watermark"
/// marks; what the REST API does not give is "?"; nothing can silence a real split.
#[wasm_bindgen_test]
async fn a_live_job_is_drawn_with_the_simulated_jobs_graph_and_tables() {
    let (c, _h, job) = mount_live(include_str!("fixtures/live/running.json")).await;
    let low = job.vertices[0].subtasks[1].output_watermark.unwrap();
    assert_eq!(text(&c, "#live-banner").split(" · ").next(), Some("LIVE: live-fixture: one quiet split"));
    assert_eq!(count(&c, "svg.graph .node.part"), 2);
    assert_eq!(count(&c, "svg.graph .node.src"), 2);
    assert_eq!(count(&c, "svg.graph .node.op"), 2);
    assert!(
        text(&c, "svg.graph [data-partition='1'] text.mono").starts_with("split-1"),
        "{}",
        text(&c, "svg.graph [data-partition='1'] text.mono")
    );
    assert!(text(&c, "svg.graph .col-heads").contains("Window(TumblingEventTimeW… · HASH"), "{}", text(&c, "svg.graph .col-heads"));
    assert_eq!(count(&c, ".silence-btn.hidden"), 2);
    // The chain: split-1 → source subtask 1 → window subtask 0, drawn thick.
    assert_eq!(q(&c, "svg.graph .node.part.holding").get_attribute("data-partition").as_deref(), Some("1"));
    assert_eq!(q(&c, "svg.graph .node.src.holding").get_attribute("data-source").as_deref(), Some("1"));
    assert_eq!(q(&c, "svg.graph .node.op.focus").get_attribute("data-operator").as_deref(), Some("0"));
    assert_eq!(count(&c, ".graph-edges.marked path.culprit"), 2);
    let wm = format::wm_raw(low);
    assert!(text(&c, "svg.graph [data-operator='0']").contains(&wm), "the window subtask's input watermark {wm}");
    // The tables: the split row holding the minimum, its counts unknown; the channels unknown.
    assert!(text(&c, "#live-splits-table tr.holding").starts_with("split-1 ◀ min"));
    assert!(text(&c, "#live-splits-table tr.holding").contains('?'));
    assert!(text(&c, "#live-channels-table tr.holding").starts_with("ch1 ◀ min"));
    assert!(text(&c, "#live-channels-table tr.holding").contains("Source: events"));
    assert_eq!(count(&c, "#splits-table"), 0, "the live copy's ids do not clash with the playground's");
}

/// A real job with a back-pressured source (tests/fixtures/live/pressure.json, recorded on Flink
/// 2.3): the live graph draws the Web UI's HIGH badge and a red channel from the metrics, the
/// keyed subtasks' busy time without buffer gauges (not reported), and its legend; a clicked
/// node (or Enter on it) opens the live WHY panel with what its metrics say.
#[wasm_bindgen_test]
async fn a_live_jobs_back_pressure_is_drawn_and_a_clicked_node_is_explained() {
    let (c, _h, _) = mount_live(include_str!("fixtures/live/pressure.json")).await;
    assert_eq!(q(&c, "[data-source='0'] .bp-badge").get_attribute("data-bp-level").as_deref(), Some("HIGH"));
    assert_eq!(q(&c, "[data-source='1'] .bp-badge").get_attribute("data-bp-level").as_deref(), Some("OK"));
    assert!(text(&c, "[data-source='0'] .bp-badge title").starts_with("back-pressured: HIGH, 1000 ms/s"));
    assert!(count(&c, ".graph-edges.pressure path.bp-high[data-bp-source='0']") >= 1, "the red channels of subtask 0");
    assert_eq!(count(&c, ".flow-line:not(.hidden)"), 2);
    let busy = text(&c, "[data-operator='1'] .flow-line .busy");
    assert!(busy.starts_with("busy ") && !busy.contains('?'), "a reported busyTimeMsPerSecond: {busy}");
    assert_eq!(count(&c, ".flow-line .gauge-box"), 0, "no per-channel buffers in the REST API");
    assert!(text(&c, ".flow-line title").contains("not in the REST API"));
    assert_eq!(count(&c, ".live-graph-card .lg-bp:not(.hidden)"), 1, "the legend names the colours");
    assert!(!text(&c, ".live-graph-card .lg-bp").contains("buffers"));
    // The WHY panel: a hint, then the clicked source subtask's metrics, then a keyed subtask's by Enter.
    assert!(text(&c, "#live-why").starts_with("Click a split"));
    click(&c, "svg.graph [data-source='0']");
    settle().await;
    assert!(text(&c, "#live-why h3").starts_with("WHY · \"Source: events\" subtask 0"), "{}", text(&c, "#live-why"));
    assert!(text(&c, "#live-why").contains("Back-pressure: HIGH, 1000 ms/s"), "{}", text(&c, "#live-why"));
    key_on(&q(&c, "svg.graph [data-operator='1']").into(), "Enter");
    settle().await;
    assert!(text(&c, "#live-why h3").starts_with("WHY · \"Slow"), "{}", text(&c, "#live-why"));
    assert!(text(&c, "#live-why").contains("(busyTimeMsPerSecond)"));
}

/// Three source vertices (tests/fixtures/live/three.json): a band each, all four source
/// subtasks drawn, the silent third source's chain marked.
#[wasm_bindgen_test]
async fn a_live_job_with_three_sources_draws_a_band_each() {
    let (c, _h, _) = mount_live(include_str!("fixtures/live/three.json")).await;
    assert_eq!(count(&c, "svg.graph .band-head"), 3);
    assert!(text(&c, "svg.graph [data-band='2']").starts_with("Source: rates · input 3"), "{}", text(&c, "svg.graph .band-heads"));
    assert_eq!(count(&c, "svg.graph .node.src"), 4);
    assert_eq!(count(&c, "svg.graph .node.part"), 4);
    assert_eq!(q(&c, "svg.graph .node.src.holding").get_attribute("data-source").as_deref(), Some("3"));
    assert_eq!(q(&c, "svg.graph .node.part.holding").get_attribute("data-partition").as_deref(), Some("3"));
    // Each source numbers its splits from 0: the table, with no band heading, names the source.
    assert!(
        text(&c, "#live-splits-table tr.holding").starts_with("split-0 (rates) ◀ min"),
        "{}",
        text(&c, "#live-splits-table tr.holding")
    );
    // Its source subtask is the rates vertex's subtask 0, as its vertex table numbers it (and
    // Flink: "Source: rates (1/1)"), not 3, its number over the three sources.
    assert!(text(&c, "svg.graph .node.src.holding text.name").starts_with("src rates·0"), "{}", text(&c, "svg.graph .node.src.holding"));
    assert!(text(&c, "svg.graph .node.src[data-source='1'] text.name").starts_with("src events·1"));
    assert!(text(&c, "#live-channels-table tr.holding").contains("src rates·0"), "{}", text(&c, "#live-channels-table tr.holding"));
    // Every source reports backPressuredTimeMsPerSecond (0): OK badges, as Flink's Web UI.
    assert_eq!(count(&c, ".bp-badge:not(.hidden)[data-bp-level='OK']"), 4);
    assert_eq!(count(&c, ".flow-line:not(.hidden)"), 2);
}

/// A link's replay (a reload, a shared `#s=`) draws the timeline's lines and idle bands up to
/// its moment, as a played run does: it kept only the job marks, and the lines began at the
/// link's time.
#[wasm_bindgen_test]
async fn a_replayed_link_draws_its_lines_up_to_its_moment() {
    use wmp::engine::scenario::{build, catalog};
    let pg = Pg::new();
    let sc = build::parse(catalog::preset("bound-too-large").unwrap().json).unwrap();
    pg.load_source(wmp::web::embed_options::Source::of(sc, Some("bound-too-large")), Some(60_000)).unwrap();
    let start = pg.timeline.with_value(|t| t.start);
    let early = |points: &[(i64, i64)]| points.iter().filter(|p| p.0 < start + 50_000).count();
    let (splits, operators) = pg.timeline.with_value(|t| (early(&t.splits[0].points), early(&t.operators[0].points)));
    assert!(splits > 10 && operators > 10, "points before the link's moment: split {splits}, window subtask {operators}");
}
