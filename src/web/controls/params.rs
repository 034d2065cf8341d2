//! Watermark strategy and window parameters, with field-level validation.

use super::field::*;
use crate::engine::command::{Command, Param};
use crate::engine::job::JobConfig;
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sink::SinkMode;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::source::generator::GeneratorKind;
use crate::engine::source::timestamp::TimestampAssigner;
use crate::web::actions::assigner_label;
use crate::web::browse_select::browse_then_apply;
use crate::web::format::{dur_input, opt_dur_input, parse_duration, parse_opt_duration};
use crate::web::state::Pg;
use crate::web::glyphs::Restarts;
use leptos::prelude::*;

fn set(pg: Pg, p: Param) -> Result<(), String> {
    pg.apply(Command::SetParam { param: p }).map_err(|e| e.message)
}

/// What the strategy fields act on when the job has more than one source or a watermark
/// operator after the source: the engine's parameters change every source's strategy, and an
/// idle timeout the chained operators' too. Nothing when there is one plain source.
fn scope_note(pg: Pg) -> Option<String> {
    pg.cfg.with(|c| {
        let topics: Vec<&str> = c.inputs.iter().map(|i| i.topic.as_str()).collect();
        let chained = c.inputs.iter().find_map(|i| i.midstream).map(|m| crate::web::graph_chained::flink_name(m.label()));
        let sql = c.inputs.iter().any(|i| i.sql_operator_after());
        match (topics.len() > 1, chained) {
            (false, None) => None,
            (true, None) => Some(format!("These change the strategy of every source ({}).", topics.join(", "))),
            (false, Some(op)) if sql => Some(format!(
                "The source's strategy; the idle timeout is the {op} operator's alone (table.exec.source.idle-timeout: the source before it has no strategy to idle)."
            )),
            (false, Some(op)) => Some(format!(
                "The source's strategy; the idle timeout also sets the {op} operator's own (the one that decides the watermark here)."
            )),
            (true, Some(op)) => Some(format!("These change every source's strategy ({}); the idle timeout also the {op} operators'.", topics.join(", "))),
        }
    })
}

/// The idle timeout the field shows: the source's, or — when SQL's watermark operator decides the
/// watermark — that operator's (`table.exec.source.idle-timeout`; the source has none).
fn shown_idle_timeout(pg: Pg) -> Option<i64> {
    pg.cfg.with(|c| c.first().idle_timeout_ms())
}

#[component]
pub fn StrategyControls() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let generator = move || pg.cfg.with(|c| c.first().source.generator);
    view! {
        <section class="ctl-group" aria-labelledby="ctl-strategy">
            <h3 id="ctl-strategy">"Watermark strategy"</h3>
            {move || scope_note(pg).map(|t| view! { <p class="ctl-note small muted" id="strategy-scope">{t}</p> })}
            <GeneratorSelect />
            <Field label="out-of-orderness bound" id="f-bound" hint="e.g. 5 s"
                value=Signal::derive(move || generator().given_bound_ms().map_or("n/a".into(), dur_input))
                disabled=Signal::derive(move || generator().given_bound_ms().is_none())
                validate=v_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::BoundMs(parse_duration(&t)?))) />
            <Field label="idle timeout (withIdleness)" id="f-idle" hint="off, or e.g. 60 s"
                value=Signal::derive(move || opt_dur_input(shown_idle_timeout(pg)))
                validate=v_opt_positive_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::IdleTimeoutMs(parse_opt_duration(&t)?))) />
            <Field label="auto-watermark interval" id="f-interval" hint="200 ms; 0 disables"
                value=Signal::derive(move || dur_input(pg.cfg.with(|c| c.auto_watermark_interval_ms)))
                validate=v_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::AutoWatermarkIntervalMs(parse_duration(&t)?))) />
            <Field label="clamp timestamps to now +" id="f-clamp" hint="off, or e.g. 0"
                value=Signal::derive(move || opt_dur_input(pg.cfg.with(|c| c.first().source.transform.max_future_skew_ms)))
                validate=v_opt_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::MaxFutureSkewMs(parse_opt_duration(&t)?))) />
            <ParamCheck id="f-drop-hb" label="filter heartbeat records before the generator"
                checked=Signal::derive(move || pg.cfg.with(|c| c.first().source.transform.drop_heartbeats))
                param=Param::DropHeartbeats />
            <AssignerSelect />
        </section>
    }
}

/// The watermark generator (a live parameter; the bound and the silence carry over, also
/// through one that has none, and a restart with a change, not a load of another scenario). The
/// keys browse and Enter applies, as for a restart: when each arrow applied, every generator
/// passed on the way was a command in the exported session and, while the job played, ran until
/// the next key (a watermark it emitted stays).
#[component]
fn GeneratorSelect() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let generator = move || pg.cfg.with(|c| c.first().source.generator);
    // With the load it is of ([`Pg::loads`]).
    let kept = StoredValue::new((pg.loads.get_untracked(), Remembered::loaded(pg)));
    // Every generator that runs, by a pick or a restart: the last bound was lost through
    // monotonous or none, which have none. A load (a preset, an import, a link, Reset) starts
    // from what its scenario has before its commands: the one before's 5 s ran in a job that had
    // none, and a link's switch to monotonous is not the scenario's bound.
    Effect::new(move |_| {
        let load = pg.loads.get();
        let running = generator();
        kept.update_value(|(seen, k)| {
            *k = if *seen == load { k.keep(running) } else { Remembered::loaded(pg) };
            *seen = load;
        });
    });
    let running = Memo::new(move |_| generator_value(generator()).to_string());
    let on_gen = move |picked: String| {
        let Some((_, _, build)) = GENERATORS.iter().find(|(v, _, _)| *v == picked) else { return };
        if let Err(e) = set(pg, Param::Generator(build(kept.get_value().1))) {
            pg.error(e);
        }
    };
    view! {
        <div class="field">
            <label for="f-generator">"generator"</label>
            <select id="f-generator" {..browse_then_apply(running, on_gen)} prop:value=running>
                {GENERATORS.map(|(v, label, _)| view! { <option value=v>{label}</option> }).collect_view()}
            </select>
            <small class="field-msg"></small>
        </div>
    }
}

/// The bound and the silence the generators last ran with, for the next one that takes them.
#[derive(Clone, Copy)]
struct Remembered {
    bound_ms: i64,
    silence_ms: i64,
}

impl Default for Remembered {
    /// The custom generator's silence in its preset.
    fn default() -> Self {
        Remembered { bound_ms: 0, silence_ms: 60_000 }
    }
}

impl Remembered {
    /// What a job has: its source's generator's, else — when the source has none — the bound of
    /// the watermark operator after it (SQL's `INTERVAL`), else the defaults.
    fn of(c: &JobConfig) -> Self {
        let input = c.first();
        let after = match input.midstream {
            Some(MidstreamSpec::TimestampsAndWatermarks { generator, .. }) => Remembered::default().keep(generator),
            Some(MidstreamSpec::SqlWatermarkAssigner { delay_ms, .. }) => Remembered { bound_ms: delay_ms, ..Remembered::default() },
            None => Remembered::default(),
        };
        after.keep(input.source.generator)
    }

    /// What the scenario loaded last has ([`Remembered::of`] its job before its commands), with
    /// what the generator running now carries: a link's commands, or the scenario's own, replayed
    /// to its position may have switched to one without a bound (the job there is bounded(0)).
    fn loaded(pg: Pg) -> Self {
        let scenario = pg.base.with_value(|sc| Remembered::of(&sc.job_config()));
        scenario.keep(pg.cfg.with_untracked(|c| c.first().source.generator))
    }

    /// These with what `g` carries.
    fn keep(self, g: GeneratorKind) -> Self {
        let silence_ms = if let GeneratorKind::MaxOnSilence { silence_ms, .. } = g { silence_ms } else { self.silence_ms };
        Remembered { bound_ms: g.given_bound_ms().unwrap_or(self.bound_ms), silence_ms }
    }
}

/// The generator a pick runs, from what the last ones ran with.
type BuildGenerator = fn(Remembered) -> GeneratorKind;

/// The generators: option value, label, and the generator the pick runs.
const GENERATORS: [(&str, &str, BuildGenerator); 5] = [
    ("bounded", "forBoundedOutOfOrderness", |r| GeneratorKind::BoundedOutOfOrderness { bound_ms: r.bound_ms }),
    ("monotonous", "forMonotonousTimestamps", |_| GeneratorKind::Monotonous),
    ("none", "noWatermarks", |_| GeneratorKind::NoWatermarks),
    ("max_on_silence", "custom: MAX when silent (wrong)", |r| GeneratorKind::MaxOnSilence { bound_ms: r.bound_ms, silence_ms: r.silence_ms }),
    ("sql_bounded", "SQL: ts - INTERVAL (no −1)", |r| GeneratorKind::SqlBounded { delay_ms: r.bound_ms }),
];

/// The generator's option value: the row that builds one of its kind.
fn generator_value(g: GeneratorKind) -> &'static str {
    let kind = std::mem::discriminant(&g);
    GENERATORS.iter().find(|(_, _, build)| std::mem::discriminant(&build(Remembered::default())) == kind).map_or("", |(v, _, _)| v)
}

/// A checkbox for a boolean live parameter.
#[component]
fn ParamCheck(id: &'static str, label: &'static str, checked: Signal<bool>, param: fn(bool) -> Param) -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <label class="check">
            <input type="checkbox" id=id prop:checked=checked
                on:change=move |ev| { if let Err(e) = set(pg, param(event_target_checked(&ev))) { pg.error(e) } } />
            {label}
        </label>
    }
}

/// The timestamp assigners and their option values (the scenario's names for them).
const ASSIGNERS: [(TimestampAssigner, &str); 4] = [
    (TimestampAssigner::EventField, "event_field"),
    (TimestampAssigner::BrokerTime, "broker_time"),
    (TimestampAssigner::SecondsAsMillis, "seconds_as_millis"),
    (TimestampAssigner::MillisAsSeconds, "millis_as_seconds"),
];

/// The timestamp assigner (restarts the job, so the keys browse and Enter applies).
#[component]
fn AssignerSelect() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let running = Memo::new(move |_| {
        let a = pg.cfg.with(|c| c.first().source.assigner);
        ASSIGNERS.iter().find(|(x, _)| *x == a).map_or("", |(_, v)| v).to_string()
    });
    let on_assigner = move |picked: String| {
        let Some(&(a, _)) = ASSIGNERS.iter().find(|(_, v)| *v == picked) else { return };
        // Every source, as the fix's action does: it set the first only, and a union kept its
        // second topic's unit mistake.
        if let Err(e) = pg.restart_with(|sc| crate::web::actions::Action::Assigner(a).change(sc)) {
            pg.error(format!("{e}"));
        } else {
            pg.info(format!("Timestamp assigner: {} (restarted)", assigner_label(a)));
        }
    };
    view! {
        <div class="field">
            <label for="f-assigner">"timestamp assigner"<Restarts/></label>
            <select id="f-assigner" {..browse_then_apply(running, on_assigner)} prop:value=running>
                {ASSIGNERS.map(|(a, v)| view! { <option value=v>{assigner_label(a)}</option> }).collect_view()}
            </select>
            <small class="field-msg">"timestamp-unit mistakes; restarts the job"</small>
        </div>
    }
}

/// Drafts for the restart-only window shape and aggregate, and the message under them.
#[derive(Clone, Copy)]
struct WindowDraft {
    kind: RwSignal<String>,
    size: RwSignal<String>,
    slide: RwSignal<String>,
    gap: RwSignal<String>,
    agg: RwSignal<String>,
    err: RwSignal<Option<String>>,
}

/// A window field as its control is labelled ("size", not the scenario's `size_ms`).
fn field_label(field: &str) -> &str {
    match field {
        "max_size_ms" => "max size",
        f => f.strip_suffix("_ms").unwrap_or(f),
    }
}

impl WindowDraft {
    fn new() -> Self {
        let s = || RwSignal::new(String::new());
        WindowDraft { kind: s(), size: s(), slide: s(), gap: s(), agg: s(), err: RwSignal::new(None) }
    }

    /// Resets the drafts to the running window (the hidden ones to sensible derived values).
    fn load(self, w: WindowSpec, a: AggregateKind) {
        let (kind, size, slide, gap) = match w {
            WindowSpec::Tumbling { size_ms, .. } => ("tumbling", size_ms, size_ms / 2, size_ms),
            WindowSpec::Sliding { size_ms, slide_ms, .. } => ("sliding", size_ms, slide_ms, size_ms),
            WindowSpec::Session { gap_ms } => ("session", gap_ms, gap_ms / 2, gap_ms),
            WindowSpec::Cumulate { step_ms, max_size_ms, .. } => ("cumulate", max_size_ms, step_ms, max_size_ms),
        };
        self.kind.set(kind.into());
        self.size.set(dur_input(size));
        self.slide.set(dur_input(slide));
        self.gap.set(dur_input(gap));
        self.agg.set(format!("{a:?}").to_lowercase());
        self.err.set(None);
    }

    /// The drafted window, validated.
    fn spec(self) -> Result<WindowSpec, String> {
        let parse = |s: RwSignal<String>, what: &str| parse_duration(&s.get_untracked()).map_err(|e| format!("{what}: {e}"));
        let spec = match self.kind.get_untracked().as_str() {
            "sliding" => parse(self.size, "size").and_then(|z| parse(self.slide, "slide").map(|s| WindowSpec::Sliding { size_ms: z, slide_ms: s, offset_ms: 0 })),
            "session" => parse(self.gap, "gap").map(|g| WindowSpec::Session { gap_ms: g }),
            "cumulate" => parse(self.size, "max size")
                .and_then(|z| parse(self.slide, "step").map(|s| WindowSpec::Cumulate { step_ms: s, max_size_ms: z, offset_ms: 0 })),
            _ => parse(self.size, "size").map(|z| WindowSpec::Tumbling { size_ms: z, offset_ms: 0 }),
        };
        spec.and_then(|s| s.validate().map(|_| s).map_err(|(f, m)| format!("{}: {m}", field_label(f))))
    }

    fn aggregate(self) -> AggregateKind {
        match self.agg.get_untracked().as_str() {
            "sum" => AggregateKind::Sum,
            "min" => AggregateKind::Min,
            "max" => AggregateKind::Max,
            _ => AggregateKind::Count,
        }
    }

    /// Restarts the job with the drafted window and aggregate, or says what is wrong.
    fn apply(self, pg: Pg) {
        let spec = match self.spec() {
            Ok(s) => s,
            Err(e) => return self.err.set(Some(e)),
        };
        let a = self.aggregate();
        // CUMULATE exists only as a SQL window TVF: choosing it makes the window a SQL one (the
        // apply failed with the scenario's "set api: sql", which the drawer offers no way to do).
        let sql = matches!(spec, WindowSpec::Cumulate { .. });
        match pg.restart_with(|sc| {
            if let Some(w) = &mut sc.window {
                w.assigner = spec;
                w.aggregate = a;
                if sql {
                    w.api = WindowApi::Sql;
                }
            }
        }) {
            Ok(()) => {
                self.err.set(None);
                pg.info(if sql { "Window changed to a SQL CUMULATE window (restarted)" } else { "Window changed (restarted)" });
            }
            Err(e) => self.err.set(Some(format!("{e}"))),
        }
    }
}

/// The keyed operator's settings: windows (and the sink) or an interval join's, following the
/// job that is loaded.
#[component]
pub fn WindowControls() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let join = Memo::new(move |_| pg.cfg.with(|c| c.interval_join.is_some()));
    move || if join.get() { view! { <JoinControls /> }.into_any() } else { view! { <WindowSection /> }.into_any() }
}

#[component]
fn WindowSection() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = WindowDraft::new();
    Effect::new(move |_| {
        let (w, a) = pg.cfg.with(|c| (c.window, c.aggregate));
        d.load(w, a);
    });
    view! {
        <section class="ctl-group" aria-labelledby="ctl-window">
            <h3 id="ctl-window">"Windows and sink"</h3>
            <WindowShape d=d />
            <div class="apply-row">
                <button class="btn small" id="btn-apply-window" aria-describedby="apply-window-note" on:click=move |_| d.apply(pg)>"Apply window"<Restarts said_beside=true/></button>
                <small class="field-msg" id="apply-window-note" class:error=move || d.err.with(|e| e.is_some())><span role="alert">{move || d.err.get()}</span><span class:sr-only=move || d.err.with(Option::is_some)>" restarts the job from time zero"</span></small>
            </div>
            <Field label="allowed lateness" id="f-lateness" hint="0, or e.g. 10 s"
                value=Signal::derive(move || dur_input(pg.cfg.with(|c| c.allowed_lateness_ms)))
                validate=v_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::AllowedLatenessMs(parse_duration(&t)?))) />
            <ParamCheck id="f-side" label="late side output (sideOutputLateData)"
                checked=Signal::derive(move || pg.cfg.with(|c| c.late_side_output))
                param=Param::LateSideOutput />
            <SinkSelect />
        </section>
    }
}

/// An interval join's settings: the bounds (part of the job's shape: change them in the
/// scenario and import it) and the late side outputs (live).
#[component]
fn JoinControls() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let bounds = move || pg.cfg.with(|c| c.interval_join.map(|b| crate::web::format::join_bounds(&b)).unwrap_or_default());
    view! {
        <section class="ctl-group" aria-labelledby="ctl-window">
            <h3 id="ctl-window">"Interval join"</h3>
            <p class="small" id="join-bounds">"between: right.ts − left.ts in "<b class="mono">{bounds}</b></p>
            <p class="ctl-note small muted">"The bounds are part of the job: change interval_join in the scenario (Export, edit, Import). Windows, allowed lateness and the sink mode do not apply to a join."</p>
            <ParamCheck id="f-side" label="late side outputs (sideOutputLeftLateData / sideOutputRightLateData)"
                checked=Signal::derive(move || pg.cfg.with(|c| c.late_side_output))
                param=Param::LateSideOutput />
        </section>
    }
}

/// The window type, its size/slide/gap (only those the type uses are shown) and the aggregate.
#[component]
fn WindowShape(d: WindowDraft) -> impl IntoView {
    let kind = d.kind;
    view! {
        <div class="field-row">
            <div class="field">
                <label for="f-wtype">"window"<Restarts said_beside=true/></label>
                <select id="f-wtype" prop:value=move || kind.get() on:change=move |ev| kind.set(event_target_value(&ev))>
                    <option value="tumbling">"tumbling"</option>
                    <option value="sliding">"sliding"</option>
                    <option value="session">"session"</option>
                    <option value="cumulate">"cumulate (SQL)"</option>
                </select>
            </div>
            // CUMULATE names them max size and step (Flink SQL's window TVF).
            <DurationDraft id="f-wsize" label=Signal::derive(move || if kind.get() == "cumulate" { "max size" } else { "size" }) sig=d.size err=d.err
                shown=Signal::derive(move || kind.get() != "session") />
            <DurationDraft id="f-wslide" label=Signal::derive(move || if kind.get() == "cumulate" { "step" } else { "slide" }) sig=d.slide err=d.err
                shown=Signal::derive(move || kind.get() == "sliding" || kind.get() == "cumulate") />
            <DurationDraft id="f-wgap" label="gap" sig=d.gap err=d.err shown=Signal::derive(move || kind.get() == "session") />
            <div class="field">
                <label for="f-agg">"aggregate"</label>
                <select id="f-agg" prop:value=move || d.agg.get() on:change=move |ev| d.agg.set(event_target_value(&ev))>
                    <option value="count">"count"</option>
                    <option value="sum">"sum"</option>
                    <option value="min">"min"</option>
                    <option value="max">"max"</option>
                </select>
            </div>
        </div>
    }
}

/// A drafted duration, checked as typed (the message goes to `err`).
#[component]
fn DurationDraft(
    id: &'static str,
    #[prop(into)] label: Signal<&'static str>,
    sig: RwSignal<String>,
    err: RwSignal<Option<String>>,
    shown: Signal<bool>,
) -> impl IntoView {
    view! {
        <div class="field" class:hidden=move || !shown.get()>
            <label for=id>{label}</label>
            <input id=id type="text" prop:value=move || sig.get()
                on:input=move |ev| {
                    let t = event_target_value(&ev);
                    err.set(v_positive_duration(&t).err().map(|e| format!("{}: {e}", label.get_untracked())));
                    sig.set(t);
                } />
        </div>
    }
}

/// The sink mode (append or upsert), a live parameter. The keys browse and Enter applies, as
/// for the generator: a mode passed on the way wrote the results of the time it ran, and was a
/// command in the exported session.
#[component]
fn SinkSelect() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let running = Memo::new(move |_| if pg.cfg.with(|c| c.sink) == SinkMode::Upsert { "upsert" } else { "append" }.to_string());
    let on_sink = move |picked: String| {
        let m = if picked == "upsert" { SinkMode::Upsert } else { SinkMode::Append };
        if let Err(e) = set(pg, Param::SinkMode(m)) {
            pg.error(e)
        }
    };
    view! {
        <div class="field">
            <label for="f-sink">"sink"</label>
            <select id="f-sink" {..browse_then_apply(running, on_sink)} prop:value=running>
                <option value="append">"append (re-firings are duplicates)"</option>
                <option value="upsert">"upsert by window key"</option>
            </select>
            <small class="field-msg"></small>
        </div>
    }
}
