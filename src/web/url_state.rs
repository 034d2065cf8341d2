//! The address bar follows the session: at commit moments — a load, play or pause, an action,
//! a setting, a new selection, the end of a zoom or pan, a speed change — the page's state is
//! written as `#s=2.…` ([`LinkState`]) with `history.replaceState` (no history entry per
//! change). While playing only play/pause, speed, selection and zoom commit, never a frame. A
//! change is written a short moment after the last one, so that a drag or a burst of clicks is
//! one write. Opening such a link (a reload, a shared link) loads the scenario, issues the
//! commands at their times, runs to the position within the work budget and restores the
//! speed, selection and zoom: the same trace hash and the same view.

use super::query;
use super::embed_options::{decode_link, link_source};
use super::state::{LoadFailure, Pg, Selection};
use crate::engine::scenario::{build, catalog};
use crate::engine::session::link_state::LinkState;
use leptos::prelude::*;
use std::time::Duration;

/// How long after the last change the address is written.
const SETTLE: Duration = Duration::from_millis(250);

/// The timeline's zoom and pan, shared with the address: `span` and `end` of processing time
/// (None: everything since the start / follow the present).
#[derive(Clone, Copy)]
pub struct TimelineZoom {
    pub span: RwSignal<Option<i64>>,
    pub end: RwSignal<Option<i64>>,
}

impl TimelineZoom {
    /// The page's zoom (one per page), or a zoom of its own for a timeline outside `App`.
    pub fn of_page() -> Self {
        use_context::<TimelineZoom>().unwrap_or_else(|| TimelineZoom { span: RwSignal::new(None), end: RwSignal::new(None) })
    }

    fn text(self) -> Option<String> {
        let (s, e) = (self.span.get_untracked(), self.end.get_untracked());
        (s.is_some() || e.is_some()).then(|| format!("{}:{}", opt(s), opt(e)))
    }

    /// Sets the zoom `text` says (`span:end`, each a number or `-`) on a run over processing
    /// time `start..=end` (its duration, or further when played on); or says why not, and
    /// shows everything, following the present: a view with no time of the run in it is an
    /// empty plot without a word, and the page's zoom before the link is another run's.
    fn set_text(self, text: &str, run: (i64, i64)) -> Result<(), &'static str> {
        let parsed = Self::parse(text, run);
        let (span, end) = *parsed.as_ref().unwrap_or(&(None, None));
        self.span.set(span);
        self.end.set(end);
        parsed.map(|_| ())
    }

    fn parse(text: &str, (start, last): (i64, i64)) -> Result<(Option<i64>, Option<i64>), &'static str> {
        let part = |p: Option<&str>| match p {
            Some("-") => Some(None),
            Some(n) => n.parse::<i64>().ok().map(Some),
            None => None,
        };
        let mut parts = text.split(':');
        let (Some(span), Some(end), None) = (part(parts.next()), part(parts.next()), parts.next()) else {
            return Err("is not one this playground wrote");
        };
        let span = span.map(|s| s.clamp(200, 30 * 86_400_000));
        let drawn = span.unwrap_or((last - start).max(10_000));
        if end.is_some_and(|e| e <= start || e.saturating_sub(drawn) >= last) {
            return Err("shows no time of this run");
        }
        Ok((span, end))
    }
}

fn opt(v: Option<i64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// A selection as a short text: `o3`, `s1`, `p7`, `r0:10000`, `w2:0:10000:key` (the key last,
/// as it may hold `:`).
pub fn selection_text(s: &Selection) -> Option<String> {
    Some(match s {
        Selection::None => return None,
        Selection::Operator(o) => format!("o{o}"),
        Selection::Source(s) => format!("s{s}"),
        Selection::Split(s) => format!("p{s}"),
        Selection::WindowRange { start, end } => format!("r{start}:{end}"),
        Selection::Window { subtask, key, start, end } => format!("w{subtask}:{start}:{end}:{key}"),
    })
}

/// The selection a text names (None when it names none or is damaged).
pub fn selection_of(text: &str) -> Option<Selection> {
    let (kind, rest) = text.split_at_checked(1)?;
    let mut parts = rest.splitn(4, ':');
    let mut int = || parts.next().and_then(|p| p.parse::<i64>().ok());
    let sel = match kind {
        "o" => Selection::Operator(u32::try_from(int()?).ok()?),
        "s" => Selection::Source(u32::try_from(int()?).ok()?),
        "p" => Selection::Split(u32::try_from(int()?).ok()?),
        "r" => Selection::WindowRange { start: int()?, end: int()? },
        "w" => {
            let (subtask, start, end) = (u32::try_from(int()?).ok()?, int()?, int()?);
            Selection::Window { subtask, start, end, key: parts.next()?.to_string() }
        }
        _ => return None,
    };
    Some(sel)
}

/// The page's state now.
pub fn current(pg: &Pg, zoom: TimelineZoom) -> LinkState {
    let preset = pg.preset.get_untracked();
    let unchanged = preset.and_then(catalog::preset).and_then(|p| build::parse(p.json).ok()).is_some_and(|p| pg.base.with_value(|b| *b == p));
    LinkState {
        preset: preset.map(str::to_string),
        scenario: if unchanged { None } else { pg.base.with_value(|b| serde_json::to_value(b).ok()) },
        commands: pg.issued_commands(),
        at_ms: pg.update_session(|s| s.elapsed()),
        speed: Some(pg.speed.get_untracked()),
        playing: pg.playing.get_untracked(),
        selection: selection_text(&pg.selection.get_untracked()),
        zoom: zoom.text(),
    }
}

/// Opens the state in `text` (after `#s=`): the scenario, the commands, the run to the
/// position, then speed, selection, zoom and play; or says in words why not.
pub fn open(pg: &Pg, text: &str) -> Result<(), String> {
    let st = decode_link(text)?;
    let source = link_source(&st)?;
    let (sc, preset) = (source.scenario.clone(), source.preset);
    match pg.load_source(source, None) {
        Ok(()) => {}
        Err(LoadFailure::Scenario(e)) => return Err(format!("This scenario cannot run: {e}.")),
        Err(LoadFailure::Replay(e)) => {
            // The scenario is still worth opening, at its start: not a run halted half-way.
            pg.load(sc, preset).map_err(|e| format!("This scenario cannot run: {e}."))?;
            // Shown, not played behind the dialog (a link pasted while the page played).
            pg.playing.set(false);
            return Err(format!("This link's actions or position cannot be replayed: {e}. Its scenario is open at the start, without them."));
        }
    }
    if let Some(v) = st.speed.filter(|v| *v <= super::playback::MAX_SPEED) {
        pg.speed.set(v);
    }
    pg.refresh();
    // What the view cannot take is said, not dropped without a word; the rest still opens.
    let mut lost = Vec::new();
    let picked = st.selection.as_deref().map(|t| selection_of(t).filter(|sel| names_one(pg, sel)).ok_or(t));
    if let Some(Err(t)) = picked {
        lost.push(format!("its selection “{t}” names nothing in this scenario"));
    }
    pg.selection.set(picked.and_then(Result::ok).unwrap_or(Selection::None));
    let run = pg.timeline.with_value(|d| (d.start, d.last.max(pg.run_end())));
    if let Err(why) = TimelineZoom::of_page().set_text(st.zoom.as_deref().unwrap_or("-:-"), run) {
        lost.push(format!("its zoom “{}” {why}", st.zoom.as_deref().unwrap_or_default()));
    }
    if !lost.is_empty() {
        pg.info(format!("This link opened, but {}: shown without it.", lost.join(", and ")));
    }
    pg.playing.set(st.playing);
    Ok(())
}

/// Whether `sel` names a node of the scenario now open, or a window with an end after its start.
fn names_one(pg: &Pg, sel: &Selection) -> bool {
    pg.snap_slow.with_untracked(|s| match *sel {
        Selection::None => true,
        Selection::Operator(o) => (o as usize) < s.operators.len(),
        Selection::Source(x) => (x as usize) < s.sources.len(),
        Selection::Split(p) => (p as usize) < s.splits.len(),
        Selection::WindowRange { start, end } => start < end,
        Selection::Window { subtask, start, end, .. } => (subtask as usize) < s.operators.len() && start < end,
    })
}

/// Whether this page's address is its own to write: not in lesson mode or an embed, whose
/// addresses say what they are.
fn owns_address() -> bool {
    super::lesson::lesson_param().is_none() && !query::flag(&query::current(), "embed")
}

/// Writes `#s=…` when it differs from the address, without the query's source parameters
/// (`share::SOURCE_PARAMS`): the state says what runs, a `?preset=…` left beside it would name
/// another.
fn write(pg: &Pg, zoom: TimelineZoom) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let hash = format!("#s={}", current(pg, zoom).encode());
    let search = loc.search().unwrap_or_default();
    let start_keys = query::pairs(&search).map(|(k, _)| k).filter(|k| super::share::is_start_at(k));
    let dropped: Vec<&str> = super::share::SOURCE_PARAMS.iter().copied().chain(start_keys).collect();
    let kept = query::rewritten(&search, &dropped, None);
    if loc.hash().ok().as_deref() == Some(hash.as_str()) && kept == search {
        return;
    }
    let url = format!("{}{kept}{hash}", loc.pathname().unwrap_or_default());
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Makes the address follow the page (see the module doc); `zoom` is the page's timeline's.
pub fn follow(pg: Pg, zoom: TimelineZoom) {
    if !owns_address() {
        return;
    }
    let pending = StoredValue::new_local(None::<TimeoutHandle>);
    Effect::new(move |_| {
        // The picture of the run changes with each action, step and pause; while playing it
        // changes every frame and is not a commit moment.
        if !pg.playing.get() {
            pg.hash.track();
        }
        pg.speed.track();
        pg.selection.track();
        pg.preset.track();
        pg.cfg.track();
        zoom.span.track();
        zoom.end.track();
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let h = set_timeout_with_handle(move || write(&pg, zoom), SETTLE).ok();
        pending.set_value(h);
    });
}
