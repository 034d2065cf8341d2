//! One-click steps: the fixes a diagnosis offers and the steps each preset suggests, as data.
//!
//! A step either changes the running job (a command at the next instant, as any user action)
//! or changes the scenario and restarts it from time zero with the user's actions replayed
//! (what a real job needs for a new timestamp assigner, parallelism or connector).

use crate::engine::alignment::AlignmentParams;
use crate::engine::command::{Command, Param};
use crate::engine::failover::FailTarget;
use crate::engine::input_twin::input_twin;
use crate::engine::job::JobConfig;
use crate::engine::operator::sink::SinkMode;
use crate::engine::producer::ProducerKind;
use crate::engine::scenario::flink_version::FlinkVersion;
use crate::engine::scenario::schema::{KafkaConnector, KeysSpec, PartitionSelector, ProducerSpec, Scenario, SourceSpec};
use crate::engine::source::generator::GeneratorKind;
use crate::engine::source::timestamp::TimestampAssigner;
use crate::engine::time::{format_duration_exact, format_opt_duration_exact, thousands};

input_twin! {
    /// Serialized as `{ kind, value }` (`{"kind": "idle_timeout", "value": 60000}`), which
    /// `applyFix` takes back.
    #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
    #[cfg_attr(test, derive(ts_rs::TS))]
    #[serde(tag = "kind", content = "value", rename_all = "snake_case", rename_all_fields = "camelCase", deny_unknown_fields)]
    pub enum Action reads action_in #[serde(rename = "$tag:kind:value", rename_all = "snake_case", rename_all_fields = "camelCase", deny_unknown_fields)] {
        IdleTimeout(Option<i64>),
        Bound(i64),
        AllowedLateness(i64),
        SideOutput(bool),
        Sink(SinkMode),
        DropHeartbeats(bool),
        /// Clamp future timestamps; restarts so that the outlier is clamped too.
        ClampRestart,
        AutoInterval(i64),
        DetachProducers(u32),
        /// Attach a producer whose records are `delay_ms` old.
        WakeLate {
            partition: u32,
            delay_ms: i64,
        },
        /// Restart with another timestamp assigner.
        Assigner(TimestampAssigner),
        /// Restart with this source parallelism.
        SourceParallelism(u32),
        /// Restart with the legacy FlinkKafkaConsumer.
        LegacyConnector,
        /// Restart with a bounded generator and withIdleness instead of "MAX on silence".
        IdlenessInsteadOfMax,
        /// Restart with the chained watermark operators' strategies moved into the sources
        /// (per-partition watermarks, the source's idleness).
        WatermarksInSource,
        /// A keyed subtask's capacity in records/s (`None`: unbounded).
        KeyedCapacity(Option<u64>),
        /// Restart on Flink ≤ 1.19.1 / 1.20.0's wall-clock idleness (back-pressured time counts).
        WallClockIdleness,
        /// Restart with `withWatermarkAlignment("backfill", maxDrift, 1 s)` on every source.
        Alignment {
            max_drift_ms: i64,
        },
        /// Kill a TaskManager: the job fails and restarts from its last checkpoint.
        KillTaskManager(u32),
    }
}

/// A bounded generator with a 60 s idle timeout instead of "MAX on silence": every source that
/// has that generator changes, and the first (`always`) if none has.
fn idleness_instead_of_max(source: &mut SourceSpec, always: bool) {
    let bound = match source.watermark.generator {
        GeneratorKind::MaxOnSilence { bound_ms, .. } => bound_ms,
        GeneratorKind::BoundedOutOfOrderness { bound_ms } if always => bound_ms,
        _ if always => 0,
        _ => return,
    };
    source.watermark.generator = GeneratorKind::BoundedOutOfOrderness { bound_ms: bound };
    source.watermark.idle_timeout_ms = Some(60_000);
}

/// A labelled step, as a preset card or the WHY panel shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub label: &'static str,
    pub action: Action,
}

impl Action {
    /// Whether the action restarts the job from time zero.
    pub fn restarts(&self) -> bool {
        self.command().is_none()
    }

    /// The command that applies it to the running job, unless it needs a restart.
    pub fn command(&self) -> Option<Command> {
        let set = |param| Some(Command::SetParam { param });
        match *self {
            Action::IdleTimeout(t) => set(Param::IdleTimeoutMs(t)),
            Action::Bound(b) => set(Param::BoundMs(b)),
            Action::AllowedLateness(l) => set(Param::AllowedLatenessMs(l)),
            Action::SideOutput(b) => set(Param::LateSideOutput(b)),
            Action::Sink(m) => set(Param::SinkMode(m)),
            Action::DropHeartbeats(b) => set(Param::DropHeartbeats(b)),
            Action::AutoInterval(i) => set(Param::AutoWatermarkIntervalMs(i)),
            Action::DetachProducers(partition) => Some(Command::DetachProducers { partition }),
            Action::KeyedCapacity(c) => set(Param::KeyedCapacityPerS(c)),
            Action::KillTaskManager(n) => Some(Command::Fail { target: FailTarget::TaskManager(n) }),
            Action::WakeLate { partition, delay_ms } => Some(Command::AttachProducer { producer: late_device(partition, delay_ms) }),
            Action::ClampRestart
            | Action::Assigner(_)
            | Action::SourceParallelism(_)
            | Action::LegacyConnector
            | Action::IdlenessInsteadOfMax
            | Action::WatermarksInSource
            | Action::WallClockIdleness
            | Action::Alignment { .. } => None,
        }
    }

    /// The change to the scenario for an action that restarts (nothing for the others).
    pub fn change(&self, sc: &mut Scenario) {
        match *self {
            // Every source: the far-future record may be in either topic, and clamping a
            // source that has none changes nothing.
            Action::ClampRestart => {
                sc.source.transform.max_future_skew_ms = Some(0);
                if let Some(second) = &mut sc.second_input {
                    second.source.transform.max_future_skew_ms = Some(0);
                }
            }
            // Every source, as a parameter changes every source's strategy: the fix reads the
            // event-time field, which is right for any topic, and the broken one may be either.
            Action::Assigner(a) => {
                sc.source.timestamp_assigner = a;
                if let Some(second) = &mut sc.second_input {
                    second.source.timestamp_assigner = a;
                }
            }
            Action::SourceParallelism(p) => sc.source.parallelism = p,
            Action::LegacyConnector => sc.flink.kafka_connector = KafkaConnector::Legacy,
            Action::IdlenessInsteadOfMax => {
                let max = |s: &SourceSpec| matches!(s.watermark.generator, GeneratorKind::MaxOnSilence { .. });
                let idle = |s: &SourceSpec| s.watermark.idle_timeout_ms.is_some();
                let sources = || std::iter::once(&sc.source).chain(sc.second_input.as_ref().map(|i| &i.source));
                // Once applied, no generator is MAX and a source has a timeout: nothing more to
                // change (the first source got one on the second run, so it was never in effect).
                let none_max = !sources().any(max) && !sources().any(idle);
                idleness_instead_of_max(&mut sc.source, none_max);
                if let Some(second) = &mut sc.second_input {
                    idleness_instead_of_max(&mut second.source, false);
                }
            }
            Action::WatermarksInSource => {
                watermarks_in_source(&mut sc.source);
                if let Some(second) = &mut sc.second_input {
                    watermarks_in_source(&mut second.source);
                }
            }
            Action::WallClockIdleness => sc.flink = FlinkVersion::V1_19_1.apply_to(&sc.flink),
            Action::Alignment { max_drift_ms } => {
                let params = AlignmentParams { group: "backfill".into(), max_drift_ms, update_interval_ms: 1_000 };
                sc.source.watermark.alignment = Some(params.clone());
                if let Some(second) = &mut sc.second_input {
                    second.source.watermark.alignment = Some(params);
                }
            }
            _ => {}
        }
    }

    /// Whether the job already has what the action would give it: a live change whose value
    /// the configuration holds, a restart whose change leaves the scenario as it is. `None` for
    /// an event (a kill, producers retired or attached), which is done and not a state.
    pub fn in_effect(&self, running: &Scenario, cfg: &JobConfig) -> Option<bool> {
        match self.command() {
            Some(Command::SetParam { param }) => Some(param.in_effect(cfg)),
            Some(_) => None,
            // Against the job as it runs now: a live change after the restart (the clamp
            // cleared in Controls) undoes it, and the base scenario does not know (a review).
            None => {
                let mut now = running.clone();
                now.adopt_runtime_settings(cfg);
                let mut changed = now.clone();
                self.change(&mut changed);
                Some(changed == now)
            }
        }
    }

    /// What the action did, as the confirmation says it.
    pub fn describe(&self) -> String {
        let d = format_duration_exact;
        let on = |b: bool| if b { "on" } else { "off" };
        match *self {
            Action::IdleTimeout(t) => format!("idle timeout {}", format_opt_duration_exact(t)),
            Action::Bound(b) => format!("out-of-orderness bound {}", d(b)),
            Action::AllowedLateness(l) => format!("allowed lateness {}", d(l)),
            Action::SideOutput(b) => format!("late side output {}", on(b)),
            Action::Sink(m) => format!("sink {}", if m == SinkMode::Upsert { "upsert" } else { "append" }),
            Action::DropHeartbeats(b) => format!("heartbeat filter {}", on(b)),
            Action::ClampRestart => "timestamps clamped to processing time (restarted)".into(),
            Action::AutoInterval(i) => format!("auto-watermark interval {}", d(i)),
            Action::DetachProducers(p) => format!("producers of partition {p} retired"),
            Action::WakeLate { partition, delay_ms } => format!("partition {partition} woken with {}-old records", d(delay_ms)),
            Action::Assigner(a) => format!("timestamp assigner {} (restarted)", assigner_label(a)),
            Action::SourceParallelism(p) => format!("source parallelism {p} (restarted)"),
            Action::LegacyConnector => "legacy FlinkKafkaConsumer (restarted)".into(),
            Action::IdlenessInsteadOfMax => "bounded generator with withIdleness(60 s) (restarted)".into(),
            Action::WatermarksInSource => "watermarks generated in the source, per partition (restarted)".into(),
            Action::KeyedCapacity(c) => {
                c.map_or("window capacity unbounded".into(), |c| format!("window capacity {}/s per subtask", thousands(c)))
            }
            Action::WallClockIdleness => "Flink 1.19.1: idleness on the wall clock (restarted)".into(),
            Action::Alignment { max_drift_ms } => format!("watermark alignment, max drift {} (restarted)", d(max_drift_ms)),
            Action::KillTaskManager(n) => format!("TaskManager {n} killed"),
        }
    }
}

/// The chained operator's strategy becomes the source's; the source keeps its own idle timeout
/// when the chained one had none.
fn watermarks_in_source(source: &mut SourceSpec) {
    let Some(m) = source.midstream.take() else { return };
    let (generator, emit, idle) = m.as_source_strategy();
    source.watermark.generator = generator;
    source.watermark.emit = emit;
    source.watermark.idle_timeout_ms = idle.or(source.watermark.idle_timeout_ms);
}

/// A device that uploads records `delay_ms` old, five a second, to one partition.
fn late_device(partition: u32, delay_ms: i64) -> ProducerSpec {
    ProducerSpec {
        topic: None,
        partitions: PartitionSelector::One(partition),
        kind: ProducerKind::Steady { rate_per_s: 5 },
        keys: KeysSpec::List(vec!["late-device".into()]),
        event_delay_ms: delay_ms,
        jitter_ms: 0,
        value: 1,
        start_ms: 0,
        stop_ms: None,
    }
}

/// A timestamp assigner as people name it.
pub fn assigner_label(a: TimestampAssigner) -> &'static str {
    match a {
        TimestampAssigner::EventField => "event time field (ms)",
        TimestampAssigner::BrokerTime => "Kafka record time",
        TimestampAssigner::SecondsAsMillis => "seconds read as ms (mistake)",
        TimestampAssigner::MillisAsSeconds => "ms read as seconds (mistake)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::flow::IdlenessClock;
    use crate::engine::operator::sink::SinkMode;
    use crate::engine::source::timestamp::TimestampAssigner;

    /// Every variant; the match makes a new variant a compile error until it is listed.
    fn every_action() -> Vec<Action> {
        use Action::*;
        let all = vec![
            IdleTimeout(Some(5_000)),
            IdleTimeout(None),
            Bound(2_000),
            AllowedLateness(1_000),
            SideOutput(true),
            Sink(SinkMode::Upsert),
            DropHeartbeats(false),
            ClampRestart,
            AutoInterval(200),
            DetachProducers(3),
            WakeLate { partition: 1, delay_ms: 40_000 },
            Assigner(TimestampAssigner::SecondsAsMillis),
            SourceParallelism(4),
            LegacyConnector,
            IdlenessInsteadOfMax,
            WatermarksInSource,
            KeyedCapacity(Some(100)),
            KeyedCapacity(None),
            WallClockIdleness,
            Alignment { max_drift_ms: 10_000 },
            KillTaskManager(0),
        ];
        for a in &all {
            match a {
                IdleTimeout(_)
                | Bound(_)
                | AllowedLateness(_)
                | SideOutput(_)
                | Sink(_)
                | DropHeartbeats(_)
                | ClampRestart
                | AutoInterval(_)
                | DetachProducers(_)
                | WakeLate { .. }
                | Assigner(_)
                | SourceParallelism(_)
                | LegacyConnector
                | IdlenessInsteadOfMax
                | WatermarksInSource
                | KeyedCapacity(_)
                | WallClockIdleness
                | Alignment { .. }
                | KillTaskManager(_) => {}
            }
        }
        all
    }

    #[test]
    fn clamping_clamps_every_source() {
        let mut sc = crate::engine::scenario::build::parse(include_str!("../../../presets/union_idle_stream.json")).unwrap();
        Action::ClampRestart.change(&mut sc);
        let second = sc.second_input.as_ref().expect("a union");
        assert_eq!((sc.source.transform.max_future_skew_ms, second.source.transform.max_future_skew_ms), (Some(0), Some(0)));
    }

    #[test]
    fn the_assigner_fix_reads_the_event_field_in_every_source() {
        let mut sc = crate::engine::scenario::build::parse(include_str!("../../../presets/union_idle_stream.json")).unwrap();
        sc.second_input.as_mut().expect("a union").source.timestamp_assigner = TimestampAssigner::SecondsAsMillis;
        Action::Assigner(TimestampAssigner::EventField).change(&mut sc);
        let second = &sc.second_input.as_ref().unwrap().source;
        assert_eq!(
            (sc.source.timestamp_assigner, second.timestamp_assigner),
            (TimestampAssigner::EventField, TimestampAssigner::EventField)
        );
    }

    #[test]
    fn idleness_instead_of_max_changes_the_source_that_has_it() {
        let mut sc = crate::engine::scenario::build::parse(include_str!("../../../presets/union_idle_stream.json")).unwrap();
        let second = &mut sc.second_input.as_mut().expect("a union").source;
        second.watermark.generator = GeneratorKind::MaxOnSilence { bound_ms: 500, silence_ms: 60_000 };
        Action::IdlenessInsteadOfMax.change(&mut sc);
        let second = &sc.second_input.as_ref().unwrap().source;
        assert_eq!(second.watermark.generator, GeneratorKind::BoundedOutOfOrderness { bound_ms: 500 });
        assert_eq!((sc.source.watermark.idle_timeout_ms, second.watermark.idle_timeout_ms), (None, Some(60_000)));
    }

    /// The twin that reads an action (`input_twin!`) has its own container attributes: what
    /// the action writes, it reads back.
    #[test]
    fn every_action_reads_back_what_it_writes() {
        for a in every_action() {
            let json = serde_json::to_value(a).unwrap();
            let back: Action = crate::engine::error::from_value(json.clone(), "").unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(back, a, "{json}");
        }
    }

    /// A restart's change undone live (the clamp cleared in Controls) is no longer in effect,
    /// and a step applied twice is the same as once (a review).
    #[test]
    fn a_restart_step_undone_live_is_not_in_effect() {
        use crate::engine::session::Session;
        let mut s =
            Session::new(crate::engine::scenario::build::parse(include_str!("../../../presets/far_future_outlier.json")).unwrap()).unwrap();
        s.apply_action(Action::ClampRestart).unwrap();
        assert_eq!(Action::ClampRestart.in_effect(s.scenario(), s.sim().config()), Some(true));
        s.apply(Command::SetParam { param: Param::MaxFutureSkewMs(None) }).unwrap();
        assert_eq!(Action::ClampRestart.in_effect(s.scenario(), s.sim().config()), Some(false));
        let mut sc = crate::engine::scenario::build::parse(include_str!("../../../presets/union_idle_stream.json")).unwrap();
        sc.second_input.as_mut().expect("a union").source.watermark.generator =
            GeneratorKind::MaxOnSilence { bound_ms: 1_000, silence_ms: 5_000 };
        Action::IdlenessInsteadOfMax.change(&mut sc);
        let once = sc.clone();
        Action::IdlenessInsteadOfMax.change(&mut sc);
        assert_eq!(sc, once, "idempotent");
    }

    /// 1.19.1's wall clock comes with 1.19.1's other switches, and the 2.x clock brings 2.3's back.
    #[test]
    fn the_wall_clock_is_flink_1_19_1_throughout() {
        let mut sc = crate::engine::scenario::build::parse(include_str!("../../../presets/backfill_aligned.json")).unwrap();
        Action::WallClockIdleness.change(&mut sc);
        let f = &sc.flink;
        assert_eq!(
            (f.idleness_clock, f.combined_all_idle_flush, f.alignment_skip_idle_splits, f.alignment_buffer_size),
            (IdlenessClock::Wall, false, false, 0)
        );
        sc.flink = FlinkVersion::V2_3.apply_to(&sc.flink);
        assert_eq!(sc.flink, crate::engine::scenario::schema::FlinkSwitches::default());
    }

    /// Every preset's steps: a step is in effect after it ran (a restart's on the restarted
    /// job), and an event never is a state.
    #[test]
    fn a_step_is_in_effect_once_it_ran() {
        use crate::engine::session::Session;
        for preset in crate::engine::scenario::catalog::presets() {
            for step in preset.steps {
                let mut s = Session::new(crate::engine::scenario::build::parse(preset.json).unwrap()).unwrap();
                let a = step.action;
                let Ok(()) = s.apply_action(a) else { continue };
                let state = a.in_effect(s.scenario(), s.sim().config());
                assert_eq!(
                    state.is_none(),
                    matches!(a, Action::KillTaskManager(_) | Action::DetachProducers(_) | Action::WakeLate { .. }),
                    "{}: {a:?}",
                    preset.id
                );
                assert_ne!(state, Some(false), "{}: {:?} ran but is not in effect", preset.id, step.label);
            }
        }
    }

    #[test]
    fn the_late_device_is_the_producer_the_ui_used_to_write_as_json() {
        let json = r#"{"partitions": 3, "kind": "steady", "rate_per_s": 5, "event_delay_ms": 40000, "keys": ["late-device"]}"#;
        let old: ProducerSpec = crate::engine::error::read(json).unwrap();
        assert_eq!(late_device(3, 40_000), old);
    }
}
