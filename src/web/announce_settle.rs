//! When the WHY panel's announcer (`explain::WhyAnnouncer`) says a changed verdict: at once, or
//! once the moment shown has settled. No DOM: the clock and the play state come in as
//! arguments, so it compiles natively and its tests run with the engine's.

/// Paused, how long the moment shown must stay put after a change that came quickly.
pub const SETTLE_MS: u64 = 500;

/// When the announced text last changed (never yet: the first is there from the start), and
/// whether it played then.
#[derive(Clone, Copy, Debug)]
pub struct Settle {
    last_change: f64,
    was_playing: bool,
}

impl Settle {
    /// Nothing changed yet; `playing`: whether the job plays as the announcer starts.
    pub fn new(playing: bool) -> Self {
        Settle { last_change: f64::NEG_INFINITY, was_playing: playing }
    }

    /// Whether the text changed at `now` (`first`: the one there from the start) is said at once
    /// or waits [`SETTLE_MS`]. Paused, `N` held steps many times a second, and each step was read
    /// out: a change within SETTLE_MS of the one before waits until the keys settle (the first
    /// is said, and so is the pause: a verdict that changed just before it must not delay it).
    pub fn at_once(&mut self, now: f64, first: bool, playing: bool) -> bool {
        let recent = now - self.last_change < SETTLE_MS as f64;
        if !first {
            self.last_change = now;
        }
        let paused_now = self.was_playing && !playing;
        self.was_playing = playing;
        playing || paused_now || !recent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAUSED: bool = false;
    const PLAYING: bool = true;

    #[test]
    fn the_text_there_from_the_start_is_said_and_counts_as_no_change() {
        let mut s = Settle::new(PAUSED);
        assert!(s.at_once(1_000.0, true, PAUSED));
        // The first change right after it is news, not a key held down.
        assert!(s.at_once(1_010.0, false, PAUSED));
    }

    #[test]
    fn paused_a_change_soon_after_the_last_waits_and_one_after_a_settle_is_said() {
        let mut s = Settle::new(PAUSED);
        assert!(s.at_once(0.0, false, PAUSED));
        // Steps held down: each within SETTLE_MS of the one before waits.
        assert!(!s.at_once(100.0, false, PAUSED));
        assert!(!s.at_once(599.0, false, PAUSED));
        // Measured from the last change, not the last one said: 599 + 499 is still recent.
        assert!(!s.at_once(1_098.0, false, PAUSED));
        // The keys settled for SETTLE_MS: said.
        assert!(s.at_once(1_098.0 + SETTLE_MS as f64, false, PAUSED));
    }

    #[test]
    fn playing_every_change_is_said_at_once_and_still_counts_as_one() {
        let mut s = Settle::new(PLAYING);
        assert!(s.at_once(0.0, true, PLAYING));
        assert!(s.at_once(10.0, false, PLAYING));
        assert!(s.at_once(20.0, false, PLAYING));
        // Paused right after a change while playing: the pause is said, a quick step after it waits.
        let mut s = Settle::new(PLAYING);
        assert!(s.at_once(20.0, false, PLAYING));
        assert!(s.at_once(30.0, false, PAUSED), "the pause itself is said");
        assert!(!s.at_once(40.0, false, PAUSED), "a quick step after the pause waits");
    }

    #[test]
    fn the_pause_is_said_even_right_after_a_change() {
        let mut s = Settle::new(PAUSED);
        assert!(s.at_once(0.0, false, PAUSED));
        assert!(!s.at_once(100.0, false, PAUSED));
        // Playing again, then paused 1 ms after a change: said at once both times.
        assert!(s.at_once(150.0, false, PLAYING));
        assert!(s.at_once(151.0, false, PAUSED));
        // Only the moment it paused: the next quick change waits again.
        assert!(!s.at_once(152.0, false, PAUSED));
    }

    #[test]
    fn a_first_text_while_paused_after_play_is_said_and_leaves_the_clock() {
        // Started playing, the announcer's first run sees it paused: said as the pause.
        let mut s = Settle::new(PLAYING);
        assert!(s.at_once(0.0, true, PAUSED));
        // It did not start the settle clock: the next change is said.
        assert!(s.at_once(1.0, false, PAUSED));
    }
}
