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

    /// The conditions of every `@media` rule in `css`, comments left out, wherever a rule starts
    /// (indented, or after a `}` on the line of the rule before).
    fn media_conditions(css: &str) -> Vec<String> {
        let mut code = String::new();
        let mut rest = css;
        while let Some((before, after)) = rest.split_once("/*") {
            code.push_str(before);
            rest = after.split_once("*/").map_or("", |(_, tail)| tail);
        }
        code.push_str(rest);
        code.split("@media").skip(1).map(|m| m.split('{').next().unwrap_or("").to_ascii_lowercase()).collect()
    }

    /// The widths of a media condition's `max-width` features, however they are spaced
    /// (`(max-width:600px)`, `( max-width : 600px )`); one in another unit, or unreadable, is an
    /// error naming it, so that no query escapes the check.
    fn max_widths(condition: &str) -> Vec<Result<u32, String>> {
        condition
            .split("max-width")
            .skip(1)
            .map(|feature| {
                let value = feature.trim_start().strip_prefix(':').map(str::trim_start);
                let px = value.and_then(|v| v.split_once("px")).and_then(|(n, _)| n.trim_end().parse().ok());
                px.ok_or_else(|| format!("max-width{}", feature.split(')').next().unwrap_or(feature)))
            })
            .collect()
    }

    /// Every `max-width` media query narrower than the header's (760 px) is the phone's, and the
    /// embed's height defaults to the fallback's.
    #[test]
    fn the_style_sheet_says_the_same() {
        let phone = match max_widths(super::PHONE).as_slice() {
            [Ok(w)] => *w,
            other => panic!("PHONE should be one max-width in px: {other:?}"),
        };
        let widths: Result<Vec<u32>, String> = media_conditions(CSS).iter().flat_map(|c| max_widths(c)).collect();
        let narrow: Vec<u32> = widths.expect("every max-width in px").into_iter().filter(|w| *w < 760).collect();
        assert!(narrow.len() >= 5 && narrow.iter().all(|w| *w == phone), "phone {phone}, the style sheet's {narrow:?}");
        let default = format!("--wmp-embed-height: var(--wmp-height, {}px);", super::EMBED_HEIGHT_PX);
        assert!(CSS.contains(&default), "style.css should declare {default}");
    }

    /// A query written without the space, indented, after another rule on its line or in another
    /// unit is read too (only `@media (max-width: ` at a line's start was: a `(max-width:599px)`
    /// rule passed unchecked); a commented-out one is not a rule.
    #[test]
    fn media_queries_are_read_however_they_are_spaced() {
        let css = "a { b: c }\n  @media (max-width:599px) { x {} }\n} @media screen and ( MAX-WIDTH : 760px ), (max-height: 500px) {\n\
                   /* @media (max-width: 1px) {} */ @media (max-width: 40em) {}";
        let found: Vec<_> = media_conditions(css).iter().flat_map(|c| max_widths(c)).collect();
        assert_eq!(found, vec![Ok(599), Ok(760), Err("max-width: 40em".into())]);
    }
}
