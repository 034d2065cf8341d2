//! What Rust needs of www/style.css, written once here and tested against it: the phone
//! breakpoint (a media query cannot read a custom property, so the style sheet writes it in
//! each of its phone rules, `measure::phone` asks the same query) and the embed's default
//! height (`api::frame_height` reads the style sheet's `--wmp-embed-height`; this is its
//! fallback). No DOM: the test runs natively.

/// The style sheet's phone breakpoint: its `@media (max-width: 600px)` rules.
pub const PHONE: &str = "(max-width: 600px)";

/// The embed layout's height when nothing sets `--wmp-height` (style.css's
/// `--wmp-embed-height`), should the style sheet not be read.
pub const EMBED_HEIGHT_PX: u32 = 420;

#[cfg(test)]
mod tests {
    const CSS: &str = include_str!("../../www/style.css");

    /// Every `max-width` media query narrower than the header's (760 px) is the phone's, and the
    /// embed's height defaults to the fallback's.
    #[test]
    fn the_style_sheet_says_the_same() {
        let widths: Vec<u32> = CSS
            .lines()
            .filter(|l| l.trim_start().starts_with("@media"))
            .flat_map(|l| l.split("(max-width: ").skip(1))
            .filter_map(|w| w.split_once("px)").and_then(|(n, _)| n.parse().ok()))
            .collect();
        let phone: u32 = super::PHONE.trim_start_matches("(max-width: ").trim_end_matches("px)").parse().unwrap();
        let narrow: Vec<u32> = widths.into_iter().filter(|w| *w < 760).collect();
        assert!(narrow.len() >= 5 && narrow.iter().all(|w| *w == phone), "phone {phone}, the style sheet's {narrow:?}");
        let default = format!("--wmp-embed-height: var(--wmp-height, {}px);", super::EMBED_HEIGHT_PX);
        assert!(CSS.contains(&default), "style.css should declare {default}");
    }
}
