//! How far a CLI flag (`diagnose --at`, `serve --until`) may run a scenario. The engine's work
//! budget names the scenario's `duration_ms` (and, through the JS API's `runUntil`, `atMs`); when
//! the scenario is within budget and only the flag's time is not, the flag is the cause, so the
//! error names it and the furthest time the budget allows.

use wmp::engine::limits::MAX_WORK;
use wmp::engine::scenario::schema::Scenario;
use wmp::engine::session::budget;
use wmp::engine::time::thousands;

/// Checks a run of `sc` to `until_ms` (given as `flag`); the error is one line without the
/// `wmp: ` prefix, naming `file` when the scenario itself is over budget.
pub fn check(sc: &Scenario, until_ms: i64, flag: &str, file: &str) -> Result<(), String> {
    if let Err(e) = budget::check(sc) {
        return Err(format!("{file}: {e}"));
    }
    if budget::check_until(sc, until_ms).is_ok() {
        return Ok(());
    }
    let mut longer = sc.clone();
    longer.duration_ms = until_ms;
    Err(format!(
        "{flag} {until_ms}: running that far asks for about {} engine operations, at most {} here; {flag} {} is about the furthest (the scenario's duration_ms is {})",
        thousands(budget::estimate(&longer).work()),
        thousands(u128::from(MAX_WORK)),
        furthest(sc, until_ms),
        sc.duration_ms
    ))
}

/// The largest time below `over_ms` a run may reach within the budget (the work grows with the
/// time run, so a bisection between the scenario's duration, within it, and `over_ms` finds it).
fn furthest(sc: &Scenario, over_ms: i64) -> i64 {
    let (mut ok, mut over) = (sc.duration_ms.max(0), over_ms);
    // One copy for every step (a scenario's inline records may be large).
    let mut longer = sc.clone();
    while over - ok > 1 {
        let mid = ok + (over - ok) / 2;
        longer.duration_ms = mid;
        if budget::check(&longer).is_ok() {
            ok = mid;
        } else {
            over = mid;
        }
    }
    ok
}
