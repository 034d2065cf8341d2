//! Reading what a user pastes, picks or links as a scenario — the JSON from Export, or a
//! `wmp1.` share string — and saying in words what is wrong when it is not one. The engine's
//! errors name the field; these sentences say what the text is, what a scenario is, and what
//! to do ("EOF while parsing a value at line 1 column 0" becomes "Nothing to import"). Both
//! the Import tab and links (`#scenario=`, `?share=`, `#preset=`) use them. No DOM: tested
//! natively.

use crate::engine::error::InputError;
use crate::engine::scenario::schema::Scenario;
use crate::engine::scenario::{build, catalog};
use crate::engine::session::{link_state, share};
use serde_json::error::Category;
use serde_json::Value;

const WHAT_TO_PASTE: &str = "Paste the JSON from Export, a share string (wmp1.…), or choose a .json file.";

/// The scenario in `text` (JSON or a share string), or what is wrong with it in words.
pub fn read_scenario(text: &str) -> Result<Scenario, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(format!("Nothing to import: the text is empty. {WHAT_TO_PASTE}"));
    }
    if t.starts_with(share::PREFIX) {
        return read_share_string(t);
    }
    not_too_deep(t)?;
    build::parse(t).map_err(|e| in_words(t, &e))
}

/// Where in `text` the problem [`read_scenario`] names sits (a byte range), when it has a
/// place: the value of the field it names, or the character a syntax error is at. The Import
/// box selects it.
pub fn problem_place(text: &str) -> Option<std::ops::Range<usize>> {
    let t = text.trim();
    let lead = text.len() - text.trim_start().len();
    if t.starts_with(share::PREFIX) || not_too_deep(t).is_err() {
        return None;
    }
    let r = match serde_json::from_str::<Value>(t) {
        Err(e) if e.classify() == Category::Eof || !t.starts_with(['{', '[']) => return None,
        Err(e) => {
            // serde's column is the offending character's (1-based): select it.
            let at = super::json_span::offset_of(t, e.line(), e.column());
            let at = (0..=at).rev().find(|&b| t.is_char_boundary(b)).unwrap_or(0);
            at..t[at..].chars().next().map_or(at, |c| at + c.len_utf8())
        }
        Ok(_) => {
            let e = build::parse(t).err().filter(|e| !e.path.is_empty())?;
            super::json_span::value_span(t, &e.path)?
        }
    };
    Some(lead + r.start..lead + r.end)
}

/// A `wmp1.` share string's scenario, or why it is damaged or not one.
pub fn read_share_string(s: &str) -> Result<Scenario, String> {
    let s = s.trim();
    if !s.starts_with(share::PREFIX) {
        return Err(format!(
            "This is not a share string: share strings start with “{}”, and this one starts with “{}”.",
            share::PREFIX,
            snippet(s)
        ));
    }
    let json = share::decode(s, "share").map_err(|e| {
        format!(
            "This share string is damaged ({}). Chat apps and e-mail sometimes cut or re-wrap long links: copy the whole link again.",
            e.message
        )
    })?;
    not_too_deep(&json)?;
    build::parse(&json).map_err(|e| format!("This share string holds no valid scenario. {}", in_words(&json, &e)))
}

/// Refuses JSON nested far deeper than any scenario before it is parsed.
fn not_too_deep(text: &str) -> Result<(), String> {
    link_state::check_depth(text, "").map_err(|e| format!("This is not a scenario: {}, far deeper than any scenario.", e.message))
}

/// Why there is no preset `id`, with the ones there are.
/// The lesson a `preset` value names as the picker's own value (`lesson:ID`), if it is one: a
/// link copied from the picker names a lesson, not a preset.
pub fn lesson_in_preset(id: &str) -> Option<&str> {
    id.trim().strip_prefix("lesson:").filter(|l| super::lesson_steps::lessons().iter().any(|x| x.id == *l))
}

pub fn no_preset(id: &str) -> String {
    // An embed cannot open a lesson (the full page opens it, `apply_params`).
    if let Some(lesson) = lesson_in_preset(id) {
        return format!("“{}” is a lesson, not a preset: open it with ?lesson={lesson}.", snippet(id));
    }
    let ids: Vec<&str> = catalog::presets().iter().map(|p| p.id).collect();
    format!("There is no preset “{}”. The presets are: {}.", snippet(id), ids.join(", "))
}

/// The engine's error on `text`, as a sentence about the text.
fn in_words(text: &str, e: &InputError) -> String {
    if text.starts_with('\u{feff}') {
        return format!("This file cannot be read as a scenario: {}.", e.message);
    }
    match serde_json::from_str::<Value>(text) {
        Err(syntax) => not_json(text, &syntax),
        Ok(Value::Object(_)) if e.path.is_empty() => format!("This JSON is not a valid scenario: {}.", e.message),
        Ok(Value::Object(_)) => format!("This JSON is not a valid scenario: the field “{}” is wrong: {}.", e.path, e.message),
        Ok(other) => format!(
            "This is not a scenario: a scenario is a JSON object ({{ … }}) with fields such as \"source\" and \"window\", and this is {}.",
            crate::engine::json_document::kind_of(&other)
        ),
    }
}

/// Text that does not parse as JSON: not JSON at all, cut off, or malformed at a place.
fn not_json(text: &str, err: &serde_json::Error) -> String {
    if !text.starts_with(['{', '[', '"']) {
        return format!(
            "This is not a scenario: a scenario is JSON that starts with “{{”, and this text starts with “{}”. {WHAT_TO_PASTE}",
            snippet(text)
        );
    }
    let (line, column) = (err.line(), err.column());
    if err.classify() == Category::Eof {
        return format!(
            "This scenario is cut off: the JSON ends at line {line}, column {column} before it is complete. Copy the whole text again."
        );
    }
    let cause = err.to_string();
    let cause = cause.split(" at line ").next().unwrap_or_default();
    format!("This is not valid JSON: {cause} at line {line}, column {column}.")
}

/// The start of what the user gave, short enough to quote.
fn snippet(s: &str) -> String {
    let first: String = s.chars().take(24).collect();
    if first.len() < s.len() {
        format!("{first}…")
    } else {
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        read_scenario(text).err().unwrap_or_else(|| panic!("{text:?} was read as a scenario"))
    }

    #[test]
    fn empty_text_says_nothing_to_import() {
        assert!(err("  \n").starts_with("Nothing to import"), "{}", err(""));
    }

    #[test]
    fn text_that_is_not_json_is_quoted_and_named() {
        let e = err("hello world, this is not a scenario at all");
        assert!(e.starts_with("This is not a scenario") && e.contains("“hello world, this is not…”"), "{e}");
    }

    #[test]
    fn cut_off_json_says_where_it_ends() {
        let e = err("{\"source\": {\"partitions\": 2");
        assert!(e.starts_with("This scenario is cut off") && e.contains("line 1"), "{e}");
        assert!(!e.contains("EOF while parsing"), "{e}");
    }

    #[test]
    fn malformed_json_names_the_place() {
        let e = err("{\"source\": 1,, }");
        assert!(e.starts_with("This is not valid JSON") && e.contains("line 1, column"), "{e}");
    }

    #[test]
    fn json_that_is_not_an_object_says_what_it_is() {
        assert!(err("[1, 2]").contains("this is a list"), "{}", err("[1, 2]"));
    }

    #[test]
    fn a_bad_field_is_named() {
        let good = catalog::presets()[0].json;
        assert!(read_scenario(good).is_ok());
        let bad = good.replacen("\"bound_ms\"", "\"bound_mss\"", 1);
        let e = err(&bad);
        assert!(e.starts_with("This JSON is not a valid scenario: the field") && e.contains("bound_mss"), "{e}");
    }

    #[test]
    fn share_strings_are_read_and_damaged_ones_explained() {
        let s = share::encode(catalog::presets()[0].json);
        assert!(read_scenario(&s).is_ok());
        let e = err(&format!("{}#", &s[..s.len() - 3]));
        assert!(e.starts_with("This share string is damaged"), "{e}");
        let e = read_share_string("garbage").unwrap_err();
        assert!(e.starts_with("This is not a share string") && e.contains("“garbage”"), "{e}");
    }

    #[test]
    fn deeply_nested_json_is_refused_in_words() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(err(&deep).contains("nested more than"), "{}", err(&deep));
        let e = read_share_string(&share::encode(&deep)).unwrap_err();
        assert!(e.contains("nested more than"), "{e}");
    }

    #[test]
    fn an_unknown_preset_lists_the_presets() {
        let lesson = super::super::lesson_steps::lessons()[0].id;
        assert_eq!(
            no_preset(&format!("lesson:{lesson}")),
            format!("“lesson:{lesson}” is a lesson, not a preset: open it with ?lesson={lesson}.")
        );
        let e = no_preset("seed-999");
        assert!(e.contains("“seed-999”") && e.contains(catalog::presets()[0].id), "{e}");
    }

    /// What to write, in words: not "expected i64", nor a range up to 9223372036854775807.
    #[test]
    fn types_and_ranges_are_named_in_words() {
        let good: Value = serde_json::from_str(catalog::presets()[0].json).unwrap();
        let with = |ptr: &str, v: Value| {
            let mut w = good.clone();
            *w.pointer_mut(ptr).unwrap() = v;
            err(&w.to_string())
        };
        let e = with("/duration_ms", "10s".into());
        assert!(e.contains("“duration_ms”") && e.ends_with("expected a whole number."), "{e}");
        let e = with("/source/parallelism", (-1).into());
        assert!(e.contains("expected a whole number, 0 or more"), "{e}");
        let e = with("/topic/partitions", (-2).into());
        assert!(e.contains("“topic.partitions”") && e.contains("expected a whole number, 0 or more"), "{e}");
        let e = with("/topic/partitions", 5_000_000_000u64.into());
        assert!(e.contains("expected a whole number from 0 to 4,294,967,295"), "too large: {e}");
        let mut early = good.clone();
        early["start_time_ms"] = i64::MIN.into();
        let e = err(&early.to_string());
        assert!(e.contains("“start_time_ms”") && e.contains("must be between -"), "{e}");
        let mut many: Value = serde_json::from_str(catalog::preset("late-data").unwrap().json).unwrap();
        many["topic"]["partitions"] = 100_000.into();
        let e = err(&many.to_string());
        assert!(e.contains("“topic.partitions”") && e.contains("engine operations"), "the partitions, not the duration: {e}");
    }

    /// The Import box selects what the message names.
    #[test]
    fn the_problem_has_a_place_in_the_text() {
        let good = catalog::presets()[0].json;
        let bad = good.replacen("\"rate_per_s\": 40", "\"rate_per_s\": \"lots\"", 1);
        assert_ne!(bad, good, "the preset has the value the test changes");
        let place = problem_place(&format!("  {bad}")).expect("a place");
        assert_eq!(&format!("  {bad}")[place], "\"lots\"");
        let broken = "{\n  \"a\": 1,\n  \"b\" 2\n}";
        let place = problem_place(broken).expect("a syntax error's place");
        assert_eq!(&broken[place.clone()], "2", "{place:?}");
        assert_eq!(problem_place(good), None, "no problem, no place");
        assert_eq!(problem_place("{\"a\": "), None, "cut off: the end is the place");
    }
}
