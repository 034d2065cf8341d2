//! Which views a frame refreshes while playing. Refreshing every view every frame costs more
//! than a frame on a busy page, so each set has its own period: the slow views (tables, WHY
//! panel, preset card) at most every [`SLOW_VIEWS_MS`], the timeline as often but half a period
//! after them, the job graph at most every [`FAST_VIEWS_MS`], and the clock on its own at most
//! every [`CLOCK_MS`]. No frame refreshes two sets: no frame carries both costs.
//!
//! The graph and the slow views each show the verdict (`Reading::same_verdict`) of their own last
//! refresh. When one of them comes to another verdict than the other shows, the other is pulled
//! into the next frame, so that the page names two holders for a frame, not for a period (in
//! union-idle-stream they disagreed for up to 28 frames in a row). A refresh that was itself
//! pulled does not pull in turn: a verdict that flips every frame would make every frame a
//! refresh.
//!
//! Plain Rust over wall times in, decisions out: the rules are tested natively, free of the
//! browser's load (an end-to-end test measured in wall time flaked with other tests running).

/// Minimum wall time between two updates of the slow views while playing.
pub const SLOW_VIEWS_MS: f64 = 250.0;
/// Minimum wall time between two updates of the job graph while playing.
pub const FAST_VIEWS_MS: f64 = 100.0;
/// Minimum wall time between two clock updates while playing. A frame in which nothing on the
/// page changes costs the browser no style, layout, paint or commit; a clock that ticked every
/// frame made every frame pay for all of them (a sixth of the frame rate on a busy page), and
/// its millisecond digits cannot be read at 60 Hz anyway.
pub const CLOCK_MS: f64 = 50.0;
/// A view set's last update time when the other asks for it in the next frame (not the
/// default's "never", `f64::NEG_INFINITY`, so that the first refresh may still pull).
const PULLED: f64 = f64::MIN;

/// What one frame refreshes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// The slow views (and the snapshot and diagnosis they show).
    SlowViews,
    /// The timeline's series.
    Timeline,
    /// The job graph (and the snapshot and diagnosis it shows).
    Graph,
    /// The clock alone.
    Clock,
    /// Nothing: the frame costs the browser nothing.
    Nothing,
}

/// When (wall time, ms) each kind of view was last refreshed while playing.
#[derive(Clone, Copy, Debug)]
pub struct Pacing {
    slow: f64,
    graph: f64,
    timeline: f64,
    clock: f64,
    /// When the "catching up" figure was last shown.
    pub catch_up: f64,
}

impl Default for Pacing {
    fn default() -> Self {
        let never = f64::NEG_INFINITY;
        Pacing { slow: never, graph: never, timeline: never, clock: never, catch_up: never }
    }
}

impl Pacing {
    /// What the frame at wall time `t` refreshes.
    pub fn due(&self, t: f64) -> Due {
        // The timeline runs half a period after the slow views, or when overdue: slow views
        // pulled forward could otherwise keep it from ever running.
        let timeline_due =
            t - self.timeline >= SLOW_VIEWS_MS && (t - self.slow >= SLOW_VIEWS_MS / 2.0 || t - self.timeline >= 2.0 * SLOW_VIEWS_MS);
        if t - self.slow >= SLOW_VIEWS_MS {
            Due::SlowViews
        } else if self.graph == PULLED {
            // Before the timeline: the graph would otherwise name another holder for one more
            // frame.
            Due::Graph
        } else if timeline_due {
            Due::Timeline
        } else if t - self.graph >= FAST_VIEWS_MS {
            Due::Graph
        } else if t - self.clock >= CLOCK_MS {
            Due::Clock
        } else {
            Due::Nothing
        }
    }

    /// Records that the frame at `t` refreshed `due`. `apart`: the graph or slow views it
    /// refreshed now name another verdict than the other set shows, which then follows in the
    /// next frame (unless this refresh was itself pulled).
    pub fn done(&mut self, due: Due, t: f64, apart: bool) {
        match due {
            Due::SlowViews => {
                let pulled = self.slow == PULLED;
                self.slow = t;
                if apart && !pulled {
                    self.graph = PULLED;
                }
            }
            Due::Timeline => self.timeline = t,
            Due::Graph => {
                let pulled = self.graph == PULLED;
                self.graph = t;
                if apart && !pulled {
                    self.slow = PULLED;
                }
            }
            Due::Clock => {}
            Due::Nothing => return,
        }
        self.clock = t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `frames` frames `frame_ms` apart (each stretched by `jitter(i)` ms: a loaded
    /// machine), the verdict at frame `i` and wall time `t` (ms from the start) being
    /// `verdict(i, t)`. Returns what each frame did and, per frame, whether the graph and the
    /// slow views showed different verdicts after it.
    fn play(frames: usize, frame_ms: f64, jitter: impl Fn(usize) -> f64, verdict: impl Fn(usize, f64) -> u32) -> (Vec<Due>, Vec<bool>) {
        let mut pacing = Pacing::default();
        let (mut graph, mut slow) = (None, None);
        let (mut dues, mut apart_after) = (Vec::new(), Vec::new());
        let mut t = 1_000.0;
        for i in 0..frames {
            let due = pacing.due(t);
            let now = Some(verdict(i, t - 1_000.0));
            let apart = match due {
                Due::SlowViews => (slow = now, now != graph).1,
                Due::Graph => (graph = now, now != slow).1,
                _ => false,
            };
            pacing.done(due, t, apart);
            dues.push(due);
            apart_after.push(graph != slow);
            t += frame_ms + jitter(i);
        }
        (dues, apart_after)
    }

    fn longest_run(flags: &[bool]) -> usize {
        flags.split(|f| !f).map(<[bool]>::len).max().unwrap_or(0)
    }

    /// A small deterministic generator (no OS randomness in tests either).
    fn lcg(seed: u64) -> impl Fn(usize) -> u64 {
        move |i| (seed ^ i as u64).wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) >> 33
    }

    #[test]
    fn a_new_verdict_reaches_the_other_view_set_in_the_next_frame() {
        // The culprit changes every 370 ms, between the two sets' refreshes.
        let (_, apart) = play(600, 16.7, |_| 0.0, |_, t| (t / 370.0) as u32);
        assert!(apart.iter().any(|a| *a), "the views refresh apart, so they do disagree for a moment");
        assert_eq!(longest_run(&apart), 1, "one frame at most");
    }

    #[test]
    fn under_load_they_still_disagree_for_one_frame_at_most() {
        // Frames from 17 to 120 ms apart: the old test measured this in wall time and flaked.
        let r = lcg(7);
        let (_, apart) = play(600, 17.0, |i| (r(i) % 104) as f64, |_, t| (t / 370.0) as u32);
        assert_eq!(longest_run(&apart), 1);
    }

    #[test]
    fn the_periods_hold_without_changes_and_most_frames_cost_nothing() {
        let (dues, _) = play(600, 16.7, |_| 0.0, |_, _| 0);
        let count = |d: Due| dues.iter().filter(|x| **x == d).count() as f64;
        let seconds = 600.0 * 16.7 / 1000.0;
        assert!(count(Due::SlowViews) <= seconds * 1000.0 / SLOW_VIEWS_MS + 1.0);
        assert!(count(Due::Graph) <= seconds * 1000.0 / FAST_VIEWS_MS + 1.0);
        assert!(count(Due::Timeline) >= seconds * 1000.0 / SLOW_VIEWS_MS / 2.0, "the timeline runs");
        assert!(count(Due::Nothing) > count(Due::Clock), "most frames cost nothing");
    }

    #[test]
    fn a_verdict_flipping_every_frame_does_not_make_every_frame_a_refresh() {
        // The graph in its own period, and the slow views pulled after each: about a third of
        // the frames (every frame before `PULLED`).
        let (dues, _) = play(600, 16.7, |_| 0.0, |i, _| (i % 2) as u32);
        let refreshes = dues.iter().filter(|d| matches!(d, Due::SlowViews | Due::Graph)).count();
        assert!(refreshes < 600 / 2, "{refreshes} of 600 frames refreshed a view set");
        let timeline = dues.iter().filter(|d| **d == Due::Timeline).count();
        assert!(timeline >= 600 * 17 / 1000 / 2, "the timeline still runs ({timeline} times)");
    }
}
