//! Partitions (add / remove while running), parallelism and exchange (restart), channel
//! latency and read rate (live).

use super::field::*;
use crate::engine::command::{Command, Param};
use crate::engine::partitioner::Exchange;
use crate::web::format::{dur_input, parse_duration, parse_int};
use crate::web::state::Pg;
use crate::web::glyphs::Restarts;
use leptos::prelude::*;

#[component]
pub fn TopologyControls() -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <section class="ctl-group" aria-labelledby="ctl-topology">
            <h3 id="ctl-topology">"Topology"</h3>
            <PartitionButtons />
            <ParallelismControls />
            <Field label="channel latency" id="f-latency" hint="0, or e.g. 50 ms"
                value=Signal::derive(move || dur_input(pg.cfg.with(|c| c.channel_latency_ms)))
                validate=v_duration
                on_commit=Callback::new(move |t: String| pg.apply(Command::SetParam { param: Param::ChannelLatencyMs(parse_duration(&t)?) }).map_err(|e| e.message)) />
            <Field label="read rate per source subtask (records/s)" id="f-read-rate" hint="unlimited, or e.g. 500"
                value=Signal::derive(move || pg.cfg.with(|c| c.first().read_rate_per_s.map_or("unlimited".into(), |r| r.to_string())))
                validate=v_read_rate
                on_commit=Callback::new(move |t: String| {
                    let v = if matches!(t.trim(), "" | "unlimited" | "off") { None } else { Some(parse_int(&t, 1, 100_000_000)? as u64) };
                    pg.apply(Command::SetParam { param: Param::ReadRatePerS(v) }).map_err(|e| e.message)
                }) />
        </section>
    }
}

/// Add a partition, or remove the chosen one (the last by default), while running.
#[component]
fn PartitionButtons() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let parts = Memo::new(move |_| {
        pg.snap_slow.with(|s| s.splits.iter().filter(|p| !p.released).map(|p| (p.partition, crate::web::graph_layout::partition_label(s, p.partition))).collect::<Vec<_>>())
    });
    let remove_sel = RwSignal::new(String::new());
    let add = move |_| {
        if pg.apply_or_report(Command::AddPartition { topic: None }) {
            // It goes to the first input's topic (`add_partition` without a topic).
            let name = pg.snap_slow.with_untracked(|s| crate::web::graph_layout::partition_label(s, s.splits.len() as u32 - 1));
            pg.info(format!("Added partition {name} (no producer yet: it holds the watermark until it gets data or goes idle)"));
        }
    };
    let remove = move |_| {
        let p = remove_sel.get_untracked().parse::<u32>().ok().or_else(|| parts.get_untracked().last().map(|x| x.0));
        if let Some(p) = p {
            let name = pg.snap_slow.with_untracked(|s| crate::web::graph_layout::partition_label(s, p));
            if pg.apply_or_report(Command::RemovePartition { partition: p }) {
                // Its option is gone: the select goes back to "last", not to a blank choice.
                remove_sel.set(String::new());
                pg.info(format!("Removed partition {name}: its split is released"));
            }
        }
    };
    view! {
        <div class="btn-row">
            <button class="btn small" id="btn-add-partition" on:click=add>"+ Add partition"</button>
            <select aria-label="Partition to remove" prop:value=move || remove_sel.get() on:change=move |ev| remove_sel.set(event_target_value(&ev))>
                <option value="">"last"</option>
                {move || parts.get().into_iter().map(|(p, name)| view! { <option value=p.to_string()>{name}</option> }).collect_view()}
            </select>
            <button class="btn small ghost" id="btn-remove-partition" on:click=remove><span aria-hidden="true">"− "</span>"Remove"</button>
        </div>
    }
}

/// Drafts for the restart-only parallelism and exchange, and the message under them.
#[derive(Clone, Copy)]
struct TopologyDraft {
    src_p: RwSignal<String>,
    win_p: RwSignal<String>,
    exchange: RwSignal<String>,
    err: RwSignal<Option<String>>,
}

impl TopologyDraft {
    fn new() -> Self {
        let s = || RwSignal::new(String::new());
        TopologyDraft { src_p: s(), win_p: s(), exchange: s(), err: RwSignal::new(None) }
    }

    /// Resets the drafts to the running job.
    fn load(self, source_parallelism: u32, window_parallelism: u32, x: Exchange) {
        self.src_p.set(source_parallelism.to_string());
        self.win_p.set(window_parallelism.to_string());
        self.exchange.set(match x {
            Exchange::Hash => "hash",
            Exchange::Rebalance => "rebalance",
            Exchange::Forward => "forward",
        }.into());
        self.err.set(None);
    }

    /// Restarts the job with the drafted parallelism and exchange (keeping partitions added
    /// while running), or says what is wrong.
    fn apply(self, pg: Pg) {
        let s = parse_int(&self.src_p.get_untracked(), 1, 256).map_err(|e| format!("source parallelism: {e}"));
        let w = parse_int(&self.win_p.get_untracked(), 1, 256).map_err(|e| format!("window parallelism: {e}"));
        let (s, w) = match (s, w) {
            (Ok(s), Ok(w)) => (s as u32, w as u32),
            (Err(e), _) | (_, Err(e)) => return self.err.set(Some(e)),
        };
        let x = match self.exchange.get_untracked().as_str() {
            "rebalance" => Exchange::Rebalance,
            "forward" => Exchange::Forward,
            _ => Exchange::Hash,
        };
        // The first topic's partitions (added ones go there); the second topic's are its own.
        let live_parts = pg.snap_slow.with_untracked(|sn| sn.splits.iter().filter(|p| p.input == 0).count() as u32);
        match pg.restart_with(|sc| {
            sc.source.parallelism = s;
            sc.set_keyed_parallelism(w);
            sc.exchange.kind = x;
            // Partitions added while running become part of the topic.
            sc.topic.partitions = sc.topic.partitions.max(live_parts);
            sc.commands.retain(|c| !matches!(c.command, Command::AddPartition { topic: None }));
        }) {
            Ok(()) => {
                self.err.set(None);
                pg.info(format!("Parallelism: source {s}, window {w} (restarted)"));
            }
            Err(e) => self.err.set(Some(format!("{e}"))),
        }
    }
}

/// Source and window parallelism and the exchange, applied with a restart.
#[component]
fn ParallelismControls() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = TopologyDraft::new();
    Effect::new(move |_| {
        let (s, w, x) = pg.cfg.with(|c| (c.first().source_parallelism, c.window_parallelism, c.first().exchange));
        d.load(s, w, x);
    });
    let exchange = d.exchange;
    // With two inputs these change the first source (its topic named) and its exchange; a join
    // job's keyed operator is the join.
    let src_label = Signal::derive(move || {
        pg.cfg.with(|c| if c.inputs.len() > 1 { format!("source parallelism ({})", c.first().topic) } else { "source parallelism".to_string() })
    });
    let op_label = Signal::derive(move || pg.cfg.with(|c| if c.interval_join.is_some() { "join parallelism" } else { "window parallelism" }.to_string()));
    view! {
        <div class="field-row">
            <NumDraft id="f-src-par" label=src_label sig=d.src_p err=d.err />
            <NumDraft id="f-win-par" label=op_label sig=d.win_p err=d.err />
            <div class="field">
                <label for="f-exchange">"exchange"</label>
                <select id="f-exchange" prop:value=move || exchange.get() on:change=move |ev| exchange.set(event_target_value(&ev))>
                    <option value="hash">"keyBy"</option>
                    <option value="rebalance">"rebalance"</option>
                    <option value="forward">"forward"</option>
                </select>
            </div>
        </div>
        <div class="apply-row">
            <button class="btn small" id="btn-apply-parallelism" aria-describedby="apply-topology-note" on:click=move |_| d.apply(pg)>"Apply"<span class="sr-only">" topology"</span><Restarts said_beside=true/></button>
            <small class="field-msg" id="apply-topology-note" class:error=move || d.err.with(|e| e.is_some())><span role="alert">{move || d.err.get()}</span><span class:sr-only=move || d.err.with(Option::is_some)>" restarts the job from time zero"</span></small>
        </div>
    }
}

/// A drafted parallelism, checked as typed (the message goes to `err`).
#[component]
fn NumDraft(id: &'static str, label: Signal<String>, sig: RwSignal<String>, err: RwSignal<Option<String>>) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input id=id type="text" inputmode="numeric" prop:value=move || sig.get()
                on:input=move |ev| {
                    let t = event_target_value(&ev);
                    err.set(v_parallelism(&t).err().map(|e| format!("{}: {e}", label.get_untracked())));
                    sig.set(t);
                } />
        </div>
    }
}

fn v_read_rate(s: &str) -> Result<(), String> {
    if matches!(s.trim(), "" | "unlimited" | "off") {
        Ok(())
    } else {
        parse_int(s, 1, 100_000_000).map(|_| ())
    }
}
