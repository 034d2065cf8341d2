//! Flow control and version switches (issue 13, `docs/FLOW.md`): the keyed subtasks' capacity
//! (live: `keyed_capacity_per_s`), the idleness clock of the Flink version (restart), and, in
//! one restart group, watermark alignment (`withWatermarkAlignment(group, maxDrift,
//! updateInterval)`) and where the Kafka source starts reading (`OffsetsInitializer`). A refused
//! restart shows the engine's message with the scenario field it names.

use super::field::*;
use crate::engine::alignment::AlignmentParams;
use crate::engine::command::{Command, Param};
use crate::engine::scenario::flink_version::FlinkVersion;
use crate::engine::scenario::schema::{Scenario, StartOffset};
use crate::web::browse_select::browse_showing;
use crate::web::format::{dur_input, parse_duration, parse_int, parse_utc_or_now, thousands, wm_human};
use crate::web::state::Pg;
use crate::web::glyphs::Restarts;
use leptos::prelude::*;

/// `unbounded` (or empty), or records per second.
fn parse_capacity(s: &str) -> Result<Option<u64>, String> {
    match s.trim() {
        "" | "unbounded" | "off" => Ok(None),
        t => parse_int(t, 1, 1_000_000_000).map(|v| Some(v as u64)),
    }
}

fn v_capacity(s: &str) -> Result<(), String> {
    parse_capacity(s).map(|_| ())
}

#[component]
pub fn FlowControls() -> impl IntoView {
    view! {
        <section class="ctl-group" aria-labelledby="ctl-flow">
            <h3 id="ctl-flow">"Flow control and Flink version"</h3>
            <CapacityField />
            <FlinkVersionSelect />
            <RestartGroup />
        </section>
    }
}

/// The capacity field (live): what one keyed subtask processes per second; empty = unbounded.
#[component]
fn CapacityField() -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <Field label="capacity per window/join subtask (records/s)" id="f-capacity" hint="unbounded, or e.g. 5000"
            value=Signal::derive(move || pg.cfg.with(|c| c.flow.keyed_capacity_per_s.map_or("unbounded".into(), |v| v.to_string())))
            validate=v_capacity
            on_commit=Callback::new(move |t: String| {
                pg.apply(Command::SetParam { param: Param::KeyedCapacityPerS(parse_capacity(&t)?) }).map_err(|e| e.message)
            }) />
        <p class="ctl-note small muted">"Beyond it records wait in the channels; a source subtask whose channel is full is back-pressured (live)."</p>
    }
}

/// The Flink release the job runs as: each sets its own switches (restarts the job, so the
/// keys browse and Enter applies). A scenario whose switches match no release shows "custom".
#[component]
fn FlinkVersionSelect() -> impl IntoView {
    let pg = expect_context::<Pg>();
    // The base changes only with a restart, which sets `cfg`.
    let current = Memo::new(move |_| {
        pg.cfg.track();
        pg.base.with_value(|b| FlinkVersion::of(&b.flink).map_or("custom", FlinkVersion::label)).to_string()
    });
    let apply = move |picked: String| {
        let Some(v) = FlinkVersion::ALL.into_iter().find(|v| v.label() == picked) else { return };
        match pg.restart_with(|sc| sc.flink = v.apply_to(&sc.flink)) {
            Ok(()) => pg.info(format!("Flink {}: {} (restarted)", v.label(), v.differs_by())),
            Err(e) => pg.error(format!("{e}")),
        }
    };
    // The release a browse shows: its line says what Enter would change, not what runs.
    let shown = RwSignal::new(None::<String>);
    view! {
        <div class="field">
            <label for="f-flink-version">"Flink version"<Restarts/></label>
            <select id="f-flink-version" aria-describedby="f-flink-version-msg" {..browse_showing(current, shown, apply)} prop:value=current
                title="Arrow keys browse the releases; Enter restarts the job as the one shown">
                {FlinkVersion::ALL.into_iter().map(|v| view! { <option value=v.label()>{v.label()}</option> }).collect_view()}
                <option value="custom" disabled=true>"custom switches"</option>
            </select>
            // Described by it: a screen reader heard "2.3.0" and nothing of what the release changes.
            <small class="field-msg" id="f-flink-version-msg">{move || version_hint(&current.get(), shown.get().as_deref())}</small>
        </div>
    }
}

/// The line under the Flink version select: what the running release changes, or, while a
/// browse shows another, what that one changes and that Enter restarts the job as it.
fn version_hint(running: &str, browsed: Option<&str>) -> String {
    let release = |label: &str| FlinkVersion::ALL.into_iter().find(|v| v.label() == label);
    match browsed.filter(|b| *b != running).and_then(release) {
        Some(v) => format!("{}: {} — Enter restarts the job as {}", v.label(), v.differs_by(), v.label()),
        None => release(running).map_or("The scenario's flink switches match no release.", FlinkVersion::differs_by).to_string(),
    }
}

/// Drafts for the restart-only alignment and start position, and the message under them.
#[derive(Clone, Copy)]
struct FlowDraft {
    aligned: RwSignal<bool>,
    group: RwSignal<String>,
    drift: RwSignal<String>,
    interval: RwSignal<String>,
    start: RwSignal<String>,
    at: RwSignal<String>,
    err: RwSignal<Option<String>>,
}

impl FlowDraft {
    fn new() -> Self {
        let s = || RwSignal::new(String::new());
        FlowDraft { aligned: RwSignal::new(false), group: s(), drift: s(), interval: s(), start: s(), at: s(), err: RwSignal::new(None) }
    }

    /// Resets the drafts to the scenario that runs, which started at `run_start`.
    fn load(self, a: Option<AlignmentParams>, start: &StartOffset, run_start: i64) {
        self.aligned.set(a.is_some());
        let a = a.unwrap_or(AlignmentParams { group: "backfill".into(), max_drift_ms: 20_000, update_interval_ms: 1_000 });
        self.group.set(a.group);
        self.drift.set(dur_input(a.max_drift_ms));
        self.interval.set(dur_input(a.update_interval_ms));
        let (kind, at) = match start {
            StartOffset::Earliest => ("earliest", None),
            StartOffset::Latest => ("latest", None),
            StartOffset::TimestampMs(t) => ("timestamp", Some(*t)),
            StartOffset::Committed(_) => ("committed", None),
        };
        self.start.set(kind.into());
        self.at.set(wm_human(at.unwrap_or(run_start), run_start));
        self.err.set(None);
    }

    /// The drafted alignment (`None`: off), checked as the scenario will check it.
    fn alignment(self) -> Result<Option<AlignmentParams>, String> {
        if !self.aligned.get_untracked() {
            return Ok(None);
        }
        let drift = parse_duration(&self.drift.get_untracked()).map_err(|e| format!("max drift: {e}"))?;
        let interval = parse_duration(&self.interval.get_untracked()).map_err(|e| format!("update interval: {e}"))?;
        Ok(Some(AlignmentParams { group: self.group.get_untracked().trim().to_string(), max_drift_ms: drift, update_interval_ms: interval }))
    }

    /// The drafted start position (committed offsets stay as the scenario has them); a time of
    /// day is on the run's first day, and "now" is its `start`: applying restarts the run, whose
    /// now is then its start (the position it had reached lies in the restarted run's future, so
    /// "now" read nothing for that long).
    fn start_offset(self, current: &StartOffset, start: i64) -> Result<StartOffset, String> {
        Ok(match self.start.get_untracked().as_str() {
            "latest" => StartOffset::Latest,
            "timestamp" => {
                StartOffset::TimestampMs(parse_utc_or_now(&self.at.get_untracked(), start, start).map_err(|e| format!("records from (UTC): {e}"))?)
            }
            "committed" => current.clone(),
            _ => StartOffset::Earliest,
        })
    }

    /// Restarts with the drafted alignment and start position on every source, or says what is
    /// wrong (the engine's message names the scenario field).
    fn apply(self, pg: Pg) {
        let current = pg.base.with_value(|b| b.source.start_offset.clone());
        let drafted = self.alignment().and_then(|a| self.start_offset(&current, pg.start_time()).map(|s| (a, s)));
        let (align, start) = match drafted {
            Ok(d) => d,
            Err(e) => return self.err.set(Some(e)),
        };
        let what = match &align {
            Some(a) => format!("watermark alignment \"{}\", max drift {}", a.group, dur_input(a.max_drift_ms)),
            None => "no watermark alignment".to_string(),
        };
        match pg.restart_with(|sc| set_flow(sc, &align, &start)) {
            Ok(()) => {
                self.err.set(None);
                pg.info(format!("{what}, start offset {} (restarted)", self.start.get_untracked()));
            }
            Err(e) => self.err.set(Some(format!("{e}"))),
        }
    }
}

/// Every source of the scenario gets the alignment and the start position.
fn set_flow(sc: &mut Scenario, align: &Option<AlignmentParams>, start: &StartOffset) {
    sc.source.watermark.alignment = align.clone();
    sc.source.start_offset = start.clone();
    if let Some(second) = &mut sc.second_input {
        second.source.watermark.alignment = align.clone();
        second.source.start_offset = start.clone();
    }
}

/// Watermark alignment on/off with its group, max drift and update interval, and the start
/// position, applied together with a restart.
#[component]
fn RestartGroup() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = FlowDraft::new();
    // The scenario's values, changed only by a restart or a load: the drafts follow them.
    let running = Memo::new(move |_| {
        pg.cfg.track();
        pg.base.with_value(|b| (b.source.watermark.alignment.clone(), b.source.start_offset.clone()))
    });
    Effect::new(move |_| running.with(|(a, start)| d.load(a.clone(), start, pg.start_time())));
    let aligned = d.aligned;
    view! {
        <label class="check">
            <input type="checkbox" id="f-align" prop:checked=move || aligned.get() on:change=move |ev| aligned.set(event_target_checked(&ev)) />
            // One flex item: the ↻ follows the words (on its own it sat at the drawer's edge).
            <span>"watermark alignment (withWatermarkAlignment)"<Restarts said_beside=true/></span>
        </label>
        <div class="field-row" class:hidden=move || !aligned.get()>
            <TextDraft id="f-align-group" label="group" sig=d.group err=d.err check=v_any />
            <TextDraft id="f-align-drift" label="max drift" sig=d.drift err=d.err check=v_duration />
            <TextDraft id="f-align-interval" label="update interval" sig=d.interval err=d.err check=v_positive_duration />
        </div>
        <StartOffsetFields d=d />
        <div class="apply-row">
            <button class="btn small" id="btn-apply-flow" aria-describedby="apply-flow-note" on:click=move |_| d.apply(pg)>"Apply"<span class="sr-only">" alignment and start offset"</span><Restarts said_beside=true/></button>
            <small class="field-msg" id="apply-flow-note" class:error=move || d.err.with(|e| e.is_some())><span role="alert">{move || d.err.get()}</span><span class:sr-only=move || d.err.with(Option::is_some)>" alignment and start offset restart the job from time zero"</span></small>
        </div>
    }
}

/// Where the Kafka source starts: earliest, latest, a timestamp (its field), or the committed
/// group offsets the scenario lists (kept as they are).
#[component]
fn StartOffsetFields(d: FlowDraft) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let start = d.start;
    let committed = Memo::new(move |_| {
        pg.cfg.track();
        pg.base.with_value(|b| match &b.source.start_offset {
            StartOffset::Committed(c) => Some(c.offsets.iter().map(|&o| thousands(o)).collect::<Vec<_>>().join(", ")),
            _ => None,
        })
    });
    view! {
        <div class="field-row">
            <div class="field">
                <label for="f-start">"start offset"<Restarts said_beside=true/></label>
                <select id="f-start" prop:value=move || start.get() on:change=move |ev| start.set(event_target_value(&ev))>
                    <option value="earliest">"earliest()"</option>
                    <option value="latest">"latest()"</option>
                    <option value="timestamp">"timestamp(…)"</option>
                    <option value="committed" disabled=move || committed.with(Option::is_none)>
                        {move || committed.get().map_or("committedOffsets (set in the scenario)".to_string(), |o| format!("committedOffsets ({o})"))}
                    </option>
                </select>
            </div>
            <TextDraft id="f-start-at" label="records from (UTC)" sig=d.at err=d.err check=|t| parse_utc_or_now(t, 0, 0).map(|_| ()) hidden=Signal::derive(move || start.get() != "timestamp") />
        </div>
    }
}

/// A drafted text, checked as typed (the message goes to `err`).
#[component]
fn TextDraft(
    id: &'static str,
    label: &'static str,
    sig: RwSignal<String>,
    err: RwSignal<Option<String>>,
    check: Validate,
    #[prop(optional, into)] hidden: Signal<bool>,
) -> impl IntoView {
    // Outlined as every field with an error is: the group's message names this label.
    let invalid = move || err.with(|e| e.as_ref().is_some_and(|e| e.starts_with(&format!("{label}: "))));
    view! {
        <div class="field" class:hidden=move || hidden.get() class:invalid=invalid>
            <label for=id>{label}</label>
            <input id=id type="text" spellcheck="false" prop:value=move || sig.get()
                aria-invalid=move || invalid().to_string()
                on:input=move |ev| {
                    let t = event_target_value(&ev);
                    err.set(check(&t).err().map(|e| format!("{label}: {e}")));
                    sig.set(t);
                } />
        </div>
    }
}
