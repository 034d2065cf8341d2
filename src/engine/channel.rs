//! A network channel between one source subtask and one window subtask. With latency 0 the
//! engine delivers synchronously; with latency > 0 items wait here, in FIFO order, so records
//! and watermarks never overtake each other on one channel.

use super::element::Record;
use super::status::Signal;
use super::time::{EventTime, ProcTime};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug)]
pub enum ChannelItem {
    /// A record with its assigned timestamp, its key's slot in the receiving subtask and the
    /// job input it came from.
    Record(Record, EventTime, u32, u8),
    Signal(Signal),
}

#[derive(Clone, Debug, Default)]
pub struct Channel {
    queue: VecDeque<(ProcTime, ChannelItem)>,
}

impl Channel {
    pub fn send(&mut self, at: ProcTime, item: ChannelItem) {
        self.queue.push_back((at, item));
    }

    pub fn next_delivery(&self) -> Option<ProcTime> {
        self.queue.front().map(|(t, _)| *t)
    }

    pub fn pop_due(&mut self, now: ProcTime) -> Option<ChannelItem> {
        if self.queue.front().is_some_and(|(t, _)| *t <= now) {
            self.queue.pop_front().map(|(_, i)| i)
        } else {
            None
        }
    }

    pub fn in_flight_records(&self) -> u64 {
        self.queue.iter().filter(|(_, i)| matches!(i, ChannelItem::Record(..))).count() as u64
    }

    /// The records waiting here.
    pub fn records(&self) -> impl Iterator<Item = &Record> + '_ {
        self.queue.iter().filter_map(|(_, i)| match i {
            ChannelItem::Record(r, ..) => Some(r),
            ChannelItem::Signal(_) => None,
        })
    }
}
