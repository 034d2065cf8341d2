//! Findings about partitions, one per class that needs attention (empty, idle, heartbeat,
//! slow, returning, flapping, stalled-but-hidden), naming the culprit partition when it is of
//! that class and counting the others. Each says what idleness does and does not do for it,
//! by the settings of the source that reads the partition.

use super::classify::{behind_words, PartitionClass, PartitionFacts, SlowCause, RECORDS_FOR_RHYTHM};
use super::diagnose::{d, exact, FindingContext};
use super::finding::{Finding, FindingKind, Severity};
use crate::engine::explain::{Ahead, Explanation};
use crate::engine::explain_text::nothing_ahead_words;
use crate::engine::session::action::Action;
use crate::engine::time::thousands;

/// A partition silent this long after steady traffic, excluded by idleness, looks broken.
const STALLED_AFTER_MS: i64 = 60_000;
const CHECK_PARTITION: &str =
    "the source subtasks' currentOutputWatermark (source operator metrics); whether the partition's KafkaSourceReader.topic.<topic>.partition.<p>.currentOffset moves";

impl FindingContext<'_> {
    pub(crate) fn partition_findings(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        // At the end of input (Long.MAX_VALUE) nothing is held: silent partitions do not matter.
        let ended = self.explanation.is_some_and(|e| e.watermark == crate::engine::time::END_OF_TIME);
        let classes = [
            PartitionClass::Empty,
            PartitionClass::Idle,
            PartitionClass::Heartbeat,
            PartitionClass::Slow,
            PartitionClass::Returning,
            PartitionClass::Flapping,
        ];
        for class in classes {
            if ended && matches!(class, PartitionClass::Empty | PartitionClass::Idle) {
                continue;
            }
            let group: Vec<&PartitionFacts> = self.partitions.iter().filter(|p| p.class == class).collect();
            // The first of them that needs a word: with two sources, one's timeout may have
            // excluded the lead while the other's partitions still hold.
            let mut tried = Vec::new();
            while let Some(lead) = self.next_lead(&group, &tried) {
                let f = match class {
                    PartitionClass::Empty => self.empty(lead),
                    PartitionClass::Idle => self.idle(lead),
                    PartitionClass::Heartbeat => self.heartbeat(lead),
                    PartitionClass::Slow => Some(self.slow(lead)),
                    PartitionClass::Returning => Some(self.returning(lead)),
                    _ => Some(self.flapping(lead)),
                };
                if let Some(f) = f {
                    out.push(self.with_others(f, &group, lead));
                    break;
                }
                tried.push(lead.partition);
            }
        }
        out.extend(self.stalled());
        out
    }

    /// The partition a group's finding names, of those not `tried`: the culprit if it is in
    /// the group, otherwise the one with the lowest watermark.
    fn next_lead<'p>(&self, group: &[&'p PartitionFacts], tried: &[u32]) -> Option<&'p PartitionFacts> {
        let culprit = self.culprit.and_then(|c| c.partition);
        let left = group.iter().filter(|p| !tried.contains(&p.partition));
        let first = left.clone().find(|p| Some(p.partition) == culprit);
        first.or_else(|| left.min_by_key(|p| (p.watermark, p.partition))).copied()
    }

    /// The group's size and other members, as evidence.
    fn with_others(&self, f: Finding, group: &[&PartitionFacts], lead: &PartitionFacts) -> Finding {
        if group.len() < 2 {
            return f;
        }
        let others: Vec<String> =
            group.iter().filter(|p| p.partition != lead.partition).take(5).map(|p| self.sim.partition_name(p.partition)).collect();
        let more = if group.len() > 6 { format!(" and {} more", group.len() - 6) } else { String::new() };
        f.evidence("partitions", group.len() as u64, format!("also partitions {}{more}", others.join(", ")))
    }

    /// The idle timeout that can exclude partition `n`'s split, if it is ever checked.
    fn timeout(&self, n: u32) -> Option<i64> {
        self.sim.source_settings_of(n).idle_timeout_ms.filter(|_| self.sim.cfg.auto_watermark_interval_ms > 0)
    }

    /// What the idle timeout `t` will do for silent partition `n`: exclude it soon, unless
    /// back-pressure stands its input-activity clock (FLIP-471), which the back-pressure
    /// finding explains.
    fn timeout_says(&self, n: u32, t: i64) -> String {
        let held = self.sim.split_of(n).filter(|&(s, i)| self.sim.sources[s as usize].idleness_held_by_pressure(i));
        match held {
            Some((s, _)) => format!(
                "source subtask {} is back-pressured, so its idleness clock stands still and the {} idle timeout does not pass",
                self.sim.source_subtask_name(s),
                d(t)
            ),
            None => format!("the {} idle timeout excludes it {} unless a record comes first", exact(t), self.idle_in_words(n)),
        }
    }

    /// When partition `n`'s split goes idle unless a record comes: "in 12.3 s" from its running
    /// countdown (its timer restarts with each record, and when a timeout is set on the running
    /// job), else "soon". The walk read "excludes it if no heartbeat comes for that long" beside
    /// a partition silent for 25 minutes, whose timer had started at the change.
    fn idle_in_words(&self, n: u32) -> String {
        let now = self.sim.now.max(self.sim.cfg.start_time);
        let deadline = self
            .sim
            .split_of(n)
            .and_then(|(s, i)| self.sim.sources[s as usize].splits[i].idle_deadline(self.sim.cfg.auto_watermark_interval_ms, now));
        deadline.map_or_else(|| "soon".to_string(), |at| format!("in {}", d((at - now).max(0))))
    }

    /// Why no idle timeout excludes a silent split: none is set, or it is never checked.
    fn no_timeout_says(&self, n: u32) -> String {
        match self.sim.source_settings_of(n).idle_timeout_ms {
            Some(t) => format!("its {} idle timeout is never checked (the auto-watermark interval is 0)", d(t)),
            None => "no idle timeout lets it go".into(),
        }
    }

    /// Whether idleness would release nothing now (`Explanation::nothing_ahead`: nothing in the
    /// job is above the watermark). Not with the interval at 0, where the interval is the fix.
    pub(super) fn nothing_ahead(&self) -> bool {
        self.sim.cfg.auto_watermark_interval_ms > 0 && self.explanation.is_some_and(Explanation::nothing_ahead)
    }

    fn holds(&self, p: &PartitionFacts) -> bool {
        self.culprit.and_then(|c| c.partition) == Some(p.partition)
    }

    /// The advised idle timeout as a fix, unless it is what is set; with the interval at 0 the
    /// interval (no timeout is ever checked); none with the Long.MAX_VALUE generator, whose
    /// own fix replaces it with idleness. The fix sets every source's timeout; it is offered
    /// when it changes the one of partition `n`'s source.
    fn idle_fix(&self, f: Finding, n: u32) -> Finding {
        let cfg = &self.sim.cfg;
        if cfg.auto_watermark_interval_ms == 0 {
            return f.fix("Interval 200 ms", Action::AutoInterval(200));
        }
        let own = self.sim.source_settings_of(n);
        // Nothing above the watermark to release it to: a timeout would move nothing (every
        // finding that offers one asks here).
        if self.nothing_ahead() || matches!(own.generator, crate::engine::source::generator::GeneratorKind::MaxOnSilence { .. }) {
            return f;
        }
        match self.advice.idle_timeout_alone_ms.filter(|&t| Some(t) != own.idle_timeout_ms) {
            Some(t) => f.fix(format!("Idle timeout {}", exact(t)), Action::IdleTimeout(Some(t))),
            None => f,
        }
    }

    fn empty(&self, p: &PartitionFacts) -> Option<Finding> {
        let n = p.partition;
        let name = self.sim.partition_name(n);
        let owner = p.subtask.map_or(String::new(), |s| format!(" (source subtask {})", self.sim.source_subtask_name(s)));
        // Heartbeats it read and the filter dropped: it did receive records ("has never
        // received a record … 0 records read" beside two heartbeats read), none reached the
        // generator.
        let never = match p.filtered {
            0 => "has never received a record".to_string(),
            k => format!("has read only heartbeats ({k}), and the filter drops them before the watermark generator"),
        };
        let f = match (self.timeout(n), p.idle) {
            (_, true) => return None,
            (None, _) => {
                let sev = if self.holds(p) { Severity::Critical } else { Severity::Warning };
                let f = Finding::new(FindingKind::EmptyPartition, sev, format!("Partition {name}{owner} {never}, so it holds its source subtask {}, and {}.", self.sim.empty_split_holds_at(p.subtask, self.opts.style()), self.no_timeout_says(n)))
                    .detail("An empty partition is what withIdleness is for: it excludes the split after the timeout. Its records, if any come later, may be behind the watermark.");
                self.idle_fix(f, n)
            }
            (Some(t), false) => Finding::new(
                FindingKind::EmptyPartition,
                Severity::Info,
                format!("Partition {name}{owner} {never}; {}.", self.timeout_says(n, t)),
            ),
        };
        let f = f.partition(n);
        let f = match p.filtered {
            0 => f.evidence("records", p.records, "0 records read"),
            k => f.evidence("records", p.records, "0 records reached the watermark generator").evidence(
                "filtered",
                k,
                format!("{k} heartbeats read and filtered"),
            ),
        };
        Some(f.check(CHECK_PARTITION))
    }

    fn idle(&self, p: &PartitionFacts) -> Option<Finding> {
        let n = p.partition;
        let name = self.sim.partition_name(n);
        let silent = p.silent_ms.unwrap_or(0);
        let stopped = if p.heartbeats * 2 > p.records {
            self.heartbeats_stopped(p, silent)
        } else if p.gap_p50_ms.is_some() && p.records >= RECORDS_FOR_RHYTHM {
            format!("stopped {} ago", d(silent))
        } else {
            format!(
                "has been silent for {} after {} (too few to tell a stopped partition from a sparse one)",
                d(silent),
                super::job_findings::records(p.records)
            )
        };
        let f = match self.timeout(n) {
            None if self.nothing_ahead() => {
                // Several stopped alike tie and none holds alone: then a record on one moves nothing.
                let holds = if self.holds(p) { " and holds the watermark" } else { "" };
                let ahead = self.explanation.map_or(Ahead::Nothing, Explanation::ahead);
                let above = nothing_ahead_words(ahead, "the watermark");
                let why = match ahead {
                    Ahead::OnlyIdle => "Flink 2.2 (FLINK-38454) flushes the highest watermark once every split of a source, or every input of a two-input operator, is idle; earlier versions keep the watermark where it is, so on the version this job runs an idle timeout here releases nothing.",
                    Ahead::BehindUnaligned => "A valve leaves a channel that became active below its watermark out of its minimum until that channel's watermark catches up, and flushes its highest watermark only once every channel is idle (in Flink ≤ 2.3.0, only if the last one to go idle is at its watermark). While that channel is active, its input stays active at the watermark, and an idle timeout here releases nothing; new records move it.",
                    _ => "Once every input is idle the watermark stays where it is: nothing is above it to go to.",
                };
                Finding::new(
                    FindingKind::IdlePartition,
                    Severity::Warning,
                    format!("Partition {name} {stopped}{holds}: {above}, so an idle timeout would move nothing; only new records do."),
                )
                .detail(format!("{why} The last windows wait for new data, as event time means them to; if results must come without it, end the input (a bounded source sends Long.MAX_VALUE) or fire them on a processing-time trigger."))
            }
            None => {
                let sev = if self.holds(p) { Severity::Critical } else { Severity::Warning };
                let holds = if self.holds(p) { " and holds the watermark" } else { "" };
                let f = Finding::new(FindingKind::IdlePartition, sev, format!("Partition {name} {stopped}{holds}: {}.", self.no_timeout_says(n)))
                    .detail("A silent split keeps its last watermark and the minimum stays there. withIdleness excludes it after the timeout; if its producer broke, fix the producer instead.");
                self.idle_fix(f, n)
            }
            Some(_) if p.idle => return None,
            Some(t) => Finding::new(
                FindingKind::IdlePartition,
                Severity::Info,
                format!("Partition {name} {stopped}; {}.", self.timeout_says(n, t)),
            ),
        };
        Some(
            f.partition(n)
                .evidence("silentMs", silent, format!("no record for {}", d(silent)))
                .evidence("records", p.records, format!("{} records before", p.records))
                .check(CHECK_PARTITION),
        )
    }

    /// Why a partition of heartbeats is silent (its class is idle): the filter drops them, or
    /// the next one is overdue (`heartbeats_overdue`): "gets a heartbeat every 90 min" promised
    /// one that never came.
    fn heartbeats_stopped(&self, p: &PartitionFacts, silent: i64) -> String {
        let only = heartbeat_words(p);
        if self.sim.source_settings_of(p.partition).transform.drop_heartbeats {
            let dropped = if p.filtered > 0 { format!(" ({} dropped so far)", p.filtered) } else { String::new() };
            return format!(
                "gets {only}, which the filter drops before the watermark generator, so it has been silent for {}{dropped}",
                d(silent)
            );
        }
        let every = p.gap_p50_ms.map_or(String::new(), |g| format!(", one every {}", d(g)));
        format!("got {only}{every}, but has had none for {} (they stopped)", d(silent))
    }

    /// Heartbeats matter while they keep the split active: with no timeout, or a timeout
    /// longer than their period. Idled between them, the partition is handled.
    fn heartbeat(&self, p: &PartitionFacts) -> Option<Finding> {
        let n = p.partition;
        let name = self.sim.partition_name(n);
        // Their period is known from two heartbeats on; before, nothing is promised about it.
        let period = p.gap_p50_ms;
        if p.idle || self.timeout(n).is_some_and(|t| period.is_some_and(|g| g > t)) && !self.holds(p) {
            return None;
        }
        let sev = if self.holds(p) { Severity::Critical } else { Severity::Warning };
        let peers = median_rate(self.partitions, n);
        let only = heartbeat_words(p);
        let every = period.map_or_else(
            || format!("{} so far, the last {} ago", p.heartbeats, d(p.silent_ms.unwrap_or(0))),
            |g| format!("one every {}", d(g)),
        );
        let (sev, title) = match (self.timeout(n), period) {
            (Some(t), Some(g)) if g <= t => (
                sev,
                format!("Partition {name} gets {only}, {every}: they keep it active, so the {} idle timeout never excludes it.", d(t)),
            ),
            (Some(t), Some(_)) => {
                (Severity::Info, format!("Partition {name} gets {only} ({every}); the {} idle timeout excludes it between them.", exact(t)))
            }
            (Some(t), None) => {
                let sev = if self.holds(p) { Severity::Warning } else { Severity::Info };
                (
                    sev,
                    format!(
                        // The back-pressure check too: a paused clock has no countdown.
                        "Partition {name} has had {only} ({every}); {}.",
                        self.timeout_says(n, t)
                    ),
                )
            }
            (None, _) => {
                (sev, format!("Partition {name} gets {only} ({every}): between them its watermark stands still and holds the windows."))
            }
        };
        // Filtering alone turns the periodic stall into a permanent one (seed 001 Q3): the
        // partition then gets no record at all, and without an idle timeout in force it never
        // goes idle. So it is advised (and offered) only beside a timeout that is checked.
        let detail = match self.timeout(n) {
            Some(t) => format!("Idleness looks at whether records arrive, not at whether event time moves (seed 002 §1.2). Filter heartbeats before the watermark generator: the partition is then silent, and the {} idle timeout excludes it. An idle timeout shorter than their period also lets it go.", exact(t)),
            None => "Idleness looks at whether records arrive, not at whether event time moves (seed 002 §1.2). An idle timeout shorter than their period lets the partition go between them. Filter heartbeats before the watermark generator only together with an idle timeout: alone, the filter leaves the partition without any record, it never goes idle, and the stall between heartbeats becomes permanent (seed 001).".to_string(),
        };
        let mut f = Finding::new(FindingKind::HeartbeatPartition, sev, title)
            .partition(n)
            .detail(detail)
            .evidence("heartbeats", p.heartbeats, format!("{} of its {} records are heartbeats", p.heartbeats, p.records))
            .evidence(
                "periodMs",
                period.unwrap_or(-1),
                format!("{every} (gap variation {})", p.gap_variation_permille.map_or("not measured yet".into(), |v| format!("{v} ‰"))),
            )
            .evidence("peerRatePerS", peers, format!("its peers read {peers} records/s"))
            .check("its KafkaSourceReader.topic.<topic>.partition.<p>.currentOffset moves (one record per heartbeat) while its source subtask's currentOutputWatermark stands still; the records themselves (kafka-console-consumer) are the heartbeats");
        match (self.timeout(n), period) {
            (Some(t), Some(g)) if g <= t => f = f.fix("Filter heartbeats", Action::DropHeartbeats(true)),
            (None, _) => f = self.idle_fix(f, n),
            _ => {}
        }
        Some(f)
    }

    fn slow(&self, p: &PartitionFacts) -> Finding {
        let n = p.partition;
        let name = self.sim.partition_name(n);
        // An idle partition holds nothing, so it has no `behind_ms`; a backlog behind it is
        // still that far behind (it read "level with the other partitions", 15 h back).
        let behind = p.behind_ms.or_else(|| self.trailing_ms(p)).unwrap_or(0);
        // Counts as real ones (`flow.record_scale`), as the views show them.
        let scale = self.sim.cfg.cluster.record_scale;
        let unread = self.sim.cfg.cluster.scaled(p.unread as u64);
        let rate = p.rate_per_s * scale as f64;
        // A backlog behind an idle split is data that will arrive late: worth a warning too.
        let sev = if self.holds(p) || p.slow_cause == Some(SlowCause::ConsumerLag) { Severity::Warning } else { Severity::Info };
        let (title, what) = match p.slow_cause {
            Some(SlowCause::EventTimeDelay) => (
                format!("Partition {name} is slow, {} behind its peers: its records are {} old when they arrive. withIdleness cannot help: it is never silent.", d(behind), d(p.data_delay_ms.unwrap_or(0))),
                "Fix the producer or its clock; otherwise every result is that much later. Do not filter it or shorten the idle timeout: that drops real data.".to_string(),
            ),
            // Back-pressure throttles the reader: the window operator sets the pace, and more
            // source parallelism would only wait too (the back-pressure finding names the fix).
            Some(SlowCause::BackPressured) => (
                match unread {
                    // Between two reads the backlog may be read out: its records are old because they waited.
                    0 => format!("Partition {name}'s records arrive {} old: its source subtask is back-pressured, so they wait in Kafka until the window operator takes them.", d(p.data_delay_ms.unwrap_or(0))),
                    n => format!("Partition {name}'s records wait unread ({}): its source subtask is back-pressured, so it reads only what the window operator takes.", thousands(n)),
                },
                "The reader is not the bottleneck: give the window operator capacity. More source parallelism does not help while the job is back-pressured.".to_string(),
            ),
            Some(SlowCause::ConsumerLag) => (
                format!(
                    "Partition {name}'s reader cannot keep up: {} records wait unread.{}",
                    thousands(unread),
                    if p.idle { " The idle timeout excluded it, so they will be late when they are read." } else { "" }
                ),
                match self.max_drift_ms(n) {
                    // An idle split reports no watermark to the alignment (reference §5.2).
                    Some(_) if p.idle => "Give the source more capacity (parallelism up to the partition count). Watermark alignment is on, but while this split is idle it does not hold the others back.".into(),
                    // Offered while alignment is on, it read as if it were off.
                    Some(drift) => format!("Give the source more capacity (parallelism up to the partition count). Watermark alignment is on: it keeps the other splits within its {} max drift of this one meanwhile.", d(drift)),
                    None => "Give the source more capacity (parallelism up to the partition count); during a backfill, watermark alignment keeps the others from racing ahead.".into(),
                },
            ),
            // SQL's watermark operator is active again with each row: there a timeout shorter
            // than the gaps is the fix (its finding offers it), and flapping is harmless.
            Some(SlowCause::TooFewToTell | SlowCause::FewRecords) | None if self.sql_operator_after(n).is_some() => (
                format!(
                    "Partition {name} {}, and each row makes SQL's watermark operator after its source subtask active again: {}.",
                    // One record has no gap yet.
                    p.gap_p50_ms.map_or_else(|| format!("has {}", super::job_findings::records(p.records)), |g| format!("gets a record every {} or so", d(g))),
                    match self.sql_operator_after(n).and_then(|m| m.idle_timeout_ms()) {
                        Some(t) => format!("after each row it holds the job's watermark for up to its {} idle timeout", d(t)),
                        None => "with no idle timeout it holds the job's watermark until the next row".to_string(),
                    }
                ),
                "A table.exec.source.idle-timeout shorter than its gaps lets the operator go idle between rows; each row then holds the job for that long at most.".to_string(),
            ),
            // One gap is no rhythm: "gets a record every 4 s, an idle timeout does not fix it"
            // contradicted a lesson whose next step silences that very partition.
            Some(SlowCause::TooFewToTell) => (
                format!(
                    "Partition {name} {} after {}{}: too few to tell a sparse partition from one that stopped.",
                    behind_words(behind),
                    super::job_findings::records(p.records),
                    p.silent_ms.filter(|s| *s > 0).map_or(String::new(), |s| format!(", the last {} ago", d(s)))
                ),
                "Sparse, it holds the watermark until its next record, and an idle timeout shorter than its gaps would make it flap; stopped, it holds it for ever unless withIdleness excludes it. Look at its producer.".to_string(),
            ),
            _ => (
                format!("Partition {name} gets a record every {} or so: its watermark trails its peers by up to that. An idle timeout does not fix it: shorter than its gaps it flaps, longer it never fires.", d(p.gap_p50_ms.unwrap_or(0))),
                "Its watermark moves in steps; an idle timeout shorter than its gaps would make it flap. Accept the delay or give it more traffic.".to_string(),
            ),
        };
        Finding::new(FindingKind::SlowPartition, sev, title)
            .partition(n)
            .detail(what)
            .evidence("behindMs", behind, if behind > 0 { format!("{} behind the other partitions", d(behind)) } else { "level with the other partitions in event time".into() })
            .evidence("ratePerS", whole(rate), format!("{} records/s", rate_words(rate)))
            .evidence("dataDelayMs", p.data_delay_ms.unwrap_or(0), format!("newest record {} old on arrival", d(p.data_delay_ms.unwrap_or(0))))
            .evidence("unread", unread, format!("{} records unread", thousands(unread)))
            .check("its KafkaSourceReader.topic.<topic>.partition.<p>.currentOffset moves (not idle) while currentOutputWatermark of its source subtask trails the others; the log's end offset minus it is the partition's backlog")
    }

    /// How far an idle partition's watermark trails the active ones' (measured as `behind_ms`).
    fn trailing_ms(&self, p: &PartitionFacts) -> Option<i64> {
        let lead = super::partitions::lead_watermark(self.partitions.iter())?;
        p.watermark.filter(|_| p.idle).map(|w| lead.ms().saturating_sub(w.ms()).max(0))
    }

    /// SQL's watermark operator after partition `n`'s source, if one runs there.
    fn sql_operator_after(&self, n: u32) -> Option<crate::engine::operator::midstream::MidstreamSpec> {
        self.sim.input_of(n).midstream.filter(crate::engine::operator::midstream::MidstreamSpec::is_sql)
    }

    /// The max drift of the watermark alignment partition `n`'s source runs with, if any.
    fn max_drift_ms(&self, n: u32) -> Option<i64> {
        self.sim.input_of(n).alignment.as_ref().map(|a| a.max_drift_ms)
    }

    fn returning(&self, p: &PartitionFacts) -> Finding {
        let n = p.partition;
        let name = self.sim.partition_name(n);
        let mut f = Finding::new(FindingKind::ReturningPartition, Severity::Warning, format!("Partition {name} came back from idle below the watermark: {} late.", super::job_findings::were(p.late_records)))
            .partition(n)
            .detail("Idleness is a trade-off (seed 000 §3): while a partition is idle the watermark moves on without it, and what it sends when it wakes may already be late.")
            .evidence("lateRecords", p.late_records, format!("{} late records from it", p.late_records))
            .evidence("flips", p.idle_flips, format!("idle {} times", p.idle_flips))
            .check(format!("{} rises when the partition's KafkaSourceReader.topic.<topic>.partition.<p>.currentOffset moves again", self.late_counter()));
        // Back below the watermark and silent again (a stale record), it holds its subtask
        // until it goes idle again: a shorter (advised) timeout lets it go sooner.
        let (cur, advised) = (self.sim.source_settings_of(n).idle_timeout_ms, self.advice.idle_timeout_alone_ms);
        let silent_again = p.silent_ms.is_some_and(|s| s > p.gap_p99_ms.unwrap_or(0).saturating_mul(2).max(1_000));
        if let (true, true, Some(c), Some(a)) = (self.holds(p), silent_again, cur, advised) {
            if a < c {
                f = f.fix(format!("Idle timeout {}", exact(a)), Action::IdleTimeout(Some(a)));
            }
        }
        f = self.with_lateness_fix(f);
        if !self.sim.cfg.late_side_output {
            f = f.fix("Late side output on", Action::SideOutput(true));
        }
        f
    }

    fn flapping(&self, p: &PartitionFacts) -> Finding {
        let n = p.partition;
        let name = self.sim.partition_name(n);
        let t = self.sim.source_settings_of(n).idle_timeout_ms.unwrap_or(0);
        let gap = p.gap_p99_ms.unwrap_or(0);
        let f = Finding::new(
            FindingKind::FlappingPartition,
            Severity::Warning,
            format!("Partition {name} flipped idle/active {} times: the {} idle timeout is shorter than its normal gaps ({} at P99).", p.idle_flips, d(t), d(gap)),
        )
        .partition(n)
        .detail("Each return has to catch up before the minimum moves again, so the watermark stutters (seed 002 §1.2, §5.1). Set the timeout above its normal gaps.")
        .evidence("flips", p.idle_flips, format!("{} idle/active flips", p.idle_flips))
        .evidence("gapP99Ms", gap, format!("gaps up to {} (P99)", d(gap)))
        .evidence("idleTimeoutMs", t, format!("idle timeout {}", d(t)))
        .check("its split's idleTimeMsPerSecond (split.<id>.watermark, Flink 2.1+) rises above 0 in each gap longer than the idle timeout plus one to three watermark intervals and falls back with the next record; the window operator's currentInputWatermark stalls after each");
        self.idle_fix(f, n)
    }

    /// Idle partitions that sent steady traffic and then stopped for long: idleness hides a
    /// broken producer (seed 000 §3's warning).
    fn stalled(&self) -> Option<Finding> {
        // When every partition with data is idle the job visibly waits: nothing is hidden.
        if self.partitions.iter().filter(|p| p.records > 0 && p.class != PartitionClass::Removed).all(|p| p.idle) {
            return None;
        }
        let p = self.partitions.iter().filter(|p| p.idle && p.class == PartitionClass::Idle && self.timeout(p.partition).is_some()).find(
            |p| {
                let silent = p.silent_ms.unwrap_or(0);
                p.records >= 20 && silent >= STALLED_AFTER_MS && silent >= p.gap_p99_ms.unwrap_or(0).saturating_mul(10)
            },
        )?;
        let silent = p.silent_ms.unwrap_or(0);
        Some(
            Finding::new(
                FindingKind::StalledPartitionHidden,
                Severity::Warning,
                format!("Partition {} sent {} records/s and has been silent for {}: idleness hides it. Is its producer broken?", self.sim.partition_name(p.partition), rate_words(p.rate_per_s), d(silent)),
            )
            .partition(p.partition)
            .detail("If a partition is idle because a producer broke, fix the producer; do not hide it with an idle timeout (seed 000 §3). Its data, when it comes back, will be late.")
            .evidence("silentMs", silent, format!("silent for {}", d(silent)))
            .evidence("gapP99Ms", p.gap_p99_ms.unwrap_or(0), format!("its gaps were at most {} (P99)", d(p.gap_p99_ms.unwrap_or(0))))
            .check("the producer's own metrics; the partition's KafkaSourceReader.topic.<topic>.partition.<p>.currentOffset stands still"),
        )
    }
}

/// "only heartbeats", or "mostly heartbeats (2 of 3)".
fn heartbeat_words(p: &PartitionFacts) -> String {
    if p.heartbeats == p.records {
        "only heartbeats".to_string()
    } else {
        format!("mostly heartbeats ({} of {})", p.heartbeats, p.records)
    }
}

/// The median read rate of the other partitions with data, whole records per second.
fn median_rate(ps: &[PartitionFacts], except: u32) -> i64 {
    let mut r: Vec<i64> = ps.iter().filter(|p| p.partition != except && p.records > 0).map(|p| whole(p.rate_per_s)).collect();
    r.sort_unstable();
    r.get(r.len().saturating_sub(1) / 2).copied().unwrap_or(0)
}

/// A rate as people read it: "0.4", "12.5", "500,472" (a tenth of a record matters only when
/// there are few).
fn rate_words(rate: f64) -> String {
    if rate >= 100.0 {
        thousands(u64::try_from(whole(rate)).unwrap_or(0))
    } else {
        format!("{rate:.1}")
    }
}

#[allow(clippy::cast_possible_truncation)]
fn whole(x: f64) -> i64 {
    x.round() as i64
}
