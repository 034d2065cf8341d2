//! The playground's state: the engine's [`Session`] (the running `Simulation` and the user's
//! actions as timed commands, checked and recorded exactly as the JS API and `wmp run` do), the
//! scenario it came from, and the reactive pictures of it that the views read (snapshot with
//! its diagnosis, emissions, late records, timeline). Every handle is `Copy`.
//!
//! The engine is only touched here, in `run` (loading, commands, running to a time) and in
//! `playback`; views read signals. `refresh` takes one
//! snapshot per frame (or per action), with the diagnosis of the same instant beside it
//! ([`Reading`]), and updates every picture from them.

mod run;
pub use run::LoadFailure;

use crate::engine::operator::trigger::FiringKind;
use super::graph_flow::FlowRates;
use super::reading::Reading;
use super::timeline_data::TimelineData;
use super::view_pacing::{Due, Pacing};
use crate::engine::diagnosis::DiagnosisOptions;
use crate::engine::job::JobConfig;
use crate::engine::metrics::Metrics;
use crate::engine::scenario::catalog::{self, Preset};
use crate::engine::scenario::schema::{Scenario, TimedCommand};
use crate::engine::deltas::Cursor;
use crate::engine::session::Session;
use crate::engine::snapshot::Snapshot;
use crate::engine::live::to_snapshot::LiveGraph;
use leptos::prelude::*;

/// What the user clicked last; the WHY panel explains it.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    None,
    Operator(u32),
    Source(u32),
    Split(u32),
    Window { subtask: u32, key: String, start: i64, end: i64 },
    /// A window band on the timeline: the window `[start, end)` over every key and subtask.
    WindowRange { start: i64, end: i64 },
}

impl Selection {
    /// The window the timeline marks and its keys step from: a picked band, or a window
    /// explained from the emissions table.
    pub fn window_bounds(&self) -> Option<(i64, i64)> {
        match *self {
            Selection::WindowRange { start, end } | Selection::Window { start, end, .. } => Some((start, end)),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    Error,
    Info,
}

/// A message in the notice area: engine errors (never swallowed) and confirmations.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub id: u64,
    pub kind: NoticeKind,
    pub text: String,
}

/// One window result as the emissions log shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct EmissionRow {
    /// Position in the sink's emission order (stable key).
    pub idx: usize,
    pub time: i64,
    pub subtask: u32,
    pub key: String,
    pub start: i64,
    pub end: i64,
    pub value: i64,
    pub count: u64,
    pub watermark: i64,
    pub firing: u32,
    pub kind: FiringKind,
}

/// One pair an interval join emitted, as the emissions log shows it for a join job.
#[derive(Clone, Debug, PartialEq)]
pub struct JoinRow {
    pub idx: u64,
    pub time: i64,
    pub subtask: u32,
    pub key: String,
    pub left_ts: i64,
    pub right_ts: i64,
    /// The output record's timestamp, `max(left_ts, right_ts)`.
    pub ts: i64,
}

/// One late record as the late panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct LateRow {
    pub idx: u64,
    pub time: i64,
    pub subtask: u32,
    pub partition: u32,
    pub key: String,
    pub ts: i64,
    pub watermark: i64,
    pub side_output: bool,
}

/// Rows kept for the emissions and late tables (the counters stay exact).
pub const TABLE_ROWS: usize = 60;

#[derive(Clone, Copy)]
pub struct Pg {
    /// The simulation and the user's actions since the build (exported with the scenario).
    session: StoredValue<Session, LocalStorage>,
    /// The scenario the session was built from (preset, import, or a restart with changes), as
    /// loaded: the session runs it with a smaller trace ([`runnable`]).
    pub base: StoredValue<Scenario, LocalStorage>,
    pub preset: RwSignal<Option<&'static str>>,
    /// The commands and position of the link state `base` was loaded with ([`Pg::load_source`]):
    /// a later `start-at` replays them, and the same link given again is what runs already.
    loaded_with: StoredValue<(Vec<TimedCommand>, Option<i64>), LocalStorage>,
    /// Bumped by every load of a scenario ([`Pg::load`], [`Pg::load_source`]: a preset, an import, a
    /// link, the JS API's `load`, a lesson step, Reset), not by a restart with a change
    /// ([`Pg::restart_with`]): what a view remembers of the scenario before starts again from
    /// the new one (the generator select's bound and silence).
    pub loads: RwSignal<u64>,
    /// Processing time for the header clock: set with every view refresh, and in between at
    /// most every [`CLOCK_MS`] while playing.
    pub clock: RwSignal<i64>,
    /// The snapshot for the job graph, published at most ~10 times per second while playing.
    pub snap: RwSignal<Snapshot>,
    /// The diagnosis of the instant of `snap`, set with it (the graph's culprit chain).
    pub reading: RwSignal<Reading>,
    /// The same, published at most ~4 times per second while playing (tables, WHY, logs):
    /// text that changes faster cannot be read anyway, and the page stays smooth.
    pub snap_slow: RwSignal<Snapshot>,
    /// The diagnosis of the instant of `snap_slow`, set with it (WHY panel, tables, preset
    /// card, embed line). While paused both pairs are the same instant; while playing they
    /// name the same holder but for a frame (`refresh_frame`).
    pub reading_slow: RwSignal<Reading>,
    /// What the user tells the diagnosis: the tolerated delay and the lag alert threshold.
    pub diag_opts: RwSignal<DiagnosisOptions>,
    pub cfg: RwSignal<JobConfig>,
    pub metrics: RwSignal<Option<Metrics>>,
    pub metrics_open: RwSignal<bool>,
    pub logs: Logs,
    pub timeline: StoredValue<TimelineData, LocalStorage>,
    /// Bumped whenever the timeline data changed (the timeline redraws at most ~15×/s).
    pub timeline_rev: RwSignal<u64>,
    pub selection: RwSignal<Selection>,
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<f64>,
    /// What a lesson in progress leaves to the header (`lesson`).
    pub lesson: RwSignal<super::lesson_steps::LessonMode>,
    pub perf: Perf,
    /// The engine's trace hash with the processing time it was taken at (slow views' rate).
    pub hash: RwSignal<(String, i64)>,
    pub notices: RwSignal<Vec<Notice>>,
    next_notice: StoredValue<u64>,
    /// The notices under the pointer, and the one holding the focus: they do not expire while
    /// read (two sets: a pointer passing over a focused notice must not release it).
    pub held_notices: StoredValue<[Vec<u64>; 2]>,
    /// Where the emissions and late tables stand in the engine's streams.
    seen: StoredValue<Cursor>,
    pub(crate) pacing: StoredValue<Pacing>,
    /// The host page's element and hooks when the UI is not the page (`host`).
    pub host: StoredValue<super::host::Host, LocalStorage>,
    /// A real job drawn with the simulated job's graph and tables (the live card's copy of the
    /// playground, [`Pg::live_view`]); `None` in the playground's own.
    pub live: Option<RwSignal<LiveGraph>>,
}

/// The emissions log and the late-record panel: the newest rows, and the exact counters.
#[derive(Clone, Copy)]
pub struct Logs {
    pub emissions: RwSignal<Vec<EmissionRow>>,
    /// An interval join's pairs (a join job has no window emissions).
    pub joins: RwSignal<Vec<JoinRow>>,
    pub late_rows: RwSignal<Vec<LateRow>>,
    pub duplicates: RwSignal<u64>,
    pub late_dropped: RwSignal<u64>,
    pub late_side: RwSignal<u64>,
}

/// How playback keeps up, for the header.
#[derive(Clone, Copy)]
pub struct Perf {
    /// While the engine cannot keep up: the speed actually reached.
    pub catching_up: RwSignal<Option<f64>>,
    pub fps: RwSignal<f64>,
    pub frame_ms: RwSignal<f64>,
}

/// The page's monotonic clock, in ms.
pub fn perf_now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

fn runnable(sc: &Scenario) -> Scenario {
    Scenario { trace: sc.trace.in_page(), ..sc.clone() }
}

impl Pg {
    /// A playground on the first preset.
    pub fn new() -> Self {
        let first = &catalog::presets()[0];
        let super::embed_options::Source { scenario: sc, preset, .. } = super::embed_options::first_source();
        let session = Session::new(runnable(&sc)).expect("presets build");
        let snap = session.sim().snapshot();
        let reading = Reading::take(session.sim(), &DiagnosisOptions::default(), None);
        let cfg = session.sim().config().clone();
        let start = cfg.start_time;
        let pg = Pg {
            session: StoredValue::new_local(session),
            base: StoredValue::new_local(sc),
            preset: RwSignal::new(preset),
            loaded_with: StoredValue::new_local((Vec::new(), None)),
            loads: RwSignal::new(0),
            clock: RwSignal::new(snap.now.ms()),
            snap_slow: RwSignal::new(snap.clone()),
            snap: RwSignal::new(snap),
            reading_slow: RwSignal::new(reading.clone()),
            reading: RwSignal::new(reading),
            diag_opts: RwSignal::new(DiagnosisOptions::default()),
            cfg: RwSignal::new(cfg),
            metrics: RwSignal::new(None),
            metrics_open: RwSignal::new(false),
            logs: Logs {
                emissions: RwSignal::new(Vec::new()),
                joins: RwSignal::new(Vec::new()),
                late_rows: RwSignal::new(Vec::new()),
                duplicates: RwSignal::new(0),
                late_dropped: RwSignal::new(0),
                late_side: RwSignal::new(0),
            },
            timeline: StoredValue::new_local(TimelineData::new(start.ms())),
            timeline_rev: RwSignal::new(0),
            selection: RwSignal::new(Selection::None),
            playing: RwSignal::new(false),
            speed: RwSignal::new(first.speed),
            lesson: RwSignal::new(Default::default()),
            perf: Perf { catching_up: RwSignal::new(None), fps: RwSignal::new(0.0), frame_ms: RwSignal::new(0.0) },
            hash: RwSignal::new((String::new(), 0)),
            notices: RwSignal::new(Vec::new()),
            next_notice: StoredValue::new(0),
            held_notices: StoredValue::new([Vec::new(), Vec::new()]),
            seen: StoredValue::new(Cursor::default()),
            pacing: StoredValue::new(Pacing::default()),
            host: StoredValue::new_local(Default::default()),
            live: None,
        };
        pg.refresh();
        pg
    }

    /// A copy of the playground whose graph and tables show the real job `live` instead of the
    /// simulation: its own snapshot (set from `live`), selection and a playback that never
    /// plays; the views check `live` before they read the simulation or change it.
    pub fn live_view(&self, live: RwSignal<LiveGraph>) -> Pg {
        let snap = RwSignal::new(live.with_untracked(|g| g.snapshot.clone()));
        Effect::new(move |_| live.with(|g| snap.set(g.snapshot.clone())));
        Pg { snap, snap_slow: snap, selection: RwSignal::new(Selection::None), playing: RwSignal::new(false), live: Some(live), ..*self }
    }

    /// Reads the back-pressure and busy rates the graph's flow marks show: the reading's, or
    /// the real job's last poll in the live card's copy.
    pub fn with_flow<R>(&self, f: impl FnOnce(&FlowRates) -> R) -> R {
        match self.live {
            Some(l) => l.with(|g| f(&FlowRates::of_live(g))),
            None => self.reading.with(|r| f(&r.flow)),
        }
    }

    /// An element id, prefixed `live-` in the live card's copy (the page has both).
    pub fn dom_id(&self, id: &str) -> String {
        if self.live.is_some() {
            format!("live-{id}")
        } else {
            id.to_string()
        }
    }

    /// The preset currently loaded, if the scenario came from one.
    pub fn current_preset(&self) -> Option<&'static Preset> {
        self.preset.get_untracked().and_then(catalog::preset)
    }

    pub fn now(&self) -> i64 {
        self.with_sim(|s| s.now().max(s.config().start_time).ms())
    }

    pub fn start_time(&self) -> i64 {
        self.with_sim(|s| s.config().start_time.ms())
    }

    /// The window subtask the user chose to explain, if any (else the WHY panel explains the
    /// slowest one, the diagnosis' own).
    pub fn selected_operator(&self) -> Option<u32> {
        match self.selection.get_untracked() {
            Selection::Operator(o) => Some(o),
            Selection::Window { subtask, .. } => Some(subtask),
            _ => None,
        }
    }

    /// The diagnosis of the simulation as it is now (with the selected subtask's explanation).
    fn read(&self) -> Reading {
        let opts = self.diag_opts.get_untracked();
        let selected = self.selected_operator();
        self.with_sim(|s| Reading::take(s, &opts, selected))
    }

    /// Changes what the user tells the diagnosis, and reads it again at once.
    pub fn set_diag_opts(&self, change: impl FnOnce(&mut DiagnosisOptions)) {
        self.diag_opts.update(change);
        self.refresh();
    }

    /// Takes a fresh picture of the engine and updates every view's signal.
    pub fn refresh(&self) {
        self.refresh_views(Some(true));
        self.notify_advanced();
    }

    /// The per-frame refresh while playing: which views this frame refreshes is
    /// [`Pacing::due`]'s rule (`view_pacing`); whether the graph and the slow views now name
    /// different verdicts goes back to it.
    pub fn refresh_frame(&self) {
        let t = perf_now();
        let mut at = self.pacing.get_value();
        let due = at.due(t);
        let apart = match due {
            Due::SlowViews => self.refresh_views(Some(false)),
            Due::Timeline => {
                self.take_snapshot();
                self.timeline_rev.update(|r| *r += 1);
                false
            }
            Due::Graph => self.refresh_views(None),
            Due::Clock => {
                self.clock.set(self.now());
                false
            }
            Due::Nothing => return,
        };
        at.done(due, t, apart);
        self.pacing.set_value(at);
    }

    /// A snapshot of the engine, with the clock and the timeline's series brought up to it.
    fn take_snapshot(&self) -> Snapshot {
        let snap = self.with_sim(|s| s.snapshot());
        self.clock.set(snap.now.ms());
        self.timeline.update_value(|t| t.record(&snap));
        snap
    }

    /// `None`: the graph only; `Some(with_graph)`: the slow views (and the graph too). `true`
    /// when only one of the two was refreshed and its verdict is not the other's any more.
    fn refresh_views(&self, slow: Option<bool>) -> bool {
        let snap = self.take_snapshot();
        // The diagnosis of the same instant, published with the snapshot it explains.
        let reading = self.read();
        let Some(with_graph) = slow else {
            let apart = self.reading_slow.with_untracked(|r| !r.same_verdict(&reading));
            self.snap.set(snap);
            self.reading.set(reading);
            return apart;
        };
        self.read_new_windows();
        self.read_new_joins();
        self.read_new_late();
        if with_graph {
            self.timeline_rev.update(|r| *r += 1);
        }
        // Scripted commands change settings while the job runs: keep the controls in step.
        let cfg_changed = self.with_sim(|s| self.cfg.with_untracked(|c| c != s.config()));
        if cfg_changed {
            self.cfg.set(self.with_sim(|s| s.config().clone()));
        }
        let apart = !with_graph && self.reading.with_untracked(|r| !r.same_verdict(&reading));
        if with_graph {
            self.snap.set(snap.clone());
            self.reading.set(reading.clone());
        }
        self.hash.set((snap.trace_hash.clone(), snap.now.ms()));
        self.snap_slow.set(snap);
        self.reading_slow.set(reading);
        if self.metrics_open.get_untracked() {
            self.metrics.set(Some(self.with_sim(|s| s.metrics())));
        }
        apart
    }

    /// New window results since the last look: the newest rows for the log, the duplicate
    /// count (the timeline reads every firing after each instant, `TimelineData::observe`).
    fn read_new_windows(&self) {
        let mut cursor = self.seen.get_value();
        let rows = self.with_sim(|s| {
            let agg = s.config().aggregate;
            let new: Vec<_> = cursor.read_windows(s).collect();
            let rows: Vec<EmissionRow> = new[new.len().saturating_sub(TABLE_ROWS)..]
                .iter()
                .map(|&(i, r)| EmissionRow {
                    idx: i,
                    time: r.time.ms(),
                    subtask: r.subtask,
                    key: s.keys().name(r.key).to_string(),
                    start: r.start.ms(),
                    end: r.end.ms(),
                    value: r.agg.value(agg),
                    count: r.agg.count,
                    watermark: r.watermark.ms(),
                    firing: r.firing,
                    kind: r.kind,
                })
                .collect();
            rows
        });
        if cursor == self.seen.get_value() {
            return;
        }
        self.seen.set_value(cursor);
        let dups = self.with_sim(|s| s.config().cluster.scaled(s.downstream().sink.duplicates() as u64));
        if dups != self.logs.duplicates.get_untracked() {
            self.logs.duplicates.set(dups);
        }
        self.logs.emissions.update(|list| prepend(list, rows));
    }

    /// New pairs of an interval join since the last look: the newest rows for the log.
    fn read_new_joins(&self) {
        let mut cursor = self.seen.get_value();
        let rows: Vec<JoinRow> = self.with_sim(|s| {
            let new: Vec<_> = cursor.read_joins(s).collect();
            new[new.len().saturating_sub(TABLE_ROWS)..]
                .iter()
                .map(|&(idx, r)| JoinRow {
                    idx,
                    time: r.time.ms(),
                    subtask: r.subtask,
                    key: s.keys().name(r.key).to_string(),
                    left_ts: r.left_ts.ms(),
                    right_ts: r.right_ts.ms(),
                    ts: r.ts.ms(),
                })
                .collect()
        });
        if cursor == self.seen.get_value() {
            return;
        }
        self.seen.set_value(cursor);
        self.logs.joins.update(|list| prepend(list, rows));
    }

    /// New late records since the last look: rows for the panel and the timeline, the counters.
    fn read_new_late(&self) {
        let mut cursor = self.seen.get_value();
        let rows: Vec<LateRow> = self.with_sim(|s| {
            cursor
                .read_late(s)
                .map(|(idx, l)| LateRow {
                    idx,
                    time: l.time.ms(),
                    subtask: l.subtask,
                    partition: l.partition,
                    key: s.keys().name(l.key).to_string(),
                    ts: l.ts.ms(),
                    watermark: l.watermark.ms(),
                    side_output: l.side_output,
                })
                .collect()
        });
        if cursor == self.seen.get_value() {
            return;
        }
        self.seen.set_value(cursor);
        self.timeline.update_value(|t| t.add_late(rows.iter().map(|r| (r.time, r.ts, r.side_output))));
        self.logs.late_rows.update(|list| prepend(list, rows));
        let (d, so) = self.with_sim(|s| s.downstream().late_counts());
        self.logs.late_dropped.set(d);
        self.logs.late_side.set(so);
    }

    fn notice(&self, kind: NoticeKind, text: String) {
        let id = self.next_notice.get_value();
        self.next_notice.set_value(id + 1);
        self.notices.update(|n| {
            n.push(Notice { id, kind, text });
            if n.len() > 4 {
                n.remove(0);
            }
        });
        if kind == NoticeKind::Info {
            self.expire_later(id, 4000);
        }
    }

    /// Drops a confirmation after `ms`, or later while it is read (pointed at or focused: it
    /// vanished under the pointer, and the focus on its Dismiss button fell to the page).
    fn expire_later(&self, id: u64, ms: u64) {
        let pg = *self;
        set_timeout(
            move || {
                let shown = pg.notices.try_with_untracked(|n| n.iter().any(|x| x.id == id)) == Some(true);
                let held = pg.held_notices.try_with_value(|h| h.iter().any(|set| set.contains(&id))) == Some(true);
                if shown && held {
                    pg.expire_later(id, 1500);
                } else {
                    pg.dismiss(id);
                }
            },
            std::time::Duration::from_millis(ms),
        );
    }

    /// Marks a notice pointed at (`by_focus` false) or focused, or no longer.
    pub fn hold_notice(&self, id: u64, by_focus: bool, held: bool) {
        self.held_notices.try_update_value(|h| {
            let set = &mut h[usize::from(by_focus)];
            set.retain(|&x| x != id);
            if held {
                set.push(id);
            }
        });
    }

    /// Shows an error (engine errors are never swallowed).
    pub fn error(&self, text: impl Into<String>) {
        let text = text.into();
        web_sys::console::error_1(&text.clone().into());
        self.notice(NoticeKind::Error, text);
    }

    pub fn info(&self, text: impl Into<String>) {
        self.notice(NoticeKind::Info, text.into());
    }

    /// Drops the ✓ notices that `of` recognizes: the SQL panel's error would stand beside its
    /// last "applied" (others, a kill's or a fix's, stay true).
    pub fn clear_confirmations(&self, of: impl Fn(&str) -> bool) {
        let mine = |x: &Notice| x.kind == NoticeKind::Info && of(&x.text);
        if self.notices.with_untracked(|n| n.iter().any(mine)) {
            self.notices.update(|n| n.retain(|x| !mine(x)));
        }
    }

    pub fn dismiss(&self, id: u64) {
        self.held_notices.try_update_value(|h| h.iter_mut().for_each(|set| set.retain(|&x| x != id)));
        self.notices.try_update(|n| n.retain(|x| x.id != id));
    }
}

/// Puts `rows` (oldest first) on top of a newest-first table of at most [`TABLE_ROWS`].
fn prepend<T>(list: &mut Vec<T>, rows: Vec<T>) {
    let skip = rows.len().saturating_sub(TABLE_ROWS);
    for r in rows.into_iter().skip(skip) {
        list.insert(0, r);
    }
    list.truncate(TABLE_ROWS);
}

impl Default for Pg {
    fn default() -> Self {
        Self::new()
    }
}
