use super::*;

fn sums(f: &[WindowFiring]) -> Vec<(KeyId, i64, u64)> {
    f.iter().map(|x| (x.key, (x.end - 1).ms(), x.agg.count)).collect()
}

#[test]
fn boundary_fire_and_drop() {
    let mut op = WindowOperator::new(WindowSpec::Tumbling { size_ms: 2000, offset_ms: 0 }, 0);
    let mut f = Vec::new();
    assert_eq!(op.process_element(0, EventTime(500), 1, &mut f), ElementOutcome::Accepted);
    op.advance_watermark(EventTime(1998), &mut f);
    assert!(f.is_empty());
    op.advance_watermark(EventTime(1999), &mut f);
    assert_eq!(sums(&f), vec![(0, 1999, 1)]);
    assert_eq!(op.process_element(0, EventTime(1998), 1, &mut f), ElementOutcome::Late);
    assert_eq!(op.state_size(), 0);
}

#[test]
fn v_win_1_lateness_accumulating() {
    let mut op = WindowOperator::new(WindowSpec::Tumbling { size_ms: 2000, offset_ms: 0 }, 500);
    let mut f = Vec::new();
    op.process_element(1, EventTime(500), 1, &mut f);
    op.advance_watermark(EventTime(1500), &mut f);
    op.process_element(1, EventTime(1300), 1, &mut f);
    op.advance_watermark(EventTime(2300), &mut f);
    assert_eq!(sums(&f), vec![(1, 1999, 2)]);
    f.clear();
    assert_eq!(op.process_element(1, EventTime(1997), 1, &mut f), ElementOutcome::Accepted);
    assert_eq!(sums(&f), vec![(1, 1999, 3)]);
    assert_eq!(f[0].firing, 1);
    f.clear();
    op.advance_watermark(EventTime(6000), &mut f);
    assert!(f.is_empty());
    assert_eq!(op.state_size(), 0);
    assert_eq!(op.process_element(1, EventTime(1998), 1, &mut f), ElementOutcome::Late);
}

#[test]
fn v_win_3_sliding_drop() {
    let mut op = WindowOperator::new(WindowSpec::Sliding { size_ms: 3000, slide_ms: 1000, offset_ms: 0 }, 0);
    let mut f = Vec::new();
    op.process_element(2, EventTime(1000), 1, &mut f);
    op.advance_watermark(EventTime(1999), &mut f);
    assert_eq!(sums(&f), vec![(2, 1999, 1)]);
    f.clear();
    op.process_element(2, EventTime(2000), 1, &mut f);
    op.advance_watermark(EventTime(3000), &mut f);
    assert_eq!(sums(&f), vec![(2, 2999, 2)]);
    f.clear();
    for (k, ts) in [(1, 3001), (2, 2400), (2, 2400), (1, 3001), (2, 3900)] {
        assert_eq!(op.process_element(k, EventTime(ts), 1, &mut f), ElementOutcome::Accepted);
    }
    op.advance_watermark(EventTime(6000), &mut f);
    let mut got = sums(&f);
    got.sort();
    let mut want = vec![(2, 3999, 5), (1, 3999, 2), (2, 4999, 4), (1, 4999, 2), (2, 5999, 1), (1, 5999, 2)];
    want.sort();
    assert_eq!(got, want);
    assert_eq!(op.process_element(1, EventTime(3001), 1, &mut f), ElementOutcome::Late);
}

#[test]
fn v_win_6_session_with_lateness() {
    let mut op = WindowOperator::new(WindowSpec::Session { gap_ms: 3000 }, 10);
    let mut f = Vec::new();
    op.process_element(2, EventTime(1000), 1, &mut f);
    op.advance_watermark(EventTime(1999), &mut f);
    op.process_element(2, EventTime(2000), 1, &mut f);
    op.advance_watermark(EventTime(4998), &mut f);
    op.process_element(2, EventTime(4500), 1, &mut f);
    op.process_element(2, EventTime(8500), 1, &mut f);
    op.advance_watermark(EventTime(7400), &mut f);
    op.process_element(2, EventTime(7000), 1, &mut f);
    op.advance_watermark(EventTime(11501), &mut f);
    assert_eq!(f.iter().map(|x| (x.start.ms(), x.end.ms(), x.agg.count)).collect::<Vec<_>>(), vec![(1000, 11500, 5)]);
    f.clear();
    op.process_element(2, EventTime(11600), 1, &mut f);
    op.advance_watermark(EventTime(14600), &mut f);
    assert_eq!(f.iter().map(|x| (x.start.ms(), x.end.ms(), x.agg.count)).collect::<Vec<_>>(), vec![(11600, 14600, 1)]);
    f.clear();
    assert_eq!(op.process_element(2, EventTime(10000), 1, &mut f), ElementOutcome::Accepted);
    assert_eq!(f.iter().map(|x| (x.start.ms(), x.end.ms(), x.agg.count)).collect::<Vec<_>>(), vec![(10000, 14600, 2)]);
    f.clear();
    op.process_element(2, EventTime(14500), 1, &mut f);
    assert!(f.is_empty());
    op.advance_watermark(EventTime(20000), &mut f);
    assert_eq!(f.iter().map(|x| (x.start.ms(), x.end.ms(), x.agg.count)).collect::<Vec<_>>(), vec![(10000, 17500, 3)]);
}

#[test]
fn v_win_4_session_zero_lateness_side_output() {
    let mut op = WindowOperator::new(WindowSpec::Session { gap_ms: 3000 }, 0);
    let mut f = Vec::new();
    for (ts, wm) in [(1000, Some(1999)), (2000, Some(4998)), (4500, None), (8500, Some(7400)), (7000, Some(11501))] {
        op.process_element(2, EventTime(ts), 1, &mut f);
        if let Some(w) = wm {
            op.advance_watermark(EventTime(w), &mut f);
        }
    }
    assert_eq!(f.iter().map(|x| (x.start.ms(), x.end.ms(), x.agg.count)).collect::<Vec<_>>(), vec![(1000, 11500, 5)]);
    f.clear();
    op.process_element(2, EventTime(11600), 1, &mut f);
    op.advance_watermark(EventTime(14600), &mut f);
    assert_eq!(op.process_element(2, EventTime(10000), 1, &mut f), ElementOutcome::Late);
    assert_eq!(op.process_element(2, EventTime(10100), 1, &mut f), ElementOutcome::Late);
    assert_eq!(op.process_element(2, EventTime(14500), 1, &mut f), ElementOutcome::Accepted);
    f.clear();
    op.advance_watermark(EventTime(20000), &mut f);
    assert_eq!(f.iter().map(|x| (x.start.ms(), x.end.ms(), x.agg.count)).collect::<Vec<_>>(), vec![(14500, 17500, 1)]);
}

#[test]
fn v_win_9_cleanup_overflow() {
    let mut op = WindowOperator::new(WindowSpec::Tumbling { size_ms: 1000, offset_ms: 0 }, 2000);
    let mut f = Vec::new();
    op.process_element(2, EventTime(i64::MAX - 1750), 1, &mut f);
    op.advance_watermark(EventTime(i64::MAX - 1500), &mut f);
    assert!(f.is_empty());
    assert_eq!(op.state_size(), 1);
    op.advance_watermark(EventTime(9223372036854774999), &mut f);
    assert_eq!(f.len(), 1);
    assert_eq!((f[0].end - 1).ms(), 9223372036854774999);
    assert_eq!(op.state_size(), 1, "never cleaned: cleanup time overflowed");
}

#[test]
fn v_win_10_no_window() {
    let mut op = WindowOperator::new(WindowSpec::Sliding { size_ms: 1000, slide_ms: 3000, offset_ms: 0 }, 0);
    let mut f = Vec::new();
    assert_eq!(op.process_element(0, EventTime(1500), 1, &mut f), ElementOutcome::NoWindow);
    op.advance_watermark(EventTime(2000), &mut f);
    assert_eq!(op.process_element(0, EventTime(1500), 1, &mut f), ElementOutcome::Late);
}
