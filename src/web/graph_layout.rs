//! Where the job graph puts everything, from a snapshot and the available width: the columns
//! (partitions → source subtasks → the chained watermark operators, if any → keyed subtasks →
//! sink), one band per job input (its topic's partitions beside the source subtasks that read
//! them, under the topic's name), and the ports where channels enter a keyed subtask: none for
//! one input, one valve for a union (both sources' channels meet in it), one port per input for
//! a two-input operator. Pure (no DOM): it compiles natively and is unit tested with the engine.

use crate::engine::job::TwoInputMode;
use crate::engine::snapshot::Snapshot;

/// Node sizes: partition pill (minimum width), source subtask, chained operator, keyed
/// subtask, sink; heights of a source subtask and of a keyed subtask with one or two inputs.
pub const P_W_MIN: f64 = 140.0;
pub const S_W: f64 = 156.0;
pub const M_W: f64 = 144.0;
pub const O_W: f64 = 168.0;
pub const K_W: f64 = 96.0;
pub const S_H: f64 = 44.0;
/// Four lines: name and state, watermark, raw watermark and lag, fired and dropped counts.
pub const O_H: f64 = 70.0;
/// A two-input operator shows each input's watermark on a line of its own.
pub const O_H2: f64 = 100.0;
/// Where a keyed subtask's counts line sits (its baseline, from the node's top).
pub const COUNTS_Y: f64 = 61.0;
/// A dense graph (more than four window or source subtasks) draws them on two lines: name and
/// watermark, counts (the raw watermark and lag are in the title), so that seed-001's sixteen
/// partitions and eight subtasks fit a 1280×720 screen with the WHY panel beside them.
pub const O_H_DENSE: f64 = 34.0;
pub const COUNTS_Y_DENSE: f64 = 28.0;
pub const S_H_DENSE: f64 = 30.0;
const DENSE_ABOVE: usize = 4;
/// With a capacity limit a keyed subtask gets one more line: busy time and its channels' buffers.
pub const O_FLOW_H: f64 = 14.0;
/// Where the column heads end.
pub const TOP: f64 = 26.0;
/// A band's topic name above its partitions.
const GROUP_HEAD: f64 = 18.0;
/// Room left of a keyed subtask for its input ports.
pub const PORT_W: f64 = 12.0;
/// Width of one monospace character of a partition pill, for sizing the column.
const MONO_CH: f64 = 6.6;
/// Room left of a partition pill for its Silence / Resume button (a 46 px button: "Resume" in
/// its 9.5 px bold is 43 px wide, and ran past a 40 px one).
pub const SILENCE_W: f64 = 54.0;
/// The smallest the graph is drawn on a phone, as a share of its layout's size. Fitted to a
/// 390 px card seed-001's graph was drawn at 56%: 5–6 px text and Silence buttons 22×8 px to
/// tap. Below this the card scrolls across; focusing a node with the arrow keys brings it into
/// view. On a wider screen the graph still fits its card (the sink stays in view with the
/// controls open at 1280 px, at 68% for the widest preset).
pub const MIN_SCALE: f64 = 0.8;
/// A partition's row on a phone: its Silence / Resume button's hit area (the whole row) is
/// then 24 CSS px tall at [`MIN_SCALE`], WCAG 2.2's minimum target, plus a unit so that rounding
/// never takes it under. At seed-001's 19 px rows the buttons were 37×12 px, 15 px apart: no
/// hit area of 24 px fitted between its neighbours.
const TOUCH_ROW: f64 = 24.0 / MIN_SCALE + 1.0;
/// The widest gap between two columns (a wide screen leaves the rest of the card empty).
const MAX_GAP: f64 = 220.0;

/// How channels enter a keyed subtask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ports {
    /// One input: channels go straight into the node.
    Direct,
    /// `union`: one valve over every channel of both sources.
    Valve,
    /// `connect` / interval join: one valve per input, combined (`currentInputWatermark`, the minimum).
    TwoInputs,
}

/// One job input's band: its topic's name over its partitions and source subtasks.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub input: u8,
    pub topic: String,
    /// Where the band's heading sits.
    pub head_y: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub p_x: f64,
    pub p_w: f64,
    pub s_x: f64,
    /// The chained watermark operators' column, when any source subtask has one.
    pub m_x: Option<f64>,
    pub o_x: f64,
    pub o_h: f64,
    /// A source subtask's height (two lines when dense).
    pub s_h: f64,
    /// Keyed subtasks on two lines (not a two-input operator's: its inputs need theirs).
    pub dense: bool,
    pub k_x: f64,
    pub p_h: f64,
    /// Row centre of each partition (by engine number), source subtask and keyed subtask.
    pub p_y: Vec<f64>,
    pub s_y: Vec<f64>,
    pub o_y: Vec<f64>,
    pub k_y: f64,
    /// The sink sits under the keyed subtasks (a narrow graph with a chained column).
    pub sink_below: bool,
    /// Bands with headings: only when the job has two inputs.
    pub bands: Vec<Band>,
    pub ports: Ports,
    /// Which source subtasks have a chained watermark operator.
    pub chained: Vec<bool>,
    /// (partition, owning source subtask) for every assigned, live split.
    pub p_edges: Vec<(u32, u32)>,
    /// (source subtask, keyed subtask, input) for every channel.
    pub s_edges: Vec<(u32, u32, usize)>,
}

impl Layout {
    /// Where a channel from source subtask `s` leaves: the chained operator after it, if any.
    pub fn channel_start(&self, s: u32) -> Option<(f64, f64)> {
        let y = *self.s_y.get(s as usize)?;
        match (self.m_x, self.chained.get(s as usize)) {
            (Some(m), Some(true)) => Some((m + M_W, y)),
            _ => Some((self.s_x + S_W, y)),
        }
    }

    /// Where a channel of logical input `input` enters keyed subtask `o` (its port).
    pub fn channel_end(&self, o: u32, input: usize) -> Option<(f64, f64)> {
        let y = *self.o_y.get(o as usize)?;
        Some(match self.ports {
            Ports::Direct => (self.o_x, y),
            Ports::Valve => (self.o_x - PORT_W, y),
            Ports::TwoInputs => (self.o_x - PORT_W, self.port_y(o, input)?),
        })
    }

    /// The vertical centre of input `input`'s port (and of its line in the node).
    pub fn port_y(&self, o: u32, input: usize) -> Option<f64> {
        let top = self.o_y.get(o as usize)? - self.o_h / 2.0;
        Some(top + COUNTS_Y + 10.0 + 16.0 * input as f64)
    }
}

/// A channel's curve from (x1, y1) to (x2, y2), as SVG path data.
pub fn curve(x1: f64, y1: f64, x2: f64, y2: f64) -> String {
    let mx = (x1 + x2) / 2.0;
    format!("M{x1:.1},{y1:.1} C{mx:.1},{y1:.1} {mx:.1},{y2:.1} {x2:.1},{y2:.1}")
}

fn spread(n: usize, pitch: f64, top: f64, room: f64) -> Vec<f64> {
    let used = n as f64 * pitch;
    let top = top + ((room - used) / 2.0).max(0.0);
    (0..n).map(|i| top + pitch * (i as f64 + 0.5)).collect()
}

/// The partition's name as the graph and the tables show it: `p11` with one topic, Kafka's
/// `topic-N` (TopicPartition) with two.
pub fn partition_label(snap: &Snapshot, p: u32) -> String {
    if snap.job.topics.len() > 1 {
        snap.partition_name(p)
    } else {
        format!("p{p}")
    }
}

/// The number a scenario and the JS API give partition `p` by, beside its name when that
/// differs (`rates-0`, with two topics): " (number 3 in commands)", or nothing.
pub fn scenario_number(name: &str, p: u32) -> String {
    if name == p.to_string() {
        String::new()
    } else {
        format!(" (number {p} in commands)")
    }
}

/// How channels enter a keyed subtask, and its height: two inputs show a line each, a capacity
/// limit adds one for busy time and buffers.
fn keyed_shape(snap: &Snapshot) -> (Ports, bool, f64) {
    let ports = match snap.job.two_input_mode {
        Some(TwoInputMode::Connect) => Ports::TwoInputs,
        Some(TwoInputMode::Union) => Ports::Valve,
        None => Ports::Direct,
    };
    let dense = ports != Ports::TwoInputs && (snap.operators.len() > DENSE_ABOVE || snap.sources.len() > DENSE_ABOVE);
    let flow = if super::graph_flow::flow_limited(snap) { O_FLOW_H } else { 0.0 };
    let h = match (ports, dense) {
        (Ports::TwoInputs, _) => O_H2,
        (_, true) => O_H_DENSE,
        _ => O_H,
    };
    (ports, dense, h + flow)
}

/// One band per input: its partitions (in topic order) and its source subtasks side by side,
/// under the topic's name when the job has two. Returns the rows of partitions and source
/// subtasks, the bands' headings and the height they take.
fn place_bands(snap: &Snapshot, p_h: f64, s_h: f64) -> (Vec<f64>, Vec<f64>, Vec<Band>, f64) {
    let n = snap.splits.len();
    let two = snap.job.topics.len() > 1;
    let s_pitch = s_h + if s_h < S_H { 6.0 } else { 10.0 };
    let inputs = if two { snap.job.topics.len() } else { 1 };
    let (mut p_y, mut s_y, mut bands) = (vec![0.0; n], vec![0.0; snap.sources.len()], Vec::new());
    let mut top = TOP;
    for input in 0..inputs {
        let parts: Vec<usize> = (0..n).filter(|&p| !two || snap.splits[p].input as usize == input).collect();
        let srcs: Vec<usize> = (0..snap.sources.len()).filter(|&s| !two || snap.sources[s].input as usize == input).collect();
        let head = if two { GROUP_HEAD } else { 0.0 };
        let room = (parts.len() as f64 * p_h).max(srcs.len() as f64 * s_pitch);
        if two {
            bands.push(Band { input: input as u8, topic: snap.job.topics[input].clone(), head_y: top + 12.0 });
        }
        for (&p, y) in parts.iter().zip(spread(parts.len(), p_h, top + head, room)) {
            p_y[p] = y;
        }
        for (&s, y) in srcs.iter().zip(spread(srcs.len(), s_pitch, top + head, room)) {
            s_y[s] = y;
        }
        top += head + room + if two { 10.0 } else { 0.0 };
    }
    (p_y, s_y, bands, top - TOP)
}

/// A partition pill's row height: smaller as partitions add up, never under a finger's on a
/// phone (`touch`).
fn pill_height(n: usize, touch: bool) -> f64 {
    let fitted: f64 = if n <= 8 {
        24.0
    } else if n <= 18 {
        19.0
    } else if n <= 40 {
        18.0
    } else {
        15.0
    };
    if touch {
        fitted.max(TOUCH_ROW)
    } else {
        fitted
    }
}

/// The graph's layout at `width`; `touch`: on a phone (the style sheet's 600 px viewport
/// breakpoint, not the card's width: with the controls open a laptop's card is as narrow),
/// where partition rows are a finger's.
pub fn layout(width: f64, snap: &Snapshot, touch: bool) -> Layout {
    layout_named(width, snap, &[], touch)
}

/// [`layout`] with the partitions' own names when they are not the playground's (a real job's
/// split ids): the pills are as wide as the longest.
pub fn layout_named(width: f64, snap: &Snapshot, names: &[String], touch: bool) -> Layout {
    let n = snap.splits.len();
    let p_h = pill_height(n, touch);
    let width = width.max(560.0);
    let (ports, dense, o_h) = keyed_shape(snap);
    let o_pitch = o_h + if dense { 4.0 } else { 10.0 };
    let chained: Vec<bool> = snap.sources.iter().map(|s| s.midstream.is_some()).collect();
    let has_chain = chained.iter().any(|&c| c);
    // A chained operator is as tall as its source subtask, with three lines: not dense then.
    let s_h = if dense && !has_chain { S_H_DENSE } else { S_H };
    // Partition pills grow with the longest name: `impressions-1 silenced 23:59:28.781 -1d` is
    // the name and 26 more characters (a state badge and a watermark, marked across midnight);
    // 29 when a partition has nothing written to it (`no producer`). Sized for the mark whether
    // or not a watermark shows it now: the columns would move while playing.
    let label = |p: u32| names.get(p as usize).map_or_else(|| partition_label(snap, p).chars().count(), |x| x.chars().count());
    let longest = (0..n as u32).map(label).max().unwrap_or(3);
    let unwritten = snap.splits.iter().any(|s| s.silent && s.produced == 0);
    let p_w = P_W_MIN.max((longest + if unwritten { 29 } else { 26 }) as f64 * MONO_CH + 12.0);
    let (p_y, s_y, bands, bands_h) = place_bands(snap, p_h, s_h);
    let ops_h = snap.operators.len() as f64 * o_pitch;
    let port = if ports == Ports::Direct { 0.0 } else { PORT_W };
    let m_w = if has_chain { M_W } else { 0.0 };
    // Four columns of edges fit a 1440 px screen's graph card (808 px) only with narrower gaps;
    // narrower still (1280 px, or a phone), the sink goes under the keyed subtasks instead of
    // beside them, so that the graph needs less width and the view box scales it down less.
    let min_gap = if has_chain { 15.0 } else { 22.0 };
    // Left margin and the silence buttons, the nodes, and a right margin.
    let fixed = 8.0 + SILENCE_W + p_w + S_W + m_w + port + O_W + 8.0;
    let edge_columns = if has_chain { 4.0 } else { 3.0 };
    let sink_below = width < fixed + K_W + edge_columns * min_gap;
    let columns = if sink_below { edge_columns - 1.0 } else { edge_columns };
    // Under the subtasks, the sink leaves room on the right for the bus that leads down to it.
    // On a wide screen the gaps stop growing: the graph keeps its shape and stays left.
    let gap = ((width - fixed - if sink_below { 16.0 } else { K_W }) / columns).clamp(min_gap, MAX_GAP);
    let content = bands_h.max(ops_h + if sink_below { 52.0 + 24.0 } else { 0.0 }).max(o_h + 20.0);
    let height = TOP + content + 8.0;
    let p_x = 8.0 + SILENCE_W;
    let s_x = p_x + p_w + gap;
    let m_x = has_chain.then_some(s_x + S_W + gap);
    let o_x = s_x + S_W + gap + if has_chain { M_W + gap } else { 0.0 } + port;
    let k_x = if sink_below { o_x + O_W - K_W } else { o_x + O_W + gap };
    let p_edges = snap.splits.iter().filter(|s| !s.released).filter_map(|s| s.subtask.map(|t| (s.partition, t))).collect();
    let s_edges = snap.operators.iter().flat_map(|o| o.channels.iter().map(move |c| (c.source_subtask, o.subtask, c.input))).collect();
    Layout {
        width: k_x + K_W + if sink_below { 16.0 + 8.0 } else { 8.0 },
        height,
        p_x,
        p_w,
        s_x,
        m_x,
        o_x,
        o_h,
        s_h,
        dense,
        k_x,
        p_h,
        p_y,
        s_y,
        o_y: spread(snap.operators.len(), o_pitch, TOP, if sink_below { ops_h } else { content }),
        k_y: if sink_below { TOP + ops_h + 24.0 + 26.0 } else { TOP + content / 2.0 },
        sink_below,
        bands,
        ports,
        chained,
        p_edges,
        s_edges,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{build, catalog};

    fn snap(id: &str, ms: i64) -> Snapshot {
        let sc = build::parse(catalog::preset(id).unwrap().json).unwrap();
        let mut sim = sc.build().unwrap();
        let at = sim.config().start_time.ms() + ms;
        sim.run_until(crate::engine::time::ProcTime(at)).unwrap();
        sim.snapshot()
    }

    #[test]
    fn one_input_has_no_bands_ports_or_chained_column() {
        let l = layout(808.0, &snap("seed-001-heartbeat", 1_000), false);
        assert!(l.bands.is_empty() && l.m_x.is_none());
        assert_eq!(l.ports, Ports::Direct);
        assert_eq!(l.channel_end(0, 0), Some((l.o_x, l.o_y[0])));
        assert!(l.k_x + K_W <= 808.0, "fits the width");
    }

    #[test]
    fn a_connected_job_has_a_band_per_topic_and_a_port_per_input() {
        let s = snap("quiet-side-join", 1_000);
        let l = layout(808.0, &s, false);
        assert!(l.k_x + K_W <= 808.0, "fits the width");
        assert_eq!(l.bands.iter().map(|b| b.topic.as_str()).collect::<Vec<_>>(), ["orders", "rates"]);
        assert_eq!(l.ports, Ports::TwoInputs);
        // The rates partition (engine number 4) and its source subtask sit in the second band,
        // below every orders partition.
        assert!(l.p_y[4] > l.p_y[..4].iter().copied().fold(0.0, f64::max));
        assert!(l.p_y[4] > l.bands[1].head_y && l.s_y[2] > l.bands[1].head_y);
        let (a, b) = (l.channel_end(0, 0).unwrap(), l.channel_end(0, 1).unwrap());
        assert!(b.1 > a.1 && a.0 < l.o_x, "two ports left of the node, input 2 below input 1");
        assert_eq!(partition_label(&s, 4), "rates-0");
        assert_eq!(partition_label(&s, 3), "orders-3");
    }

    #[test]
    fn a_union_has_one_valve_and_chained_operators_get_a_column() {
        let l = layout(808.0, &snap("union-idle-stream", 1_000), false);
        assert!(l.k_x + K_W <= 808.0, "fits the width (impressions-1 is the longest name)");
        assert_eq!(l.ports, Ports::Valve);
        assert_eq!(l.channel_end(1, 0).map(|e| e.1), l.channel_end(1, 1).map(|e| e.1), "every channel enters one valve");
        let m = layout(808.0, &snap("midstream-assigner", 1_000), false);
        let mx = m.m_x.expect("a chained column");
        assert!(m.s_x + S_W < mx && mx + M_W < m.o_x);
        assert_eq!(m.channel_start(0), Some((mx + M_W, m.s_y[0])), "channels leave from the chained operator");
        assert!(m.k_x + K_W + 16.0 + 8.0 <= 808.0, "fits the width");
        let wide = layout(900.0, &snap("midstream-assigner", 1_000), false);
        assert!(!wide.sink_below && wide.k_x + K_W <= 900.0, "four columns and the sink beside fit a 900 px card");
        let narrow = layout(712.0, &snap("midstream-assigner", 1_000), false);
        assert!(narrow.sink_below, "at 1280 px the sink goes under the window subtasks");
        assert!(narrow.width < wide.width && narrow.width < 800.0, "and the view box scales it down little: {}", narrow.width);
        assert!(narrow.k_y - 26.0 > narrow.o_y[1] + O_H / 2.0, "below the last one");
    }

    #[test]
    fn the_width_is_the_contents_a_phone_scales_it_and_a_wide_card_keeps_it_left() {
        let s = snap("seed-001-heartbeat", 1_000);
        let wide = layout(2200.0, &s, false);
        assert!(wide.width < 1400.0, "gaps stop growing: {}", wide.width);
        assert!(!wide.sink_below);
        let phone = layout(330.0, &s, true);
        assert!(phone.sink_below, "a narrow card puts the sink under the window subtasks");
        assert!(phone.width < layout(808.0, &s, false).width, "and needs less width");
        assert!(phone.width > 330.0, "wider than the card: the view box scales it down");
        assert!(phone.k_y > phone.o_y.last().copied().unwrap_or(0.0), "the sink under the last one");
    }

    /// On a phone a partition's row (its Silence button's hit area) is 24 CSS px at the
    /// smallest scale, seed-001's sixteen too, and the rows do not overlap; a laptop keeps its
    /// rows, in a card as narrow as a phone's too (the controls drawer open).
    #[test]
    fn a_phones_partition_rows_are_a_fingers() {
        for id in ["seed-001-heartbeat", "late-data", "quiet-side-join"] {
            let s = snap(id, 1_000);
            let phone = layout(366.0, &s, true);
            assert!(phone.p_h * MIN_SCALE >= 24.0, "{id}: {} px", phone.p_h * MIN_SCALE);
            let mut ys = phone.p_y.clone();
            ys.sort_by(f64::total_cmp);
            assert!(ys.windows(2).all(|w| w[1] - w[0] >= phone.p_h - 1e-9), "{id}: rows {ys:?} closer than {}", phone.p_h);
        }
        assert_eq!(layout(808.0, &snap("seed-001-heartbeat", 1_000), false).p_h, 19.0);
        assert_eq!(layout(808.0, &snap("late-data", 1_000), false).p_h, 24.0);
        assert_eq!(layout(520.0, &snap("seed-001-heartbeat", 1_000), false).p_h, 19.0);
    }

    /// A real job's graph (the live card): its split ids widen the pills, its splits sit beside
    /// the source subtasks that read them, and it fits a laptop's card.
    #[test]
    fn a_live_jobs_split_ids_size_the_pills() {
        use crate::engine::live::{to_snapshot::to_snapshot, Bundle, LiveJob};
        let b = Bundle::parse(include_str!("../../tests/fixtures/live/running.json")).unwrap();
        let g = to_snapshot(&LiveJob::from_bundle(&b, &LiveJob::only_job_id(&b).unwrap()).unwrap());
        let named = layout_named(808.0, &g.snapshot, &g.split_ids, false);
        let plain = layout(808.0, &g.snapshot, false);
        assert!(named.p_w > plain.p_w, "`split-1` is longer than `p1`");
        assert_eq!(named.p_edges, [(0, 0), (1, 1)]);
        assert_eq!(named.s_edges.len(), 4, "2 source subtasks × 2 window subtasks");
        assert!(named.k_x + K_W <= 808.0, "fits the width");
    }

    #[test]
    fn a_two_partition_job_is_short() {
        let small = layout(808.0, &snap("late-data", 1_000), false);
        let seed = layout(808.0, &snap("seed-001-heartbeat", 1_000), false);
        assert!(small.height + 100.0 < seed.height, "{} vs {}", small.height, seed.height);
    }
}
