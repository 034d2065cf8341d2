//! The advisor tab of the WHY panel: the engine's recommendation for the out-of-orderness
//! bound, the idle timeout and allowed lateness (current → recommended, what it rests on, what
//! it costs), the idle timeout's constraints met now and with the advice (✓/✗), the delay the
//! user tolerates (it bounds the idle timeout), and "Apply advice" for every change the engine
//! applies (a row it leaves out says why).

use super::controls::field::{v_opt_positive_duration, Field};
use super::format::{dur_input, opt_dur_input, parse_opt_duration};
use super::state::Pg;
use crate::engine::diagnosis::advisor::{Constraint, Recommendation};
use crate::engine::diagnosis::DiagnosisOptions;
use crate::engine::session::action::Action;
use leptos::prelude::*;

#[component]
pub fn AdvisorPanel() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let recs = move || {
        pg.reading_slow.with(|r| {
            let a = &r.diag.advice;
            view! {
                <RecRow name="out-of-orderness bound" id="bound" rec=a.bound.clone() />
                <RecRow name="idle timeout" id="idle" rec=a.idle_timeout.clone() />
                <RecRow name="allowed lateness" id="lateness" rec=a.allowed_lateness.clone() />
            }
        })
    };
    let constraints = move || {
        pg.reading_slow.with(|r| {
            // With no idle timeout set there is nothing "now" to check: "—", not ✗.
            let set = r.diag.advice.idle_timeout.current_ms.is_some();
            r.diag.advice.constraints.iter().map(|c| constraint_row(c, set)).collect_view()
        })
    };
    view! {
        <div class="advisor" id="advisor">
            <p class="small muted">"From what the simulation observed so far: disorder and gaps per partition, late records, the delay you tolerate."</p>
            <div class="recs">{recs}</div>
            <table class="mini constraints" aria-label="Constraints on the idle timeout">
                <thead><tr><th scope="col">"idle timeout must be"</th><th scope="col">"now"</th><th scope="col">"advised"</th></tr></thead>
                <tbody>{constraints}</tbody>
            </table>
            <OptionField label="delay you tolerate" id="f-tolerated" hint="e.g. 60 s; off = one window"
                value=Signal::derive(move || pg.reading_slow.with(|r| dur_input(r.diag.advice.tolerated_delay_ms)))
                set=|o, v| o.tolerated_delay_ms = v />
            <ApplyAdvice />
        </div>
    }
}

/// A duration the user tells the diagnosis ("off" for the default); the diagnosis is read
/// again at once with it.
#[component]
pub fn OptionField(
    label: &'static str,
    id: &'static str,
    hint: &'static str,
    value: Signal<String>,
    set: fn(&mut DiagnosisOptions, Option<i64>),
) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let commit = Callback::new(move |t: String| {
        let v = parse_opt_duration(&t)?;
        pg.set_diag_opts(|o| set(o, v));
        Ok(())
    });
    view! { <Field label=label id=id hint=hint value=value validate=v_opt_positive_duration on_commit=commit /> }
}

/// One parameter: current → recommended, the basis and the cost.
#[component]
fn RecRow(name: &'static str, id: &'static str, rec: Recommendation) -> impl IntoView {
    let change = match rec.recommended_ms {
        Some(r) if Some(r) != rec.current_ms => format!("{} → {}", opt_dur_input(rec.current_ms), dur_input(r)),
        Some(_) => format!("{} (keep)", opt_dur_input(rec.current_ms)),
        None => format!("{} (no advice)", opt_dur_input(rec.current_ms)),
    };
    let no_cost = rec.cost.is_empty();
    // The engine says which changes "Apply advice" leaves out, and why (the JS API reads the same).
    let applied = rec.not_applied.is_none();
    let not_applied = rec.not_applied.map(|why| format!("Not in “Apply advice”: {why}."));
    view! {
        <div class="rec" data-param=id data-recommended=rec.recommended_ms.map(|r| r.to_string()) data-applied=applied.to_string()>
            <p><b>{name}</b>" "<span class="mono">{change}</span></p>
            <p class="small muted">{rec.basis}</p>
            <p class="small" class:hidden=no_cost>{rec.cost}</p>
            <p class="small not-applied" class:hidden=applied>{not_applied}</p>
        </div>
    }
}

fn constraint_row(c: &Constraint, set: bool) -> impl IntoView {
    let mark = |ok: bool| if ok { "✓" } else { "✗" };
    let word = |ok: bool| if ok { "met" } else { "not met" };
    let (now_mark, now_word) = if set { (mark(c.current_ok), word(c.current_ok)) } else { ("—", "no idle timeout set") };
    view! {
        <tr>
            <td>{c.text.clone()}</td>
            <td class="ok-mark" class:bad=set && !c.current_ok class:none=!set aria-label=now_word>{now_mark}</td>
            <td class="ok-mark" class:bad=!c.recommended_ok aria-label=word(c.recommended_ok)>{mark(c.recommended_ok)}</td>
        </tr>
    }
}

/// Applies every change of the advice in one click (live changes, no restart; the note says
/// what Flink would do).
#[component]
fn ApplyAdvice() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let actions = Memo::new(move |_| pg.reading_slow.with(|r| r.diag.advice.actions.clone()));
    let label = move || {
        let a = actions.get();
        if a.is_empty() {
            "Nothing to change in these settings".to_string()
        } else {
            format!("Apply advice: {}", a.iter().map(Action::describe).collect::<Vec<_>>().join(", "))
        }
    };
    view! {
        <div class="btn-row">
            <button class="btn fix" id="btn-apply-advice" disabled=move || actions.with(Vec::is_empty)
                on:click=move |_| apply_all(&pg, &actions.get_untracked())>{label}</button>
        </div>
        // The playground changes these while the job runs; Flink cannot, and its restart is
        // what people meet (the watermarks and the idle flags start again).
        <p class="small muted" id="advice-live-note">
            "Applied live, so you can compare. In Flink a changed watermark strategy or window needs a restart (from a savepoint): every watermark starts again at No Watermark and a silent partition waits out its full idle timeout again, as the preset “After a restart, windows stall until the idle timeout again” shows."
        </p>
    }
}

/// Runs the actions in order; one confirmation for all, or the first error.
fn apply_all(pg: &Pg, actions: &[Action]) {
    for a in actions {
        if let Err(e) = pg.apply_action(a) {
            pg.error(format!("{}: {e}", a.describe()));
            return;
        }
    }
    pg.info(format!("Applied the advice: {}", actions.iter().map(Action::describe).collect::<Vec<_>>().join(", ")));
}
