//! One-click actions: the fixes the WHY panel offers and the steps each preset suggests.
//! Live changes go through engine commands; the others restart the scenario with the change.

use super::state::Pg;
use crate::engine::command::{Command, Param};
use crate::engine::scenario::schema::{KafkaConnector, ProducerSpec};
use crate::engine::source::generator::GeneratorKind;
use crate::engine::source::timestamp::TimestampAssigner;
use crate::engine::operator::sink::SinkMode;

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
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
    WakeLate { partition: u32, delay_ms: i64 },
    /// Restart with another timestamp assigner.
    Assigner(TimestampAssigner),
    /// Restart with this source parallelism.
    SourceParallelism(u32),
    /// Restart with the legacy FlinkKafkaConsumer.
    LegacyConnector,
    /// Restart with a bounded generator and withIdleness instead of "MAX on silence".
    IdlenessInsteadOfMax,
}

impl Action {
    /// Whether the action restarts the job from time zero.
    pub fn restarts(&self) -> bool {
        matches!(self, Action::ClampRestart | Action::Assigner(_) | Action::SourceParallelism(_) | Action::LegacyConnector | Action::IdlenessInsteadOfMax)
    }

    pub fn run(&self, pg: &Pg) {
        let set = |p: Param| pg.apply_or_report(Command::SetParam { param: p });
        let ok = match self.clone() {
            Action::IdleTimeout(t) => set(Param::IdleTimeoutMs(t)),
            Action::Bound(b) => set(Param::BoundMs(b)),
            Action::AllowedLateness(l) => set(Param::AllowedLatenessMs(l)),
            Action::SideOutput(b) => set(Param::LateSideOutput(b)),
            Action::Sink(m) => set(Param::SinkMode(m)),
            Action::DropHeartbeats(b) => set(Param::DropHeartbeats(b)),
            Action::AutoInterval(i) => set(Param::AutoWatermarkIntervalMs(i)),
            Action::DetachProducers(p) => pg.apply_or_report(Command::DetachProducers { partition: p }),
            Action::WakeLate { partition, delay_ms } => {
                let json = format!(r#"{{"partitions": {partition}, "kind": "steady", "rate_per_s": 5, "event_delay_ms": {delay_ms}, "keys": ["late-device"]}}"#);
                let producer: ProducerSpec = serde_json::from_str(&json).expect("a valid producer");
                pg.apply_or_report(Command::AttachProducer { producer })
            }
            Action::ClampRestart => restart(pg, |sc| sc.source.transform.max_future_skew_ms = Some(0)),
            Action::Assigner(a) => restart(pg, |sc| sc.source.timestamp_assigner = a),
            Action::SourceParallelism(p) => restart(pg, |sc| sc.source.parallelism = p),
            Action::LegacyConnector => restart(pg, |sc| sc.flink.kafka_connector = KafkaConnector::Legacy),
            Action::IdlenessInsteadOfMax => restart(pg, |sc| {
                let bound = match sc.source.watermark.generator {
                    GeneratorKind::MaxOnSilence { bound_ms, .. } | GeneratorKind::BoundedOutOfOrderness { bound_ms } => bound_ms,
                    _ => 0,
                };
                sc.source.watermark.generator = GeneratorKind::BoundedOutOfOrderness { bound_ms: bound };
                sc.source.watermark.idle_timeout_ms = Some(60_000);
            }),
        };
        if ok {
            pg.info(format!("Applied: {}", self.describe()));
        }
    }

    /// What the action does, as the confirmation says it.
    pub fn describe(&self) -> String {
        use super::format::{dur_input, opt_dur_input};
        match self {
            Action::IdleTimeout(t) => format!("idle timeout {}", opt_dur_input(*t)),
            Action::Bound(b) => format!("out-of-orderness bound {}", dur_input(*b)),
            Action::AllowedLateness(l) => format!("allowed lateness {}", dur_input(*l)),
            Action::SideOutput(b) => format!("late side output {}", if *b { "on" } else { "off" }),
            Action::Sink(m) => format!("sink {}", if *m == SinkMode::Upsert { "upsert" } else { "append" }),
            Action::DropHeartbeats(b) => format!("heartbeat filter {}", if *b { "on" } else { "off" }),
            Action::ClampRestart => "timestamps clamped to processing time (restarted)".into(),
            Action::AutoInterval(i) => format!("auto-watermark interval {}", dur_input(*i)),
            Action::DetachProducers(p) => format!("producers of partition {p} retired"),
            Action::WakeLate { partition, delay_ms } => format!("partition {partition} woken with {}-old records", dur_input(*delay_ms)),
            Action::Assigner(a) => format!("timestamp assigner {} (restarted)", assigner_label(*a)),
            Action::SourceParallelism(p) => format!("source parallelism {p} (restarted)"),
            Action::LegacyConnector => "legacy FlinkKafkaConsumer (restarted)".into(),
            Action::IdlenessInsteadOfMax => "bounded generator with withIdleness(60 s) (restarted)".into(),
        }
    }
}

fn restart(pg: &Pg, change: impl FnOnce(&mut crate::engine::scenario::schema::Scenario)) -> bool {
    match pg.restart_with(change) {
        Ok(()) => true,
        Err(e) => {
            pg.error(format!("{e}"));
            false
        }
    }
}

pub fn assigner_label(a: TimestampAssigner) -> &'static str {
    match a {
        TimestampAssigner::EventField => "event time field (ms)",
        TimestampAssigner::BrokerTime => "Kafka record time",
        TimestampAssigner::SecondsAsMillis => "seconds read as ms (mistake)",
        TimestampAssigner::MillisAsSeconds => "ms read as seconds (mistake)",
    }
}
