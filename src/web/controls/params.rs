//! Watermark strategy and window parameters, with field-level validation.

use super::field::*;
use crate::engine::command::{Command, Param};
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::sink::SinkMode;
use crate::engine::source::generator::GeneratorKind;
use crate::engine::source::timestamp::TimestampAssigner;
use crate::web::actions::assigner_label;
use crate::web::format::{dur_input, opt_dur_input, parse_duration, parse_opt_duration};
use crate::web::state::Pg;
use leptos::prelude::*;

fn set(pg: Pg, p: Param) -> Result<(), String> {
    pg.apply(Command::SetParam { param: p }).map_err(|e| e.message)
}

fn bound_of(g: GeneratorKind) -> Option<i64> {
    match g {
        GeneratorKind::BoundedOutOfOrderness { bound_ms } | GeneratorKind::MaxOnSilence { bound_ms, .. } => Some(bound_ms),
        _ => None,
    }
}

#[component]
pub fn StrategyControls() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let generator = move || pg.cfg.with(|c| c.source.generator);
    let gen_kind = move || match generator() {
        GeneratorKind::BoundedOutOfOrderness { .. } => "bounded",
        GeneratorKind::Monotonous => "monotonous",
        GeneratorKind::NoWatermarks => "none",
        GeneratorKind::MaxOnSilence { .. } => "max_on_silence",
    };
    let on_gen = move |ev: leptos::ev::Event| {
        let b = bound_of(generator()).unwrap_or(0);
        let g = match event_target_value(&ev).as_str() {
            "monotonous" => GeneratorKind::Monotonous,
            "none" => GeneratorKind::NoWatermarks,
            "max_on_silence" => GeneratorKind::MaxOnSilence { bound_ms: b, silence_ms: 60_000 },
            _ => GeneratorKind::BoundedOutOfOrderness { bound_ms: b },
        };
        if let Err(e) = set(pg, Param::Generator(g)) {
            pg.error(e);
        }
    };
    let assigner = move || pg.cfg.with(|c| c.source.assigner);
    let on_assigner = move |ev: leptos::ev::Event| {
        let a = match event_target_value(&ev).as_str() {
            "broker_time" => TimestampAssigner::BrokerTime,
            "seconds_as_millis" => TimestampAssigner::SecondsAsMillis,
            "millis_as_seconds" => TimestampAssigner::MillisAsSeconds,
            _ => TimestampAssigner::EventField,
        };
        if let Err(e) = pg.restart_with(|sc| sc.source.timestamp_assigner = a) {
            pg.error(format!("{e}"));
        } else {
            pg.info(format!("Timestamp assigner: {} (restarted)", assigner_label(a)));
        }
    };
    let drop_hb = move || pg.cfg.with(|c| c.source.transform.drop_heartbeats);
    view! {
        <section class="ctl-group" aria-labelledby="ctl-strategy">
            <h3 id="ctl-strategy">"Watermark strategy"</h3>
            <div class="field">
                <label for="f-generator">"generator"</label>
                <select id="f-generator" prop:value=gen_kind on:change=on_gen>
                    <option value="bounded">"forBoundedOutOfOrderness"</option>
                    <option value="monotonous">"forMonotonousTimestamps"</option>
                    <option value="none">"noWatermarks"</option>
                    <option value="max_on_silence">"custom: MAX when silent (wrong)"</option>
                </select>
                <small class="field-msg"></small>
            </div>
            <Field label="out-of-orderness bound" id="f-bound" hint="e.g. 5 s"
                value=Signal::derive(move || bound_of(generator()).map_or("n/a".into(), dur_input))
                disabled=Signal::derive(move || bound_of(generator()).is_none())
                validate=v_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::BoundMs(parse_duration(&t)?))) />
            <Field label="idle timeout (withIdleness)" id="f-idle" hint="off, or e.g. 60 s"
                value=Signal::derive(move || opt_dur_input(pg.cfg.with(|c| c.source.idle_timeout_ms)))
                validate=v_opt_positive_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::IdleTimeoutMs(parse_opt_duration(&t)?))) />
            <Field label="auto-watermark interval" id="f-interval" hint="200 ms; 0 disables"
                value=Signal::derive(move || dur_input(pg.cfg.with(|c| c.auto_watermark_interval_ms)))
                validate=v_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::AutoWatermarkIntervalMs(parse_duration(&t)?))) />
            <Field label="clamp timestamps to now +" id="f-clamp" hint="off, or e.g. 0"
                value=Signal::derive(move || opt_dur_input(pg.cfg.with(|c| c.source.transform.max_future_skew_ms)))
                validate=v_opt_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::MaxFutureSkewMs(parse_opt_duration(&t)?))) />
            <label class="check">
                <input type="checkbox" id="f-drop-hb" prop:checked=drop_hb
                    on:change=move |ev| { if let Err(e) = set(pg, Param::DropHeartbeats(event_target_checked(&ev))) { pg.error(e) } } />
                "filter heartbeat records before the generator"
            </label>
            <div class="field">
                <label for="f-assigner">"timestamp assigner ↻"</label>
                <select id="f-assigner" on:change=on_assigner prop:value=move || match assigner() {
                    TimestampAssigner::EventField => "event_field",
                    TimestampAssigner::BrokerTime => "broker_time",
                    TimestampAssigner::SecondsAsMillis => "seconds_as_millis",
                    TimestampAssigner::MillisAsSeconds => "millis_as_seconds",
                }>
                    <option value="event_field">{assigner_label(TimestampAssigner::EventField)}</option>
                    <option value="broker_time">{assigner_label(TimestampAssigner::BrokerTime)}</option>
                    <option value="seconds_as_millis">{assigner_label(TimestampAssigner::SecondsAsMillis)}</option>
                    <option value="millis_as_seconds">{assigner_label(TimestampAssigner::MillisAsSeconds)}</option>
                </select>
                <small class="field-msg">"timestamp-unit mistakes; restarts the job"</small>
            </div>
        </section>
    }
}

#[component]
pub fn WindowControls() -> impl IntoView {
    let pg = expect_context::<Pg>();
    // Drafts for the restart-only window shape.
    let kind = RwSignal::new(String::new());
    let size = RwSignal::new(String::new());
    let slide = RwSignal::new(String::new());
    let gap = RwSignal::new(String::new());
    let agg = RwSignal::new(String::new());
    let err = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        let (w, a) = pg.cfg.with(|c| (c.window, c.aggregate));
        match w {
            WindowSpec::Tumbling { size_ms, .. } => {
                kind.set("tumbling".into());
                size.set(dur_input(size_ms));
                slide.set(dur_input(size_ms / 2));
                gap.set(dur_input(size_ms));
            }
            WindowSpec::Sliding { size_ms, slide_ms, .. } => {
                kind.set("sliding".into());
                size.set(dur_input(size_ms));
                slide.set(dur_input(slide_ms));
                gap.set(dur_input(size_ms));
            }
            WindowSpec::Session { gap_ms } => {
                kind.set("session".into());
                gap.set(dur_input(gap_ms));
                size.set(dur_input(gap_ms));
                slide.set(dur_input(gap_ms / 2));
            }
        }
        agg.set(format!("{a:?}").to_lowercase());
        err.set(None);
    });
    let apply_shape = move |_| {
        let parse = |s: RwSignal<String>, what: &str| parse_duration(&s.get_untracked()).map_err(|e| format!("{what}: {e}"));
        let spec = match kind.get_untracked().as_str() {
            "sliding" => parse(size, "size").and_then(|z| parse(slide, "slide").map(|s| WindowSpec::Sliding { size_ms: z, slide_ms: s, offset_ms: 0 })),
            "session" => parse(gap, "gap").map(|g| WindowSpec::Session { gap_ms: g }),
            _ => parse(size, "size").map(|z| WindowSpec::Tumbling { size_ms: z, offset_ms: 0 }),
        };
        let spec = match spec.and_then(|s| s.validate().map(|_| s).map_err(|(f, m)| format!("{f}: {m}"))) {
            Ok(s) => s,
            Err(e) => return err.set(Some(e)),
        };
        let a = match agg.get_untracked().as_str() {
            "sum" => AggregateKind::Sum,
            "min" => AggregateKind::Min,
            "max" => AggregateKind::Max,
            _ => AggregateKind::Count,
        };
        match pg.restart_with(|sc| {
            sc.window.assigner = spec;
            sc.window.aggregate = a;
        }) {
            Ok(()) => {
                err.set(None);
                pg.info("Window changed (restarted)");
            }
            Err(e) => err.set(Some(format!("{e}"))),
        }
    };
    let sink = move || pg.cfg.with(|c| c.sink);
    let side = move || pg.cfg.with(|c| c.late_side_output);
    let text_input = move |id: &'static str, label: &'static str, sig: RwSignal<String>, shown: Signal<bool>| {
        view! {
            <div class="field" class:hidden=move || !shown.get()>
                <label for=id>{label}</label>
                <input id=id type="text" prop:value=move || sig.get()
                    on:input=move |ev| {
                        let t = event_target_value(&ev);
                        err.set(v_positive_duration(&t).err().map(|e| format!("{label}: {e}")));
                        sig.set(t);
                    } />
            </div>
        }
    };
    view! {
        <section class="ctl-group" aria-labelledby="ctl-window">
            <h3 id="ctl-window">"Windows and sink"</h3>
            <div class="field-row">
                <div class="field">
                    <label for="f-wtype">"window ↻"</label>
                    <select id="f-wtype" prop:value=move || kind.get() on:change=move |ev| kind.set(event_target_value(&ev))>
                        <option value="tumbling">"tumbling"</option>
                        <option value="sliding">"sliding"</option>
                        <option value="session">"session"</option>
                    </select>
                </div>
                {text_input("f-wsize", "size", size, Signal::derive(move || kind.get() != "session"))}
                {text_input("f-wslide", "slide", slide, Signal::derive(move || kind.get() == "sliding"))}
                {text_input("f-wgap", "gap", gap, Signal::derive(move || kind.get() == "session"))}
                <div class="field">
                    <label for="f-agg">"aggregate"</label>
                    <select id="f-agg" prop:value=move || agg.get() on:change=move |ev| agg.set(event_target_value(&ev))>
                        <option value="count">"count"</option>
                        <option value="sum">"sum"</option>
                        <option value="min">"min"</option>
                        <option value="max">"max"</option>
                    </select>
                </div>
            </div>
            <div class="apply-row">
                <button class="btn small" id="btn-apply-window" on:click=apply_shape>"Apply window ↻"</button>
                <small class="field-msg" class:error=move || err.with(|e| e.is_some()) role="alert">{move || err.get().unwrap_or_else(|| "restarts the job from time zero".into())}</small>
            </div>
            <Field label="allowed lateness" id="f-lateness" hint="0, or e.g. 10 s"
                value=Signal::derive(move || dur_input(pg.cfg.with(|c| c.allowed_lateness_ms)))
                validate=v_duration
                on_commit=Callback::new(move |t: String| set(pg, Param::AllowedLatenessMs(parse_duration(&t)?))) />
            <label class="check">
                <input type="checkbox" id="f-side" prop:checked=side
                    on:change=move |ev| { if let Err(e) = set(pg, Param::LateSideOutput(event_target_checked(&ev))) { pg.error(e) } } />
                "late side output (sideOutputLateData)"
            </label>
            <div class="field">
                <label for="f-sink">"sink"</label>
                <select id="f-sink" prop:value=move || { if sink() == SinkMode::Upsert { "upsert" } else { "append" } }
                    on:change=move |ev| {
                        let m = if event_target_value(&ev) == "upsert" { SinkMode::Upsert } else { SinkMode::Append };
                        if let Err(e) = set(pg, Param::SinkMode(m)) { pg.error(e) }
                    }>
                    <option value="append">"append (re-firings are duplicates)"</option>
                    <option value="upsert">"upsert by window key"</option>
                </select>
                <small class="field-msg"></small>
            </div>
        </section>
    }
}
