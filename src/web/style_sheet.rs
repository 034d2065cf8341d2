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

    /// The widest viewport a media feature admits: `max-width: 600px` and `width <= 600px` admit
    /// 600 px, `width < 600px` does not, so it is another query than the phone's.
    #[derive(Debug, PartialEq, Eq)]
    struct Below {
        px: u32,
        or_equal: bool,
    }

    /// The upper bounds a media condition puts on the width, however its features are spaced or
    /// written: `(max-width:600px)`, `( max-width : 600px )`, the range syntax `(width < 600px)`,
    /// `(600px > width)`, `(400px <= width <= 600px)`, inside `((…) or (…))`. Lower bounds are
    /// left out. A width feature it cannot read (another unit, `calc()`, `device-width`, one
    /// under `not`, unbalanced brackets) is an error naming it, so that no query escapes the check.
    fn upper_widths(condition: &str) -> Vec<Result<Below, String>> {
        let negated = condition.split(|c: char| !c.is_ascii_alphanumeric() && c != '-').any(|w| w == "not");
        let features = match features(condition) {
            Ok(f) => f,
            Err(e) => return vec![Err(e)],
        };
        let mut bounds = Vec::new();
        for f in features.into_iter().filter(|f| f.contains("width")) {
            match width_bounds(&f) {
                Ok(_) if negated => bounds.push(Err(format!("not … ({f})"))),
                Ok(b) => bounds.extend(b.into_iter().map(Ok)),
                Err(e) => bounds.push(Err(e)),
            }
        }
        bounds
    }

    /// Each bracketed group whose own text (its nested groups left out) is a feature, whole: a
    /// `calc()` stays inside its feature, where it cannot be read.
    fn features(condition: &str) -> Result<Vec<String>, String> {
        let mut open = Vec::new();
        let mut groups = Vec::new();
        for (i, c) in condition.char_indices() {
            match c {
                '(' => open.push(i),
                ')' => groups.push(&condition[open.pop().ok_or_else(|| format!("unbalanced ')' in {}", condition.trim()))? + 1..i]),
                _ => {}
            }
        }
        if !open.is_empty() {
            return Err(format!("unbalanced '(' in {}", condition.trim()));
        }
        let own_text = |g: &str| {
            let mut depth = 0;
            g.chars()
                .filter(|c| {
                    let outside = depth == 0 && !matches!(c, '(' | ')');
                    depth += match c {
                        '(' => 1,
                        ')' => -1,
                        _ => 0,
                    };
                    outside
                })
                .collect::<String>()
        };
        Ok(groups.into_iter().filter(|g| own_text(g).contains("width")).map(|g| g.trim().to_string()).collect())
    }

    /// The upper bounds of one width feature (none for a lower bound).
    fn width_bounds(feature: &str) -> Result<Vec<Below>, String> {
        let unread = || format!("({feature})");
        let px = |v: &str| v.trim().strip_suffix("px").and_then(|n| n.trim_end().parse::<u32>().ok()).ok_or_else(unread);
        if let Some((name, value)) = feature.split_once(':') {
            return match name.trim() {
                "max-width" => Ok(vec![Below { px: px(value)?, or_equal: true }]),
                "min-width" => px(value).map(|_| vec![]),
                _ => Err(unread()),
            };
        }
        // The range syntax: operands between comparison operators, `width` one of them.
        let (mut operands, mut ops) = (vec![String::new()], Vec::new());
        let mut chars = feature.chars().peekable();
        while let Some(c) = chars.next() {
            if matches!(c, '<' | '>' | '=') {
                let or_equal = c != '=' && chars.next_if_eq(&'=').is_some();
                ops.push((c, or_equal));
                operands.push(String::new());
            } else {
                operands.last_mut().expect("one operand at least").push(c);
            }
        }
        let operands: Vec<&str> = operands.iter().map(|o| o.trim()).collect();
        let at = operands.iter().position(|o| *o == "width").filter(|_| (1..=2).contains(&ops.len())).ok_or_else(unread)?;
        let mut bounds = Vec::new();
        for (k, &(op, or_equal)) in ops.iter().enumerate() {
            // `width < v` bounds it from above, as `v > width` does.
            let (width_left, value) = match (k + 1 == at, k == at) {
                (true, _) => (false, operands[k]),
                (_, true) => (true, operands[k + 1]),
                _ => return Err(unread()),
            };
            let px = px(value)?;
            match (op, width_left) {
                ('=', _) => bounds.push(Below { px, or_equal: true }),
                ('<', true) | ('>', false) => bounds.push(Below { px, or_equal }),
                _ => {}
            }
        }
        Ok(bounds)
    }

    /// Every media query narrower than the header's (760 px) admits the phone's widths, and the
    /// embed's height defaults to the fallback's.
    #[test]
    fn the_style_sheet_says_the_same() {
        let phone = match upper_widths(&super::PHONE.to_ascii_lowercase()).as_slice() {
            [Ok(b)] => b.px,
            other => panic!("PHONE should be one max-width in px: {other:?}"),
        };
        let bounds: Result<Vec<Below>, String> = media_conditions(CSS).iter().flat_map(|c| upper_widths(c)).collect();
        let narrow: Vec<Below> = bounds.expect("every width bound readable").into_iter().filter(|b| b.px < 760).collect();
        let same = |b: &Below| *b == Below { px: phone, or_equal: true };
        assert!(narrow.len() >= 5 && narrow.iter().all(same), "phone {phone}, the style sheet's {narrow:?}");
        let default = format!("--wmp-embed-height: var(--wmp-height, {}px);", super::EMBED_HEIGHT_PX);
        assert!(CSS.contains(&default), "style.css should declare {default}");
    }

    /// The table box's own rules are in one place: split in two (its size under "tables", its
    /// grid for the edge shades further up), one read as the whole of it.
    #[test]
    fn the_table_box_is_declared_once() {
        for selector in [".scroll", ".scroll.tall"] {
            let rules = CSS.lines().filter(|l| l.strip_prefix(selector).is_some_and(|r| r.trim_start().starts_with('{'))).count();
            assert_eq!(rules, 1, "{selector} {{ … }} rules in style.css");
        }
    }

    /// A query written without the space, indented, after another rule on its line or in another
    /// unit is read too (only `@media (max-width: ` at a line's start was: a `(max-width:599px)`
    /// rule passed unchecked); a commented-out one is not a rule.
    #[test]
    fn media_queries_are_read_however_they_are_spaced() {
        let css = "a { b: c }\n  @media (max-width:599px) { x {} }\n} @media screen and ( MAX-WIDTH : 760px ), (max-height: 500px) {\n\
                   /* @media (max-width: 1px) {} */ @media (max-width: 40em) {}";
        let found: Vec<_> = media_conditions(css).iter().flat_map(|c| upper_widths(c)).collect();
        let below = |px| Ok(Below { px, or_equal: true });
        assert_eq!(found, vec![below(599), below(760), Err("(max-width: 40em)".into())]);
    }

    /// The range syntax (Media Queries 4) is read too: `(width < 600px)` passed unchecked, as a
    /// query with no `max-width` in it. What cannot be read is named, not left out.
    #[test]
    fn range_syntax_and_what_cannot_be_read() {
        let css = "a{b:c}@media(width<600px){x{}}\n\
                   @media screen and ((width <= 599px) or (height < 500px)) {}\n\
                   @media (400px<width<=760px) {} @media (600PX > width) {} @media (width >= 600px) {}\n\
                   @media (min-width: 1001px) and (max-height: 500px) {} /* @media (width < 1px) {} */\n\
                   @media (width = 500px) {} @media (width < 40em) {} @media (max-width: calc(600px - 1px)) {}\n\
                   @media not all and (max-width: 600px) {} @media (max-device-width: 600px) {} @media (600px < 700px) {}\n\
                   @media ((width < 600px) {}";
        let found: Vec<_> = media_conditions(css).iter().flat_map(|c| upper_widths(c)).collect();
        let below = |px, or_equal| Ok(Below { px, or_equal });
        assert_eq!(
            found,
            vec![
                below(600, false),
                below(599, true),
                below(760, true),
                below(600, false),
                below(500, true),
                Err("(width < 40em)".into()),
                Err("(max-width: calc(600px - 1px))".into()),
                Err("not … (max-width: 600px)".into()),
                Err("(max-device-width: 600px)".into()),
                Err("unbalanced '(' in ((width < 600px)".into()),
            ]
        );
    }
}
