//! A producer of the scenario (`producers[]`, the `attach_producer` command): which partitions
//! it writes to (`PartitionSelector`), with which keys (`KeysSpec`) and what it emits
//! (`ProducerKind`, flattened into the same object). Re-exported by `schema`.

use crate::engine::error::InputError;
use crate::engine::input_twin::input_twin;
use crate::engine::limits::{MAX_BACKLOG_COUNT, MAX_BURST_COUNT, MAX_KEYS, MAX_KEY_PREFIX_BYTES, MAX_RATE_PER_S};
use crate::engine::producer::ProducerKind;
use crate::engine::time::thousands;
use serde::{Deserialize, Serialize};

/// A producer attached to one or more partitions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "ProducerSpecIn")]
pub struct ProducerSpec {
    /// The topic written to (`null`: the first input's); `partitions` count within it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    pub partitions: PartitionSelector,
    #[serde(flatten)]
    pub kind: ProducerKind,
    #[serde(default)]
    pub keys: KeysSpec,
    #[serde(default)]
    pub event_delay_ms: i64,
    #[serde(default)]
    pub jitter_ms: i64,
    #[serde(default = "one_i64")]
    pub value: i64,
    /// Start, relative to the job start.
    #[serde(default)]
    pub start_ms: i64,
    /// Stop, relative to the job start.
    #[serde(default)]
    pub stop_ms: Option<i64>,
}

/// `ProducerSpec` as read: its `kind` reads the fields the others do not name, as `flatten`
/// would, without serde's buffer (`value_path`). The conversion names every field, so a field
/// added to one and not the other does not compile.
#[derive(Deserialize)]
#[serde(rename = "ProducerSpec", expecting = "struct ProducerSpec")]
struct ProducerSpecIn {
    #[serde(default)]
    topic: Option<String>,
    partitions: PartitionSelector,
    #[serde(rename = "$rest")]
    kind: ProducerKind,
    #[serde(default)]
    keys: KeysSpec,
    #[serde(default)]
    event_delay_ms: i64,
    #[serde(default)]
    jitter_ms: i64,
    #[serde(default = "one_i64")]
    value: i64,
    #[serde(default)]
    start_ms: i64,
    #[serde(default)]
    stop_ms: Option<i64>,
}

impl From<ProducerSpecIn> for ProducerSpec {
    fn from(p: ProducerSpecIn) -> Self {
        let ProducerSpecIn { topic, partitions, kind, keys, event_delay_ms, jitter_ms, value, start_ms, stop_ms } = p;
        ProducerSpec { topic, partitions, kind, keys, event_delay_ms, jitter_ms, value, start_ms, stop_ms }
    }
}

fn one_i64() -> i64 {
    1
}

impl ProducerSpec {
    pub fn validate(&self) -> Result<(), InputError> {
        let pos = |v: i64, f: &str| if v > 0 { Ok(()) } else { Err(InputError::new(f, "must be > 0")) };
        match self.kind {
            ProducerKind::Steady { rate_per_s } if rate_per_s > MAX_RATE_PER_S => {
                return Err(InputError::new("rate_per_s", format!("at most {} records/s per partition", thousands(MAX_RATE_PER_S))))
            }
            ProducerKind::Burst { every_ms, count } => {
                pos(every_ms, "every_ms")?;
                if count == 0 {
                    return Err(InputError::new("count", "must be > 0"));
                }
                if count > MAX_BURST_COUNT {
                    return Err(InputError::new("count", format!("at most {} records per burst", thousands(MAX_BURST_COUNT))));
                }
            }
            ProducerKind::Heartbeat { every_ms } => pos(every_ms, "every_ms")?,
            ProducerKind::Backlog { count, span_ms } => {
                if count > MAX_BACKLOG_COUNT {
                    return Err(InputError::new(
                        "count",
                        format!("at most {} backlog records per partition", thousands(MAX_BACKLOG_COUNT)),
                    ));
                }
                if span_ms < 0 {
                    return Err(InputError::new("span_ms", "must be >= 0"));
                }
            }
            _ => {}
        }
        if self.event_delay_ms < 0 {
            return Err(InputError::new("event_delay_ms", "must be >= 0"));
        }
        if self.jitter_ms < 0 {
            return Err(InputError::new("jitter_ms", "must be >= 0"));
        }
        if self.start_ms < 0 {
            return Err(InputError::new("start_ms", "must be >= 0"));
        }
        if self.stop_ms.is_some_and(|s| s < self.start_ms) {
            return Err(InputError::new("stop_ms", "must be >= start_ms"));
        }
        match &self.keys {
            KeysSpec::Count { count, .. } if *count == 0 || *count > MAX_KEYS => {
                Err(InputError::new("keys.count", format!("must be in 1..={}", thousands(MAX_KEYS))))
            }
            KeysSpec::Count { prefix, .. } if prefix.len() > MAX_KEY_PREFIX_BYTES => {
                Err(InputError::new("keys.prefix", format!("at most {MAX_KEY_PREFIX_BYTES} bytes (each of the count keys repeats it)")))
            }
            KeysSpec::List(l) if l.is_empty() => Err(InputError::new("keys", "needs at least one key")),
            _ => Ok(()),
        }
    }
}

input_twin! {
    /// Which partitions: one index, a list, `"all"`, or `{"all_except": [...]}`.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    #[serde(untagged)]
    pub enum PartitionSelector reads partition_selector_in #[serde(rename = "$shape", deny_unknown_fields)] {
        #[serde(rename = "number")]
        One(u32),
        #[serde(rename = "array")]
        List(Vec<u32>),
        #[serde(rename = "string")]
        All(AllPartitions),
        #[serde(rename = "object")]
        AllExcept { all_except: Vec<u32> },
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllPartitions {
    All,
}

impl PartitionSelector {
    /// The partitions named one by one (`"all"` and `all_except` name none): in the order
    /// [`resolve`](Self::resolve) returns them.
    pub fn named(&self) -> &[u32] {
        match self {
            PartitionSelector::One(p) => std::slice::from_ref(p),
            PartitionSelector::List(v) => v,
            PartitionSelector::All(_) | PartitionSelector::AllExcept { .. } => &[],
        }
    }

    pub fn resolve(&self, n: u32) -> Result<Vec<u32>, InputError> {
        let check = |p: u32| if p < n { Ok(p) } else { Err(InputError::new("", format!("no partition {p} (the topic has {n})"))) };
        match self {
            PartitionSelector::One(p) => Ok(vec![check(*p)?]),
            PartitionSelector::List(v) => v.iter().map(|&p| check(p)).collect(),
            PartitionSelector::All(_) => Ok((0..n).collect()),
            PartitionSelector::AllExcept { all_except } => {
                for &p in all_except {
                    check(p)?;
                }
                let mut keep = vec![true; n as usize];
                for &p in all_except {
                    keep[p as usize] = false;
                }
                Ok((0..n).filter(|&p| keep[p as usize]).collect())
            }
        }
    }
}

input_twin! {
    /// The keys a producer draws from: a list of names, or `count` names `prefix0..`.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    #[serde(untagged)]
    pub enum KeysSpec reads keys_spec_in #[serde(rename = "$shape", deny_unknown_fields)] {
        #[serde(rename = "array")]
        List(Vec<String>),
        #[serde(rename = "object")]
        Count {
            count: u32,
            #[serde(default = "default_prefix")]
            prefix: String,
        },
    }
}

fn default_prefix() -> String {
    "key-".into()
}

impl Default for KeysSpec {
    fn default() -> Self {
        KeysSpec::Count { count: 1, prefix: default_prefix() }
    }
}
