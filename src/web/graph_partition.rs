//! A partition in the job graph: its pill (name, state, watermark) and its Silence / Resume
//! button. The pill names a state, never an action (active, idle, silenced, released, at its
//! end, no producer); a real job's splits (the live card) are named by their split ids and show their
//! state only, since its producers are not known.

use super::format::wm_human;
use super::graph_flow_marks::PauseBadge;
use super::graph_layout::{partition_label, Layout, SILENCE_W};
use super::reading::Chain;
use super::rows::split_memo;
use super::state::{Pg, Selection};
use crate::engine::time::NO_WATERMARK;
use leptos::prelude::*;

#[component]
pub fn PartitionNode(p: u32, lay: Memo<Layout>, chain: Memo<Chain>, compact: Memo<bool>) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = split_memo(pg.snap, p);
    let name = Memo::new(move |_| live_split(&pg, p).unwrap_or_else(|| pg.snap.with(|s| partition_label(s, p))));
    // As sentences name it: "partition 3", "partition rates-0" (the pill says `p3`).
    let spoken = Memo::new(move |_| live_split(&pg, p).unwrap_or_else(|| pg.snap.with(|s| s.partition_name(p))));
    let state = Memo::new(move |_| d.with(|s| s.as_ref().map(|s| (s.idle, s.released, s.watermark.unwrap_or(NO_WATERMARK) == NO_WATERMARK, s.silent))));
    // As the split table says it: read again up to where its input had ended, it waits there.
    let at_its_end = Memo::new(move |_| d.with(|s| s.as_ref().is_some_and(|s| s.at_its_end)));
    let producer = Memo::new(move |_| {
        pg.snap.track();
        has_producer(&pg, p)
    });
    let live = pg.live.is_some();
    let badge = Memo::new(move |_| state.get().map_or(PartState::Active, |(idle, released, _, silent)| PartState::of(idle, released, at_its_end.get(), silent, producer.get())));
    let read_only = super::host::read_only();
    // A split at its end names that first, whether anything writes to it or not.
    let toggles = move || !live && !read_only() && producer.get() && badge.get().can_toggle();
    let geo = Memo::new(move |_| lay.with(|l| (l.p_x, l.p_y.get(p as usize).copied().unwrap_or(0.0), l.p_h - 4.0, l.p_w)));
    let row_h = Memo::new(move |_| lay.with(|l| l.p_h));
    let class = move || part_class(state.get(), chain.with(|c| c.2) == Some(p), pg.selection.with(|sel| *sel == Selection::Split(p)));
    let wm = move || d.with(|s| s.as_ref().filter(|s| !s.released).map(|s| wm_human(s.watermark.unwrap_or(NO_WATERMARK).ms(), s.now.ms())).unwrap_or_default());
    // Large topologies: the pill has the name and a state other than active; the watermark is
    // in the splits table and the accessible name.
    let shown_wm = move || if compact.get() { String::new() } else { format!(" {}", wm()) };
    let shown_badge = move || if compact.get() && badge.get() == PartState::Active { String::new() } else { format!(" {}", badge.get().word()) };
    // The outline says which one holds the watermark (or pushed it ahead); the name says it too.
    let holds = move || if chain.with(|c| c.2) == Some(p) { format!(", {}", super::graph::chain_role(&pg)) } else { String::new() };
    // The pill's word is the cause; the hatching says idle, and so do these words.
    let idle = move || state.with(|s| s.is_some_and(|s| s.0));
    let words = move || badge.get().words(idle());
    let label = move || format!("Partition {}: {}, watermark {}{}; press Enter to explain", spoken.get(), words(), wm(), holds());
    let silent = move || state.with(|s| s.is_some_and(|s| s.3));
    let verb = move || if silent() { "Resume" } else { "Silence" };
    view! {
        <g class="part-row">
            <g class="silence-btn" class:on=silent class:hidden=move || !toggles()
                data-silence=p role="button" tabindex="-1"
                aria-label=move || format!("{} partition {}", verb(), spoken.get())>
                <title>{move || format!("{} the producers of partition {}", verb(), spoken.get())}</title>
                <rect x=move || geo.get().0 - SILENCE_W + 4.0 y=move || geo.get().1 - geo.get().2 / 2.0 width=SILENCE_W - 8.0 height=move || geo.get().2 rx="3" />
                <text x=move || geo.get().0 - SILENCE_W / 2.0 y=move || geo.get().1 + 3.5 text-anchor="middle">{verb}</text>
                // What a finger hits: the whole row left of the pill (the drawn button is 4 units
                // shorter and 6 narrower), so that on a phone, where rows are `TOUCH_ROW` tall,
                // it is 24 CSS px or more; rows do not overlap, so neither do these.
                <rect class="hit" x=move || geo.get().0 - SILENCE_W y=move || geo.get().1 - row_h.get() / 2.0 width=SILENCE_W - 2.0 height=move || row_h.get() />
            </g>
            <g class=class data-partition=p data-state=move || badge.get().word() tabindex="-1" role="button" aria-label=label>
                <title>{move || if live { format!("split {}: {}", name.get(), words()) } else { format!("partition {}{}: {}; click to explain", name.get(), super::graph_layout::scenario_number(&name.get(), p), words()) }}</title>
                <rect class="box" x=move || geo.get().0 y=move || geo.get().1 - geo.get().2 / 2.0 width=move || geo.get().3 height=move || geo.get().2 rx="4" />
                <text class="mono" x=move || geo.get().0 + 6.0 y=move || geo.get().1 + 3.5>
                    {move || name.get()}
                    <tspan class=move || format!("st st-{}", badge.get().class())>{shown_badge}</tspan>
                    {shown_wm}
                </text>
                <PauseBadge p=p lay=lay />
            </g>
        </g>
    }
}

/// Why a split at its end is left out, where a view names that state (the split table's
/// status, the WHY panel).
pub const AT_ITS_END_NOTE: &str = "Read again after the restore up to where its input had ended, it waits there as a finished Flink split does: its subtask's watermark leaves it out until the input ends again";

/// A real job's split id for partition `p` (`None` for the simulation).
pub fn live_split(pg: &Pg, p: u32) -> Option<String> {
    pg.live.and_then(|l| l.with(|g| g.split_ids.get(p as usize).cloned()))
}

/// [`live_split`] with its source's name when the job has several (each numbers its splits
/// from 0), for a table row that has no band heading above it: `split-0 (rates)`.
pub fn live_split_of_source(pg: &Pg, p: u32) -> Option<String> {
    let id = live_split(pg, p)?;
    pg.live.and_then(|l| {
        l.with(|g| {
            let input = g.snapshot.splits.get(p as usize)?.input as usize;
            let source = g.source_names.get(input).filter(|_| g.source_names.len() > 1);
            Some(source.map_or_else(|| id.clone(), |s| format!("{id} ({})", s.trim_start_matches("Source: "))))
        })
    })
}

/// What a partition's badge says: its state, never an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartState {
    Released,
    /// Read again after a restore up to where its subtask's input had ended: out of the
    /// subtask's watermark until the input ends again.
    AtItsEnd,
    NoProducer,
    Silenced,
    Idle,
    Active,
}

/// Whether anything writes to partition `p`. One nobody writes to is not "silenced": it has
/// nothing to resume (nor has a removed one, whose producers write nothing and take no more
/// commands). A real job's producers are not known: its splits show their state only (active
/// or idle).
pub fn has_producer(pg: &Pg, p: u32) -> bool {
    pg.live.is_some()
        || pg.with_sim(|s| s.partitions().get(p as usize).is_some_and(|x| !x.removed) && s.producers().iter().any(|x| x.partition == p))
}

impl PartState {
    pub fn of(idle: bool, released: bool, at_its_end: bool, silent: bool, has_producer: bool) -> Self {
        match () {
            _ if released => PartState::Released,
            _ if at_its_end => PartState::AtItsEnd,
            _ if !has_producer => PartState::NoProducer,
            _ if silent => PartState::Silenced,
            _ if idle => PartState::Idle,
            _ => PartState::Active,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            PartState::Released => "released",
            PartState::AtItsEnd => "at its end",
            PartState::NoProducer => "no producer",
            PartState::Silenced => "silenced",
            PartState::Idle => "idle",
            PartState::Active => "active",
        }
    }

    /// The word, and "idle" beside a cause that hides it ("silenced, idle"): a silenced
    /// partition or one nobody writes to is or is not idle, which is what the watermark reads.
    pub fn words(self, idle: bool) -> String {
        match self {
            PartState::Silenced | PartState::NoProducer if idle => format!("{}, idle", self.word()),
            PartState::AtItsEnd => "at its end, not counted in its subtask's watermark".to_string(),
            _ => self.word().to_string(),
        }
    }

    fn class(self) -> &'static str {
        match self {
            PartState::NoProducer => "none",
            PartState::AtItsEnd => "end",
            other => other.word(),
        }
    }

    /// Only a partition with producers can be silenced or resumed (one at its end too: what
    /// its producers write waits beyond its end, and is read once the input has ended).
    fn can_toggle(self) -> bool {
        !matches!(self, PartState::Released | PartState::NoProducer)
    }
}

/// A partition's classes from its state (idle, released, No Watermark, silent).
fn part_class(state: Option<(bool, bool, bool, bool)>, holding: bool, selected: bool) -> String {
    let mut c = String::from("node part");
    if let Some((idle, released, nowm, _)) = state {
        c += if idle { " idle" } else { "" };
        c += if released { " released" } else if nowm { " nowm" } else { "" };
    }
    c += if holding { " holding" } else { "" };
    c += if selected { " selected" } else { "" };
    c
}
