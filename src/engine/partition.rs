//! A topic partition: an append-only log that producers write to and one split reads from.
//! Only unread records are kept, so memory follows the backlog, not the history.

use super::element::Record;
use std::collections::VecDeque;

#[derive(Clone, Debug, Default)]
pub struct Partition {
    unread: VecDeque<Record>,
    next_offset: u64,
    /// Records appended in total (`produced`).
    pub produced: u64,
    /// Set when the partition was removed: producers stop, the split is released.
    pub removed: bool,
    /// The job input (0 or 1) whose topic holds it, and its number within that topic: the
    /// engine numbers partitions across both topics, Kafka within one.
    pub input: u8,
    pub index_in_topic: u32,
}

impl Partition {
    pub fn in_topic(input: u8, index_in_topic: u32) -> Self {
        Partition { input, index_in_topic, ..Partition::default() }
    }

    /// Appends a record, assigning its offset.
    #[inline]
    pub fn append(&mut self, r: Record) {
        let r = self.stamp(r);
        self.unread.push_back(r);
    }

    /// Assigns the next offset to a record that is read at once instead of waiting in the log.
    #[inline]
    pub fn stamp(&mut self, mut r: Record) -> Record {
        r.offset = self.next_offset;
        self.next_offset += 1;
        self.produced += 1;
        r
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Record> {
        self.unread.pop_front()
    }

    pub fn unread(&self) -> usize {
        self.unread.len()
    }

    /// Skips records from the head of the log while `before` holds (a start position).
    pub fn skip_while(&mut self, before: impl Fn(&Record) -> bool) -> usize {
        let n = self.unread.iter().take_while(|r| before(r)).count();
        self.unread.drain(..n);
        n
    }

    /// Skips everything currently in the log (start offset "latest").
    pub fn skip_all(&mut self) -> usize {
        let n = self.unread.len();
        self.unread.clear();
        n
    }
}
