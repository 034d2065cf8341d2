//! The FLINK SQL panel (`web::sql_panel`) in headless Chromium, over a state the tests drive:
//!   cargo test --target wasm32-unknown-unknown --test web_sql
//! A control change rewrites the text, an edit is kept; pasted SQL reaches the scenario; an
//! error selects its line:column; applying the scenario's own SQL changes nothing.
#![cfg(target_arch = "wasm32")]

mod web_common;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_common::*;
use wmp::engine::command::{Command, Param};
use wmp::web::Pg;

wasm_bindgen_test_configure!(run_in_browser);

fn sql_text(root: &web_sys::HtmlElement) -> String {
    q(root, "#sql-text").unchecked_into::<web_sys::HtmlTextAreaElement>().value()
}

/// Replaces the text as a user would (an `input` event).
fn paste(root: &web_sys::HtmlElement, text: &str) {
    type_into(root, "#sql-text", text, false);
}

#[wasm_bindgen_test]
async fn a_control_change_rewrites_the_text_but_never_an_edit() {
    let pg = Pg::new();
    let (root, _h) = mount(pg);
    settle().await;
    assert!(sql_text(&root).contains("table.exec.source.idle-timeout is 0 (off)"), "{}", sql_text(&root));
    pg.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(30_000)) }).unwrap();
    settle().await;
    assert!(sql_text(&root).contains("SET 'table.exec.source.idle-timeout' = '30 s';"), "{}", sql_text(&root));
    let edited = format!("{}\n-- mine", sql_text(&root));
    paste(&root, &edited);
    pg.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(45_000)) }).unwrap();
    settle().await;
    assert_eq!(sql_text(&root), edited);
    assert!(text(&root, "#sql-status").contains("scenario changed (a preset, the controls or a fix)"));
    click(&root, "#btn-reset-sql");
    settle().await;
    assert!(sql_text(&root).contains("'45 s'") && !sql_text(&root).contains("-- mine"));
}

#[wasm_bindgen_test]
async fn pasted_sql_sets_the_idle_timeout_and_replaces_the_users_earlier_change() {
    let pg = Pg::new();
    let (root, _h) = mount(pg);
    pg.run_until(at(&pg, 60)).unwrap();
    pg.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(5_000)) }).unwrap();
    settle().await;
    paste(&root, "SET 'table.exec.source.idle-timeout' = '60 s';");
    click(&root, "#btn-apply-sql");
    settle().await;
    assert_eq!(pg.base.with_value(|b| b.source.watermark.idle_timeout_ms), Some(60_000));
    assert!(pg.untouched(), "a restart from time zero, the earlier idle-timeout change not replayed");
    pg.run_until(at(&pg, 120)).unwrap();
    assert_eq!(pg.cfg.get_untracked().first().source.idle_timeout_ms, Some(60_000), "the script's value holds");
    assert!(text(&root, "#sql-status").contains("applied"));
    // A note per clause not modelled; an edit takes them away (their positions were of the text before).
    paste(&root, "SET 'table.local-time-zone' = 'Europe/Berlin';\nSET 'table.exec.source.idle-timeout' = '60 s';");
    click(&root, "#btn-apply-sql");
    settle().await;
    assert!(text(&root, "#sql-notes").starts_with("line 1, column 5: "), "{}", text(&root, "#sql-notes"));
    paste(&root, "SET 'table.exec.source.idle-timeout' = '60 s';");
    settle().await;
    assert_eq!(count(&root, "#sql-notes li"), 0);
}

#[wasm_bindgen_test]
async fn an_error_selects_its_line_and_column_and_applies_nothing() {
    let pg = Pg::new();
    let (root, _h) = mount(pg);
    settle().await;
    let hash = pg.hash.get_untracked();
    paste(&root, "SET 'parallelism.default' = '2';\nCREATE TABLE t (\n  ts TIMESTAMP(3)\n) WITH ('connector' = 'filesystem');");
    click(&root, "#btn-apply-sql");
    settle().await;
    assert!(text(&root, "#sql-error").starts_with("line 4, column 23: 'connector' = 'filesystem'"), "{}", text(&root, "#sql-error"));
    let area: web_sys::HtmlTextAreaElement = q(&root, "#sql-text").unchecked_into();
    let (a, b) = (area.selection_start().unwrap().unwrap() as usize, area.selection_end().unwrap().unwrap() as usize);
    assert_eq!(&sql_text(&root)[a..b], "'filesystem'");
    assert_eq!(pg.hash.get_untracked(), hash);
}

#[wasm_bindgen_test]
async fn applying_the_scenarios_own_sql_again_changes_nothing() {
    for id in ["seed-001-heartbeat", "sql-idle-reactivates"] {
        let pg = Pg::new();
        pg.load_preset(id).unwrap();
        let (root, _h) = mount(pg);
        settle().await;
        let before = sql_text(&root);
        click(&root, "#btn-apply-sql");
        settle().await;
        assert_eq!(sql_text(&root), before, "{id}: its settings, written the same way");
        pg.run_until(at(&pg, 30)).unwrap();
        pg.refresh();
        let picture = || (pg.base.get_value(), pg.hash.get_untracked(), pg.now());
        let before = picture();
        click(&root, "#btn-apply-sql");
        settle().await;
        assert!(picture() == before, "{id}: no restart, the same run at the same time");
    }
}
