//! Preset scenarios from the seed documents, shared by the UI and the JS API. Each preset is a
//! scenario file under `presets/` plus a short text: what to look at and what to try.
//!
//! Every preset's story is checked by the tests at the bottom of this file (and can be checked
//! by hand with `wmp run presets/<file>.json`).

use crate::engine::operator::sink::SinkMode;
use crate::engine::session::action::{Action, Step};
use crate::engine::source::timestamp::TimestampAssigner;

/// One preset of the catalog; the JS API lists them without their scenario.
#[derive(Clone, Copy, Debug, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "PresetInfo"))]
#[serde(rename_all = "camelCase")]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    /// What the scenario shows.
    pub summary: &'static str,
    /// What to look at in the playground.
    pub look_at: &'static str,
    /// What to try (the fix), as a sentence.
    pub try_this: &'static str,
    /// The Flink documentation, issue or seed it mirrors.
    pub source: &'static str,
    /// The scenario JSON (`presetScenario(id)` gives it as an object).
    #[serde(skip)]
    pub json: &'static str,
    /// The playback speed it starts at: fast enough to see its story within a minute.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub speed: f64,
    /// The steps it suggests, in order (the fix first).
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub steps: &'static [Step],
}

static PRESETS: &[Preset] = &[
    Preset {
        id: "seed-001-heartbeat",
        title: "Seed 001: one heartbeat partition freezes every window",
        summary: "16 partitions, parallelism 8; partition 11 gets one heartbeat every 90 minutes. Windows stall, then fire in a burst when the next heartbeat arrives.",
        look_at: "Partition 11's split watermark holds its source subtask's output, and through that channel every window subtask. The dashboard (emissions) stays empty until 01:30:00, then ninety minutes of windows land at once.",
        try_this: "Set the idle timeout the WHY panel proposes (15 s; the seed's 60 s works too): partition 11 goes idle and windows fire every minute. Then retire the heartbeat producer with idleness off: nothing ever fires again.",
        source: "seeds/001 (Confluent Cloud clickstream, table.exec.source.idle-timeout); rate scaled down from 45,000/s to 600/s",
        speed: 300.0,
        steps: &[
            Step { label: "Fix: idle timeout 15 s", action: Action::IdleTimeout(Some(15_000)) },
            Step { label: "Retire the heartbeat producer", action: Action::DetachProducers(11) },
            Step { label: "Idle timeout off", action: Action::IdleTimeout(None) },
        ],
        json: include_str!("../../../presets/seed_001_heartbeat.json"),
    },
    Preset {
        id: "empty-partition",
        title: "An empty partition: windows never fire",
        summary: "4 partitions, 2 source subtasks; partition 3 never receives a record. Its split stays at No Watermark and holds every window subtask: records flow, nothing fires.",
        look_at: "Partition 3 reads No Watermark; source subtask 0's output and every window subtask's channel from it are No Watermark too, so the WHY panel names partition 3.",
        try_this: "Turn on withIdleness (5 s, what the WHY panel proposes): partition 3 goes idle and the windows fire. Then wake partition 3 with a device that uploads 40-second-old records: they arrive behind the watermark and are dropped as late.",
        source: "seeds/000 §3 (idle partitions), seeds/002 §1.1 (in Chinese: “an idle partition stalls the watermark”)",
        speed: 5.0,
        steps: &[
            Step { label: "Fix: withIdleness(5 s)", action: Action::IdleTimeout(Some(5_000)) },
            Step { label: "Wake partition 3 with 40 s old records", action: Action::WakeLate { partition: 3, delay_ms: 40_000 } },
        ],
        json: include_str!("../../../presets/empty_partition.json"),
    },
    Preset {
        id: "more-subtasks-than-partitions",
        title: "More source subtasks than partitions",
        summary: "2 partitions, source parallelism 4: two source subtasks own no split. A KafkaSource reader without splits never emits a watermark and, without an idle timeout, never goes idle.",
        look_at: "Source subtasks without a partition show No Watermark; every window subtask is held by their channels although both partitions are busy.",
        try_this: "Set source parallelism to 2 (at most the partition count), or turn on an idle timeout. The legacy FlinkKafkaConsumer marked such subtasks idle at once.",
        source: "seeds/000 §3 (keep source parallelism at or below the partition count)",
        speed: 5.0,
        steps: &[
            Step { label: "Fix: source parallelism 2 ↻", action: Action::SourceParallelism(2) },
            Step { label: "Or: idle timeout 5 s", action: Action::IdleTimeout(Some(5_000)) },
            Step { label: "Legacy FlinkKafkaConsumer ↻", action: Action::LegacyConnector },
        ],
        json: include_str!("../../../presets/more_subtasks_than_partitions.json"),
    },
    Preset {
        id: "far-future-outlier",
        title: "One far-future timestamp makes everything late",
        summary: "At 30 s one record on the partition carries a timestamp one day ahead. The watermark jumps a day forward, every window fires, and every record after it is late.",
        look_at: "The watermark line leaps off the top of the timeline at 00:00:30; the late panel fills (side output) while no window fires again.",
        try_this: "Clamp timestamps at the source (max future skew 0) and restart: the outlier is read as 'now' and nothing is late.",
        source: "seeds/000 §2 (validate or clamp timestamps at the source)",
        speed: 5.0,
        steps: &[
            Step { label: "Fix: clamp timestamps ↻", action: Action::ClampRestart },
        ],
        json: include_str!("../../../presets/far_future_outlier.json"),
    },
    Preset {
        id: "timestamp-units",
        title: "Seconds read as milliseconds (and the reverse)",
        summary: "The producer writes epoch seconds; the job reads them as milliseconds. The watermark sits in January 1970 and moves 1 ms per second: nothing fires.",
        look_at: "Every watermark reads 1970-01-21; the WHY panel suspects a unit mistake.",
        try_this: "Switch to the reverse mistake (milliseconds read as seconds): timestamps land in the year 58,000, one window per record, and out-of-order records are late. Then fix the assigner.",
        source: "seeds/000 §2 (units are right)",
        speed: 5.0,
        steps: &[
            Step { label: "The reverse: ms read as seconds ↻", action: Action::Assigner(TimestampAssigner::MillisAsSeconds) },
            Step { label: "Fix: read the event time field ↻", action: Action::Assigner(TimestampAssigner::EventField) },
        ],
        json: include_str!("../../../presets/timestamp_units.json"),
    },
    Preset {
        id: "bound-too-large",
        title: "Bound too large: every result a minute late",
        summary: "Events are at most 1 s out of order, but forBoundedOutOfOrderness is 60 s. Every 10-second window closes about 60 s after its end. Nothing is dropped.",
        look_at: "The emissions log's delay column (firing time minus window end) reads about 60 s for every window; the watermark lines trail the processing-time diagonal by a minute.",
        try_this: "Set the bound to the measured disorder (1 s, what the WHY panel proposes): the watermark jumps forward, the waiting windows fire at once, and from then on results come about 1 s after each window ends.",
        source: "seeds/000 §2 (too large a bound delays every result)",
        speed: 10.0,
        steps: &[
            Step { label: "Fix: bound 1 s", action: Action::Bound(1_000) },
        ],
        json: include_str!("../../../presets/bound_too_large.json"),
    },
    Preset {
        id: "late-data",
        title: "Late data: dropped, re-fired, or side output",
        summary: "Records lag up to 15 s while the bound is 2 s. By default the window operator drops late records silently; numLateRecordsDropped counts them.",
        look_at: "The late panel's ✕ marks and numLateRecordsDropped grow while every window still fires once.",
        try_this: "Set allowed lateness to 10 s, less than the 15 s the late-records finding proposes: windows re-fire for late records (◇, firing > 0) and the append sink gets duplicates; switch the sink to upsert. Turn the late side output on to capture what is still too late (○).",
        source: "seeds/000 §4 (allowedLateness, sideOutputLateData, upsert sinks)",
        speed: 5.0,
        steps: &[
            Step { label: "Allowed lateness 10 s", action: Action::AllowedLateness(10_000) },
            Step { label: "Sink: upsert", action: Action::Sink(SinkMode::Upsert) },
            Step { label: "Late side output on", action: Action::SideOutput(true) },
        ],
        json: include_str!("../../../presets/late_data.json"),
    },
    Preset {
        id: "heartbeat-idle-timeout",
        title: "A heartbeat every 30 s defeats a 60 s idle timeout",
        summary: "withIdleness(60 s) is set, but partition 1 gets a monitoring heartbeat every 30 s. The split is never idle, its watermark moves only with each heartbeat, and windows fire in bursts up to 30 s late.",
        look_at: "Partition 1's idle countdown restarts at every heartbeat and never reaches zero; the WHY panel says sparse records keep it active.",
        try_this: "Filter heartbeats before the watermark generator: 60 s later partition 1 goes idle and the windows fire on time.",
        source: "seeds/002 §1.2 and §5.1 (in Chinese: “heartbeat-like junk records keep the idle check from ever firing”)",
        speed: 10.0,
        steps: &[
            Step { label: "Fix: filter heartbeats", action: Action::DropHeartbeats(true) },
        ],
        json: include_str!("../../../presets/heartbeat_idle_timeout.json"),
    },
    Preset {
        id: "max-on-silence",
        title: "'Emit Long.MAX_VALUE when silent' drops the data that comes later",
        summary: "A home-made generator emits Long.MAX_VALUE after 60 s of silence. Traffic stops at 1 min; at 2 min every window fires and the watermark is 'end of input'. When traffic resumes at 4 min, every record is late and dropped.",
        look_at: "The window subtask's watermark reads end of input (Long.MAX_VALUE) from 00:02:00; after 00:04:00 numLateRecordsDropped climbs and no window ever fires again.",
        try_this: "Restart with withIdleness(60 s) instead: the splits go idle, the windows wait, and nothing is lost when traffic comes back.",
        source: "seeds/002 §1.3 (in Chinese: “why emitting a Long.MAX_VALUE watermark is no way out”)",
        speed: 10.0,
        steps: &[
            Step { label: "Fix: withIdleness(60 s) instead ↻", action: Action::IdlenessInsteadOfMax },
        ],
        json: include_str!("../../../presets/max_on_silence.json"),
    },
    Preset {
        id: "quiet-side-join",
        title: "The quiet side holds the join",
        summary: "Orders connected with a rates stream that has sent nothing yet. A two-input operator fires only as far as both inputs' watermarks allow: the quiet input stays at No Watermark and nothing is ever emitted.",
        look_at: "The operator's second input (rates) reads No Watermark and is marked as the one holding it, while the orders input is at the present: 'join never emits'.",
        try_this: "Turn on withIdleness (5 s, what the WHY panel proposes): the rates source goes idle, the operator leaves that input out and the windows fire.",
        source: "seeds/000 §6 (joins, unions and multi-input operators), reference §6.4",
        speed: 5.0,
        steps: &[Step { label: "Fix: withIdleness(5 s)", action: Action::IdleTimeout(Some(5_000)) }],
        json: include_str!("../../../presets/quiet_side_join.json"),
    },
    Preset {
        id: "union-idle-stream",
        title: "Union with an idle stream",
        summary: "Clicks unioned with impressions; the impressions service stops at 00:00:30. A union is one input whose valve covers both sources' channels: the stopped stream's channel holds every window.",
        look_at: "The window subtask's channels from the impressions source stay at 00:00:29 and hold its watermark; windows after 00:00:30 never fire although clicks keep coming.",
        try_this: "Turn on an idle timeout (2.5 s, what the WHY panel proposes): the impressions source goes idle and the windows catch up at once.",
        source: "seeds/000 §6, reference §6.1 (a union merges the input gates into one valve)",
        speed: 5.0,
        steps: &[Step { label: "Fix: idle timeout 2.5 s", action: Action::IdleTimeout(Some(2_500)) }],
        json: include_str!("../../../presets/union_idle_stream.json"),
    },
    Preset {
        id: "midstream-assigner",
        title: "A mid-stream assigner swallows idleness",
        summary: "The source has withIdleness(5 s), but watermarks are assigned later with assignTimestampsAndWatermarks. That operator swallows the source's watermarks and statuses: when one source subtask's partitions go quiet at 00:00:30, its idleness never reaches the windows.",
        look_at: "The quiet source subtask reads idle, but the assigner after it stays active at its last watermark and holds every window subtask.",
        try_this: "Generate the watermarks in the source (a restart): per-partition watermarks and the source's idleness reach the windows again.",
        source: "reference §7 (TimestampsAndWatermarksOperator, FLINK-26708), seeds/000 (generate watermarks in the source)",
        speed: 5.0,
        steps: &[Step { label: "Fix: generate watermarks in the source ↻", action: Action::WatermarksInSource }],
        json: include_str!("../../../presets/midstream_assigner.json"),
    },
    Preset {
        id: "sql-idle-reactivates",
        title: "SQL idle-timeout re-activates on a row",
        summary: "A SQL WATERMARK clause that is not pushed into the source runs as an operator per source subtask with table.exec.source.idle-timeout = 60 s. One subtask reads a device that reports every 45 s: each row re-activates its operator, which never stays quiet for 60 s, so the job's watermark follows the device.",
        look_at: "Results arrive in bursts every 45 s; the SQL watermark operator after the device's source subtask holds the window subtask.",
        try_this: "Set the idle timeout to 5 s: each row still re-activates the operator and holds the job, but only for 5 s.",
        source: "seeds/001 Q2 (table.exec.source.idle-timeout), reference §10.1 (WatermarkAssignerOperator)",
        speed: 10.0,
        steps: &[Step { label: "Fix: table.exec.source.idle-timeout = 5 s", action: Action::IdleTimeout(Some(5_000)) }],
        json: include_str!("../../../presets/sql_idle_reactivates.json"),
    },
    Preset {
        id: "continuous-trigger",
        title: "Early firings with a continuous trigger",
        summary: "1-minute windows with ContinuousEventTimeTrigger.of(10 s): every 10 s of event time each window fires early with its contents so far, then once more on time. Six rows per window; into an append sink each early row repeats the records of the ones before it.",
        look_at: "The emissions table: rows marked early for the same window, each with a growing count, then the on-time row. The WHY panel counts the extra rows.",
        try_this: "Switch the sink to upsert: each firing replaces the window's row, and the table keeps one row per window.",
        source: "reference §8.7 (ContinuousEventTimeTrigger, PurgingTrigger), seeds/000 §4 (sinks after re-firing windows upsert)",
        speed: 10.0,
        steps: &[Step { label: "Fix: upsert sink", action: Action::Sink(SinkMode::Upsert) }],
        json: include_str!("../../../presets/continuous_trigger.json"),
    },
    Preset {
        id: "backpressure-never-idle",
        title: "A back-pressured split never goes idle (Flink 2.x)",
        summary: "The window operator takes 1,500 records/s, 2,400/s arrive: the sources are back-pressured. Partition 3 stops at 00:00:30, withIdleness(5 s) is set, and still nothing fires after that: time spent back-pressured does not count towards the idle timeout (FLIP-471).",
        look_at: "The edge into the window operator is red (HIGH back-pressure); partition 3 is silent but never idle, and the WHY panel says the back-pressured subtask's idleness clock stands still. Consumer lag (unread) grows on every partition.",
        try_this: "Give the window operator capacity (5,000/s): back-pressure ends, partition 3 goes idle 5 s later and the windows fire. Or restart as Flink 1.19.1, whose wall-clock idleness marked it idle while back-pressured.",
        source: "reference §1.8 (FLIP-471, FLINK-35886: idleness on an input-activity clock since 1.19.2 / 1.20.1 / 2.0)",
        speed: 10.0,
        steps: &[
            Step { label: "Fix: window capacity 5,000/s", action: Action::KeyedCapacity(Some(5_000)) },
            Step { label: "Flink 1.19.1: wall-clock idleness ↻", action: Action::WallClockIdleness },
        ],
        json: include_str!("../../../presets/backpressure_never_idle.json"),
    },
    Preset {
        id: "backfill-taskmanager-lost",
        title: "Replay from one day ago: the TaskManager is lost",
        summary: "A restart from the offsets of one day ago. The quiet partition 3 races hours ahead in event time while the busy ones hold the watermark; window state for the future piles up until a TaskManager passes its 4 GiB and is lost, again after every restart.",
        look_at: "The state-size chart climbs to the memory line, then the TaskManager is lost and the job restarts from the last checkpoint, over and over; partition 3's watermark runs far ahead of the others. Counts are real ones: one simulated record stands for 50,000.",
        try_this: "Turn on watermark alignment (max drift 5 min): partition 3 is paused whenever it gets ahead, state stays bounded and the replay goes through (the next preset runs that from the start).",
        source: "seeds/000 §5 (backfills and replays: watermark alignment); reference §5, §12",
        speed: 60.0,
        steps: &[
            Step { label: "Fix: watermark alignment, max drift 5 min ↻", action: Action::Alignment { max_drift_ms: 300_000 } },
        ],
        json: include_str!("../../../presets/backfill_taskmanager_lost.json"),
    },
    Preset {
        id: "backfill-aligned",
        title: "Replay from one day ago, with watermark alignment",
        summary: "The same replay with withWatermarkAlignment(\"orders\", 5 min, 1 s): partition 3 is paused whenever it runs more than five minutes (plus the 2.3 sampling buffer) ahead, window state stays bounded and the TaskManagers survive.",
        look_at: "Partition 3 carries a pause badge most of the time; the state-size chart stays far below the memory line; windows fire in order while the replay catches up.",
        try_this: "Kill TaskManager 0: the job restores the last checkpoint, watermarks start again at No Watermark and alignment takes over again once every subtask has reported.",
        source: "seeds/000 §5; reference §5 (FLIP-182, FLIP-217, the 2.3 sampling buffer)",
        speed: 60.0,
        steps: &[Step { label: "Kill TaskManager 0", action: Action::KillTaskManager(0) }],
        json: include_str!("../../../presets/backfill_aligned.json"),
    },
    Preset {
        id: "restart-stalls-until-idle",
        title: "After a restart, windows stall until the idle timeout again",
        summary: "Partition 3 is silent and idle (withIdleness(30 s)), windows fire every 10 s. At 00:02:00 TaskManager 0 is lost; the restore brings offsets and window state back but not watermarks or the idle flag, so every window waits 30 s for partition 3 again, then fires in a burst.",
        look_at: "The failure and restart marks on the timeline, then a 30 s gap in the emissions; the WHY panel says the channel has had no watermark since the restore and partition 3 needs its idle timeout again.",
        try_this: "Set the idle timeout the WHY panel proposes (5 s), then kill TaskManager 0 again: the stall after the restore shrinks to seconds.",
        source: "seeds/002 §5.3 (in Chinese: “the watermark resets after a restore”); reference §12",
        speed: 30.0,
        steps: &[
            Step { label: "Fix: idle timeout 5 s", action: Action::IdleTimeout(Some(5_000)) },
            Step { label: "Kill TaskManager 0", action: Action::KillTaskManager(0) },
        ],
        json: include_str!("../../../presets/restart_stalls_until_idle.json"),
    },
];

/// All presets, in menu order.
pub fn presets() -> &'static [Preset] {
    PRESETS
}

/// The preset a scenario is, unchanged, if any (so a link or an import can name it).
pub fn preset_matching(sc: &super::schema::Scenario) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| super::build::parse(p.json).ok().as_ref() == Some(sc))
}

/// A preset by id.
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
#[path = "catalog_stories.rs"]
mod tests;
