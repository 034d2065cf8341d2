//! The preset picker and the preset card: what to look at, what to try, the preset's
//! suggested steps (`Preset::steps`, in the engine's catalog) as one-click buttons, and a live
//! line with the diagnosis of the moment (the WHY panel's own, so they never disagree).

use super::actions::RunAction;
use super::reading::Reading;
use super::state::Pg;
use crate::engine::scenario::catalog;
use crate::engine::scenario::schema::Scenario;
use leptos::prelude::*;

/// The preset `<select>` in the header: the keys browse, Enter or leaving it loads (each
/// ArrowDown loaded a preset and threw the run away, and End opened a lesson).
#[component]
pub fn PresetPicker() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let hosted = use_context::<super::host::Look>().is_some();
    let shown = Memo::new(move |_| picked(pg));
    view! {
        <label class="preset-picker">
            <span class="sr-only">"Preset scenario"</span>
            <select id="preset" aria-label="Preset scenario" {..super::browse_select::browse_then_apply(shown, move |id| pick(pg, &id))}
                title="Arrow keys browse the presets; Enter loads the one shown"
                prop:value=shown>
                <option value="" disabled=true>"Custom scenario"</option>
                {catalog::presets().iter().enumerate().map(|(i, p)| view! {
                    <option value=p.id>{format!("{}. {}", i + 1, p.title)}</option>
                }).collect_view()}
                // A lesson is a page of its own (`?lesson=`): a hosted playground (an element,
                // `mount()`, an iframe) would take the host page or the frame away to open one.
                {(!hosted).then(|| view! {
                    <optgroup label="Lessons">
                        {super::lesson_steps::lessons().iter().map(|l| view! { <option value=format!("lesson:{}", l.id)>{l.title}</option> }).collect_view()}
                    </optgroup>
                })}
            </select>
        </label>
    }
}

/// Loads what the picker names: a preset (kept playing if it was), or a lesson's page.
fn pick(pg: Pg, id: &str) {
    if id.is_empty() {
        return;
    }
    if let Some(lesson) = id.strip_prefix("lesson:") {
        return super::lesson::open_lesson(lesson);
    }
    // Mid-lesson a preset replaced the step's job under a card still on its step.
    if pg.lesson.get_untracked() != super::lesson_steps::LessonMode::Off {
        return super::lesson::leave_for_preset(id);
    }
    reload(pg, id);
}

/// Loads preset `id` from time zero, kept playing if it was.
fn reload(pg: Pg, id: &str) {
    let playing = pg.playing.get_untracked();
    match pg.load_preset(id) {
        Ok(()) => pg.playing.set(playing),
        Err(e) => pg.error(format!("{e}")),
    }
}

/// What the picker shows: the lesson on a lesson's page (it said "Custom scenario" beside its
/// own "Lesson: …" entry), else the preset, else "Custom scenario".
fn picked(pg: Pg) -> String {
    if pg.lesson.get() != super::lesson_steps::LessonMode::Off {
        if let Some(id) = super::query::value(&super::query::current(), "lesson") {
            return format!("lesson:{id}");
        }
    }
    pg.preset.get().unwrap_or("").to_string()
}

/// Whether the job itself is no longer the preset's (its SQL applied, a restart from Controls or
/// from one of its steps); actions while it runs (the command log) leave it the preset. The
/// card kept telling the preset's story of settings the user had replaced.
/// `preset` is parsed once per card: the memo runs on every change of the job's settings.
fn changed_job(pg: Pg, preset: &mut Scenario) -> bool {
    pg.base.with_value(|b| {
        preset.commands.clone_from(&b.commands);
        preset.trace.clone_from(&b.trace);
        *preset != *b
    })
}

/// The card under the header: the preset's story and its suggested steps.
#[component]
pub fn PresetCard() -> impl IntoView {
    let pg = expect_context::<Pg>();
    // On a short screen (a laptop at 720×420, a phone held sideways) the story starts folded to
    // its first lines, so that the job graph is on the first screen; "more" opens it.
    let short = web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|v| v.as_f64()).is_some_and(|h| h < 560.0);
    let open = RwSignal::new(!short);
    // Only a new preset rebuilds the card: a restart sets the same one again, and rebuilt
    // buttons lost the focus a dismissed notice gives back (a review).
    let preset = Memo::new(move |_| pg.preset.get());
    view! {
        <section class="card preset-card" aria-label="About this scenario">
            {move || match preset.get().and_then(catalog::preset) {
                None => view! {
                    <div class="preset-head">
                        <h2>{move || pg.base.with_value(|b| if b.name.is_empty() { "Custom scenario".to_string() } else { b.name.clone() })}</h2>
                        <p class="muted">{move || { pg.preset.track(); pg.cfg.track(); pg.base.with_value(|b| b.description.clone()) }}</p>
                    </div>
                }.into_any(),
                Some(p) => {
                    let actions = p.steps;
                    let title = NodeRef::<leptos::html::H2>::new();
                    let preset = StoredValue::new_local(crate::engine::scenario::build::parse(p.json).ok());
                    let changed = Memo::new(move |_| {
                        pg.cfg.track();
                        preset.try_update_value(|s| s.as_mut().is_some_and(|s| changed_job(pg, s))).unwrap_or(false)
                    });
                    view! {
                        <div class="preset-head">
                            <h2 tabindex="-1" node_ref=title>{p.title}</h2>
                            <button class="link" on:click=move |_| open.update(|o| *o = !*o)
                                aria-expanded=move || open.get().to_string()>
                                {move || if open.get() { "less" } else { "more" }}
                            </button>
                            // Opened ("less"), the source is whole: on a wide screen it was cut
                            // off in both states, and nothing showed the rest.
                            <span class="muted small source" class:open=move || open.get() title=p.source>{p.source}</span>
                        </div>
                        // "Pick the preset again" did nothing: the picker still shows it, and a
                        // pick of the option shown fires no `change`.
                        <p class="small changed-note" class:hidden=move || !changed.get()>
                            "You changed this job (SQL, Controls or a step restarted it): the text below tells the preset as it came. "
                            <button class="btn small" data-testid="start-over" title="Reloads the preset as it came, from time zero, without your changes"
                                on:click=move |_| start_over(pg, p.id, title)>"Start over"</button>
                        </p>
                        <div class="preset-grid" class:collapsed=move || !open.get()>
                            <p class="summary">{p.summary}</p>
                            <p><b>"Look at "</b>{p.look_at}</p>
                            <div>
                                <p><b>"Try "</b>{p.try_this}</p>
                                <div class="preset-actions" role="group" aria-label="Suggested steps">
                                    {actions.iter().map(|&step| view! { <StepButton step=step /> }).collect_view()}
                                    // A touch screen shows no title: the reason is text too.
                                    {move || actions.iter().find_map(|s| s.action.refused(pg)).map(|why| view! { <span class="muted small step-why">{why}</span> })}
                                </div>
                            </div>
                        </div>
                    }.into_any()
                }
            }}
            <LiveLine />
        </section>
    }
}

/// A suggested step's button: the preset card's and a lesson's. A ✓ says on the button that its
/// change is in effect, not only a confirmation that fades.
#[component]
pub fn StepButton(step: crate::engine::session::action::Step, #[prop(optional)] testid: Option<&'static str>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let action = step.action;
    let title = if action.restarts() { "Restarts the scenario from time zero with this change" } else { "Applies now, while the job runs" };
    let refused = Memo::new(move |_| action.refused(pg));
    let in_effect = Memo::new(move |_| pg.cfg.with(|c| pg.base.with_value(|b| action.in_effect(b, c))) == Some(true));
    view! {
        <button class="btn small" class:in-effect=move || in_effect.get() data-testid=testid
            title=move || refused.get().unwrap_or(if in_effect.get() { "In effect now" } else { title })
            disabled=move || refused.get().is_some() on:click=move |_| action.run(&pg)>
            {step.label}
            <span aria-hidden="true" class:hidden=move || !in_effect.get()>" ✓"</span>
            <span class="sr-only">{move || in_effect.get().then_some(" (in effect)")}</span>
        </button>
    }
}

/// The preset `id` as it came (as the picker loads it: mid-lesson it leaves the lesson), and
/// the focus on its card's title: the button pressed went away with the note that held it,
/// and the focus with it (to <body>).
fn start_over(pg: Pg, id: &str, title: NodeRef<leptos::html::H2>) {
    pick(pg, id);
    if let Some(h) = title.get_untracked() {
        let _ = h.focus();
    }
}

/// "Now: …": the diagnosis' headline, with its culprit and cause as `data-*` attributes. The
/// preset's text tells the story; this line says what the job shows at this instant.
#[component]
fn LiveLine() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let r = pg.reading_slow;
    view! {
        // One line on a wide screen, cut with an ellipsis: the whole headline is its title.
        <p class="live-line small" data-testid="live-line" title=move || r.with(|r| r.diag.headline.clone())
            data-culprit-partition=move || r.with(Reading::culprit_attr) data-cause=move || r.with(Reading::cause_attr)>
            <b>"Now: "</b>{move || r.with(|r| r.diag.headline.clone())}
        </p>
    }
}
