//! The job status strip in the job graph's card: RUNNING / RESTARTING until … / FAILED, the
//! attempt and restarts, the last checkpoint, what the restores replayed and duplicated, and
//! per TaskManager its keyed state against its memory with a "Kill" button (a `fail` command
//! at the next instant, recorded like any action). The buttons are disabled while the job is
//! down, with the reason; an engine error shows under the strip with its field path.

use super::format::{dur, elapsed};
use super::state::Pg;
use super::state_plot::bytes;
use crate::engine::command::Command;
use crate::engine::failover::{FailTarget, JobStatus};
use crate::engine::job_run::{JobRunView, TaskManagerView};
use crate::engine::operator::sink::SinkMode;
use crate::engine::restart_strategy::RestartStrategy;
use leptos::prelude::*;

/// `restart-strategy.type` in a few words.
fn strategy_text(r: &RestartStrategy) -> String {
    match *r {
        RestartStrategy::FixedDelay { delay_ms, attempts } => format!("fixed-delay {} × {attempts}", dur(delay_ms)),
        RestartStrategy::ExponentialDelay { initial_ms, max_ms, .. } => format!("exponential-delay {} … {}", dur(initial_ms), dur(max_ms)),
        RestartStrategy::None {} => "none: a failure ends the job".to_string(),
    }
}

/// The status as the badge says it.
fn status_text(run: &JobRunView, now: i64, start: i64) -> String {
    match run.status {
        JobStatus::Running => "RUNNING".to_string(),
        JobStatus::Restarting => match run.restarting_until {
            Some(u) => format!("RESTARTING until {} (in {})", elapsed(u.ms(), start), dur((u.ms() - now).max(0))),
            None => "RESTARTING".to_string(),
        },
        JobStatus::Failed => "FAILED".to_string(),
    }
}

/// Attempt, checkpoints and the restores' cost, one short phrase each. An upsert sink
/// overwrites what a replay emits again: no duplicates there.
fn facts(run: &JobRunView, start: i64, sink: SinkMode) -> Vec<String> {
    let mut out = vec![format!("attempt {} · {}", run.attempt, super::format::count(run.restarts, "restart", "restarts"))];
    out.push(match (&run.last_checkpoint, run.checkpoint_interval_ms) {
        (_, None) => "checkpointing off".to_string(),
        (None, Some(i)) => format!("checkpoint every {}: none yet", dur(i)),
        (Some(c), Some(_)) => format!("last checkpoint #{} at {}", c.id, &elapsed(c.at.ms(), start)[..8]),
    });
    // In the order they happened: a failure after the last restore reads after it ("✕ lost at
    // 00:04:59 | restored at 00:04:56" read backwards).
    let mut events = Vec::new();
    if let (Some(reason), Some(at)) = (&run.failure, run.failed_at) {
        // "TaskManager 0 lost: its keyed state … went over its memory …": the head is enough
        // here; the whole reason is on the timeline's ✕ and in the WHY panel.
        let head = reason.split(':').next().unwrap_or(reason);
        events.push((at.ms(), format!("✕ {head} at {}", &elapsed(at.ms(), start)[..8])));
    }
    if let (Some(from), Some(at)) = (run.restored_from, run.restored_at) {
        events.push((at.ms(), format!("restored #{from} at {}", &elapsed(at.ms(), start)[..8])));
    }
    events.sort_by_key(|e| e.0);
    out.extend(events.into_iter().map(|e| e.1));
    if run.records_replayed > 0 || run.results_duplicated > 0 {
        let again = if sink == SinkMode::Upsert { "results overwritten (upsert sink)" } else { "duplicate results" };
        out.push(format!(
            "{} records replayed · {} {again}",
            super::format::thousands(run.records_replayed),
            super::format::thousands(run.results_duplicated)
        ));
    }
    out
}

/// Why a kill is refused now, if it is: the strip's buttons and a preset's "Kill" step say the
/// same (the step said "Applied" while the job was RESTARTING and nothing was killed).
pub(super) fn kill_refused(pg: Pg) -> Option<&'static str> {
    let halted = pg.halted_error().is_err();
    pg.snap_slow.with(|s| kill_blocked(&s.run, halted))
}

/// Why the kill buttons are disabled, if they are.
fn kill_blocked(run: &JobRunView, halted: bool) -> Option<&'static str> {
    match run.status {
        _ if halted => Some("The run has ended: Reset (R) starts the scenario again."),
        JobStatus::Running => None,
        JobStatus::Restarting => Some("The job is RESTARTING: no task runs, so there is nothing to kill until it runs again."),
        JobStatus::Failed => Some("The job FAILED for good: Reset (R) starts the scenario again."),
    }
}

#[component]
pub fn JobStatusStrip() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let run = Memo::new(move |_| pg.snap_slow.with(|s| s.run.clone()));
    let now = Memo::new(move |_| pg.snap_slow.with(|s| s.now.ms()));
    let start = move || pg.cfg.with(|c| c.start_time.ms());
    let error = RwSignal::new(None::<String>);
    // A new scenario starts without the last one's error.
    Effect::new(move |_| {
        pg.preset.track();
        error.set(None);
    });
    let status_class = move || match run.with(|r| r.status) {
        JobStatus::Running => "job-badge running",
        JobStatus::Restarting => "job-badge restarting",
        JobStatus::Failed => "job-badge failed",
    };
    let strategy = move || pg.cfg.with(|c| format!("restart-strategy: {}", strategy_text(&c.checkpointing.restart)));
    view! {
        <div class="job-strip small" id="job-strip" role="group" aria-label="Job status"
            data-status=move || run.with(|r| format!("{:?}", r.status).to_uppercase())>
            <span class=status_class title=strategy aria-live="polite" tabindex="-1">{move || run.with(|r| status_text(r, now.get(), start()))}</span>
            {move || run.with(|r| facts(r, start(), pg.snap_slow.with(|s| s.sink_mode))).into_iter().map(|f| view! { <span class="job-fact">{f}</span> }).collect_view()}
            <KillButtons run=run error=error />
            <p class="field-error job-error" role="alert" class:hidden=move || error.with(Option::is_none)>{move || error.get()}</p>
        </div>
    }
}

/// Per TaskManager: its keyed state against its memory, and a button that kills it.
#[component]
fn KillButtons(run: Memo<JobRunView>, error: RwSignal<Option<String>>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let blocked = Memo::new(move |_| kill_refused(pg));
    // One chip per TaskManager, kept while the job runs (the bytes update in place, so a
    // button is never replaced under the pointer).
    let count = Memo::new(move |_| run.with(|r| r.task_managers.len() as u32));
    view! {
        <span class="tm-list" role="group" aria-label="TaskManagers">
            <For each=move || 0..count.get() key=|n| *n let:n>
                <TaskManagerChip n=n run=run blocked=blocked error=error />
            </For>
            <span class="muted tm-why" class:hidden=move || blocked.get().is_none()>{move || blocked.get()}</span>
        </span>
    }
}

/// What killing a TaskManager does to this job (the button's tooltip).
fn kill_title(pg: Pg, n: u32) -> String {
    pg.cfg.with(|c| match (c.checkpointing.restart, c.checkpointing.interval_ms) {
        (RestartStrategy::None {}, _) => format!("Kill TaskManager {n}: with restart-strategy none the job FAILS for good"),
        (_, None) => format!("Kill TaskManager {n}: the job fails and restarts from the start offsets (checkpointing is off)"),
        (_, Some(_)) => format!("Kill TaskManager {n}: the job fails and restarts from its last checkpoint"),
    })
}

/// Kills TaskManager `n` at the next instant; an engine error goes under the strip.
fn kill(pg: Pg, n: u32, error: RwSignal<Option<String>>) {
    match pg.apply(Command::Fail { target: FailTarget::TaskManager(n) }) {
        Ok(()) => {
            error.set(None);
            let what = match pg.with_sim(|s| s.job_status()) {
                JobStatus::Failed => "the job FAILED for good (no restart left); Reset (R) starts it again",
                _ => "the job fails and restarts as its restart strategy says",
            };
            pg.info(format!("TaskManager {n} killed: {what}"));
        }
        Err(e) => error.set(Some(format!("Kill TaskManager {n}: {e}"))),
    }
}

/// After a kill the button is disabled (nothing to kill while the job is down), which drops
/// its focus to the page: the job's status, which says what the kill did, takes it instead.
fn focus_status(ev: &leptos::ev::MouseEvent) {
    use wasm_bindgen::JsCast;
    let badge = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|b| b.closest(".job-strip").ok().flatten())
        .and_then(|s| s.query_selector(".job-badge").ok().flatten())
        .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(b) = badge {
        let _ = b.focus();
    }
}

/// A TaskManager's keyed state as text, its share of the memory (%), and the tooltip.
fn chip_text(tm: &TaskManagerView) -> (String, f64, String) {
    let used = bytes(tm.used_bytes);
    let (text, pct) = match tm.limit_bytes {
        Some(l) => (format!("{used} / {}", bytes(l)), (tm.used_bytes as f64 / l.max(1) as f64 * 100.0).min(100.0)),
        None => (used, 0.0),
    };
    let subtasks = tm.keyed_subtasks.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let title = format!("TaskManager {}: keyed subtasks {subtasks}; estimated keyed state {text}", tm.index);
    (text, pct, title)
}

#[component]
fn TaskManagerChip(n: u32, run: Memo<JobRunView>, blocked: Memo<Option<&'static str>>, error: RwSignal<Option<String>>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let info = Memo::new(move |_| run.with(|r| r.task_managers.get(n as usize).map(chip_text).unwrap_or_default()));
    let limited = Memo::new(move |_| run.with(|r| r.task_managers.get(n as usize).is_some_and(|t| t.limit_bytes.is_some())));
    view! {
        <span class="tm-chip" class:warn=move || info.with(|i| i.1 >= 80.0) data-tm=n title=move || info.with(|i| i.2.clone())>
            <span class="tm-name">{format!("TM {n}")}</span>
            <span class="tm-meter" class:hidden=move || !limited.get() aria-hidden="true">
                <span style:width=move || info.with(|i| format!("{:.0}%", i.1))></span>
            </span>
            <span class="mono tm-bytes">{move || info.with(|i| i.0.clone())}</span>
            <button class="btn tiny kill" id=format!("kill-tm-{n}") aria-label=format!("Kill TaskManager {n}")
                disabled=move || blocked.get().is_some()
                title=move || blocked.get().map_or_else(|| kill_title(pg, n), str::to_string)
                on:click=move |ev| {
                    kill(pg, n, error);
                    focus_status(&ev);
                }>"✕ kill"</button>
        </span>
    }
}
