//! The topics a job reads and how the engine numbers their partitions: one number sequence
//! over all topics (the first topic's partitions first, then the second's, then partitions
//! added later in the order they were added), while a producer or a Kafka user counts
//! within one topic. This is the one place that translates between the two.

use super::error::InputError;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Topics {
    /// Topic names, by input.
    names: Vec<String>,
    /// Per engine partition number: the input whose topic holds it.
    input_of: Vec<u8>,
    /// Partitions per input's topic, kept as partitions are added (a count per `add_partition`
    /// check would otherwise scan every partition).
    counts: Vec<u32>,
}

impl Topics {
    /// Topics with `counts[i]` partitions in input i's topic, numbered topic after topic.
    pub fn new(names: Vec<String>, counts: &[u32]) -> Self {
        let input_of = counts.iter().enumerate().flat_map(|(i, &n)| std::iter::repeat_n(i as u8, n as usize)).collect();
        Topics { names, input_of, counts: counts.to_vec() }
    }

    /// Topics whose engine partition `p` is held by input `input_of[p]`'s topic.
    pub fn numbered(names: Vec<String>, input_of: Vec<u8>) -> Self {
        let mut counts = vec![0; names.len()];
        for &i in &input_of {
            counts[i as usize] += 1;
        }
        Topics { names, input_of, counts }
    }

    /// The input reading `topic` (`None`: the first); the error lists the topics there are.
    pub fn input_named(&self, topic: Option<&str>) -> Result<u8, InputError> {
        let Some(t) = topic else { return Ok(0) };
        match self.names.iter().position(|n| n == t) {
            Some(i) => Ok(i as u8),
            None => Err(InputError::new("topic", format!("no topic {t:?} (the job reads {})", self.names.join(", ")))),
        }
    }

    /// Partitions in input `input`'s topic.
    pub fn count(&self, input: u8) -> u32 {
        self.counts[input as usize]
    }

    /// Partitions in every topic.
    pub fn total(&self) -> u32 {
        self.input_of.len() as u32
    }

    /// The engine numbers of input `input`'s partitions, in the topic's order.
    pub fn numbers(&self, input: u8) -> Vec<u32> {
        self.input_of.iter().enumerate().filter(|(_, &i)| i == input).map(|(p, _)| p as u32).collect()
    }

    /// A partition added to input `input`'s topic.
    pub fn add(&mut self, input: u8) {
        self.input_of.push(input);
        self.counts[input as usize] += 1;
    }
}

impl super::sim::Simulation {
    /// A partition as texts name it: its engine number with one topic (`11`), Kafka's
    /// `topic-N` (`TopicPartition`) with two, so that "partition rates-0" in an explanation is the
    /// `rates-0` the UI shows.
    pub fn partition_name(&self, p: u32) -> String {
        let inputs = &self.config().inputs;
        match self.partitions.get(p as usize) {
            Some(part) => {
                let topic = inputs.get(part.input as usize).map_or("", |i| i.topic.as_str());
                super::view::names::partition_name(inputs.len(), topic, part.index_in_topic, p)
            }
            None => p.to_string(),
        }
    }

    /// Source subtask `s` as texts name it (`view::names`, the rule the UI's views share): its
    /// number with one source (`3`), its source and its index there with two (`rates·0`).
    pub fn source_subtask_name(&self, s: u32) -> String {
        let inputs = &self.config().inputs;
        match self.sources.get(s as usize) {
            Some(src) => {
                let topic = inputs.get(src.input as usize).map_or("", |i| i.topic.as_str());
                super::view::names::source_subtask_name(inputs.len(), topic, src.index_in_source, s)
            }
            None => s.to_string(),
        }
    }
}
