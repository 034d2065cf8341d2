//! Injecting events: one record with a chosen timestamp (relative to now or absolute), and
//! bulk generators (steady rate, out-of-order jitter, bursts, heartbeat cadence, far-future
//! outlier) attached to a partition or to all of them.

use crate::engine::command::Command;
use crate::engine::scenario::schema::{KeysSpec, PartitionSelector, ProducerSpec, RecordSpec};
use crate::engine::producer::ProducerKind;
use crate::web::format::{parse_duration, parse_int, parse_signed_duration, parse_utc_or_now, wm_human};
use crate::web::state::Pg;
use leptos::prelude::*;

fn partition_options(pg: Pg) -> impl IntoView {
    // A memo: the options are rebuilt only when the partitions change, not at every update.
    // Values are engine partition numbers; the names are the graph's (`rates-0` with two topics).
    let live = Memo::new(move |_| {
        pg.snap_slow.with(|s| {
            s.splits.iter().filter(|p| !p.released).map(|p| (p.partition, crate::web::graph_layout::partition_label(s, p.partition))).collect::<Vec<_>>()
        })
    });
    move || live.get().into_iter().map(|(p, name)| view! { <option value=p.to_string()>{format!("partition {name}")}</option> }).collect_view()
}

/// "All partitions", once per topic in a job with two (a producer writes to one topic).
fn all_options(pg: Pg) -> impl IntoView {
    let topics = Memo::new(move |_| pg.snap_slow.with(|s| s.job.topics.clone()));
    move || {
        let t = topics.get();
        if t.len() < 2 {
            view! { <option value="all">"all partitions"</option> }.into_any()
        } else {
            t.into_iter().enumerate().map(|(i, name)| view! { <option value=format!("all:{i}")>{format!("all partitions of {name}")}</option> }).collect_view().into_any()
        }
    }
}

/// The drafted record (partition, timestamp mode and text, key, value, heartbeat flag) and the
/// message under it.
#[derive(Clone, Copy)]
struct RecordDraft {
    partition: RwSignal<String>,
    mode: RwSignal<String>,
    ts: RwSignal<String>,
    key: RwSignal<String>,
    value: RwSignal<String>,
    heartbeat: RwSignal<bool>,
    /// Each field's own message as typed (one did not replace the other's), and the send's.
    ts_err: RwSignal<Option<String>>,
    value_err: RwSignal<Option<String>>,
    err: RwSignal<Option<String>>,
}

impl RecordDraft {
    fn new() -> Self {
        let s = |v: &str| RwSignal::new(v.to_string());
        RecordDraft { partition: s("0"), mode: s("relative"), ts: s("-2 s"), key: s("manual"), value: s("1"), heartbeat: RwSignal::new(false), ts_err: RwSignal::new(None), value_err: RwSignal::new(None), err: RwSignal::new(None) }
    }

    /// The drafted event time: an offset from now, or a UTC time / epoch ms.
    fn resolve(self, pg: Pg) -> Result<i64, String> {
        let now = pg.now();
        if self.mode.get_untracked() == "relative" {
            parse_signed_duration(&self.ts.get_untracked()).map(|o| now + o)
        } else {
            parse_utc_or_now(&self.ts.get_untracked(), now, now)
        }
    }

    /// The event time the draft resolves to, as shown under the field (or what is wrong).
    fn preview(self, pg: Pg) -> String {
        self.ts.track();
        self.mode.track();
        let now = pg.snap_slow.with(|s| s.now);
        match self.resolve(pg) {
            Ok(t) => format!("event time {} ({t})", wm_human(t, now.ms())),
            Err(e) => e,
        }
    }

    /// Sends the drafted record, or says what is wrong.
    fn send(self, pg: Pg) {
        let p = match parse_int(&self.partition.get_untracked(), 0, u32::MAX as i64) {
            Ok(p) => p as u32,
            Err(e) => return self.err.set(Some(format!("partition: {e}"))),
        };
        let t = self.resolve(pg).map_err(|e| self.ts_err.set(Some(e)));
        let v = parse_value(&self.value.get_untracked()).map_err(|e| self.value_err.set(Some(e)));
        let (Ok(t), Ok(v)) = (t, v) else {
            return self.err.set(Some("fix the field marked above".into()));
        };
        let k = self.key.get_untracked();
        // Absolute timestamps, so that the exported scenario replays the very same record.
        let rec = RecordSpec { ts: Some(t), ts_offset_ms: None, key: Some(if k.is_empty() { "manual".into() } else { k }), value: Some(v), heartbeat: self.heartbeat.get_untracked() };
        match pg.apply(Command::Produce { partition: p, records: vec![rec] }) {
            Ok(()) => {
                self.err.set(None);
                // The last send's confirmation replaces the one before: four piled over the WHY panel.
                pg.clear_confirmations(|n| n.starts_with(SENT));
                pg.info(format!("{SENT} to partition {p} (event time {})", wm_human(t, pg.now())));
            }
            Err(e) => self.err.set(Some(format!("{e}"))),
        }
    }
}

#[component]
pub fn InjectControls() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = RecordDraft::new();
    view! {
        <section class="ctl-group" aria-labelledby="ctl-inject">
            <h3 id="ctl-inject">"Inject an event"</h3>
            <RecordTarget d=d />
            <RecordTimestamp d=d />
            <RecordKeyValue d=d />
            <label class="check"><input type="checkbox" prop:checked=move || d.heartbeat.get() on:change=move |ev| d.heartbeat.set(event_target_checked(&ev)) />"mark as heartbeat"</label>
            <div class="apply-row">
                <button class="btn small" id="btn-send" on:click=move |_| d.send(pg)>"Send"</button>
                <small class="field-msg" class:error=move || d.err.with(|e| e.is_some())><span role="alert">{move || d.err.get()}</span></small>
            </div>
        </section>
    }
}

/// The partition to send to, and how the timestamp is given (switching resets its text).
#[component]
fn RecordTarget(d: RecordDraft) -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <div class="field-row">
            <div class="field">
                <label for="f-inj-part">"into"</label>
                <select id="f-inj-part" prop:value=move || d.partition.get() on:change=move |ev| d.partition.set(event_target_value(&ev))>
                    {partition_options(pg)}
                </select>
            </div>
            <div class="field">
                <label for="f-inj-mode">"timestamp"</label>
                <select id="f-inj-mode" prop:value=move || d.mode.get() on:change=move |ev| {
                    let m = event_target_value(&ev);
                    // Now, as a date: a time of day is read on now's day, and with a day mark on another.
                    d.ts.set(if m == "relative" { "-2 s".into() } else { crate::engine::time::format_utc(pg.now()) });
                    d.ts_err.set(None);
                    d.mode.set(m);
                }>
                    <option value="relative">"relative to now"</option>
                    <option value="absolute">"absolute (UTC)"</option>
                </select>
            </div>
        </div>
    }
}

/// How a send's confirmation starts.
const SENT: &str = "Sent one record";

/// The timestamp (checked as typed; Enter sends) and the event time it resolves to.
#[component]
fn RecordTimestamp(d: RecordDraft) -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <div class="field" class:invalid=move || d.ts_err.with(Option::is_some)>
            <label for="f-inj-ts">{move || if d.mode.get() == "relative" { "offset from now (e.g. -2 s, +1 h, now)" } else { "UTC time, epoch ms or now" }}</label>
            <input id="f-inj-ts" type="text" spellcheck="false" prop:value=move || d.ts.get()
                aria-invalid=move || d.ts_err.with(Option::is_some).to_string() aria-describedby="f-inj-ts-msg"
                on:input=move |ev| { d.ts.set(event_target_value(&ev)); d.ts_err.set(d.resolve(pg).err()); d.err.set(None); }
                on:keydown=move |ev: leptos::ev::KeyboardEvent| { if ev.key() == "Enter" { d.send(pg) } } />
            <small class="field-msg mono" id="f-inj-ts-msg">{move || d.preview(pg)}</small>
        </div>
    }
}

/// A record's value: a whole number the engine's sums keep exact.
fn parse_value(t: &str) -> Result<i64, String> {
    parse_int(t, i64::MIN / 4, i64::MAX / 4)
}

/// The record's key and value (the value checked as typed).
#[component]
fn RecordKeyValue(d: RecordDraft) -> impl IntoView {
    view! {
        <div class="field-row">
            <div class="field"><label for="f-inj-key">"key"</label>
                <input id="f-inj-key" type="text" prop:value=move || d.key.get() on:input=move |ev| d.key.set(event_target_value(&ev)) /></div>
            <div class="field" class:invalid=move || d.value_err.with(Option::is_some)><label for="f-inj-val">"value"</label>
                <input id="f-inj-val" type="text" inputmode="numeric" prop:value=move || d.value.get()
                    aria-invalid=move || d.value_err.with(Option::is_some).to_string() aria-describedby="f-inj-val-err"
                    on:input=move |ev| { let t = event_target_value(&ev); d.value_err.set(parse_value(&t).err()); d.err.set(None); d.value.set(t); } />
                <small class="field-msg" id="f-inj-val-err">{move || d.value_err.get()}</small></div>
        </div>
    }
}

/// The drafted generator (kind, target partition and each kind's parameters) and the message
/// under it.
#[derive(Clone, Copy)]
struct GeneratorDraft {
    kind: RwSignal<String>,
    target: RwSignal<String>,
    rate: RwSignal<String>,
    jitter: RwSignal<String>,
    every: RwSignal<String>,
    count: RwSignal<String>,
    future: RwSignal<String>,
    delay: RwSignal<String>,
    err: RwSignal<Option<String>>,
}

impl GeneratorDraft {
    fn new() -> Self {
        let s = |v: &str| RwSignal::new(v.to_string());
        GeneratorDraft {
            kind: s("steady"),
            target: s("0"),
            rate: s("20"),
            jitter: s("5 s"),
            every: s("30 s"),
            count: s("50"),
            future: s("1 d"),
            delay: s("0"),
            err: RwSignal::new(None),
        }
    }

    /// The drafted producer, validated; `snap` says which topic a partition belongs to.
    fn spec(self, snap: &crate::engine::snapshot::Snapshot) -> Result<ProducerSpec, String> {
        let k = self.kind.get_untracked();
        // The kind's parameters before the partition: which message shows when both are wrong.
        let kind = self.producer_kind()?;
        let (topic, partitions) = self.partitions(snap)?;
        let keys = if k == "heartbeat" { KeysSpec::List(vec!["heartbeat".into()]) } else { KeysSpec::Count { count: 8, prefix: "gen-".into() } };
        Ok(ProducerSpec {
            topic,
            partitions,
            kind,
            keys,
            event_delay_ms: dur(self.delay, "event delay")?,
            jitter_ms: if k == "jitter" { dur(self.jitter, "jitter")? } else { 0 },
            value: 1,
            start_ms: 0,
            stop_ms: None,
        })
    }

    /// What the drafted kind produces (jitter is a steady rate; its spread is `jitter_ms`).
    fn producer_kind(self) -> Result<ProducerKind, String> {
        Ok(match self.kind.get_untracked().as_str() {
            "steady" | "jitter" => ProducerKind::Steady { rate_per_s: parse_int(&self.rate.get_untracked(), 1, 100_000).map_err(|e| format!("rate: {e}"))? as u64 },
            "burst" => ProducerKind::Burst { every_ms: positive(dur(self.every, "every")?)?, count: parse_int(&self.count.get_untracked(), 1, 100_000).map_err(|e| format!("count: {e}"))? as u64 },
            "heartbeat" => ProducerKind::Heartbeat { every_ms: positive(dur(self.every, "every")?)? },
            _ => ProducerKind::Outlier { future_ms: dur(self.future, "ahead by")? },
        })
    }

    /// The topic and the partitions within it: a producer counts partitions within its topic,
    /// the UI's targets are engine partition numbers (the second topic's follow the first's).
    fn partitions(self, snap: &crate::engine::snapshot::Snapshot) -> Result<(Option<String>, PartitionSelector), String> {
        let all = PartitionSelector::All(crate::engine::scenario::schema::AllPartitions::All);
        let topic = |input: usize| (snap.job.topics.len() > 1).then(|| snap.job.topics.get(input).cloned()).flatten();
        Ok(match self.target.get_untracked().as_str() {
            "all" => (None, all),
            t if t.starts_with("all:") => (topic(t[4..].parse().unwrap_or(0)), all),
            t => {
                let p = parse_int(t, 0, u32::MAX as i64).map_err(|e| format!("partition: {e}"))? as u32;
                match snap.splits.get(p as usize) {
                    Some(s) if snap.job.topics.len() > 1 => (topic(s.input as usize), PartitionSelector::One(s.partition_in_topic)),
                    _ => (None, PartitionSelector::One(p)),
                }
            }
        })
    }

    /// Re-checks the draft as it is typed.
    fn check(self, pg: Pg) {
        self.err.set(pg.snap_slow.with_untracked(|s| self.spec(s).err()));
    }

    /// Attaches the drafted generator, or says what is wrong.
    fn attach(self, pg: Pg) {
        match pg.snap_slow.with_untracked(|s| self.spec(s)) {
            Err(e) => self.err.set(Some(e)),
            Ok(producer) => match pg.apply(Command::AttachProducer { producer }) {
                Ok(()) => {
                    self.err.set(None);
                    pg.info("Generator attached");
                }
                Err(e) => self.err.set(Some(format!("{e}"))),
            },
        }
    }
}

/// A drafted duration, its parse error naming the field.
fn dur(s: RwSignal<String>, what: &str) -> Result<i64, String> {
    parse_duration(&s.get_untracked()).map_err(|e| format!("{what}: {e}"))
}

#[component]
pub fn GeneratorControls() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let d = GeneratorDraft::new();
    view! {
        <section class="ctl-group" aria-labelledby="ctl-gen">
            <h3 id="ctl-gen">"Generators"</h3>
            <GeneratorTarget d=d />
            <div class="field-row">
                <GeneratorInput d=d id="f-gen-rate" label="records/s" sig=d.rate kinds=&["steady", "jitter"] />
                <GeneratorInput d=d id="f-gen-jitter" label="jitter up to" sig=d.jitter kinds=&["jitter"] />
                <GeneratorInput d=d id="f-gen-every" label="every" sig=d.every kinds=&["burst", "heartbeat"] />
                <GeneratorInput d=d id="f-gen-count" label="records per burst" sig=d.count kinds=&["burst"] />
                <GeneratorInput d=d id="f-gen-future" label="ahead by" sig=d.future kinds=&["outlier"] />
                <GeneratorInput d=d id="f-gen-delay" label="event delay" sig=d.delay kinds=&["steady", "jitter", "burst"] />
            </div>
            <div class="apply-row">
                <button class="btn small" id="btn-attach" on:click=move |_| d.attach(pg)>"Attach generator"</button>
                <small class="field-msg" class:error=move || d.err.with(|e| e.is_some())><span role="alert">{move || d.err.get()}</span></small>
            </div>
        </section>
    }
}

/// The generator kind (which decides the parameters shown) and the partition it feeds.
#[component]
fn GeneratorTarget(d: GeneratorDraft) -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <div class="field-row">
            <div class="field">
                <label for="f-gen-kind">"kind"</label>
                <select id="f-gen-kind" prop:value=move || d.kind.get() on:change=move |ev| { d.kind.set(event_target_value(&ev)); d.check(pg); }>
                    <option value="steady">"steady rate"</option>
                    <option value="jitter">"out-of-order (jitter)"</option>
                    <option value="burst">"bursts"</option>
                    <option value="heartbeat">"heartbeat cadence"</option>
                    <option value="outlier">"far-future outlier"</option>
                </select>
            </div>
            <div class="field">
                <label for="f-gen-target">"partition"</label>
                <select id="f-gen-target" prop:value=move || d.target.get() on:change=move |ev| d.target.set(event_target_value(&ev))>
                    {all_options(pg)}
                    {partition_options(pg)}
                </select>
            </div>
        </div>
    }
}

/// One generator parameter, shown only for the `kinds` that use it (checked as typed).
#[component]
fn GeneratorInput(d: GeneratorDraft, id: &'static str, label: &'static str, sig: RwSignal<String>, kinds: &'static [&'static str]) -> impl IntoView {
    let pg = expect_context::<Pg>();
    view! {
        <div class="field" class:hidden=move || !kinds.contains(&d.kind.get().as_str())>
            <label for=id>{label}</label>
            <input id=id type="text" prop:value=move || sig.get() on:input=move |ev| { sig.set(event_target_value(&ev)); d.check(pg); } />
        </div>
    }
}

fn positive(v: i64) -> Result<i64, String> {
    if v > 0 {
        Ok(v)
    } else {
        Err("must be greater than 0".into())
    }
}
