//! What an exported job can reproduce: the shapes the replay job is written for are checked up
//! front (an input error names the scenario field), and what it runs differently from the
//! playground is said in the notes (shown by the CLI, the JS API, the UI and the README).

use super::job_java::{is_paced, is_sql_window};
use super::replay::Recorded;
use crate::engine::command::Command;
use crate::engine::error::InputError;
use crate::engine::flow::IdlenessClock;
use crate::engine::job::JobConfig;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::partitioner::Exchange;
use crate::engine::scenario::schema::{Scenario, TimedCommand};
use crate::engine::source::generator::{EmitMode, GeneratorKind};
use crate::engine::time::format_elapsed;

/// An error naming what the exported job cannot run.
fn unsupported(field: &str, what: &str) -> InputError {
    InputError::new(field, format!("cannot be exported yet: {what}"))
}

/// The replay job has one input, a DataStream window and the source's own strategy.
pub fn check(s: &Scenario) -> Result<(), InputError> {
    let cfg = s.job_config();
    if s.interval_join.is_some() {
        return Err(unsupported(
            "interval_join",
            "the replay job ends in keyed event-time windows (an interval join's output is not written)",
        ));
    }
    if cfg.inputs.len() == 2 && cfg.inputs.iter().any(|i| i.midstream.is_some()) {
        return Err(unsupported("source.midstream", "a watermark operator after one of two inputs' sources"));
    }
    if cfg.inputs.len() == 2 && cfg.inputs.iter().any(|i| i.alignment.is_some()) {
        return Err(unsupported("second_input.source.alignment", "watermark alignment on two inputs' sources"));
    }
    if cfg.inputs.len() == 2 && is_sql_window(&cfg) {
        return Err(unsupported("window.api", "a SQL window over two inputs (the job's view is of one source)"));
    }
    if let Some((_, field)) = max_on_silence_strategies(&cfg).into_iter().find(|(e, _)| *e == EmitMode::PerEvent) {
        return Err(unsupported(
            &field,
            "max_on_silence emitting per event (the job's generator checks the silence on the replay's periodic ticks)",
        ));
    }
    let input = cfg.first();
    if let Some(MidstreamSpec::SqlWatermarkAssigner { .. }) = input.midstream {
        check_sql_midstream(&cfg)?;
    }
    if s.commands.iter().any(|c| matches!(c.command, Command::Fail { .. })) {
        check_failure_shape(s)?;
    }
    for (i, c) in s.commands.iter().enumerate() {
        if !matches!(
            c.command,
            Command::Produce { .. }
                | Command::Silence { .. }
                | Command::Resume { .. }
                | Command::AttachProducer { .. }
                | Command::DetachProducers { .. }
                | Command::Fail { .. }
        ) {
            return Err(unsupported(&format!("commands[{i}]"), &mid_run_change(c)));
        }
    }
    Ok(())
}

/// Why a command cannot replay, in the words of what the user did and when.
fn mid_run_change(c: &TimedCommand) -> String {
    let keeps = "the job keeps the settings and splits it starts with (only what is produced, and failures, replay)";
    match &c.command {
        Command::SetParam { param } => format!(
            "{} changed at {}, while the job ran: {keeps}. Make the change before ▶ (Reset, change, ▶) for the job to start with it",
            param.name(),
            format_elapsed(c.at_ms)
        ),
        other => format!("the {} at {}: {keeps}", other.name(), format_elapsed(c.at_ms)),
    }
}

/// The note of settings changed at the start, by name: the job starts with them.
pub fn start_settings_note(names: &[String]) -> String {
    let listed = match names {
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
        [] => String::new(),
    };
    format!("The job starts with {listed} as set at 00:00 before ▶ (settings changed before the job ran are its own)")
}

/// SQL's watermark operator forwards the source's statuses and its final `Long.MAX_VALUE`: the
/// one replay reader's are those of all splits, not of each playground source subtask's, so the
/// source must emit neither (its other watermarks the operator swallows).
fn check_sql_midstream(cfg: &JobConfig) -> Result<(), InputError> {
    let src = &cfg.first().source;
    // The legacy connector marks a source subtask without splits idle at once.
    let why = "SQL's watermark operator forwards the source's idleness and Long.MAX_VALUE, which the job's one reader has for all splits, not per source subtask";
    if src.idle_timeout_ms.is_some() {
        return Err(unsupported("source.watermark.idle_timeout_ms", why));
    }
    if matches!(src.generator, GeneratorKind::MaxOnSilence { .. }) {
        return Err(unsupported("source.watermark.generator", why));
    }
    if src.legacy_idle_without_splits {
        return Err(unsupported("flink.kafka_connector", why));
    }
    if cfg.first().alignment.is_some() {
        return Err(unsupported("source.watermark.alignment", "watermark alignment before SQL's watermark operator"));
    }
    Ok(())
}

/// Failures replay on the plain job only: its failure marker must reach the window task on the
/// one channel the records take (not through a union, a two-input operator or a SQL view), and
/// not as a late record (a `max_on_silence` window watermark of Long.MAX_VALUE would drop it).
pub fn check_failures(s: &Scenario, run: &Recorded) -> Result<(), InputError> {
    if run.failures == 0 {
        return Ok(());
    }
    if run.failures > run.restarts && s.end_of_input {
        // The replay job restores after every failure; the playground's job stayed down.
        return Err(unsupported("end_of_input", "ending the input of a job that failed and did not restart"));
    }
    check_failure_shape(s)
}

/// The shapes failures replay with. A `fail` command is checked before the run; a TaskManager
/// over its memory is only known after it.
fn check_failure_shape(s: &Scenario) -> Result<(), InputError> {
    let cfg = s.job_config();
    let field = if matches!(cfg.first().source.generator, GeneratorKind::MaxOnSilence { .. }) {
        "source.watermark.generator".to_string()
    } else if cfg.inputs.len() == 2 {
        "second_input".into()
    } else if cfg.first().midstream.is_some() {
        "source.midstream".into()
    } else if is_sql_window(&cfg) {
        "window.api".into()
    } else {
        return Ok(());
    };
    Err(unsupported(
        &field,
        "the job's failures with this shape (they replay with one source, its own watermarks, not max_on_silence, and a DataStream window)",
    ))
}

/// How the replay's reader stands for the playground's source subtasks.
fn readers(cfg: &JobConfig, run: &Recorded) -> String {
    let input = cfg.first();
    let subtasks: u32 = cfg.inputs.iter().map(|i| i.source_parallelism).sum();
    let mut s = format!(
        "One source reader owns all {} splits{} and the window runs at parallelism 1 (the playground: {subtasks} source and {} window subtasks); the window operator's watermark is the same minimum over the splits that are not idle.",
        run.splits.len(),
        match (cfg.inputs.len(), cfg.two_logical_inputs()) {
            (2, true) => " of both connected inputs, each split with its own source's strategy, into the two-input operator (TwoInputs, which passes them on; the windows after it see its watermark),",
            (2, false) => " of both sources of the union, each split with its own source's strategy,",
            _ => "",
        },
        cfg.window_parallelism
    );
    if input.midstream.is_some() {
        let op =
            if is_paced(cfg) { "SQL watermark operator (a view with the scenario's WATERMARK)" } else { "assignTimestampsAndWatermarks" };
        s += &format!(
            " Each of the playground's {} source subtasks' records go through their own {op}, unioned into the window: the window task reads their channels in the order they arrive, so a record behind its own channel's watermark may be late in one run and not in another (the results are the playground's when no record is), and a firing above the playground's last window watermark ({} ms) is marked end_of_input (the channels end one after the other).",
            input.source_parallelism, run.final_watermark_ms
        );
    }
    s
}

/// Which clock the job's watermark timers run on.
fn clock_note(cfg: &JobConfig, run: &Recorded) -> String {
    if !is_paced(cfg) {
        return "Periodic emission and withIdleness run on the replay's clock (the playground's processing time, carried by tick records), not on the wall clock: the job runs as fast as the cluster goes and gives the same output every time.".into();
    }
    format!(
        "SQL's watermark operator emits every pipeline.auto-watermark-interval and measures table.exec.source.idle-timeout on wall-clock timers, so the job replays in real time: the reader reads each instant at its time after the job's start, and the job runs for {} s. The operator's timers start when it opens and are not in step with the replay's instants: a decision can fall up to one timer interval later than in the playground, so the results are the playground's when no record and no idleness decision is that close.",
        (run.end_ms + 999) / 1000
    )
}

/// What the exported job does differently from the playground, for this scenario.
pub fn notes(s: &Scenario, run: &Recorded) -> Vec<String> {
    let cfg = s.job_config();
    let input = cfg.first();
    let mut notes = vec![
        format!(
            "The job replays the {} records the playground's sources emitted in {} ms, with the timestamps their assigner gave them (bugs such as seconds read as milliseconds are already in the data), in the playground's order.",
            run.records,
            run.end_ms
        ),
        readers(&cfg, run),
        clock_note(&cfg, run),
        "When the replay ends, Flink emits the final Long.MAX_VALUE watermark and fires every open window; those lines end with `end_of_input` and the playground shows them only if the scenario ends its input.".into(),
    ];
    if is_sql_window(&cfg) {
        notes.push("The window is Flink SQL's window TVF aggregation (job.sql) over a view of the replayed stream whose watermark is the stream's own (SOURCE_WATERMARK()): the per-split watermarks and withIdleness reach it as from a Kafka table whose WATERMARK is pushed into the source. A SQL window fires once and drops late rows.".into());
    }
    let idleness = input.source.idle_timeout_ms.is_some() || input.midstream.is_some_and(|m| m.idle_timeout_ms().is_some());
    if idleness && (cfg.flow.keyed_capacity_per_s.is_some() || input.read_rate_per_s.is_some()) {
        notes.push(if input.midstream.is_some() {
            "Back-pressure and read rates are not re-created: the replay's order holds their effect on what was read when, but the mid-stream operator's idleness counts plain processing time, while Flink 2.3 stops its clock while the source is back-pressured (FLIP-471).".into()
        } else {
            "Back-pressure and read rates are not re-created: the replay's order holds their effect on what was read when, and its P lines stop each split's idleness clock where the playground's stood (back-pressured, or paused by split alignment), as Flink 2.3 does (FLIP-471).".into()
        });
    }
    if run.failures > 0 {
        notes.push(format!(
            "The playground's job failed {} time(s) and restarted {} time(s) from its checkpoints; the job fails at the same points of the replay: its window task throws on a failure marker after everything read before it, and Flink restores a checkpoint taken where the playground's restored one was (at its last checkpoint, or right after the last restore; Flink checkpoints every 100 ms and restarts after 100 ms; the replay's own time does not depend on either). Results fired between a checkpoint and a failure are printed again, as the playground's append sink received them twice.",
            run.failures, run.restarts
        ));
    }
    if cfg.two_logical_inputs() {
        notes.push("connect: the playground's two-input operator keeps its windows itself (a KeyedCoProcessFunction with event-time timers); the job's two-input operator passes the records on to keyed windows after it. Both of its inputs carry the one reader's watermark, the minimum over the splits of both sources that are not idle, which is the playground's two-input minimum, as for a union. Its two inputs are two channels, read in the order they arrive: the operator's watermark can lag the reader's, so a record close to the watermark may be on time in one run and late in another (never later than in the playground; the results are the playground's when no record is that close).".into());
    }
    if !max_on_silence_strategies(&cfg).is_empty() {
        notes.push("The scenario's home-made max_on_silence generator ships as MaxOnSilenceGenerator in the job; it measures silence on the input activity clock it is given, here the replay's.".into());
    }
    if input.source.idleness_clock == IdlenessClock::Wall {
        notes.push("flink.idleness_clock is `wall` (Flink <= 1.19.1 / 1.20.0); the job runs Flink 2.3.".into());
    }
    if input.alignment.is_some() {
        notes.push("Watermark alignment is set on the strategy, but the replay reader does not pause splits (one reader: the playground's pauses are already in the replay's order).".into());
    }
    if cfg.checkpointing.interval_ms.is_some() && run.failures == 0 {
        notes.push("Checkpointing is not enabled in the job: the playground's job never failed, so no checkpoint is ever restored.".into());
    }
    if cfg.inputs.iter().any(|i| i.exchange != Exchange::Hash) {
        notes.push("A rebalance or forward exchange: Flink keys a window only after a keyBy, so the job's window is keyed (one window per key and window), where the playground's window subtasks each keep the keys that reach them: a key whose records reach two of them has a window on each, its count split between them.".into());
    }
    if cfg.channel_latency_ms > 0 {
        notes.push("exchange.latency_ms is not reproduced: records reach the window as soon as the source emits them.".into());
    }
    notes
}

/// The job's strategies (sources' and mid-stream) that run the home-made `max_on_silence`
/// generator the export ships, each with its emission mode and the scenario field that sets it.
fn max_on_silence_strategies(cfg: &JobConfig) -> Vec<(EmitMode, String)> {
    let mut out = Vec::new();
    for (i, input) in cfg.inputs.iter().enumerate() {
        let at = if i == 0 { "source" } else { "second_input.source" };
        if matches!(input.source.generator, GeneratorKind::MaxOnSilence { .. }) {
            out.push((input.source.emit, format!("{at}.watermark.emit")));
        }
        if let Some(MidstreamSpec::TimestampsAndWatermarks { generator: GeneratorKind::MaxOnSilence { .. }, emit, .. }) = input.midstream {
            out.push((emit, format!("{at}.midstream.emit")));
        }
    }
    out
}
