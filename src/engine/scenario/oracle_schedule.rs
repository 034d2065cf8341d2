//! The oracles' schedule (`../shared/oracle/README.md`, `tools/oracle/README.md`): which event,
//! idle/active mark, release or sleep comes next, checked as the oracles' `normalize` checks it
//! — every event used exactly once, nothing sent to a released split — with a partition's end
//! action (`on_partition_end`) right after its last event. One input or two: a step names its
//! input with `"in"` (left out: input 0), and the one-input format's bare `p` and `{"idle": p}`
//! are the same steps.

use crate::engine::error::InputError;
use serde_json::{json, Value};

/// One normalized step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Event { input: usize, partition: usize, idx: usize },
    Idle { input: usize, partition: usize },
    Active { input: usize, partition: usize },
    Release { input: usize, partition: usize },
    Sleep(i64),
}

const SHAPES: &str = "use p, {\"in\": i, \"p\": p}, {idle|active|release: p or {\"in\": i, \"p\": p}} or {sleep_ms: n}";

/// The state of the normalization: events consumed and splits released per partition.
pub struct OracleSchedule {
    lens: Vec<Vec<usize>>,
    ends: Vec<String>,
    next: Vec<Vec<usize>>,
    released: Vec<Vec<bool>>,
}

impl OracleSchedule {
    /// `lens[i][p]`: events of input i's partition p; `ends[i]`: its `on_partition_end`.
    pub fn new(lens: Vec<Vec<usize>>, ends: Vec<&str>) -> Result<Self, InputError> {
        if let Some(e) = ends.iter().find(|e| !matches!(**e, "hold" | "idle" | "release")) {
            return Err(InputError::new("on_partition_end", format!("must be hold, idle or release, got {e:?}")));
        }
        let next = lens.iter().map(|l| vec![0; l.len()]).collect();
        let released = lens.iter().map(|l| vec![false; l.len()]).collect();
        Ok(OracleSchedule { lens, ends: ends.into_iter().map(String::from).collect(), next, released })
    }

    /// The end actions of empty partitions, before the first step.
    pub fn start(&mut self) -> Vec<Step> {
        let mut out = Vec::new();
        for i in 0..self.lens.len() {
            for p in 0..self.lens[i].len() {
                if self.lens[i][p] == 0 {
                    self.end_of(i, p, &mut out);
                }
            }
        }
        out
    }

    /// The default order: per round, each input in order, each of its partitions in order.
    pub fn round_robin(&self) -> Vec<Value> {
        let rounds = self.lens.iter().flatten().copied().max().unwrap_or(0);
        let mut v = Vec::new();
        for round in 0..rounds {
            for (i, l) in self.lens.iter().enumerate() {
                v.extend((0..l.len()).filter(|&p| round < l[p]).map(|p| json!({"in": i, "p": p})));
            }
        }
        v
    }

    /// One schedule entry as steps (an event may be followed by its partition's end action).
    pub fn step(&mut self, s: &Value) -> Result<Vec<Step>, InputError> {
        let mut out = Vec::new();
        if let Some((i, p)) = self.target(s)? {
            let (l, n) = (self.lens[i][p], self.next[i][p]);
            if n >= l {
                return Err(InputError::new("", format!("partition {p} of input {i} has no more events")));
            }
            if self.released[i][p] {
                return Err(InputError::new("", format!("event for released partition {p} of input {i}")));
            }
            out.push(Step::Event { input: i, partition: p, idx: n });
            self.next[i][p] += 1;
            if n + 1 == l {
                self.end_of(i, p, &mut out);
            }
            return Ok(out);
        }
        let obj = s.as_object().filter(|o| o.len() == 1).ok_or_else(|| InputError::new("", SHAPES))?;
        let (k, v) = obj.iter().next().ok_or_else(|| InputError::new("", SHAPES))?;
        if k == "sleep_ms" {
            let ms =
                v.as_i64().filter(|x| (0..=600_000).contains(x)).ok_or_else(|| InputError::new("sleep_ms", "must be in 0..=600000"))?;
            return Ok(vec![Step::Sleep(ms)]);
        }
        let (i, p) = self.target(v)?.ok_or_else(|| InputError::new(k.as_str(), "bad partition"))?;
        if self.released[i][p] {
            return Err(InputError::new("", format!("partition {p} of input {i} already released")));
        }
        out.push(match k.as_str() {
            "idle" => Step::Idle { input: i, partition: p },
            "active" => Step::Active { input: i, partition: p },
            "release" => {
                self.released[i][p] = true;
                Step::Release { input: i, partition: p }
            }
            _ => return Err(InputError::new("", SHAPES)),
        });
        Ok(out)
    }

    /// Every event was used.
    pub fn finished(&self) -> Result<(), InputError> {
        for (i, l) in self.lens.iter().enumerate() {
            if let Some(p) = (0..l.len()).find(|&p| self.next[i][p] < l[p]) {
                return Err(InputError::new("schedule", format!("leaves events of partition {p} of input {i} unconsumed")));
            }
        }
        Ok(())
    }

    /// `p` or `{"in": i, "p": p}` as (input, partition); `None` for anything else.
    fn target(&self, v: &Value) -> Result<Option<(usize, usize)>, InputError> {
        let (i, p) = match v {
            Value::Number(n) => (Some(0), n.as_u64()),
            Value::Object(o) if o.contains_key("p") && o.keys().all(|k| k == "in" || k == "p") => {
                (o.get("in").map_or(Some(0), Value::as_u64), o["p"].as_u64())
            }
            _ => return Ok(None),
        };
        let i = i
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < self.lens.len())
            .ok_or_else(|| InputError::new("in", "no such input"))?;
        let p = p
            .and_then(|p| usize::try_from(p).ok())
            .filter(|&p| p < self.lens[i].len())
            .ok_or_else(|| InputError::new("p", "bad partition"))?;
        Ok(Some((i, p)))
    }

    fn end_of(&mut self, i: usize, p: usize, out: &mut Vec<Step>) {
        match self.ends[i].as_str() {
            "idle" if !self.released[i][p] => out.push(Step::Idle { input: i, partition: p }),
            "release" if !self.released[i][p] => {
                self.released[i][p] = true;
                out.push(Step::Release { input: i, partition: p });
            }
            _ => {}
        }
    }
}
