//! A polled reader (`InputConfig::polled`): records are emitted only when the driver polls a
//! split, as a test drives `SourceReader.pollNext` — the oracle3 goldens' scripted reader
//! (`tools/oracle/README.md`, section oracle3).
//!
//! One poll emits up to `n` records of one split, one after the other, each through the same
//! path as a continuous read (downstream first, then the split's generator, the multiplexer,
//! the output and alignment's synchronous checks). It stops exactly where Flink's emit loop
//! would, checking before every record: the split was paused (`pauseOrResumeSplits`, called
//! synchronously from the split's watermark update), the subtask went
//! `WAITING_FOR_ALIGNMENT` (synchronously from the output watermark update; then `emitNext`
//! is not called again), the output is back-pressured, or the split has nothing more. A paused
//! split is honoured at once (a `SourceReaderBase` would still hand over the records it had
//! already fetched). A poll is atomic with respect to timers and alignment events, as one
//! `pollNext` call is in the task's mailbox thread: it runs between two processed instants.

use super::error::InputError;
use super::sim::Simulation;
use serde::Serialize;

/// Why a poll stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PollStop {
    /// It emitted the `n` records asked for.
    Done,
    /// Split alignment paused the split.
    Paused,
    /// The subtask waits for alignment.
    Blocked,
    /// An output channel has no room (back-pressure).
    BackPressured,
    /// The split has no record left.
    Exhausted,
}

/// What one poll did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poll {
    pub got: u64,
    pub stop: PollStop,
}

impl Simulation {
    /// Polls partition `partition`'s split for up to `n` records now (after the last processed
    /// instant). Only for a polled source, while the job runs and the subtask has not ended.
    pub fn poll(&mut self, partition: u32, n: u64) -> Result<Poll, InputError> {
        self.check_partition(partition)?;
        let p = partition as usize;
        if !self.cfg.inputs[self.partitions[p].input as usize].polled {
            return Err(InputError::invalid("partition", "its source reads continuously, not when polled"));
        }
        if !self.started || !self.failover.is_running() {
            return Err(InputError::invalid("partition", "the job is not running"));
        }
        let (s, i) =
            self.live_split_of(p).ok_or_else(|| InputError::invalid("partition", format!("partition {partition}'s split was released")))?;
        if self.sources[s].finished {
            return Err(InputError::invalid(
                "partition",
                format!("source subtask {} has ended its input", self.source_subtask_name(s as u32)),
            ));
        }
        let t = self.now;
        let mut got = 0;
        let stop = loop {
            if got == n {
                break PollStop::Done;
            }
            if self.sources[s].split_paused(i) {
                break PollStop::Paused;
            }
            if !self.sources[s].reads() {
                break PollStop::Blocked;
            }
            if !self.down.output_available(s as u32) {
                break PollStop::BackPressured;
            }
            let Some(r) = self.partitions[p].pop() else { break PollStop::Exhausted };
            self.read_record(s, i, r, t);
            got += 1;
        };
        self.reach_stopping_offsets(t);
        self.failed(t)?;
        Ok(Poll { got, stop })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::command::Command;
    use crate::engine::keys::KeyTable;
    use crate::engine::scenario::oracle3;
    use crate::engine::scenario::schema::RecordSpec;

    /// A polled job (the oracle3 format is the shortest way to one): `splits` record
    /// timestamps per split of one source, all in their partitions, the job started.
    fn polled(splits: &str, alignment: &str) -> Simulation {
        let text =
            format!(r#"{{"sources": [{{"splits": {splits} {alignment}}}], "flink": {{"alignment_buffer_size": 0}}, "schedule": []}}"#);
        let sc = oracle3::parse(&text).unwrap();
        let mut sim = Simulation::new(sc.job_config(), KeyTable::default(), &[sc.sources[0].splits.len() as u32]);
        for (p, split) in sc.sources[0].splits.iter().enumerate() {
            let records =
                split.iter().map(|e| RecordSpec { ts: Some(e.ts), ts_offset_ms: None, key: None, value: None, heartbeat: false }).collect();
            sim.apply(Command::Produce { partition: p as u32, records }).unwrap();
        }
        let start = sim.config().start_time;
        sim.run_until(start).unwrap();
        sim
    }

    #[test]
    fn records_wait_until_polled_and_a_poll_takes_them_in_order() {
        let mut sim = polled(r#"[[{"ts": 1000}, {"ts": 2000}, {"ts": 3000}]]"#, "");
        sim.run_until(sim.now() + 1_000).unwrap();
        assert_eq!(sim.partitions()[0].unread(), 3, "nothing read without a poll");
        assert_eq!(sim.poll(0, 2).unwrap(), Poll { got: 2, stop: PollStop::Done });
        assert_eq!(sim.sources()[0].combined_watermark(), crate::engine::time::EventTime(1999));
        assert_eq!(sim.poll(0, 5).unwrap(), Poll { got: 1, stop: PollStop::Exhausted });
    }

    /// Buffer 0: the record that lifts the split above the announced max pauses it at once,
    /// and the burst stops there; a poll of a paused split gets nothing.
    #[test]
    fn a_poll_stops_where_alignment_pauses_the_split() {
        let align = r#", "alignment": {"group": "g", "max_drift_ms": 500, "update_interval_ms": 100}"#;
        let mut sim = polled(r#"[[{"ts": 1000}, {"ts": 1400}, {"ts": 1800}, {"ts": 2200}], [{"ts": 1000}]]"#, align);
        assert_eq!(sim.poll(0, 1).unwrap().got, 1);
        assert_eq!(sim.poll(1, 1).unwrap().got, 1);
        sim.run_until(sim.now() + 300).unwrap();
        // Max desired 999 + 500: 1399 is allowed, 1799 is not.
        assert_eq!(sim.poll(0, 3).unwrap(), Poll { got: 2, stop: PollStop::Paused });
        assert_eq!(sim.poll(0, 3).unwrap(), Poll { got: 0, stop: PollStop::Paused });
        assert_eq!(sim.partitions()[0].unread(), 1);
    }

    #[test]
    fn only_a_polled_source_while_the_job_runs_can_be_polled() {
        let mut sim = polled(r#"[[{"ts": 1000}]]"#, "");
        assert!(sim.poll(7, 1).is_err(), "no such partition");
        sim.end_input_of(0).unwrap();
        assert!(sim.poll(0, 1).unwrap_err().message.contains("ended its input"));
    }
}
