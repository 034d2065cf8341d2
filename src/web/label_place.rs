//! Where a value label goes beside its handle so that it stays off another label: the lesson
//! stage's allowedLateness value sat on "now" on a phone (both under the windows, "now" left of
//! its line). No DOM: the stage estimates the widths, and the test runs natively.

/// A label's extent along x, in px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub left: f64,
    pub right: f64,
}

impl Span {
    fn hits(self, o: Span) -> bool {
        self.left < o.right && o.left < self.right
    }
}

/// How far a label moved beside its handle reaches past the handle's centre: it lies on one
/// side (anchored at its end for the left side, its start for the right) and overlaps the ◆
/// by this much, so that it still reads as the handle's.
const BESIDE: f64 = 8.0;
/// The room left between a label moved clear and the label it avoids.
const GAP: f64 = 3.0;

/// The x and SVG `text-anchor` of a label `w` wide for a handle at `x`, inside `[0, width]` and
/// clear of `avoid`: centred under the handle when it can, else beside it, else just clear of
/// `avoid` on the side nearer the handle. Centred when nothing fits.
pub fn clear_of(x: f64, w: f64, avoid: Span, width: f64) -> (f64, &'static str) {
    let span = |at: f64, anchor: &str| match anchor {
        "end" => Span { left: at - w, right: at },
        "start" => Span { left: at, right: at + w },
        _ => Span { left: at - w / 2.0, right: at + w / 2.0 },
    };
    let near = [(x, "middle"), (x + BESIDE, "end"), (x - BESIDE, "start")];
    let mut clear = [(avoid.left - GAP, "end"), (avoid.right + GAP, "start")];
    let centre = |&(at, anchor): &(f64, &str)| {
        let s = span(at, anchor);
        ((s.left + s.right) / 2.0 - x).abs()
    };
    clear.sort_by(|a, b| centre(a).total_cmp(&centre(b)));
    near.into_iter()
        .chain(clear)
        .find(|&(at, anchor)| {
            let s = span(at, anchor);
            !s.hits(avoid) && s.left >= 0.0 && s.right <= width
        })
        .unwrap_or((x, "middle"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Span = Span { left: 220.0, right: 241.0 };

    #[test]
    fn centred_when_clear_of_it() {
        assert_eq!(clear_of(100.0, 60.0, NOW, 360.0), (100.0, "middle"));
    }

    /// The phone's case: "allowedLateness 3.5 s" (≈ 143 px) under a ◆ at 160 px, "now" at 22 s.
    #[test]
    fn beside_the_handle_away_from_it() {
        assert_eq!(clear_of(160.0, 143.0, NOW, 360.0), (168.0, "end"));
        // Past "now": to the right of the handle.
        assert_eq!(clear_of(250.0, 80.0, NOW, 360.0), (242.0, "start"));
    }

    /// The handle just left of "now": neither centred nor beside it clears it; the label ends
    /// before it.
    #[test]
    fn just_clear_of_it_on_the_nearer_side() {
        assert_eq!(clear_of(215.0, 143.0, NOW, 360.0), (217.0, "end"));
        assert_eq!(clear_of(236.0, 60.0, NOW, 360.0), (244.0, "start"));
    }

    /// Kept inside the stage: at its left edge the label goes right of the handle.
    #[test]
    fn inside_the_stage() {
        assert_eq!(clear_of(30.0, 143.0, Span { left: 300.0, right: 321.0 }, 360.0), (22.0, "start"));
        assert_eq!(clear_of(30.0, 500.0, NOW, 360.0), (30.0, "middle"), "nothing fits");
    }
}
