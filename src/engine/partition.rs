//! A topic partition: an append-only log that producers write to and one split reads from.
//! Only unread records are kept, so memory follows the backlog, not the history — unless the
//! job can restart: then the records read since the last completed checkpoint are kept too
//! (`read_log`), because a restore rewinds the read position to the checkpointed offset and
//! reads them again (Kafka keeps them; the engine keeps only what a restore can reach).

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
    /// Records already read, oldest first, kept while `retain_reads` (see the module docs).
    read_log: VecDeque<Record>,
    retain_reads: bool,
    /// While a restored reader reads an ended split again (`stopping_offset`): the offset it
    /// stops at; what lies beyond waits in the log.
    stop_at: Option<u64>,
}

impl Partition {
    pub fn in_topic(input: u8, index_in_topic: u32) -> Self {
        Partition { input, index_in_topic, ..Partition::default() }
    }

    /// Appends a record, assigning its offset.
    #[inline]
    pub fn append(&mut self, r: Record) {
        let r = self.next_stamp(r);
        self.unread.push_back(r);
    }

    /// Assigns the next offset to a record that is read at once instead of waiting in the log.
    #[inline]
    pub fn stamp(&mut self, r: Record) -> Record {
        let r = self.next_stamp(r);
        self.note_read(r);
        r
    }

    #[inline]
    fn next_stamp(&mut self, mut r: Record) -> Record {
        r.offset = self.next_offset;
        self.next_offset += 1;
        self.produced += 1;
        r
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Record> {
        if self.stop_at.is_some_and(|e| self.read_offset() >= e) {
            return None;
        }
        let r = self.unread.pop_front()?;
        self.note_read(r);
        Some(r)
    }

    /// Records appended and not read yet (the backlog, Kafka's lag).
    pub fn unread(&self) -> usize {
        self.unread.len()
    }

    /// Records the split can read now: the backlog up to the stopping offset, if one is set.
    pub fn readable(&self) -> usize {
        match self.stop_at {
            Some(e) => self.unread.len().min(usize::try_from(e.saturating_sub(self.read_offset())).unwrap_or(usize::MAX)),
            None => self.unread.len(),
        }
    }

    /// Reading stops at `offset` until it is cleared (`None`).
    pub fn stop_at(&mut self, offset: Option<u64>) {
        self.stop_at = offset;
    }

    /// Whether reading stops at an offset: records produced now cannot be read at once.
    #[inline]
    pub fn stops(&self) -> bool {
        self.stop_at.is_some()
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

/// What a checkpoint and a restore need: the read position, and the records read since the
/// last completed checkpoint to read them again.
impl Partition {
    #[inline]
    fn note_read(&mut self, r: Record) {
        if self.retain_reads {
            self.read_log.push_back(r);
        }
    }

    /// Keeps the records read from now on, for a restore to rewind into.
    pub fn retain_reads(&mut self, on: bool) {
        self.retain_reads = on;
    }

    /// The offset the split reads next (Kafka's position, what a checkpoint stores).
    pub fn read_offset(&self) -> u64 {
        self.next_offset - self.unread.len() as u64
    }

    /// The oldest offset a rewind can reach: the first record kept, else the read position.
    pub fn oldest_kept(&self) -> u64 {
        self.read_log.front().map_or(self.read_offset(), |r| r.offset)
    }

    /// Forgets the kept records below `offset` (a checkpoint at `offset` completed).
    pub fn trim_read_log(&mut self, offset: u64) {
        while self.read_log.front().is_some_and(|r| r.offset < offset) {
            self.read_log.pop_front();
        }
    }

    /// Records kept for a restore.
    pub fn read_log_len(&self) -> usize {
        self.read_log.len()
    }

    /// A restore: the read position goes back to `offset`, so the kept records from there on
    /// are unread again, ahead of what was appended since. Returns how many were put back.
    pub fn rewind_to(&mut self, offset: u64) -> u64 {
        self.trim_read_log(offset);
        debug_assert!(self.read_log.front().is_none_or(|r| r.offset == offset), "the read log reaches back to the checkpoint");
        let n = self.read_log.len() as u64;
        while let Some(r) = self.read_log.pop_back() {
            self.unread.push_front(r);
        }
        n
    }
}
