//! The WHY panel: the explanation of the focused window subtask in plain sentences, with the
//! culprit chain (channel ← source subtask ← partition) as clickable chips, the reasons one
//! per line, the diagnosis' fixes as one-click buttons (the engine decides which fix fits),
//! the windows that wait, and the diagnosis' findings. A selected split, source subtask or
//! window gets its own short description on top. Tabs open the advisor and the lag chart.
//! Everything comes from one [`Reading`] (the diagnosis of the instant the panel shows).

use super::advisor::AdvisorPanel;
use super::after_first_paint::AfterFirstPaint;
use super::announce_settle::{Settle, SETTLE_MS};
use super::findings::{FindingsList, FixButtonList};
use super::format::{count, dur, dur_input, lag_side, thousands, wm_human, wm_raw, Side, MIN_WM};
use super::lag_chart::LagPanel;
use super::reading::Reading;
use super::state::{Pg, Selection};
use crate::engine::command::Command;
use crate::engine::explain::{Culprit, Explanation, Reason};
use crate::engine::explain_text::{holder_words, reason_clause_named};
use crate::engine::operator::trigger::FiringKind;
use crate::engine::scenario::schema::RecordSpec;
use crate::engine::time::{EventTime, ProcTime, END_OF_TIME, NO_WATERMARK};
use leptos::prelude::*;

/// One reason as a sentence of its own: the engine's wording, times relative to now.
pub fn reason_text(r: &Reason, now: i64, snap: &crate::engine::snapshot::Snapshot) -> String {
    // Partitions and source subtasks named as the engine's sentence names them (`rates-0`,
    // `rates·0` with two topics).
    let clause = reason_clause_named(r, ProcTime(now), |t| wm_human(t.ms(), now), |p| snap.partition_name(p), |s| snap.source_subtask_name(s));
    let mut chars = clause.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
    format!("{first}{}.", chars.as_str())
}

fn icon(r: &Reason) -> &'static str {
    match r {
        Reason::AllInputsIdle => "◌",
        Reason::IdleCountdown { .. } => "◔",
        Reason::KeptActiveBySparseRecords { .. } => "♥",
        Reason::SlowPartition { .. } | Reason::InputHolds { .. } | Reason::InputStalls { .. } => "◷",
        Reason::MidstreamHolds { .. } => "⇥",
        Reason::BackPressuredNeverIdle { .. } => "⇶",
        Reason::WaitingForAlignment { .. } | Reason::SplitPausedByAlignment { .. } | Reason::AlignmentPausesOthers { .. } => "‖",
        Reason::ReturnedBelowWatermark { .. } | Reason::FlappingPartition { .. } | Reason::StalledAfterRestore { .. } => "↺",
        Reason::JobDown { .. } => "✕",
        Reason::FarFutureTimestamp { .. } | Reason::SecondsReadAsMillis { .. } | Reason::MillisReadAsSeconds { .. } => "⚠",
        Reason::SubtaskWithoutSplit { .. }
        | Reason::AllSplitsReleased { .. }
        | Reason::SplitNeverReceived { .. }
        | Reason::SplitSilentNoIdleTimeout { .. }
        | Reason::SplitSilentNothingAhead { .. }
        | Reason::PeriodicEmissionDisabled
        | Reason::ChannelNotRealigned { .. } => "■",
    }
}

#[component]
pub fn ExplainPanel() -> impl IntoView {
    let tab = RwSignal::new("why");
    view! {
        // A Tab stop, so that the arrow keys scroll it: it scrolls inside its height (a fade at
        // its foot says so), and its text has no control of its own to scroll to.
        <section class="card why" part="why" aria-labelledby="why-h" tabindex="0">
            <header class="card-head">
                <h2 id="why-h">"Why"</h2>
                <div role="tablist" class="tabs why-tabs" aria-label="WHY panel views" on:keydown=super::tab_list::on_tab_keys>
                    <WhyTab tab=tab id="why" label="Why" />
                    <WhyTab tab=tab id="advisor" label="Advisor" />
                    <WhyTab tab=tab id="lag" label="Lag" />
                </div>
            </header>
            <div class="tab-body" id="why-pane-why" role="tabpanel" aria-labelledby="why-tab-why" class:hidden=move || tab.get() != "why">
                <ExplainTarget />
                <ExplainSubject />
                <WhyAnnouncer />
                <ExplainBody />
                <FindingsList />
            </div>
            <div class="tab-body" id="why-pane-advisor" role="tabpanel" aria-labelledby="why-tab-advisor" class:hidden=move || tab.get() != "advisor">
                <AfterFirstPaint><AdvisorPanel /></AfterFirstPaint>
            </div>
            <div class="tab-body" id="why-pane-lag" role="tabpanel" aria-labelledby="why-tab-lag" class:hidden=move || tab.get() != "lag">
                <AfterFirstPaint><LagPanel shown=Signal::derive(move || tab.get() == "lag") /></AfterFirstPaint>
            </div>
        </section>
    }
}

/// The WHY panel's headline for screen readers (and the embed's WHY line's): a visually hidden
/// polite live region whose text changes, while playing, only when the diagnosis changes its
/// mind (another cause or culprit, or the first record read), not with every reading (its counts
/// and times move every frame); paused, it states the moment shown. The only live region for the diagnosis: the "Now:" line and the embed's line
/// are not, or each frame's times would be read out. Its text says when it was true ("At
/// 00:00:12.500: …"), and is cleared [`SAID_MS`] after: browsed to minutes later, "(1 so far,
/// the last 1.7 s ago)" was long out of date (the panel itself has the current words).
#[component]
pub fn WhyAnnouncer() -> impl IntoView {
    let pg = expect_context::<Pg>();
    // The first watermark too: "No watermark yet" and "No problem found" differ in none of the others.
    let first_wm = |r: &Reading| r.diag.explanation.as_ref().is_some_and(|e| e.watermark != crate::engine::time::NO_WATERMARK);
    let verdict = Memo::new(move |_| pg.reading_slow.with(|r| (r.started(), r.cause_attr(), r.culprit_attr(), first_wm(r))));
    let text = Memo::new(move |_| {
        // Read, not only tracked: a memo that is never read never runs, and never subscribes.
        verdict.with(|_| ());
        // Paused, it restates the moment (the pause itself, a seek, a step, a restart): it said
        // "At 00:00:03.575: …" with the clock at 00:25:45. Playing, only a new verdict is news.
        if !pg.playing.get() {
            pg.reading_slow.track();
        }
        // The diagnosis' own time since the start (-1 before anything was read).
        pg.reading_slow.with_untracked(|r| format!("At {}: {}", super::format::elapsed(r.diag.elapsed_ms.max(0), 0), r.diag.headline))
    });
    let said = RwSignal::new(text.get_untracked());
    // Each announcement's number: a timer clears only its own, so a newer one stays its full
    // time, even with the same words (A, B, A again within 7 s: comparing texts cleared it early).
    let spoken = StoredValue::new(0u64);
    let settle = StoredValue::new(Settle::new(pg.playing.get_untracked()));
    // `prev` is `None` on the first run only, which says what is there from the start.
    Effect::new(move |prev: Option<()>| {
        let t = text.get();
        spoken.update_value(|n| *n += 1);
        let own = spoken.get_value();
        let mine = move || spoken.try_get_value() == Some(own);
        let say = move || {
            if !mine() {
                return;
            }
            if said.try_with_untracked(|s| *s != t) == Some(true) {
                said.set(t);
            }
            set_timeout(
                move || {
                    if mine() {
                        said.try_set(String::new());
                    }
                },
                std::time::Duration::from_millis(SAID_MS),
            );
        };
        let (now, playing) = (super::state::perf_now(), pg.playing.get_untracked());
        if settle.try_update_value(|s| s.at_once(now, prev.is_none(), playing)).unwrap_or(true) {
            say();
        } else {
            set_timeout(say, std::time::Duration::from_millis(SETTLE_MS));
        }
    });
    view! { <p class="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="why-live">{said}</p> }
}

/// How long an announcement stays in the live region: a screen reader speaks a polite change
/// once it is idle, from the text it got then, and a text removed is not spoken (react-aria's
/// announcer clears after the same 7 s).
const SAID_MS: u64 = 7_000;

/// A tab of the WHY panel; the lag tab carries ⚠ while a subtask's lag is over the threshold.
#[component]
fn WhyTab(tab: RwSignal<&'static str>, id: &'static str, label: &'static str) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let alert = move || id == "lag" && pg.reading_slow.with(|r| r.diag.lag.iter().any(|l| l.over_threshold));
    view! {
        <button role="tab" class="tab" id=format!("why-tab-{id}") aria-controls=format!("why-pane-{id}")
            aria-selected=move || (tab.get() == id).to_string() tabindex=move || super::tab_list::tab_index(tab.get() == id) on:click=move |_| tab.set(id)>
            {label}{move || alert().then_some(" ⚠")}
        </button>
    }
}

/// What the keyed subtasks are: "window", or "join" in an interval join job.
fn noun(pg: &Pg) -> &'static str {
    pg.cfg.with(|c| c.keyed_noun())
}

/// Which window subtask to explain: the slowest (no selection), or one chosen by hand.
#[component]
fn ExplainTarget() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let ops = Memo::new(move |_| pg.snap_slow.with(|s| s.operators.len() as u32));
    view! {
        <label class="inline small why-target">
            "explain "
            <select aria-label="Window subtask to explain"
                prop:value=move || match pg.selection.get() { Selection::Operator(o) => o.to_string(), _ => "auto".to_string() }
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    pg.selection.set(v.parse().map(Selection::Operator).unwrap_or(Selection::None));
                    pg.refresh();
                }>
                <option value="auto">{move || format!("the slowest {} subtask", noun(&pg))}</option>
                {move || (0..ops.get()).map(|o| view! { <option value=o.to_string()>{format!("{} subtask {o}", noun(&pg))}</option> }).collect_view()}
            </select>
        </label>
    }
}

/// The short description of what is selected, above the explanation.
#[component]
fn ExplainSubject() -> impl IntoView {
    let pg = expect_context::<Pg>();
    move || {
        let sel = pg.selection.get();
        match sel {
            Selection::None => view! { <SubjectNone/> }.into_any(),
            Selection::Split(p) => view! { <SubjectSplit p=p/> }.into_any(),
            Selection::Source(s) => view! { <SubjectSource s=s/> }.into_any(),
            Selection::Operator(_) => ().into_any(),
            Selection::Window { subtask, key, start, end } => view! { <SubjectWindow subtask=subtask key=key start=start end=end/> }.into_any(),
            Selection::WindowRange { start, end } => view! { <SubjectWindowRange start=start end=end/> }.into_any(),
        }
    }
}

/// The explanation of the focused window subtask, rebuilt with every reading. It carries the
/// diagnosis' culprit and cause as `data-*` attributes (the same as the graph's, the preset
/// card's and the embed line's).
#[component]
fn ExplainBody() -> impl IntoView {
    let pg = expect_context::<Pg>();
    move || {
        pg.reading_slow.with(|r| match &r.explanation {
            None => view! { <p class="muted">"No window subtask to explain."</p> }.into_any(),
            Some(ex) => why_main(ex, r, pg).into_any(),
        })
    }
}

/// One explanation: where the watermark is, who holds it, why, the fixes and what waits.
/// Before anything is read it names no culprit: the diagnosis says so instead.
fn why_main(ex: &Explanation, r: &Reading, pg: Pg) -> impl IntoView {
    let n = pg.snap_slow.with(|s| s.now);
    let op = ex.subtask;
    let ahead = r.pushed_ahead();
    let chain = r.held_by().map(|(_, h)| view! { <HeldChain op=op h=h.clone() ahead=ahead /> });
    let sentence = if r.started() { ex.text.clone() } else { r.diag.headline.clone() };
    let reasons = pg.snap_slow.with(|s| ex.reasons.iter().map(|r| (icon(r), reason_text(r, n.ms(), s))).collect::<Vec<_>>());
    let reasons = reasons.into_iter().map(|(i, t)| view! { <li><span class="ico" aria-hidden="true">{i}</span>{t}</li> }).collect_view();
    let fixes = r.diag.fixes();
    let no_fix = fixes.is_empty();
    view! {
        <div class="why-main" class:calm=r.calm() data-culprit-partition=r.culprit_attr() data-cause=r.cause_attr()>
            <p class="headline">
                <b>{format!("{} subtask {op}", if noun(&pg) == "join" { "Join" } else { "Window" })}</b>
                {format!(" is at {} ", wm_human(ex.watermark.ms(), n.ms()))}
                <span class="raw mono">{format!("({})", wm_raw(ex.watermark.ms()))}</span>
                {(ex.watermark != NO_WATERMARK && ex.watermark != END_OF_TIME).then(|| lag_words(n.ms() - ex.watermark.ms()))}
            </p>
            {chain}
            <p class="sentence" data-testid="why-sentence">{sentence}</p>
            <ul class="reasons" class:hidden=ex.reasons.len() < 2 || !r.started()>{reasons}</ul>
            <div class="fixes" class:hidden=no_fix role="group" aria-label="Fixes">
                <span class="muted">"Try: "</span><FixButtonList fixes=fixes />
            </div>
            {waiting_windows(ex, n.ms())}
        </div>
    }
}

/// The culprit chain as chips that select each link: channel ← source subtask ← partition.
#[component]
fn HeldChain(op: u32, h: Culprit, ahead: bool) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let part = h.partition;
    // A two-input operator: which input (its topic) the channel belongs to, first in the chain.
    let (input, chained, part_name, src_name) = pg.snap_slow.with(|s| {
        let two = s.operators.get(op as usize).is_some_and(|o| !o.inputs.is_empty());
        let input = two.then(|| format!("input {} ({})", h.input + 1, s.job.topics.get(h.input).cloned().unwrap_or_default()));
        let chained = s.sources.get(h.source_subtask as usize).and_then(|x| x.midstream.as_ref()).map(|m| super::graph_chained::flink_name(&m.operator));
        (input, chained, part.map(|p| s.partition_name(p)), s.source_subtask_name(h.source_subtask))
    });
    let src = h.source_subtask;
    // "What holds" read as the opposite for a watermark pushed ahead (`holder_words`).
    let (label, _) = holder_words(ahead);
    let named = if ahead { "What pushed the watermark ahead" } else { "What holds the watermark" };
    view! {
        <p class="chain" aria-label=named>
            <span class="muted">{label}</span>
            {input.map(|i| view! { <button class="chip holding" data-chain-input=h.input on:click=move |_| pg.selection.set(Selection::Operator(op))>{i}</button>" ← " })}
            <button class="chip holding" on:click=move |_| pg.selection.set(Selection::Operator(op))>{format!("channel {}", h.channel)}</button>
            " ← "
            {chained.map(|c| view! { <button class="chip holding" data-chain-chained=src on:click=move |_| pg.selection.set(Selection::Source(src))>{c}</button>" ← " })}
            <button class="chip holding" on:click=move |_| pg.selection.set(Selection::Source(src))>{format!("source subtask {src_name}")}</button>
            {part.map(|p| view! { " ← " <button class="chip holding" data-chain-partition=p on:click=move |_| pg.selection.set(Selection::Split(p))>{format!("partition {}", part_name.clone().unwrap_or_default())}</button> })}
        </p>
    }
}

/// The earliest windows waiting for this watermark, and how many wait in all.
fn waiting_windows(ex: &Explanation, now: i64) -> impl IntoView {
    let total = ex.waiting_total;
    let rows = ex.waiting_windows.iter().map(|w| view! {
        <tr><td class="mono">{format!("[{}, {})", wm_human(w.start.ms(), now), wm_human(w.end.ms(), now))}</td><td>{w.key.clone()}</td><td class="num">{thousands(w.count)}</td></tr>
    }).collect_view();
    view! {
        <div class="waiting" class:hidden=total == 0>
            <p class="muted small">{format!("{} waiting for this watermark; the earliest:", count(total as u64, "window", "windows"))}</p>
            <table class="mini"><tbody>{rows}</tbody></table>
        </div>
    }
}

#[component]
fn SubjectNone() -> impl IntoView {
    view! { <p class="hint small muted">"Click a partition, subtask or window to explain it."</p> }
}

#[component]
fn SubjectSplit(p: u32) -> impl IntoView {
    let pg = expect_context::<Pg>();
    // The split's own input: its source's timeout, or SQL's operator after it (which idles the
    // whole subtask, not the split; the source before it has no strategy of its own).
    let idle_of = move |input: u8| {
        pg.cfg.with(|c| {
            let i = c.inputs.get(input as usize).unwrap_or(c.first());
            if i.sql_operator_after() {
                Err(i.idle_timeout_ms())
            } else {
                Ok(i.idle_timeout_ms())
            }
        })
    };
    // A partition nobody writes to is `silent` too: it has nothing to silence or resume.
    let producer = move || {
        pg.snap_slow.track();
        super::graph_partition::has_producer(&pg, p)
    };
    let text = move || {
        pg.snap_slow.with(|s| {
            let n = s.now;
            let Some(sp) = s.splits.get(p as usize) else { return String::new() };
            if sp.released {
                return format!("Partition {p} was removed; its split is released and no longer counts.");
            }
            let wm = sp.watermark.unwrap_or(NO_WATERMARK);
            // With the heartbeat filter on, heartbeats it read never count here: "never received a
            // record" was said of a partition that read two.
            let filtered = pg.cfg.with_untracked(|c| c.inputs.get(sp.input as usize).is_some_and(|i| i.source.transform.drop_heartbeats));
            let never = if filtered {
                "no record of it has reached the watermark generator (the filter drops heartbeats before it)"
            } else {
                "it has never received a record"
            };
            let last = sp.last_record_at.map_or(never.to_string(), |t| format!("its last record arrived {} ago", dur(n - t)));
            let idle = if sp.at_its_end {
                format!("It is at its end. {}.", super::graph_partition::AT_ITS_END_NOTE)
            } else if sp.idle {
                "It is IDLE: excluded from its subtask's minimum.".to_string()
            } else {
                match (idle_of(sp.input), sp.idle_deadline) {
                    (Err(None), _) => "It is active; SQL's watermark operator after its source decides idleness, and its table.exec.source.idle-timeout is off.".to_string(),
                    (Err(Some(t)), _) => format!("It is active; SQL's watermark operator after its source (table.exec.source.idle-timeout {}) idles the whole subtask, not this split.", dur_input(t)),
                    (Ok(None), _) => "It is active; no idle timeout is set, so it will never be declared idle.".to_string(),
                    (Ok(Some(_)), Some(at)) => format!("It is active; declared idle in {} unless a record arrives.", dur((at - n).max(0))),
                    (Ok(Some(t)), None) => format!("It is active (idle timeout {}).", dur_input(t)),
                }
            };
            let name = s.partition_name(p);
            let engine = super::graph_layout::scenario_number(&name, p);
            format!(
                "Partition {name}{engine} is read by source subtask {}. Its split watermark is {} ({}); {last}. {idle}{}",
                sp.subtask.map_or("-".into(), |t| s.source_subtask_name(t)),
                wm_human(wm.ms(), n.ms()),
                wm_raw(wm.ms()),
                if sp.silent && producer() { " Its producers are silenced." } else { "" }
            )
        })
    };
    let silent = move || pg.snap_slow.with(|s| s.splits.get(p as usize).is_some_and(|x| x.silent));
    // The diagnosis' class of the partition (empty, idle, sparse/heartbeat, slow …).
    let class = move || {
        pg.reading_slow.with(|r| {
            let c = r.diag.partitions.iter().find(|f| f.partition == p)?.class.label();
            Some(view! { <span class="badge class" data-class=c>{format!("partition {p} — {c}")}</span> })
        })
    };
    view! {
        <div class="subject">
            <p>{text}" "{class}</p>
            <div class="row-actions">
                <button class="btn small" class:hidden=move || !producer() on:click=move |_| {
                    let cmd = if silent() { Command::Resume { partition: p } } else { Command::Silence { partition: p } };
                    pg.apply_or_report(cmd);
                }>{super::icons::dynamic(move || if silent() { super::icons::Icon::Play } else { super::icons::Icon::Pause })}{move || if silent() { " Resume producers" } else { " Silence producers" }}</button>
                <button class="btn small ghost" on:click=move |_| { pg.apply_or_report(Command::Produce { partition: p, records: vec![RecordSpec { ts: None, ts_offset_ms: None, key: Some("manual".into()), value: None, heartbeat: false }] }); }>"Send one record (ts = now)"</button>
            </div>
        </div>
    }
}

#[component]
fn SubjectSource(s: u32) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let text = move || {
        pg.snap_slow.with(|sn| {
            let n = sn.now;
            let Some(v) = sn.sources.get(s as usize) else { return String::new() };
            let splits = if v.partitions.is_empty() {
                "owns no partition".to_string()
            } else {
                format!("reads partitions {}", v.partitions.iter().map(|&p| sn.partition_name(p)).collect::<Vec<_>>().join(", "))
            };
            // With two sources its name is `rates·0` (subtask 0 of the rates source).
            let name = sn.source_subtask_name(s);
            let topic = if sn.job.topics.len() > 1 {
                format!(" (subtask {} of the source of {})", v.subtask_in_source, sn.job.topics.get(v.input as usize).cloned().unwrap_or_default())
            } else {
                String::new()
            };
            // A chained watermark operator decides what leaves the subtask: say both states.
            let chained = v.midstream.as_ref().map_or(String::new(), |m| {
                format!(
                    " The {} chained after it replaces that: it is at {} and {}{}.",
                    super::graph_chained::flink_name(&m.operator),
                    wm_human(m.output_watermark.ms(), n.ms()),
                    if m.idle { "IDLE" } else { "active" },
                    if v.idle && !m.idle { " although the source is idle (it swallows the source's status)" } else { "" }
                )
            });
            let holder = v
                .partitions
                .iter()
                .filter_map(|&p| sn.splits.get(p as usize))
                .filter(|sp| !sp.idle && !sp.at_its_end)
                .min_by_key(|sp| sp.watermark.unwrap_or(NO_WATERMARK))
                .map(|sp| format!(" Its lowest active split is partition {}.", sn.partition_name(sp.partition)))
                .unwrap_or_default();
            format!(
                "Source subtask {name}{topic} {splits}. It emits {} ({}){}; the minimum over its non-idle splits is {}.{holder}{chained}",
                wm_human(v.output_watermark.ms(), n.ms()),
                wm_raw(v.output_watermark.ms()),
                if v.idle { " and is IDLE" } else { "" },
                wm_human(v.combined_watermark.ms(), n.ms())
            )
        })
    };
    view! { <div class="subject"><p>{text}</p></div> }
}

#[component]
fn SubjectWindow(subtask: u32, key: String, start: i64, end: i64) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let k = key.clone();
    let text = move || {
        let n = pg.snap_slow.with(|s| s.now);
        let fired = pg.with_sim(|s| {
            s.downstream().sink.results_of(EventTime(start), EventTime(end)).filter(|r| r.subtask == subtask && s.keys().name(r.key) == k).map(|r| (r.time.ms(), r.watermark.ms(), r.kind, r.agg.count)).collect::<Vec<_>>()
        });
        // The sink counts a window's dropped results over every key and subtask: of one key's
        // it can only say that they may be gone, once its subtask has fired the window.
        let dropped = pg.with_sim(|s| s.downstream().sink.dropped_of(EventTime(start), EventTime(end)));
        let passed = pg.snap_slow.with(|s| s.operators.iter().any(|o| o.subtask == subtask && o.input_watermark.ms() >= end - 1));
        match fired.last() {
            None if dropped != Some(0) && passed => {
                format!("Window [{}, {}) for key {k:?} on window subtask {subtask}: {}", wm_human(start, n.ms()), wm_human(end, n.ms()), not_kept(&pg, None))
            }
            None => format!("Window [{}, {}) for key {k:?} on window subtask {subtask} has not fired: it fires when the subtask's watermark reaches {}.", wm_human(start, n.ms()), wm_human(end, n.ms()), wm_human(end - 1, n.ms())),
            Some(&(t, w, kind, c)) => format!(
                "Window [{}, {}) for key {k:?} fired {} on window subtask {subtask}; the last firing at {} (watermark {}, {}, {}), {}.",
                wm_human(start, n.ms()),
                wm_human(end, n.ms()),
                // Its older firings may be among the results the page no longer keeps.
                if dropped == Some(0) { count(fired.len() as u64, "time", "times") } else { format!("at least {}", count(fired.len() as u64, "time", "times")) },
                wm_human(t, n.ms()),
                wm_human(w, n.ms()),
                match kind {
                    FiringKind::OnTime => "on time",
                    FiringKind::Early => "early, by the continuous trigger",
                    FiringKind::Late => "late, for a record within the allowed lateness",
                },
                count(c, "record", "records"),
                // An early firing comes before the end.
                if t >= end { format!("{} after the window ended", dur(t - end)) } else { format!("{} before the window ended", dur(end - t)) }
            ),
        }
    };
    view! { <div class="subject" data-testid="window" data-start=start data-end=end><p>{text}</p></div> }
}

/// What the page says of a window none of whose results it keeps (`TraceSpec::in_page`):
/// `dropped` of them were dropped, or an unknown number (`None`, a window older than every
/// kept result, which may also never have fired).
fn not_kept(pg: &Pg, dropped: Option<usize>) -> String {
    let (kept, evicted) = pg.with_sim(|s| (s.downstream().sink.results().len(), s.downstream().sink.evicted()));
    let counted = format!("the graph's fired counts include the {} the page no longer keeps", count(evicted as u64, "result", "results"));
    match dropped {
        Some(d) => format!(
            "it fired {}, {} older than the newest {} the page keeps ({counted}).",
            count(d as u64, "result", "results"),
            if d == 1 { "which is" } else { "all" },
            thousands(kept as u64)
        ),
        None => format!("its results, if it fired, are older than the newest {} the page keeps ({counted}).", thousands(kept as u64)),
    }
}

/// How a window band's firing reads (`fired for 3 keys (3 results): first`), from its kept
/// results and the count of its `dropped` ones (`None`: unknown, maybe some).
fn fired_for(keys: usize, results: usize, refired: usize, dropped: Option<usize>) -> String {
    let late = if refired > 0 { format!(", {refired} of them late re-firings") } else { String::new() };
    let kept = format!("{} ({}{late})", count(results as u64, "result", "results"), count(keys as u64, "key", "keys"));
    match dropped {
        Some(0) => format!("fired for {} ({}{late}): first", count(keys as u64, "key", "keys"), count(results as u64, "result", "results")),
        Some(d) => format!("fired {} results; the page keeps the newest {kept}: the oldest kept", thousands((d + results) as u64)),
        None => format!("fired; the page keeps {} of its results ({}{late}); older ones may be gone: the oldest kept", thousands(results as u64), count(keys as u64, "key", "keys")),
    }
}

/// A window band picked on the timeline: the window `[start, end)` over every key.
#[component]
fn SubjectWindowRange(start: i64, end: i64) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let text = move || {
        let (n, slowest) = pg.snap_slow.with(|s| (s.now.ms(), s.operators.iter().map(|o| (o.input_watermark.ms(), o.subtask)).min()));
        // (results, keys, late re-firings, first firing (time, watermark), last firing time)
        let (results, keys, refired, first, last) = pg.with_sim(|s| {
            let mut keys = std::collections::BTreeSet::new();
            let (mut results, mut refired, mut first, mut last) = (0usize, 0usize, None, None);
            for r in s.downstream().sink.results_of(EventTime(start), EventTime(end)) {
                results += 1;
                keys.insert(r.key);
                if r.kind == crate::engine::operator::trigger::FiringKind::Late {
                    refired += 1;
                }
                first = first.or(Some((r.time.ms(), r.watermark.ms())));
                last = Some(r.time.ms());
            }
            (results, keys.len(), refired, first, last)
        });
        let name = format!("Window [{}, {})", wm_human(start, n), wm_human(end, n));
        let fires_at = wm_human(end - 1, n);
        let dropped = pg.with_sim(|s| s.downstream().sink.dropped_of(EventTime(start), EventTime(end)));
        match (first, last) {
            (None, _) if dropped != Some(0) => format!("{name}: {}", not_kept(&pg, dropped)),
            (Some((t, w)), Some(l)) => format!(
                "{name} {} at {} (watermark {}), {} after the window ended{}.",
                // With older results dropped, the first kept firing is not the window's first.
                fired_for(keys, results, refired, dropped),
                wm_human(t, n),
                wm_human(w, n),
                dur(t - end),
                if l > t { format!("; the last at {}", wm_human(l, n)) } else { String::new() }
            ) + &late_in(&pg, start, end).map_or(String::new(), |late| format!(" Besides, {late}.")),
            _ => match slowest {
                Some((w, _)) if w >= end - 1 => match late_in(&pg, start, end) {
                    None => format!("{name} has no results: no record fell into it (every window subtask's watermark has passed {fires_at})."),
                    Some(late) => format!("{name} has no results: {late}."),
                },
                Some((w, o)) => format!(
                    "{name} has not fired: each window subtask fires it when its watermark reaches {fires_at}. The slowest, window subtask {o}, is at {} — {}; why, below.",
                    wm_human(w, n),
                    if w == MIN_WM { "it has no watermark yet".to_string() } else { format!("{} short", dur(end - 1 - w)) }
                ),
                None => format!("{name} has not fired."),
            },
        }
    };
    view! { <div class="subject" data-testid="window-range" data-start=start data-end=end><p>{text}</p></div> }
}

/// The records of `[start, end)` that came after its window subtask's watermark had passed it,
/// in words ("12 of its records came after the watermark had passed it: 10 dropped as late, 2
/// to the side output"): "no record fell into it" hid the very records a late-data job loses.
/// Counted over the late records the engine keeps (`trace.late_records_retained`): "at least"
/// once it has dropped older ones.
fn late_in(pg: &Pg, start: i64, end: i64) -> Option<String> {
    let (dropped, side, full) = pg.with_sim(|s| {
        let late = &s.downstream().late;
        let of: Vec<bool> = late.iter().filter(|l| (start..end).contains(&l.ts.ms())).map(|l| l.side_output).collect();
        let side = of.iter().filter(|&&so| so).count();
        (of.len() - side, side, late.len() >= s.config().late_records_retained)
    });
    if dropped + side == 0 {
        return None;
    }
    let parts: Vec<String> = [(dropped, "dropped as late"), (side, "to the side output")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{} {what}", thousands(*n as u64)))
        .collect();
    let n = thousands((dropped + side) as u64);
    let at_least = if full { "at least " } else { "" };
    Some(format!("{at_least}{n} of its records came after the watermark had passed it ({})", parts.join(", ")))
}

/// How far the watermark trails processing time, or leads it (`format::lag_side`).
fn lag_words(lag_ms: i64) -> String {
    let (d, side) = lag_side(lag_ms);
    let relation = match side {
        Side::Behind => "behind",
        Side::Ahead => "ahead of",
    };
    format!(" · {d} {relation} processing time")
}
