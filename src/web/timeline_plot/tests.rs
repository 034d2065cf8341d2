use super::*;
use crate::engine::time::NO_WATERMARK;

const MIN: i64 = i64::MIN;

fn series(points: &[(i64, i64)]) -> Series {
    let mut s = Series::default();
    s.points = points.to_vec();
    s
}

fn frame(data: &TimelineData) -> Frame {
    Frame {
        view: View { x0: data.start, x1: data.last, y0: -2_000, y1: 10_000 },
        width: 900.0,
        plot_h: PLOT_H,
        max_lanes: 10,
        window: WindowSpec::Tumbling { size_ms: 1_000, offset_ms: 0 },
        focus_op: 0,
        culprit: None,
        picked: None,
    }
}

fn data() -> TimelineData {
    TimelineData {
        start: 0,
        last: 10_000,
        splits: vec![series(&[(0, MIN), (1_000, 500), (2_000, 1_500)])],
        operators: vec![series(&[(0, MIN), (2_000, 500)])],
        firings: vec![(3_000, 1_000, 0, false), (3_000, 1_000, 1, false), (6_000, 1_000, 0, true)],
        late: vec![(4_000, 200, false), (5_000, 300, true)],
        ..Default::default()
    }
}

#[test]
fn both_axes_have_a_title_and_tick_labels_that_never_repeat() {
    let d = TimelineData { last: 600, ..data() };
    let p = plot(&d, &Frame { view: View { x0: -400, x1: 600, y0: -2_000, y1: 10_000 }, ..frame(&d) });
    let titles: Vec<_> = p.items.iter().filter_map(|it| if let Item::AxisTitle { text, .. } = it { Some(*text) } else { None }).collect();
    assert_eq!(titles, [PROC_AXIS_TITLE, EVENT_AXIS_TITLE]);
    let xs: Vec<_> = p.items.iter().filter_map(|it| if let Item::GridX { label, .. } = it { Some(label.as_str()) } else { None }).collect();
    assert_eq!(xs, ["00:00:00.0", "00:00:00.2", "00:00:00.4"]);
    // A phone's plot gets the short title, centred under the whole canvas: the long one was cut.
    let p = plot(&d, &Frame { width: 350.0, ..frame(&d) });
    let title =
        p.items.iter().find_map(|it| if let Item::AxisTitle { x, text, vertical: false, .. } = it { Some((*x, *text)) } else { None });
    assert_eq!(title, Some((175.0, PROC_AXIS_TITLE_NARROW)));
}

#[test]
fn a_two_input_operator_gets_a_dashed_line_per_input_under_its_own() {
    let mut d = data();
    d.inputs = vec![vec![series(&[(0, MIN), (2_000, 900)]), series(&[(0, MIN), (2_000, 500)])]];
    d.input_names = vec!["orders".into(), "rates".into()];
    let p = plot(&d, &frame(&d));
    let inputs: Vec<_> = lines(&p).into_iter().filter(|l| matches!(l.1, LineKind::Input(_))).map(|l| l.0).collect();
    assert_eq!(inputs, ["input 1 watermark (orders) of subtask 0", "input 2 watermark (rates) of subtask 0"]);
    assert!(p.census().ends_with("inputs=2"), "{}", p.census());
}

type LineView<'a> = (&'a str, LineKind, &'a [(f64, f64)]);

fn lines(p: &Plot) -> Vec<LineView<'_>> {
    p.items
        .iter()
        .filter_map(|it| if let Item::Line { kind, label, points } = it { Some((label.as_str(), *kind, points.as_slice())) } else { None })
        .collect()
}

#[test]
fn a_series_is_an_axis_parallel_step_line_up_to_now() {
    let d = data();
    let p = plot(&d, &frame(&d));
    let (label, kind, pts) = lines(&p)[0];
    assert_eq!((label, kind), ("partition 0", LineKind::Split));
    assert!(pts.windows(2).all(|s| s[0].0 == s[1].0 || s[0].1 == s[1].1), "{pts:?}");
    assert!(pts.windows(2).all(|s| s[0].0 <= s[1].0));
    // No Watermark sits on the bottom edge; 1500 ms is 3500/12000 of the way up.
    assert_eq!(pts[0], (LEFT, TOP + PLOT_H));
    let y1500 = TOP + PLOT_H - 3_500.0 / 12_000.0 * PLOT_H;
    assert_eq!(*pts.last().unwrap(), (900.0 - RIGHT, y1500));
}

#[test]
fn a_busy_series_keeps_about_one_vertex_per_pixel_column() {
    let mut d = data();
    d.splits[0] = series(&(0..100_000).map(|i| (i / 10, i % 7 * 1_000)).collect::<Vec<_>>());
    let p = plot(&d, &frame(&d));
    let columns = 900.0 - LEFT - RIGHT;
    assert!((lines(&p)[0].2.len() as f64) <= 2.0 * columns + 3.0);
}

#[test]
fn beyond_sixteen_splits_the_culprit_and_the_lowest_are_drawn() {
    let mut d = data();
    d.splits = (0..64).map(|i| series(&[(0, 1_000 + i * 10)])).collect();
    let mut f = frame(&d);
    f.culprit = Some(63);
    let p = plot(&d, &f);
    let names: Vec<&str> = lines(&p).iter().filter(|l| l.1 != LineKind::Operator && l.1 != LineKind::OperatorFocus).map(|l| l.0).collect();
    assert_eq!(names.len(), 16);
    assert!(names.contains(&"partition 63") && names.contains(&"partition 0") && !names.contains(&"partition 15"));
    assert_eq!(lines(&p).last().map(|l| (l.0, l.1)), Some(("partition 63", LineKind::Culprit)), "the culprit is drawn on top");
    assert!(lines(&p).iter().any(|l| l.0 == "window subtask 0" && l.1 == LineKind::OperatorFocus));
}

#[test]
fn marks_are_one_per_pixel_cell_and_counted() {
    let d = data();
    let mut f = frame(&d);
    f.picked = Some((1_000, 2_000));
    let p = plot(&d, &f);
    // Two subtasks fired window 1000 at the same instant: one mark.
    assert_eq!(p.census(), "bands=6 picked=1 splits=1 operators=1 fired=1 refired=1 dropped=1 side=1 lanes=0 idle=0 inputs=0");
}

#[test]
fn bands_thinner_than_five_pixels_are_left_out() {
    let d = data();
    let mut f = frame(&d);
    f.window = WindowSpec::Tumbling { size_ms: 100, offset_ms: 0 };
    assert!(plot(&d, &f).census().starts_with("bands=0 picked=0"));
}

#[test]
fn an_operator_without_watermark_is_named_at_the_bottom_edge() {
    let mut d = data();
    d.operators = vec![series(&[(0, NO_WATERMARK.ms())])];
    let p = plot(&d, &frame(&d));
    assert!(p.items.iter().any(|it| matches!(it, Item::OffScale { text, .. } if text == "win 0: ▼ No Watermark")));
}

#[test]
fn idle_lanes_list_ever_idle_series_and_grow_the_canvas() {
    let mut d = data();
    let h0 = plot(&d, &frame(&d)).height;
    d.splits[0].idle = vec![(1_000, Some(2_000)), (5_000, None)];
    let p = plot(&d, &frame(&d));
    assert_eq!(p.height, h0 + LANE_H);
    assert!(p.items.iter().any(|it| matches!(it, Item::Lane { label, .. } if label == "p0 idle")));
    assert!(p.census().ends_with("lanes=1 idle=2 inputs=0"));
    let mut f = frame(&d);
    f.max_lanes = 0;
    assert_eq!(plot(&d, &f).height, h0);
}

#[test]
fn hovering_names_the_nearest_line_within_four_pixels() {
    let d = data();
    let p = plot(&d, &frame(&d));
    let y1500 = TOP + PLOT_H - 3_500.0 / 12_000.0 * PLOT_H;
    assert_eq!(p.line_near(800.0, y1500 + 3.0), Some("partition 0"));
    assert_eq!(p.line_near(800.0, y1500 + 30.0), None);
}

#[test]
fn point_at_inverts_the_scale() {
    let v = View { x0: 0, x1: 10_000, y0: -2_000, y1: 10_000 };
    let sc = Scale { v, w: 900.0, h: PLOT_H };
    let (t, e) = point_at(v, 900.0, PLOT_H, sc.x(2_500), sc.y(4_000).0).unwrap();
    assert!((t - 2_500).abs() <= 20 && (e - 4_000).abs() <= 50, "{t} {e}");
    assert_eq!(point_at(v, 900.0, PLOT_H, LEFT - 1.0, 50.0), None);
}

#[test]
fn window_at_follows_flink_window_starts() {
    let tumbling = WindowSpec::Tumbling { size_ms: 10_000, offset_ms: 2_000 };
    assert_eq!(window_at(&tumbling, 11_999), Some((2_000, 12_000)));
    assert_eq!(window_at(&tumbling, -1), Some((-8_000, 2_000)));
    let sliding = WindowSpec::Sliding { size_ms: 10_000, slide_ms: 5_000, offset_ms: 0 };
    assert_eq!(window_at(&sliding, 7_000), Some((5_000, 15_000)));
}

#[test]
fn window_beside_walks_one_stride() {
    let tumbling = WindowSpec::Tumbling { size_ms: 10_000, offset_ms: 2_000 };
    assert_eq!(window_beside(&tumbling, (2_000, 12_000), 1), Some((12_000, 22_000)));
    assert_eq!(window_beside(&tumbling, (2_000, 12_000), -1), Some((-8_000, 2_000)));
    let sliding = WindowSpec::Sliding { size_ms: 10_000, slide_ms: 5_000, offset_ms: 0 };
    assert_eq!(window_beside(&sliding, (5_000, 15_000), 1), Some((10_000, 20_000)));
    assert_eq!(window_beside(&sliding, (5_000, 15_000), -1), Some((0, 10_000)));
    let cumulate = WindowSpec::Cumulate { step_ms: 1_000, max_size_ms: 3_000, offset_ms: 0 };
    assert_eq!(window_beside(&cumulate, (0, 2_000), 1), Some((0, 3_000)));
    assert_eq!(window_beside(&cumulate, (0, 3_000), 1), Some((3_000, 4_000)), "past the max size: the next cumulation");
    assert_eq!(window_beside(&cumulate, (3_000, 4_000), -1), Some((0, 3_000)));
    assert_eq!(window_beside(&WindowSpec::Session { gap_ms: 1_000 }, (0, 1_000), 1), None);
    assert_eq!(window_beside(&tumbling, (i64::MAX - 5_000, i64::MAX), 1), None, "no overflow past the last window");
}

#[test]
fn window_waited_for_is_the_next_to_fire() {
    let tumbling = WindowSpec::Tumbling { size_ms: 10_000, offset_ms: 0 };
    assert_eq!(window_waited_for(&tumbling, 9_998), Some((0, 10_000)));
    assert_eq!(window_waited_for(&tumbling, 9_999), Some((10_000, 20_000)), "end - 1 reached: [0, 10 s) has fired");
    let sliding = WindowSpec::Sliding { size_ms: 10_000, slide_ms: 5_000, offset_ms: 0 };
    assert_eq!(window_waited_for(&sliding, 7_000), Some((0, 10_000)), "the earliest window holding 7 001, not [5 s, 15 s)");
    assert_eq!(window_waited_for(&sliding, 9_999), Some((5_000, 15_000)));
    let cumulate = WindowSpec::Cumulate { step_ms: 1_000, max_size_ms: 3_000, offset_ms: 0 };
    assert_eq!(window_waited_for(&cumulate, 1_500), Some((0, 2_000)));
    assert_eq!(window_waited_for(&tumbling, i64::MAX), None);
    assert_eq!(window_waited_for(&WindowSpec::Session { gap_ms: 1_000 }, 0), None);
}

/// A backfill: an hour of event time in two minutes. "fit" shows the hour, from the highest
/// watermark down; No Watermark and the end of input are not watermarks to fit.
#[test]
fn the_watermarks_spread_is_what_fit_shows() {
    let mut data = TimelineData::new(0);
    data.operators = vec![series(&[(0, MIN), (10_000, 1_000_000), (120_000, 4_600_000), (130_000, i64::MAX)])];
    data.splits = vec![series(&[(0, MIN), (5_000, 900_000), (120_000, 4_700_000)])];
    assert_eq!(watermark_spread(&data), Some(3_800_000));
    assert_eq!(highest_watermark(&data, 125_000), Some(4_700_000));
    assert_eq!(highest_watermark(&data, 1_000), None);
    data.operators = vec![series(&[(0, MIN)])];
    data.splits = Vec::new();
    assert_eq!(watermark_spread(&data), None);
}

#[test]
fn event_shift_brings_far_watermarks_into_view() {
    let v = View { x0: 0, x1: 100_000, y0: -30_000, y1: 105_000 };
    let mut data = TimelineData::new(0);
    data.operators = vec![series(&[(0, MIN), (10_000, -86_400_000), (90_000, -86_300_000)])];
    // A replay a day behind: the latest watermark goes three quarters up the view.
    let shift = event_shift(&data, v);
    assert_eq!(-86_300_000 + shift, v.y0 + (v.y1 - v.y0) / 4 * 3);
    // In view already (or nothing to show): no shift.
    data.operators = vec![series(&[(0, MIN), (10_000, 5_000)])];
    assert_eq!(event_shift(&data, v), 0);
    data.operators = vec![series(&[(0, MIN)])];
    assert_eq!(event_shift(&data, v), 0);
}

/// The event-time axis named no day: the scenario's date (2026-01-01) sits over the lowest
/// tick's time of day, just above it.
#[test]
fn the_lowest_event_time_tick_has_its_date_over_it() {
    let jan1 = 1_767_225_600_000;
    let d = TimelineData { start: jan1, last: jan1 + 10_000, ..data() };
    let p = plot(&d, &Frame { view: View { x0: jan1, x1: jan1 + 10_000, y0: jan1 + 60_000, y1: jan1 + 120_000 }, ..frame(&d) });
    let dates: Vec<_> =
        p.items.iter().filter_map(|it| if let Item::TickDate { y, date } = it { Some((*y, date.as_str())) } else { None }).collect();
    let lowest = p.items.iter().filter_map(|it| if let Item::GridY { y, .. } = it { Some(*y) } else { None }).fold(f64::MIN, f64::max);
    assert_eq!(dates, [(lowest, "2026-01-01")]);
}
