//! Flow control in the job graph (issue 13, `docs/FLOW.md`), as data: the rates Flink's
//! back-pressure metrics show (`backPressuredTimeMsPerSecond` per source subtask,
//! `busyTimeMsPerSecond` per keyed subtask, of the simulation or of a real job's metrics), the
//! Web UI's OK / LOW / HIGH wording and colour classes, the channel edges coloured by their
//! source subtask's level, and each channel's buffer fill (a simulation's only: Flink reports
//! no per-channel buffers). Pure (no DOM): it compiles natively and is unit tested with the engine.

use super::format::{dur, wm_human, wm_raw};
use super::graph_layout::{curve, Layout};
use crate::engine::flow::back_pressure::BackPressureLevel;
use crate::engine::live::to_snapshot::LiveGraph;
use crate::engine::sim::Simulation;
use crate::engine::snapshot::{Snapshot, SourceView};
use std::fmt::Write;

/// The rates behind the graph's flow marks, read at the instant of a snapshot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlowRates {
    /// `backPressuredTimeMsPerSecond`, per source subtask (`None`: not reported).
    pub back_pressured_ms: Vec<Option<i64>>,
    /// `busyTimeMsPerSecond`, per keyed subtask (`None`: not reported).
    pub busy_ms: Vec<Option<i64>>,
}

impl FlowRates {
    /// Reads the simulation now (empty without a capacity limit: nothing can be back-pressured).
    pub fn take(sim: &Simulation) -> Self {
        if sim.config().flow.keyed_capacity_per_s.is_none() {
            return FlowRates::default();
        }
        FlowRates {
            back_pressured_ms: sim.sources().iter().map(|s| Some(s.pressure.back_pressured.value())).collect(),
            busy_ms: sim.downstream().keyed_flow.iter().map(|f| Some(f.busy.value())).collect(),
        }
    }

    /// A real job's, as its last poll reported them.
    pub fn of_live(g: &LiveGraph) -> Self {
        FlowRates { back_pressured_ms: g.back_pressured_ms_per_s.clone(), busy_ms: g.busy_ms_per_s.clone() }
    }

    pub fn back_pressured(&self, s: u32) -> Option<i64> {
        self.back_pressured_ms.get(s as usize).copied().flatten()
    }

    pub fn busy(&self, o: u32) -> Option<i64> {
        self.busy_ms.get(o as usize).copied().flatten()
    }
}

/// The CSS class that colours it as the Web UI does (`bp-ok` green, `bp-low` amber, `bp-high` red).
pub fn level_class(l: BackPressureLevel) -> &'static str {
    match l {
        BackPressureLevel::Ok => "bp-ok",
        BackPressureLevel::Low => "bp-low",
        BackPressureLevel::High => "bp-high",
    }
}

/// What a source subtask's back-pressure mark says: `back-pressured: HIGH, 1000 ms/s`.
pub fn bp_label(l: BackPressureLevel, ms_per_s: Option<i64>) -> String {
    format!("back-pressured: {}, {} ms/s", l.ui_name(), ms_per_s.map_or_else(|| "?".to_string(), |ms| ms.to_string()))
}

/// Whether the graph shows flow marks at all: a simulated job with a capacity limit (nothing
/// else can be back-pressured), or a real job whose metrics report back-pressure.
pub fn flow_limited(s: &Snapshot) -> bool {
    s.job.flow_marks
}

/// Every channel edge coloured by its source subtask's back-pressure level (under the edges
/// that hold a minimum, so that the culprit's orange stays on top and the level shows as a
/// halo around it). Nothing without flow marks, nor from a subtask whose rate is not reported.
pub fn pressure_edges_svg(l: &Layout, s: &Snapshot, rates: &FlowRates) -> String {
    let mut out = String::new();
    if !flow_limited(s) {
        return out;
    }
    for &(src, o, input) in &l.s_edges {
        let Some(v) = s.sources.get(src as usize).filter(|_| rates.back_pressured(src).is_some()) else { continue };
        let (Some((x1, y1)), Some((x2, y2))) = (l.channel_start(src), l.channel_end(o, input)) else { continue };
        let lvl = v.back_pressure_level;
        let _ = write!(
            out,
            r#"<path class="edge bp {}" data-bp="{}" data-bp-source="{src}" data-bp-operator="{o}" d="{}"/>"#,
            level_class(lvl),
            lvl.ui_name(),
            curve(x1, y1, x2, y2)
        );
    }
    out
}

/// A source subtask's alignment for its tooltip: the group, the max drift, the last announced
/// max allowed watermark and the drift, or that it waits (nothing without alignment).
pub fn alignment_note(v: &SourceView, now: i64) -> String {
    let Some(a) = &v.alignment else { return String::new() };
    let max = a.max_allowed.ms();
    let max = if max == i64::MAX { "none announced yet".to_string() } else { format!("{} ({})", wm_human(max, now), wm_raw(max)) };
    let drift = a.drift_ms.map_or(String::new(), |d| format!(", watermarkAlignmentDrift {}", dur(d)));
    let state = if a.waiting {
        "; WAITING_FOR_ALIGNMENT: its watermark is past the max allowed, it reads nothing until the group catches up"
    } else {
        ""
    };
    format!("; watermark alignment group \"{}\", max drift {}, max allowed {max}{drift}{state}", a.group, dur(a.max_drift_ms))
}

/// One input channel's buffer: records waiting and its credits.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelFill {
    pub channel: usize,
    /// Its source subtask as every view names it (`3`, or `rates·0` with two sources).
    pub source: String,
    pub buffered: u64,
    pub credits: u64,
}

impl ChannelFill {
    /// The share of its credits in use, 0..1.
    pub fn ratio(&self) -> f64 {
        (self.buffered as f64 / self.credits.max(1) as f64).min(1.0)
    }
}

/// The buffer fill of keyed subtask `o`'s input channels (empty without a capacity limit: a
/// real job's channels are not reported).
pub fn channel_fills(s: &Snapshot, o: u32) -> Vec<ChannelFill> {
    if s.job.keyed_capacity_per_s.is_none() {
        return Vec::new();
    }
    let credits = s.job.channel_buffer_records;
    s.operators.get(o as usize).map_or_else(Vec::new, |op| {
        op.channels
            .iter()
            .map(|c| ChannelFill {
                channel: c.channel,
                source: s.source_subtask_name(c.source_subtask),
                buffered: c.buffered_records,
                credits,
            })
            .collect()
    })
}

/// The width of one channel's gauge when `n` share `room` px (at most 12, at least 2).
pub fn gauge_width(n: usize, room: f64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    ((room - (n as f64 - 1.0)) / n as f64).clamp(2.0, 12.0)
}

/// Channel gauges side by side from (x, y) over `room` px, `h` high: an outline each, filled
/// from the bottom by its share of the credits (a full channel is a full bar).
pub fn gauges_svg(fills: &[ChannelFill], x: f64, y: f64, room: f64, h: f64) -> String {
    let w = gauge_width(fills.len(), room);
    let mut out = String::new();
    for (i, f) in fills.iter().enumerate() {
        let gx = x + i as f64 * (w + 1.0);
        if gx + w > x + room + 0.01 {
            break;
        }
        let fh = f.ratio() * h;
        let full = if f.ratio() >= 0.999 { " full" } else { "" };
        let _ = write!(
            out,
            r#"<rect class="gauge-box" x="{gx:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}"/><rect class="gauge-fill{full}" data-channel="{}" x="{gx:.1}" y="{:.1}" width="{w:.1}" height="{fh:.1}"/>"#,
            f.channel,
            y + h - fh
        );
    }
    out
}

/// The gauges' tooltip: each channel's records waiting out of its credits.
pub fn fills_title(fills: &[ChannelFill]) -> String {
    let lines: Vec<String> = fills
        .iter()
        .map(|f| {
            let t = crate::engine::time::thousands;
            format!("channel {} (from source subtask {}): {} / {} records buffered", f.channel, f.source, t(f.buffered), t(f.credits))
        })
        .collect();
    format!("input buffers (bufferedRecords / credits):\n{}", lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{build, catalog};

    fn sim_at(id: &str, secs: i64) -> Simulation {
        let mut sim = build::parse(catalog::preset(id).unwrap().json).unwrap().build().unwrap();
        let at = sim.config().start_time.ms() + secs * 1000;
        sim.run_until(crate::engine::time::ProcTime(at)).unwrap();
        sim
    }

    #[test]
    fn a_back_pressured_source_colours_its_channel_high() {
        let sim = sim_at("backpressure-never-idle", 120);
        let snap = sim.snapshot();
        let rates = FlowRates::take(&sim);
        assert!(rates.back_pressured(0).unwrap() > 500, "{rates:?}");
        // Busy most of the time (the engine's budget for 1,500/s takes 1 record a millisecond).
        assert!(rates.busy(0).unwrap() > 500, "the window subtask is busy: {rates:?}");
        assert_eq!(
            bp_label(snap.sources[0].back_pressure_level, rates.back_pressured(0)),
            format!("back-pressured: HIGH, {} ms/s", rates.back_pressured(0).unwrap())
        );
        let l = super::super::graph_layout::layout(808.0, &snap, false);
        let svg = pressure_edges_svg(&l, &snap, &rates);
        assert!(svg.contains(r#"class="edge bp bp-high" data-bp="HIGH" data-bp-source="0" data-bp-operator="0""#), "{svg}");
        let fills = channel_fills(&snap, 0);
        assert_eq!(fills.len(), 1);
        assert!(fills[0].ratio() > 0.5 && fills[0].credits == 2_000, "{fills:?}");
    }

    #[test]
    fn without_a_capacity_limit_there_are_no_flow_marks() {
        let sim = sim_at("seed-001-heartbeat", 10);
        let snap = sim.snapshot();
        assert_eq!(FlowRates::take(&sim), FlowRates::default());
        let l = super::super::graph_layout::layout(808.0, &snap, false);
        assert!(pressure_edges_svg(&l, &snap, &FlowRates::take(&sim)).is_empty() && channel_fills(&snap, 0).is_empty());
    }

    #[test]
    fn gauges_share_the_room() {
        let f = |b| ChannelFill { channel: 0, source: "0".into(), buffered: b, credits: 2_000 };
        let svg = gauges_svg(&[f(2_000), f(500)], 0.0, 0.0, 56.0, 8.0);
        assert!(svg.contains(r#"class="gauge-fill full" data-channel="0" x="0.0" y="0.0" width="12.0" height="8.0""#), "{svg}");
        assert!(svg.contains(r#"y="6.0" width="12.0" height="2.0""#), "a quarter full: {svg}");
        assert!(fills_title(&[f(1_950)]).ends_with("channel 0 (from source subtask 0): 1,950 / 2,000 records buffered"));
        assert_eq!(gauge_width(1, 40.0), 12.0);
        assert_eq!(gauge_width(16, 56.0), 2.5625, "16 gauges and 15 gaps of 1 px");
        assert_eq!(gauge_width(64, 56.0), 2.0);
    }
}
