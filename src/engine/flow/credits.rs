//! Credit-based flow control between the sources and the keyed operator (reference: Flink's
//! network stack, simplified in `docs/FLOW.md`): a channel holds at most
//! `channel_buffer_records` records; a source subtask whose output has a full channel stops
//! reading (back-pressure); each keyed subtask takes items from its channels in round robin,
//! as many records per millisecond as its capacity allows (watermarks and statuses are free and
//! keep their place behind the records before them).

use super::timer_gauge::TimerGauge;
use crate::engine::channel::ChannelItem;
use crate::engine::downstream::Downstream;
use crate::engine::time::ProcTime;
use crate::engine::trace::Trace;

/// One keyed subtask's processing budget and busy time.
#[derive(Clone, Debug, Default)]
pub struct KeyedFlow {
    /// Fractional budget in milli-records.
    budget_milli: u64,
    /// Busy time not yet whole milliseconds, in µs.
    busy_micros: u64,
    /// `busyTimeMsPerSecond`.
    pub busy: TimerGauge,
    /// Records taken from the channels in total.
    pub processed: u64,
}

impl Downstream {
    /// Whether items wait in channels (latency or a capacity limit).
    #[inline]
    pub(crate) fn buffered(&self) -> bool {
        self.latency_ms > 0 || self.capacity_per_s.is_some()
    }

    /// A new capacity (the `keyed_capacity_per_s` parameter): records stay in their channels.
    pub(crate) fn set_capacity(&mut self, cap: Option<u64>) {
        if cap.is_some() && self.channels.is_empty() {
            self.channels = vec![Default::default(); self.targets.len() * self.windows.len()];
        }
        self.capacity_per_s = cap;
        let latency = self.latency_ms;
        self.set_latency(latency);
    }

    /// Whether source subtask `src` may emit: every channel it feeds has room (Flink's record
    /// writer is unavailable once one subpartition is at its buffer limit).
    #[inline]
    pub fn output_available(&self, src: u32) -> bool {
        if self.capacity_per_s.is_none() {
            return true;
        }
        let q = self.windows.len() as u32;
        self.targets[src as usize].iter().all(|&dst| self.channels[(src * q + dst) as usize].in_flight_records() < self.buffer_records)
    }

    /// Records waiting in the channel from source subtask `src` to keyed subtask `dst`.
    pub fn channel_records(&self, src: u32, dst: u32) -> u64 {
        let q = self.windows.len() as u32;
        self.channels.get((src * q + dst) as usize).map_or(0, |c| c.in_flight_records())
    }

    /// Step 3 with a capacity: each keyed subtask takes what its budget allows.
    pub(crate) fn process_with_capacity(&mut self, cap: u64, now: ProcTime, trace: &mut Trace) {
        let q = self.windows.len() as u32;
        for dst in 0..q {
            let f = &mut self.keyed_flow[dst as usize];
            f.budget_milli = f.budget_milli.saturating_add(cap).min(super::budget_cap_milli(cap));
            let mut budget = f.budget_milli / 1000;
            let before = budget;
            let sources: Vec<u32> = (0..self.targets.len() as u32).filter(|&s| self.targets[s as usize].contains(&dst)).collect();
            loop {
                let mut progressed = false;
                for &src in &sources {
                    let ch = (src * q + dst) as usize;
                    let is_record = match self.channels[ch].peek_due(now) {
                        None => continue,
                        Some(item) => matches!(item, ChannelItem::Record(..)),
                    };
                    if is_record && budget == 0 {
                        continue;
                    }
                    budget -= u64::from(is_record);
                    if let Some(item) = self.channels[ch].pop_due(now) {
                        self.deliver(src, dst, item, now, trace);
                        progressed = true;
                    }
                }
                if !progressed {
                    break;
                }
            }
            let f = &mut self.keyed_flow[dst as usize];
            let taken = before - budget;
            f.budget_milli -= taken * 1000;
            f.processed += taken;
            f.busy_micros = f.busy_micros.saturating_add(taken.saturating_mul(1_000_000) / cap.max(1));
            // A millisecond is busy at most once; work left over carries into the next.
            let whole = (f.busy_micros / 1000).min(1);
            f.busy_micros -= whole * 1000;
            f.busy.add(whole.cast_signed());
        }
    }

    /// Closes the metric buckets of the keyed subtasks (every 5 s).
    pub(crate) fn update_flow_metrics(&mut self) {
        self.keyed_flow.iter_mut().for_each(|f| f.busy.update());
    }
}
