//! Lesson mode (`?lesson=ID`, or the preset menu's "Lessons" group): a card over the page with
//! the step's sentence, "Try this: …", its progress and Back / Next, and the step's stage
//! (`lesson_stage`) where the user drags events, the bound, the idle timeout or the allowed
//! lateness. The page shows only the panels the step reveals (classes on the root element that
//! `www/style.css` reads). Next is enabled once the step's check passes on what the job shows.
//!
//! What a lesson is lives in `lesson_steps` and `lesson_setup` (no DOM, tested natively); this
//! file only loads a step into the playground's state and follows its outcome.

use super::lesson_setup::{Outcome, Setup};
use super::lesson_stage::LessonStage;
use super::lesson_steps::{lesson, lessons, Lesson, LessonMode, Panel, Stage, Step};
use super::query;
use super::state::Pg;
use super::url_state::TimelineZoom;
use leptos::prelude::*;

/// The lesson in progress: which step, its job as the user has changed it, what it shows.
#[derive(Clone, Copy)]
pub struct LessonRun {
    pub lesson: &'static Lesson,
    pub step: RwSignal<usize>,
    /// The step's job as dragged so far (for a preset step: unused).
    pub setup: RwSignal<Setup>,
    pub outcome: RwSignal<Outcome>,
    /// The event-time span the stage shows, fixed per step so that a drag never rescales it.
    pub span_ms: RwSignal<i64>,
    pg: Pg,
}

/// The `lesson` query parameter, if the page has one.
pub fn lesson_param() -> Option<String> {
    // A bare `?lesson` names none: the playground, as before.
    query::value(&query::current(), "lesson").filter(|v| !v.is_empty()).map(str::to_string)
}

/// The step the address names (`&step=N`, from 1), kept so that a reload stays on it.
fn step_param(steps: usize) -> usize {
    query::value(&query::current(), "step").and_then(|n| n.parse::<usize>().ok()).map_or(0, |n| n.min(steps).saturating_sub(1))
}

/// Writes the step into the address (replacing it: Back leaves the lesson, as before), keeping
/// its other parameters but not a fragment: a playground's `#s=` left from before the lesson
/// was replayed on every reload.
fn write_step(i: usize) {
    let Some(w) = web_sys::window() else { return };
    let step = (i + 1).to_string();
    let url = format!("{}{}", w.location().pathname().unwrap_or_default(), query::rewritten(&query::current(), &["step"], Some(("step", &step))));
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Opens the lesson `id` (a page load with `?lesson=id`).
pub fn open_lesson(id: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_search(&format!("?lesson={id}"));
    }
}

/// Marks the page's root: lesson mode on, which panels the step shows, and whether it is a
/// stage step (`data-lesson-stage`: `www/style.css` hides what would change the stage's job
/// behind its back: the transport, the controls, the fixes, the Silence buttons).
fn mark_root(step: Option<(&[Panel], LessonMode)>) {
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else { return };
    let _ = root.remove_attribute("data-lesson-stage");
    match step {
        Some((p, mode)) => {
            let _ = root.set_attribute("data-lesson", "");
            let show: Vec<&str> = p.iter().map(|p| p.class()).collect();
            let _ = root.set_attribute("data-lesson-show", &show.join(" "));
            if mode == LessonMode::Stage {
                let _ = root.set_attribute("data-lesson-stage", "");
            }
        }
        None => {
            let _ = root.remove_attribute("data-lesson");
            let _ = root.remove_attribute("data-lesson-show");
        }
    }
}

impl LessonRun {
    fn new(pg: Pg, lesson: &'static Lesson) -> LessonRun {
        let run = LessonRun {
            lesson,
            step: RwSignal::new(0),
            setup: RwSignal::new(Setup::new(1, 0)),
            outcome: RwSignal::new(Outcome::default()),
            span_ms: RwSignal::new(20_000),
            pg,
        };
        run.load(step_param(lesson.steps.len()));
        run
    }

    pub fn current(&self) -> &'static Step {
        &self.lesson.steps[self.step.get_untracked().min(self.lesson.steps.len() - 1)]
    }

    /// Loads step `i` as the lesson wrote it.
    fn load(&self, i: usize) {
        self.step.set(i);
        write_step(i);
        let step = self.current();
        mark_root(Some((step.reveals, step.stage.mode())));
        self.pg.lesson.set(step.stage.mode());
        self.pg.playing.set(false);
        match step.stage {
            Stage::Events(f) => {
                let s = f();
                self.span_ms.set(span_of(&s));
                self.apply(s);
            }
            Stage::Preset { id, run_ms } => {
                let pg = self.pg;
                let res = pg.load_preset(id).and_then(|()| pg.run_until(pg.start_time() + run_ms));
                if let Err(e) = res {
                    pg.error(format!("{e}"));
                }
                pg.refresh();
            }
        }
    }

    /// Rebuilds the step's job from `s` and replays it to the same instant (a drag's effect).
    pub fn apply(&self, s: Setup) {
        let pg = self.pg;
        let res = s.scenario().and_then(|sc| pg.load(sc, None)).and_then(|()| pg.run_until(pg.start_time() + s.run_ms));
        if let Err(e) = res {
            pg.error(format!("{e}"));
        }
        self.setup.set(s);
        pg.refresh();
    }

    /// Changes the step's job (only if it changes) and replays it.
    pub fn change(&self, f: impl FnOnce(&mut Setup)) {
        let mut s = self.setup.get_untracked();
        f(&mut s);
        if s != self.setup.get_untracked() {
            self.apply(s);
        }
    }

    /// Follows what the job shows: the outcome after every refresh (also while a preset
    /// step plays); a small job does not play on past its instant.
    fn follow(&self) {
        let (pg, run) = (self.pg, *self);
        Effect::new(move |_| {
            pg.snap_slow.track();
            let step = run.lesson.steps[run.step.get_untracked()];
            let outcome = match step.stage {
                Stage::Events(_) => pg.with_sim(Outcome::of),
                Stage::Preset { .. } => pg.with_sim(Outcome::summary),
            };
            run.outcome.set(outcome);
        });
        Effect::new(move |_| {
            if pg.playing.get() && matches!(run.lesson.steps[run.step.get()].stage, Stage::Events(_)) {
                pg.playing.set(false);
            }
        });
    }
}

/// The lesson card at the top of the page when the URL asks for a lesson (nothing otherwise).
#[component]
pub fn LessonCard() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let Some(id) = lesson_param() else { return ().into_any() };
    let Some(l) = lesson(&id) else {
        mark_root(Some((&[], LessonMode::Off)));
        return view! { <UnknownLesson id=id /> }.into_any();
    };
    let run = LessonRun::new(pg, l);
    run.follow();
    view! { <StepCard run=run /> }.into_any()
}

/// A bad `?lesson=` id: what exists instead.
#[component]
fn UnknownLesson(id: String) -> impl IntoView {
    view! {
        <section class="card lesson-card" role="alert" data-testid="lesson-unknown">
            <h2>"No lesson “"{id}"”"</h2>
            <p>"The lessons are:"</p>
            <ul>
                {lessons().iter().map(|l| view! { <li><a href=format!("?lesson={}", l.id)><code>{l.id}</code></a>" — "{l.title}</li> }).collect_view()}
            </ul>
            <p><a href="?">"Back to the playground"</a></p>
        </section>
    }
}

/// The step: its sentence, what to try, the stage, the ✓ and the way on.
#[component]
pub fn StepCard(run: LessonRun) -> impl IntoView {
    let n = run.lesson.steps.len();
    let step = move || run.lesson.steps[run.step.get()];
    let passed = Memo::new(move |_| {
        let s = run.lesson.steps[run.step.get()];
        run.outcome.with(|o| (s.check)(o))
    });
    let zoom = TimelineZoom::of_page();
    // The new step's title takes the focus: the pressed button may be disabled on it (Next
    // waits for the check), and a disabled button's focus fell to the page's start.
    let title = NodeRef::<leptos::html::H3>::new();
    let go = move |i: usize| {
        run.load(i);
        if let Some(h) = title.get_untracked() {
            let _ = h.focus();
        }
    };
    let next = move |_| {
        let i = run.step.get_untracked();
        if i + 1 < n {
            go(i + 1);
        } else {
            finish(run, zoom);
        }
    };
    let back = move |_| go(run.step.get_untracked().saturating_sub(1));
    view! {
        <section class="card lesson-card" aria-labelledby="lesson-h" data-testid="lesson"
            data-step=move || run.step.get().to_string() data-passed=move || passed.get().to_string()>
            <header class="lesson-head">
                <h2 id="lesson-h">{run.lesson.title}</h2>
                <span class="lesson-progress muted small" data-testid="lesson-progress">{move || format!("Step {} of {n}", run.step.get() + 1)}</span>
                <a class="link small" href="?" title="Back to the full playground">"Leave lesson"</a>
            </header>
            <h3 class="lesson-title" tabindex="-1" node_ref=title>{move || step().title}</h3>
            <p class="lesson-sentence">{move || step().sentence}</p>
            <p class="lesson-try"><b>"Try this: "</b>{move || step().try_this}</p>
            {move || matches!(step().stage, Stage::Preset { .. }).then(|| view! { <PresetFix /> })}
            {move || matches!(step().stage, Stage::Events(_)).then(|| view! { <LessonStage run=run /> })}
            <footer class="lesson-foot">
                <p class="lesson-done" role="status" aria-live="polite" data-testid="lesson-done">
                    {move || if passed.get() { format!("✓ {}", step().done) } else { String::new() }}
                </p>
                <button class="btn" data-testid="lesson-back" disabled=move || run.step.get() == 0 on:click=back>"Back"</button>
                <button class="btn primary" data-testid="lesson-next" disabled=move || !passed.get() on:click=next>
                    {move || if run.step.get() + 1 < n { "Next" } else { "Finish" }}
                </button>
            </footer>
        </section>
    }
}

/// A preset step's one-click fix: the preset's first suggested step.
#[component]
fn PresetFix() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let fix = pg.current_preset().and_then(|p| p.steps.first().copied());
    fix.map(|s| view! { <p><super::presets::StepButton step=s testid="lesson-fix" /></p> })
}

/// The event time a step's stage shows: every record, now, and the ends of the idle-timeout
/// and allowed-lateness bars, with room to drag a little further.
fn span_of(s: &Setup) -> i64 {
    let last_of = |p: u32| s.events.iter().filter(|e| e.partition == p).map(|e| e.at_ms).max().unwrap_or(0);
    let silent_since = (0..s.partitions).map(last_of).min().unwrap_or(0);
    let idle_end = silent_since + s.idle_timeout_ms.unwrap_or(0);
    let last = s.events.iter().map(|e| e.ts_ms).max().unwrap_or(0).max(s.run_ms).max(idle_end).max(10_000 + s.allowed_lateness_ms);
    ((last + 3_000) / 5_000 + 1) * 5_000
}

/// Leaves the lesson for the playground on preset `id`.
pub fn leave_for_preset(id: &str) {
    leave_for(&format!("?preset={id}"));
}

/// Leaves the lesson for a pasted link's state (`#s=…`): loaded under the card, it replaced the
/// step's job.
pub fn leave_for_fragment(fragment: &str) {
    leave_to(&format!("{}#{fragment}", super::share::page_base()));
}

/// Back to the full playground: after a preset step with the run as the reader left it (the
/// fix applied, at the same moment; it was reset to the first preset), after a stage as new.
fn finish(run: LessonRun, zoom: TimelineZoom) {
    if run.current().stage.mode() != LessonMode::Preset {
        return leave_for("");
    }
    leave_to(&super::share::share_link(&run.pg, zoom));
}

fn leave_for(search: &str) {
    leave_to(&format!("{}{search}", super::share::page_base()));
}

/// Leaves lesson mode for `url`: the root's marks first, so nothing of the lesson's look stays
/// on screen while the page loads.
fn leave_to(url: &str) {
    mark_root(None);
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_href(url);
    }
}
