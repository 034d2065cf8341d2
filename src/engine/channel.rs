//! A network channel between one source subtask and one window subtask. With latency 0 and no
//! capacity limit the engine delivers synchronously; otherwise items wait here, in FIFO order,
//! so records and watermarks never overtake each other on one channel, and the records waiting
//! hold the channel's credits (`flow`).

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
    /// Records in the queue (they hold credits; watermarks and statuses do not).
    records: u64,
}

impl Channel {
    pub fn send(&mut self, at: ProcTime, item: ChannelItem) {
        self.records += u64::from(matches!(item, ChannelItem::Record(..)));
        self.queue.push_back((at, item));
    }

    /// The front item if it is due at `now`, without taking it.
    pub fn peek_due(&self, now: ProcTime) -> Option<&ChannelItem> {
        self.queue.front().filter(|(t, _)| *t <= now).map(|(_, i)| i)
    }

    /// Forgets everything in flight (a failed attempt's channels).
    pub fn clear(&mut self) {
        self.queue.clear();
        self.records = 0;
    }

    pub fn next_delivery(&self) -> Option<ProcTime> {
        self.queue.front().map(|(t, _)| *t)
    }

    pub fn pop_due(&mut self, now: ProcTime) -> Option<ChannelItem> {
        if self.queue.front().is_some_and(|(t, _)| *t <= now) {
            let item = self.queue.pop_front().map(|(_, i)| i);
            self.records -= u64::from(matches!(item, Some(ChannelItem::Record(..))));
            item
        } else {
            None
        }
    }

    pub fn in_flight_records(&self) -> u64 {
        self.records
    }

    /// The records waiting here, with their timestamps and job input.
    pub fn records(&self) -> impl Iterator<Item = (Record, EventTime, u8)> + '_ {
        self.queue.iter().filter_map(|(_, i)| match *i {
            ChannelItem::Record(r, ts, _, input) => Some((r, ts, input)),
            ChannelItem::Signal(_) => None,
        })
    }
}
