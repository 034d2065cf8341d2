//! The diagnosis' findings under the WHY explanation: one row per finding with its severity
//! mark, its title and the partition's class; opened, the detail, the evidence in numbers,
//! what to check on a real job, and its fixes as one-click buttons. The finding that holds
//! the watermark comes first (the engine sorts them) and is marked and open by default.

use super::actions::RunAction;
use super::reading::Reading;
use super::state::Pg;
use crate::engine::diagnosis::classify::PartitionFacts;
use crate::engine::diagnosis::finding::{Finding, FindingKind, Fix, Severity};
use crate::engine::explain_text::holder_words;
use leptos::prelude::*;
use std::collections::BTreeSet;

/// A finding's identity across readings (its title carries numbers that change).
type Key = (FindingKind, Option<u32>, Option<u32>);

fn key(f: &Finding) -> Key {
    (f.kind, f.partition, f.source_subtask)
}

/// The severity as a shape (colour only reinforces it) and a word for screen readers.
fn severity_mark(s: Severity) -> (&'static str, &'static str) {
    match s {
        Severity::Critical => ("■", "critical"),
        Severity::Warning => ("▲", "warning"),
        Severity::Info => ("●", "info"),
    }
}

/// A fix's button text: the engine's label, with ↻ when it restarts the scenario.
pub fn fix_label(f: &Fix) -> String {
    if f.restarts && !f.label.contains('↻') {
        format!("{} ↻", f.label)
    } else {
        f.label.clone()
    }
}

/// One-click fix buttons; the title says whether a fix restarts the scenario.
#[component]
pub fn FixButtonList(fixes: Vec<Fix>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    fixes
        .into_iter()
        .map(|f| {
            let title = if f.restarts { "Restarts the scenario from time zero with this change" } else { "Applies now, while the job runs" };
            let label = fix_label(&f);
            let action = f.action;
            view! { <button class="btn fix" title=title on:click=move |_| action.run(&pg)>{label}</button> }
        })
        .collect_view()
}

/// The findings of the WHY panel's reading. Which ones the user opened or closed is kept while
/// the list is redrawn with every reading (the first one is open unless closed).
#[component]
pub fn FindingsList() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let toggled = RwSignal::new(BTreeSet::<Key>::new());
    let items = move || {
        pg.reading_slow.with(|r| {
            r.diag.findings.iter().enumerate().map(|(i, f)| finding_row(f, i == 0, r, toggled)).collect_view()
        })
    };
    let count = move || pg.reading_slow.with(|r| r.diag.findings.len());
    view! {
        <section class="findings" aria-labelledby="findings-h">
            <h3 id="findings-h">{move || format!("Findings ({})", count())}</h3>
            <ol class="finding-list">{items}</ol>
        </section>
    }
}

fn finding_row(f: &Finding, first: bool, r: &Reading, toggled: RwSignal<BTreeSet<Key>>) -> impl IntoView {
    let k = key(f);
    let open = move || first != toggled.with(|t| t.contains(&k));
    let flip = move |_| {
        toggled.update(|t| {
            if !t.remove(&k) {
                t.insert(k);
            }
        })
    };
    let (mark, word) = severity_mark(f.severity);
    // The diagnosis' own explanation, which `holds_watermark` is about (not a selected subtask's).
    let (_, holds) = holder_words(r.diag.explanation.as_ref().is_some_and(|e| e.ahead_of(r.diag.now)));
    let class = format!("finding sev-{word}");
    let badge = f.partition.and_then(|p| class_badge(p, &r.diag.partitions, &expect_context::<Pg>().snap_slow.with_untracked(|s| s.partition_name(p))));
    let body_id = format!("finding-{}-{}-{}", f.kind.name(), f.partition.map_or(-1, i64::from), f.source_subtask.map_or(-1, i64::from));
    view! {
        <li class=class class:holds=f.holds_watermark data-kind=f.kind.name()
            data-partition=f.partition.map(|p| p.to_string())>
            <button class="finding-head" aria-expanded=move || open().to_string() aria-controls=body_id.clone() on:click=flip>
                <span class="sev" title=word><span aria-hidden="true">{mark}</span><span class="sr-only">{word}</span></span>
                <span class="finding-title">{f.title.clone()}</span>
                {f.holds_watermark.then(|| view! { <span class="badge hold"><span aria-hidden="true">"◀ "</span>{holds}</span> })}
                {badge}
            </button>
            <div class="finding-body" id=body_id class:hidden=move || !open()>{finding_body(f)}</div>
        </li>
    }
}

/// "partition 11 — sparse/heartbeat": the class the diagnosis gave the finding's partition
/// (named as the graph names it: `rates-0` with two topics).
fn class_badge(p: u32, parts: &[PartitionFacts], name: &str) -> Option<impl IntoView> {
    let facts = parts.iter().find(|x| x.partition == p)?;
    let text = format!("partition {name} — {}", facts.class.label());
    Some(view! { <span class="badge class" data-class=facts.class.label()>{text}</span> })
}

fn finding_body(f: &Finding) -> impl IntoView {
    let evidence = f.evidence.iter().map(|e| view! { <li data-name=e.name>{e.text.clone()}</li> }).collect_view();
    let has_fix = !f.fixes.is_empty();
    view! {
        <p class="detail" class:hidden=f.detail.is_empty()>{f.detail.clone()}</p>
        <ul class="evidence" class:hidden=f.evidence.is_empty()>{evidence}</ul>
        <p class="finding-check small" class:hidden=f.check.is_empty()><b>"Check on a real job: "</b>{f.check.clone()}</p>
        <div class="fixes" class:hidden=!has_fix role="group" aria-label="Fixes for this finding">
            <FixButtonList fixes=f.fixes.clone() />
        </div>
    }
}
