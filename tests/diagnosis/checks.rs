//! What a finding's `check` sends the user to look at on their real job must exist there.

use super::{cases, kind_name, options, run_to, session};
use std::collections::BTreeSet;

/// No check points at a log line Flink does not write. Seed 002 §4.3 has users set
/// `StatusWatermarkValve` to DEBUG and look for "Marking channel … as idle"; the class has no
/// logger (2.3 as 1.x), so the four findings that said so name metrics and settings instead.
#[test]
fn no_check_points_at_a_log_line_flink_does_not_write() {
    let mut seen = BTreeSet::new();
    let mut failures = Vec::new();
    for (name, case) in cases() {
        let mut s = session(&case);
        run_to(&mut s, case["at_ms"].as_i64().unwrap());
        for f in s.sim().diagnose(&options(&case)).findings {
            seen.insert(kind_name(f.kind));
            if f.check.contains("DEBUG") || f.check.contains("Marking channel") {
                failures.push(format!("{name}: {}: {}", kind_name(f.kind), f.check));
            }
        }
    }
    for kind in ["flapping_partition", "idleness_never_detected", "idle_timeout_below_interval", "channel_not_realigned"] {
        assert!(seen.contains(kind), "no case raises {kind}, whose check said so");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
