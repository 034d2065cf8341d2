//! The work budget: before a scenario runs, an upper bound of the work it asks for — records
//! produced times the windows each one lands in, instants times the producers and partitions
//! scanned at each, periodic ticks times the splits they visit, and the key slots producers
//! hold — is checked against [`MAX_WORK`] and [`MAX_KEY_SLOTS`]. A scenario over budget is
//! refused with the numbers and the fields that drive them, before anything runs, so that no
//! input (a file, a share link, a script) can run for hours or fill memory.
//!
//! The bound is deliberately simple and generous: silenced producers are counted as producing,
//! and every instant of the run is counted once records arrive at least every millisecond.

use crate::engine::command::{Command, Param};
use crate::engine::error::InputError;
use crate::engine::limits::{MAX_KEY_SLOTS, MAX_RECORDS_AT_ONCE, MAX_WORK};
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::producer::ProducerKind;
use crate::engine::scenario::schema::{KeysSpec, PartitionSelector, ProducerSpec, Scenario, WindowOperatorSpec};
use crate::engine::time::thousands;
use crate::engine::topics::Topics;

/// A window state update, in the unit of one producer or split scanned at an instant.
const WINDOW_UPDATE_COST: u128 = 8;
/// From this many partitions on, the error names them, not the duration, as the field to change.
const MANY_PARTITIONS: u128 = 1_000;

/// The work a scenario asks for, in engine operations (an upper bound).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Estimate {
    /// Records produced (by producers and `produce` commands).
    pub records: u128,
    /// Windows one record is assigned to, at most.
    pub windows_per_record: u128,
    /// Firings one window may make: 1, or a continuous trigger's early firings plus one.
    pub firings_per_window: u128,
    /// Processing-time instants the run may process.
    pub instants: u128,
    /// Producers and partitions scanned at each instant.
    pub scanned_per_instant: u128,
    /// Periodic watermark ticks times the splits each visits.
    pub tick_work: u128,
    /// Key ids held by producers (each producer keeps its keys per partition).
    pub key_slots: u128,
    /// Checkpoints times what each copies: the partitions' offsets and the keyed state, at
    /// most one entry per key slot and window of a record (`checkpointing.interval_ms` and
    /// `checkpoint` commands).
    pub checkpoint_work: u128,
    /// Checkpoints, and the `checkpoint` commands among them.
    pub checkpoints: u128,
    pub checkpoint_commands: u128,
    /// Records that may arrive at one instant: every producer's at once (as if they coincided)
    /// and the most the `produce` commands of one `at_ms` write.
    pub at_once: u128,
    /// Where the most of them come from (to name in an error).
    pub most_at_once: (u128, AtOnce),
}

/// What writes the most records at one instant: `producers[i]`, `commands[i].producer` or
/// `commands[i].records`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum AtOnce {
    #[default]
    Nothing,
    Producer(usize),
    AttachCommand(usize),
    ProduceCommand(usize),
}

impl Estimate {
    /// The window state updates and firings records may cause.
    pub fn window_work(&self) -> u128 {
        self.records * self.windows_per_record * self.firings_per_window.max(1) * WINDOW_UPDATE_COST
    }

    /// All the work, in one number. A record's window assignment (a state update) costs about
    /// [`WINDOW_UPDATE_COST`] of the scans and ticks counted here.
    pub fn work(&self) -> u128 {
        self.window_work() + self.instants * self.scanned_per_instant + self.tick_work + self.checkpoint_work
    }
}

/// How many records one producer may write to one partition at one instant (a millisecond).
fn producer_at_once(kind: ProducerKind) -> u128 {
    match kind {
        ProducerKind::Steady { rate_per_s } => u128::from(rate_per_s).div_ceil(1000),
        ProducerKind::Burst { count, .. } | ProducerKind::Backlog { count, .. } => u128::from(count),
        ProducerKind::Heartbeat { .. } | ProducerKind::Outlier { .. } => 1,
    }
}

/// How many records one producer writes to one partition over `span_ms` of its life.
fn producer_records(kind: ProducerKind, span_ms: u128) -> u128 {
    match kind {
        ProducerKind::Steady { rate_per_s } => (span_ms * rate_per_s as u128).div_ceil(1000) + 1,
        ProducerKind::Burst { every_ms, count } => (span_ms / u128::from(every_ms.max(1).unsigned_abs()) + 1) * count as u128,
        ProducerKind::Heartbeat { every_ms } => span_ms / u128::from(every_ms.max(1).unsigned_abs()) + 1,
        ProducerKind::Outlier { .. } => 1,
        ProducerKind::Backlog { count, .. } => count as u128,
    }
}

fn partitions_of(sel: &PartitionSelector, partitions: u128) -> u128 {
    match sel {
        PartitionSelector::One(_) => 1,
        PartitionSelector::List(v) => v.len() as u128,
        PartitionSelector::All(_) | PartitionSelector::AllExcept { .. } => partitions,
    }
}

/// Partitions a producer's selector may reach: within its topic when it names one, else in
/// all topics (engine numbers), as `check::producer` resolves it.
fn reached_by(p: &ProducerSpec, topics: &Topics) -> u128 {
    let within = match p.topic.as_deref() {
        Some(t) => topics.count(input_of(Some(t), topics)),
        None => topics.total(),
    };
    partitions_of(&p.partitions, u128::from(within))
}

/// The input a command's `topic` names; the budget runs on checked scenarios, where an unknown
/// name cannot occur, and counts one as the first topic.
fn input_of(topic: Option<&str>, topics: &Topics) -> u8 {
    topics.input_named(topic).unwrap_or(0)
}

fn key_count(keys: &KeysSpec) -> u128 {
    match keys {
        KeysSpec::List(v) => v.len() as u128,
        KeysSpec::Count { count, .. } => *count as u128,
    }
}

/// The estimate for a scenario run for its `duration_ms`.
pub fn estimate(sc: &Scenario) -> Estimate {
    let duration = u128::from(sc.duration_ms.max(0).unsigned_abs());
    let mut e = Estimate {
        windows_per_record: sc.window.as_ref().map_or(1, |w| windows_per_record(&w.assigner)),
        firings_per_window: sc.window.as_ref().map_or(1, firings_per_window),
        ..Estimate::default()
    };
    let mut topics = sc.topics();
    let mut producers: u128 = 0;
    let add = |p: &ProducerSpec, from_ms: i64, topics: &Topics, e: &mut Estimate, at: AtOnce| {
        let start = u128::from(p.start_ms.max(from_ms).max(0).unsigned_abs());
        let stop = p.stop_ms.map_or(duration, |s| u128::from(s.max(0).unsigned_abs()).min(duration));
        let n = reached_by(p, topics);
        e.records += producer_records(p.kind, stop.saturating_sub(start)) * n;
        e.key_slots += key_count(&p.keys) * n;
        e.at_once += producer_at_once(p.kind) * n;
        e.most_at_once = e.most_at_once.max((producer_at_once(p.kind) * n, at));
        n
    };
    for (i, p) in sc.producers.iter().enumerate() {
        producers += add(p, 0, &topics, &mut e, AtOnce::Producer(i));
    }
    for (i, c) in sc.commands.iter().enumerate() {
        match &c.command {
            Command::AddPartition { topic } => topics.add(input_of(topic.as_deref(), &topics)),
            Command::AttachProducer { producer } => producers += add(producer, c.at_ms, &topics, &mut e, AtOnce::AttachCommand(i)),
            Command::Produce { records, .. } => e.records += records.len() as u128,
            Command::Checkpoint => e.checkpoint_commands += 1,
            _ => {}
        }
    }
    let (n, first) = produced_at_once(sc);
    e.at_once += n;
    e.most_at_once = e.most_at_once.max((n, AtOnce::ProduceCommand(first)));
    let partitions = u128::from(topics.total());
    let parallelism = u128::from(sc.source.parallelism) + sc.second_input.as_ref().map_or(0, |s| u128::from(s.source.parallelism));
    let interval = sc.source.watermark.auto_watermark_interval_ms;
    let ticks = if interval > 0 { duration / u128::from(interval.unsigned_abs()) + 1 } else { 0 };
    e.tick_work = ticks * (partitions + parallelism);
    // A rate-limited reader with a backlog works every millisecond; a channel with latency
    // delivers each record at an instant of its own.
    let params = || {
        sc.commands.iter().filter_map(|c| match &c.command {
            Command::SetParam { param } => Some(param),
            _ => None,
        })
    };
    // Back-pressure and alignment also keep a backlog that is worked off every millisecond.
    let flow = sc.flow.keyed_capacity_per_s.is_some()
        || sc.source.watermark.alignment.is_some()
        || sc.second_input.as_ref().is_some_and(|s| s.source.watermark.alignment.is_some())
        || params().any(|p| matches!(p, Param::KeyedCapacityPerS(Some(_))));
    let read_rate = sc.source.read_rate_per_s.is_some() || sc.second_input.as_ref().is_some_and(|s| s.source.read_rate_per_s.is_some());
    let rate_limited = flow || read_rate || params().any(|p| matches!(p, Param::ReadRatePerS(Some(_))));
    let latency = sc.exchange.latency_ms > 0 || params().any(|p| matches!(p, Param::ChannelLatencyMs(l) if *l > 0));
    let deliveries = if latency { e.records } else { 0 };
    // Each periodic checkpoint is an instant of its own; each copies the offsets and the
    // keyed state, as a `checkpoint` command does.
    let periodic = sc.checkpointing.interval_ms.map_or(0, |i| duration / u128::from(i.max(1).unsigned_abs()));
    let instants = e.records + deliveries + ticks + periodic + sc.commands.len() as u128;
    e.instants = if rate_limited { duration + 1 } else { instants.min(duration + 1) };
    e.scanned_per_instant = producers + partitions + 1;
    let state = (e.key_slots * e.windows_per_record).min(e.records * e.windows_per_record);
    let keyed_parallelism = u128::from(sc.keyed_parallelism());
    e.checkpoints = periodic + e.checkpoint_commands;
    e.checkpoint_work = e.checkpoints * (partitions + keyed_parallelism + state);
    e
}

/// The most records `produce` commands write at one time (all of one `at_ms` run in one
/// instant), and the first of those commands.
fn produced_at_once(sc: &Scenario) -> (u128, usize) {
    let (mut most, mut run) = ((0, 0), (i64::MIN, 0, 0));
    for i in sc.command_order() {
        let (c, n) = match &sc.commands[i].command {
            Command::Produce { records, .. } => (&sc.commands[i], records.len() as u128),
            _ => continue,
        };
        run = if c.at_ms == run.0 { (run.0, run.1 + n, run.2) } else { (c.at_ms, n, i) };
        most = most.max((run.1, run.2));
    }
    most
}

/// Firings one window may make: a continuous trigger fires every interval of the window's span
/// (all of them at once when the watermark jumps), then at the end.
fn firings_per_window(w: &WindowOperatorSpec) -> u128 {
    match w.trigger.interval_ms() {
        Some(interval) => u128::from((w.assigner.span_ms().max(0) / interval.max(1)).unsigned_abs()) + 1,
        None => 1,
    }
}

/// Windows one record may be assigned to.
fn windows_per_record(w: &WindowSpec) -> u128 {
    match *w {
        WindowSpec::Sliding { size_ms, slide_ms, .. } => u128::from(((size_ms.max(1) - 1) / slide_ms.max(1) + 1).unsigned_abs()),
        WindowSpec::Cumulate { step_ms, max_size_ms, .. } => u128::from((max_size_ms.max(1) / step_ms.max(1)).unsigned_abs()),
        WindowSpec::Tumbling { .. } | WindowSpec::Session { .. } => 1,
    }
}

/// The budget of a scenario run until `until_ms` after its start (a session that runs past its
/// `duration_ms`, or issues commands, asks for more than the scenario it loaded).
pub fn check_until(sc: &Scenario, until_ms: i64) -> Result<(), InputError> {
    if until_ms <= sc.duration_ms {
        return check(sc);
    }
    let mut longer = sc.clone();
    longer.duration_ms = until_ms;
    check(&longer)
}

fn window_work_text(e: &Estimate) -> String {
    let records = thousands(e.records);
    match e.firings_per_window {
        0 | 1 => format!("{records} records × {} window(s) each (producers[].rate_per_s/count, window.assigner)", e.windows_per_record),
        f => format!(
            "{records} records × {} window(s) each × {} firings per window (producers[].rate_per_s/count, window.assigner, window.trigger.interval_ms)",
            e.windows_per_record,
            thousands(f)
        ),
    }
}

fn checkpoint_text(e: &Estimate) -> String {
    let fields = if e.checkpoint_commands > 0 {
        format!("checkpointing.interval_ms and {} checkpoint commands", thousands(e.checkpoint_commands))
    } else {
        "checkpointing.interval_ms".to_string()
    };
    format!("{} for the checkpoints ({fields})", thousands(e.checkpoint_work))
}

/// Refuses a scenario whose work or key slots exceed the budget, naming the fields to change.
pub fn check(sc: &Scenario) -> Result<(), InputError> {
    let e = estimate(sc);
    if e.key_slots > MAX_KEY_SLOTS as u128 {
        return Err(InputError::new(
            "producers",
            format!(
                "the producers hold {} keys (keys.count × partitions), at most {}: use fewer keys or partitions",
                thousands(e.key_slots),
                thousands(MAX_KEY_SLOTS as u128)
            ),
        ));
    }
    if e.work() > MAX_WORK as u128 {
        // The path names the field to change: the partitions when there are thousands of them
        // (a topic of 100,000 partitions was blamed on `duration_ms`), else the duration.
        let second = sc.second_input.as_ref().map_or(0, |s| u128::from(s.topic.partitions));
        let first = u128::from(sc.topic.partitions);
        let per_instant = match () {
            _ if first + second < MANY_PARTITIONS => "duration_ms",
            _ if second > first => "second_input.topic.partitions",
            _ => "topic.partitions",
        };
        let parts = [
            (e.window_work(), window_work_text(&e), "duration_ms"),
            (
                e.instants * e.scanned_per_instant,
                format!(
                    "{} instants × {} producers and partitions (topic.partitions, producers[].partitions)",
                    thousands(e.instants),
                    e.scanned_per_instant
                ),
                per_instant,
            ),
            (
                e.tick_work,
                format!("{} for the periodic ticks (source.watermark.auto_watermark_interval_ms)", thousands(e.tick_work)),
                "duration_ms",
            ),
            (e.checkpoint_work, checkpoint_text(&e), if e.checkpoint_commands * 2 > e.checkpoints { "commands" } else { "duration_ms" }),
        ];
        let (_, worst, path) = parts.iter().max_by_key(|p| p.0).cloned().unwrap_or_default();
        return Err(InputError::new(
            path,
            format!(
                "the scenario asks for about {} engine operations, at most {} here; the most: {worst}; {}",
                thousands(e.work()),
                thousands(MAX_WORK as u128),
                if path == "commands" { "issue fewer checkpoint commands or keep less state" } else { "shorten duration_ms or lower that" }
            ),
        ));
    }
    check_at_once(sc, &e)
}

/// Refuses more records at one instant than [`MAX_RECORDS_AT_ONCE`], naming the field that
/// asks for the most of them.
fn check_at_once(sc: &Scenario, e: &Estimate) -> Result<(), InputError> {
    if e.at_once <= u128::from(MAX_RECORDS_AT_ONCE) {
        return Ok(());
    }
    let field = |kind: Option<ProducerKind>| match kind {
        Some(ProducerKind::Steady { .. }) => "rate_per_s",
        Some(ProducerKind::Burst { .. } | ProducerKind::Backlog { .. }) => "count",
        // One record per partition at a time: many partitions make them many.
        _ => "partitions",
    };
    let kind_of = |c: &Command| match c {
        Command::AttachProducer { producer } => Some(producer.kind),
        _ => None,
    };
    let path = match e.most_at_once.1 {
        AtOnce::Producer(i) => format!("producers[{i}].{}", field(sc.producers.get(i).map(|p| p.kind))),
        AtOnce::AttachCommand(i) => format!("commands[{i}].producer.{}", field(sc.commands.get(i).and_then(|c| kind_of(&c.command)))),
        AtOnce::ProduceCommand(i) => format!("commands[{i}].records"),
        AtOnce::Nothing => "producers".to_string(),
    };
    Err(InputError::new(
        path,
        format!(
            "up to {} records may arrive at one instant (bursts' and backlogs' count × partitions, a steady rate's millisecond × partitions, the produce commands of one time), at most {} here: an instant runs whole, and the page would wait for it; write fewer at a time",
            thousands(e.at_once),
            thousands(u128::from(MAX_RECORDS_AT_ONCE))
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::build::parse;
    use serde_json::{json, Value};

    fn scenario(v: Value) -> Result<Scenario, InputError> {
        parse(&v.to_string())
    }

    fn base() -> Value {
        json!({"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": 1000}}})
    }

    #[test]
    fn the_three_hour_seed_001_bench_is_within_budget() {
        let mut v: Value = serde_json::from_str(include_str!("../../../tests/scenarios/seed_001_heartbeat.json")).unwrap();
        v["duration_ms"] = json!(180 * 60_000);
        v["producers"][0]["rate_per_s"] = json!(3000);
        v["producers"][0]["keys"]["count"] = json!(1000);
        let sc = scenario(v).unwrap();
        let e = estimate(&sc);
        assert!(e.records >= 486_000_000, "{e:?}");
        assert!(e.work() < MAX_WORK as u128 / 2, "{e:?}");
    }

    #[test]
    fn scenarios_that_would_run_for_hours_or_fill_memory_are_refused_with_their_fields() {
        let mut many_parts = base();
        many_parts["topic"]["partitions"] = json!(100_000);
        many_parts["producers"] = json!([{"partitions": "all", "kind": "steady", "rate_per_s": 20, "jitter_ms": 100}]);
        let mut ticks = base();
        ticks["duration_ms"] = json!(10i64 * 365 * 86_400_000);
        ticks["source"] = json!({"watermark": {"auto_watermark_interval_ms": 1}});
        let mut sliding = base();
        sliding["window"]["assigner"] = json!({"type": "sliding", "size_ms": 100_000, "slide_ms": 1});
        sliding["producers"] = json!([{"partitions": 0, "kind": "steady", "rate_per_s": 1000}]);
        let mut keys = base();
        keys["topic"]["partitions"] = json!(1000);
        keys["producers"] = json!([{"partitions": "all", "kind": "heartbeat", "every_ms": 1000, "keys": {"count": 10_000_000}}]);
        let mut bursts = base();
        bursts["producers"] = json!([{"partitions": 0, "kind": "burst", "every_ms": 1, "count": 10_000_000}]);
        for (v, what, words, path) in [
            (many_parts, "100,000 partitions × 20/s", "instants", "topic.partitions"),
            (ticks, "ten years of 1 ms ticks", "periodic ticks", "duration_ms"),
            (sliding, "10^5 windows per record", "window", "duration_ms"),
            (bursts, "10^7 records every ms", "records", "duration_ms"),
        ] {
            let e = scenario(v).unwrap_err();
            assert_eq!(e.path, path, "{what}: {e}");
            assert!(e.message.contains(words), "{what}: {e}");
        }
        let mut early = base();
        early["window"]["trigger"] = json!({"type": "continuous", "interval_ms": 1});
        early["producers"] = json!([{"partitions": 0, "kind": "steady", "rate_per_s": 100_000}]);
        let e = scenario(early).unwrap_err();
        assert!(e.message.contains("1,001 firings per window"), "{e}");
        let e = scenario(keys).unwrap_err();
        assert_eq!(e.path, "producers", "{e}");
        assert!(e.message.contains("10,000,000,000 keys"), "{e}");
    }

    #[test]
    fn the_estimate_counts_attached_producers_and_produced_records() {
        let mut v = base();
        v["duration_ms"] = json!(10_000);
        v["commands"] = json!([
            {"at_ms": 5000, "command": "attach_producer", "producer": {"partitions": 0, "kind": "steady", "rate_per_s": 100}},
            {"at_ms": 6000, "command": "produce", "partition": 0, "records": [{}, {}, {}]}
        ]);
        let e = estimate(&scenario(v).unwrap());
        assert_eq!(e.records, 500 + 1 + 3);
    }

    #[test]
    fn frequent_checkpoints_of_a_large_state_are_refused() {
        let mut v = base();
        v["duration_ms"] = json!(3_600_000);
        v["topic"]["partitions"] = json!(10);
        v["producers"] = json!([{"partitions": "all", "kind": "steady", "rate_per_s": 1000, "keys": {"count": 1_000_000}}]);
        v["checkpointing"] = json!({"interval_ms": 10});
        let e = scenario(v.clone()).unwrap_err();
        assert!(e.message.contains("checkpoints"), "{e}");
        v["checkpointing"] = json!({"interval_ms": 60_000});
        assert!(scenario(v).is_ok());
    }

    /// From the input review: a second topic's partitions and source subtasks, and a producer
    /// naming that topic, were counted as the first topic's one partition; periodic checkpoints
    /// were no instants, and `checkpoint` commands cost nothing.
    #[test]
    fn the_second_input_and_every_checkpoint_are_counted() {
        let mut v = base();
        v["duration_ms"] = json!(315_360_000_000i64);
        v["second_input"] = json!({"topic": {"name": "b", "partitions": 100_000}, "source": {"parallelism": 4096}});
        let e = scenario(v.clone()).unwrap_err();
        assert!(e.message.contains("periodic ticks"), "{e}");
        v["duration_ms"] = json!(60_000);
        v["second_input"]["topic"]["partitions"] = json!(10_000);
        v["producers"] = json!([{"topic": "b", "partitions": "all", "kind": "steady", "rate_per_s": 1, "keys": {"count": 100}}]);
        let e = estimate(&scenario(v.clone()).unwrap());
        assert_eq!(e.key_slots, 100 * 10_000, "{e:?}");
        v["producers"][0]["topic"] = json!(null);
        assert_eq!(estimate(&scenario(v).unwrap()).key_slots, 100 * 10_001, "no topic: every topic's partitions");

        let mut v = base();
        v["topic"]["partitions"] = json!(0);
        v["duration_ms"] = json!(315_360_000_000i64);
        v["source"] = json!({"watermark": {"auto_watermark_interval_ms": 0}});
        v["checkpointing"] = json!({"interval_ms": 10});
        let e = scenario(v).unwrap_err();
        assert!(e.message.contains("instants") || e.message.contains("checkpoints"), "{e}");

        let mut v = base();
        v["duration_ms"] = json!(60_000);
        v["producers"] = json!([{"partitions": 0, "kind": "steady", "rate_per_s": 1000, "keys": {"count": 10_000}}]);
        let one = estimate(&scenario(v.clone()).unwrap()).checkpoint_work;
        v["commands"] = json!([{"at_ms": 60_000, "command": "checkpoint"}, {"at_ms": 60_000, "command": "checkpoint"}]);
        let two = estimate(&scenario(v.clone()).unwrap()).checkpoint_work;
        assert_eq!(one, 0);
        assert!(two >= 2 * 10_000, "{two}");
        // Too many of them name the commands, not a duration or an interval (second review).
        v["producers"][0]["keys"]["count"] = json!(10_000_000);
        v["producers"][0]["rate_per_s"] = json!(1_000_000);
        v["commands"] = json!(vec![json!({"at_ms": 60_000, "command": "checkpoint"}); 2000]);
        let Err(e) = scenario(v) else { panic!("2,000 checkpoints of 10^7 entries were accepted") };
        assert_eq!(e.path, "commands", "{e}");
        assert!(e.message.contains("2,000 checkpoint commands") && e.message.contains("issue fewer"), "{e}");

        // The second input's read rate keeps it working every millisecond too.
        let mut v = base();
        v["duration_ms"] = json!(315_360_000_000i64);
        v["source"] = json!({"watermark": {"auto_watermark_interval_ms": 0}});
        v["second_input"] = json!({"topic": {"name": "b", "partitions": 1}, "source": {"read_rate_per_s": 1, "watermark": {"auto_watermark_interval_ms": 0}}});
        v["producers"] = json!([{"topic": "b", "partitions": 0, "kind": "backlog", "count": 20_000_000, "span_ms": 1000}]);
        let e = scenario(v).unwrap_err();
        assert!(e.message.contains("instants"), "{e}");
    }

    #[test]
    fn a_rate_limited_reader_counts_every_millisecond() {
        let mut v = base();
        v["duration_ms"] = json!(10i64 * 365 * 86_400_000);
        v["source"] = json!({"read_rate_per_s": 1, "watermark": {"auto_watermark_interval_ms": 0}});
        v["producers"] = json!([{"partitions": 0, "kind": "backlog", "count": 20_000_000, "span_ms": 1000}]);
        let e = scenario(v).unwrap_err();
        assert!(e.message.contains("instants"), "{e}");
    }

    #[test]
    fn more_records_at_one_instant_than_a_page_waits_for_are_refused_with_their_field() {
        // Ten million every hour on eight partitions: within the work budget, but one instant
        // of 80 million records stalled a host page for 6.6 s.
        let mut v = base();
        v["topic"] = json!({"partitions": 8});
        v["producers"] = json!([{"partitions": "all", "kind": "steady", "rate_per_s": 10}, {"partitions": "all", "kind": "burst", "every_ms": 3_600_000, "count": 10_000_000}]);
        let e = scenario(v.clone()).unwrap_err();
        assert_eq!(e.path, "producers[1].count", "{e}");
        assert!(e.message.contains("80,000,008 records may arrive at one instant") && e.message.contains("at most 1,000,000"), "{e}");
        v["producers"][1]["count"] = json!(124_998);
        assert!(scenario(v.clone()).is_ok(), "8 × 124,998 + 8 × 1 records at once");
        v["producers"][1]["count"] = json!(125_000);
        assert!(scenario(v.clone()).is_err());
        // A steady rate counts its millisecond; an attached producer and a produce command
        // are named as commands.
        v["duration_ms"] = json!(100);
        v["topic"] = json!({"partitions": 200});
        v["producers"] = json!([{"partitions": "all", "kind": "steady", "rate_per_s": 10_000_000}]);
        assert_eq!(scenario(v.clone()).unwrap_err().path, "producers[0].rate_per_s");
        v["topic"] = json!({"partitions": 8});
        v["producers"] = json!([]);
        v["commands"] = json!([{"at_ms": 5, "command": "attach_producer", "producer": {"partitions": "all", "kind": "backlog", "count": 200_000, "span_ms": 1}}]);
        assert_eq!(scenario(v.clone()).unwrap_err().path, "commands[0].producer.count");
        v["commands"] = json!([{"at_ms": 5, "command": "produce", "partition": 0, "records": vec![json!({}); 1_000_001]}]);
        assert_eq!(scenario(v.clone()).unwrap_err().path, "commands[0].records");
        // Produce commands of one time run in one instant; of two times, in two.
        let half = vec![json!({}); 600_000];
        v["commands"] = json!([{"at_ms": 5, "command": "produce", "partition": 0, "records": half}, {"at_ms": 6, "command": "produce", "partition": 0, "records": half}]);
        assert!(scenario(v.clone()).is_ok());
        v["commands"][1]["at_ms"] = json!(5);
        assert_eq!(scenario(v).unwrap_err().path, "commands[0].records");
    }
}
