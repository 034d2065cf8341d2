//! Link state: every preset with ten actions round-trips to the same trace hash and stays
//! under 2,000 characters; versions, limits and hostile input are refused in words.

use super::*;
use crate::engine::scenario::{build, catalog};

/// Commands a user issues from the page, tried in order on each preset; the first ten that
/// the preset accepts are kept.
const ACTIONS: &[&str] = &[
    r#"{"command":"silence","partition":0}"#,
    r#"{"command":"set_param","param":{"name":"idle_timeout_ms","value":5000}}"#,
    r#"{"command":"produce","partition":0,"records":[{"ts_offset_ms":-3000,"key":"k1","value":7}]}"#,
    r#"{"command":"resume","partition":0}"#,
    r#"{"command":"checkpoint"}"#,
    r#"{"command":"set_param","param":{"name":"allowed_lateness_ms","value":2000}}"#,
    r#"{"command":"silence","partition":1}"#,
    r#"{"command":"set_param","param":{"name":"bound_ms","value":1500}}"#,
    r#"{"command":"mark_split_idle","partition":0}"#,
    r#"{"command":"set_param","param":{"name":"late_side_output","value":true}}"#,
    r#"{"command":"resume","partition":1}"#,
    r#"{"command":"add_partition"}"#,
    r#"{"command":"set_param","param":{"name":"idle_timeout_ms","value":null}}"#,
    r#"{"command":"produce","partition":0,"records":[{"ts_offset_ms":-90000,"key":"late","value":1}]}"#,
    r#"{"command":"checkpoint"}"#,
];

/// The preset's session with ten actions, 4 s apart, then run 3 s on.
fn session_with_actions(sc: &crate::engine::scenario::schema::Scenario) -> Session {
    let mut s = Session::new(sc.clone()).expect("presets build");
    let mut issued = 0;
    for a in ACTIONS {
        if issued == 10 {
            break;
        }
        s.run_for(4_000, &mut ()).unwrap();
        let cmd = crate::engine::error::read(a).unwrap();
        if s.apply(cmd).is_ok() {
            issued += 1;
        }
    }
    s.run_for(3_000, &mut ()).unwrap();
    s
}

fn state_of(s: &Session, preset: &str, scenario: Option<serde_json::Value>) -> LinkState {
    LinkState {
        preset: Some(preset.to_string()),
        scenario,
        commands: s.log().to_vec(),
        at_ms: s.elapsed(),
        speed: Some(10.0),
        playing: true,
        selection: Some("w:0:sensor-12:10000:20000".into()),
        zoom: Some("30000:120000".into()),
    }
}

/// The session a decoded state describes, run to its position.
fn replayed(st: &LinkState) -> Session {
    let sc = match &st.scenario {
        Some(v) => build::parse(&v.to_string()).unwrap(),
        None => build::parse(catalog::preset(st.preset.as_deref().unwrap()).unwrap().json).unwrap(),
    };
    let mut s = Session::new(sc).unwrap();
    s.replay(&st.commands, st.at_ms, &mut ()).unwrap();
    s
}

/// A link made before issued commands were refused on a removed partition (the page's WHY
/// panel offered "Silence producers" for one) still replays: its log is checked as replayed,
/// and a second removal, a silence or a producer of the removed partition does nothing, as it
/// did then.
#[test]
fn a_links_commands_on_a_removed_partition_still_replay() {
    let sc = build::parse(catalog::preset("bound-too-large").unwrap().json).unwrap();
    let cmd = |at_ms, c: &str| TimedCommand { at_ms, command: crate::engine::error::read(c).unwrap() };
    let commands = vec![
        cmd(1_000, r#"{"command":"remove_partition","partition":1}"#),
        cmd(2_000, r#"{"command":"remove_partition","partition":1}"#),
        cmd(3_000, r#"{"command":"silence","partition":1}"#),
        cmd(4_000, r#"{"command":"attach_producer","producer":{"partitions":[0,1],"kind":"steady","rate_per_s":10}}"#),
    ];
    let mut s = Session::new(sc.clone()).unwrap();
    s.replay(&commands, 5_000, &mut ()).expect("a link's log replays");
    assert_eq!(s.log(), &commands[..]);
    // Issued now, the same commands are refused.
    let mut live = Session::new(sc).unwrap();
    live.run_for(1_500, &mut ()).unwrap();
    live.apply(commands[0].command.clone()).unwrap();
    let e = live.apply(commands[1].command.clone()).unwrap_err();
    assert_eq!((e.path.as_str(), e.message.as_str()), ("partition", "partition 1 was removed"));
    assert_eq!(live.apply(commands[2].command.clone()).unwrap_err().message, "partition 1 was removed");
    let e = live.apply(commands[3].command.clone()).unwrap_err();
    assert_eq!((e.path.as_str(), e.message.as_str()), ("producer.partitions", "partition 1 was removed"));
    // "all" still covers the removed partition, where its producer writes nothing.
    live.apply(
        crate::engine::error::read(r#"{"command":"attach_producer","producer":{"partitions":"all","kind":"steady","rate_per_s":10}}"#)
            .unwrap(),
    )
    .expect("\"all\" names no partition");
}

/// Room for the page's address before `#s=` (`https://…/watermark-playground/`).
const ADDRESS: usize = 100;

#[test]
fn every_preset_with_ten_actions_round_trips_under_2000_characters() {
    for p in catalog::presets() {
        let sc = build::parse(p.json).unwrap();
        let s = session_with_actions(&sc);
        assert!(s.issued() >= 8, "{}: only {} actions applied", p.id, s.issued());
        let st = state_of(&s, p.id, None);
        let link = st.encode();
        assert!(ADDRESS + 3 + link.len() < 2000, "{}: {} characters", p.id, link.len());
        let back = LinkState::decode(&link).unwrap();
        assert_eq!(back, st, "{}", p.id);
        let r = replayed(&back);
        assert_eq!(r.sim().trace().hash_hex(), s.sim().trace().hash_hex(), "{}: trace hash", p.id);
        assert_eq!(r.elapsed(), s.elapsed(), "{}", p.id);
    }
}

#[test]
fn a_changed_scenario_travels_whole_and_still_fits() {
    for p in catalog::presets() {
        let mut sc = build::parse(p.json).unwrap();
        sc.duration_ms += 1_000;
        sc.name = format!("{} (changed)", sc.name);
        let s = session_with_actions(&sc);
        let st = state_of(&s, p.id, Some(serde_json::to_value(&sc).unwrap()));
        let link = st.encode();
        assert!(ADDRESS + 3 + link.len() < 2000, "{}: {} characters", p.id, link.len());
        let r = replayed(&LinkState::decode(&link).unwrap());
        assert_eq!(r.sim().trace().hash_hex(), s.sim().trace().hash_hex(), "{}", p.id);
    }
}

#[test]
fn an_untouched_preset_is_a_short_link() {
    let st = LinkState { preset: Some(catalog::presets()[0].id.into()), at_ms: -1, ..LinkState::default() };
    let link = st.encode();
    assert!(link.starts_with("2.") && link.len() < 80, "{link}");
    assert_eq!(LinkState::decode(&link).unwrap(), st);
}

fn err(link: &str) -> String {
    LinkState::decode(link).map(|_| ()).unwrap_err().message
}

fn packed(json: &[u8]) -> String {
    format!("2.{}", share::base64url(&miniz_oxide::deflate::compress_to_vec(json, 6)))
}

#[test]
fn other_versions_and_garbage_are_named() {
    assert!(err("3.abcd").contains("version 3"), "{}", err("3.abcd"));
    assert!(err("hello").contains("version"), "{}", err("hello"));
    assert!(err("2.@@@@").contains("invalid character"), "{}", err("2.@@@@"));
    assert!(err("2.AAAA").contains("cut off or changed on the way"), "{}", err("2.AAAA"));
    assert!(err(&packed(b"{\"p\":\"x\",\"zz\":1}")).contains("not one this playground wrote"));
    assert!(err(&packed(b"{}")).contains("no preset"));
}

#[test]
fn a_huge_link_is_refused_before_decoding() {
    let huge = format!("2.{}", "A".repeat(1 << 20));
    assert!(err(&huge).contains("too long"), "{}", err(&huge));
}

#[test]
fn a_deflate_bomb_is_refused_not_inflated() {
    // 64 MB of spaces deflate to about 64 KB: under the length cap, over the inflate cap.
    let bomb = packed(&vec![b' '; 64 << 20]);
    assert!(bomb.len() < MAX_ENCODED, "{}", bomb.len());
    assert!(err(&bomb).contains("more than 1024 KB"), "{}", err(&bomb));
}

#[test]
fn deep_nesting_is_refused_before_parsing() {
    let deep = format!("{{\"p\":\"x\",\"sc\":{}{}}}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(err(&packed(deep.as_bytes())).contains("nested more than"), "{}", err(&packed(deep.as_bytes())));
    // Brackets inside strings are text, not nesting.
    let texty = format!("{{\"p\":\"{}\"}}", "[".repeat(300));
    assert!(check_depth(&texty, "s").is_ok());
}

#[test]
fn positions_speeds_and_long_texts_are_bounded() {
    let p = catalog::presets()[0].id;
    let base = LinkState { preset: Some(p.into()), ..LinkState::default() };
    let far = LinkState { at_ms: i64::MAX, ..base.clone() };
    assert!(err(&far.encode()).contains("past the longest run"), "{}", err(&far.encode()));
    let before = LinkState { at_ms: -5, ..base.clone() };
    assert!(err(&before.encode()).contains("the position -5 ms is before the start"));
    assert!(LinkState::decode(&LinkState { at_ms: -1, ..base.clone() }.encode()).is_ok(), "-1 is the start");
    let nan = LinkState { speed: Some(-1.0), ..base.clone() };
    assert!(err(&nan.encode()).contains("speed"));
    let long = LinkState { selection: Some("<script>".repeat(100)), ..base.clone() };
    assert!(err(&long.encode()).contains("longer than"));
}

#[test]
fn a_position_that_would_keep_the_page_busy_is_refused() {
    // Seed 001 (34 partitions) for an hour is about 10^8 operations: fine; for a day, not.
    let sc = build::parse(catalog::preset("seed-001-heartbeat").unwrap().json).unwrap();
    let mut s = Session::new(sc.clone()).unwrap();
    let e = s.replay(&[], 86_400_000, &mut ()).unwrap_err();
    assert!(e.message.contains("a link may ask for at most"), "{e}");
    assert_eq!(s.elapsed(), -1, "nothing ran");
    let mut s = Session::new(sc).unwrap();
    s.replay(&[], 60_000, &mut ()).unwrap();
}

#[test]
fn a_position_over_the_work_budget_is_refused_when_replayed() {
    let sc = build::parse(catalog::presets()[0].json).unwrap();
    let mut s = Session::new(sc).unwrap();
    let e = s.replay(&[], crate::engine::limits::MAX_DURATION_MS, &mut ()).unwrap_err();
    assert!(e.to_string().contains("engine operations"), "{e}");
}
