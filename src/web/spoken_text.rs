//! What of a table cell's text a screen reader hears: its leading mark ("● active", "◌ IDLE",
//! "✕ dropped") is seen only, since the words after it say the same, and a lone "–" or "✓" is
//! heard as "none" or "yes" (a reader said "black circle active", "en dash", "check mark").
//! Apart from `glyphs`, which renders it, so that it is tested natively.

/// The marks a cell's text may start with; the words after them say the same to a reader.
const LEADING_MARKS: [char; 9] = ['●', '◌', '▮', '▸', '◇', '○', '✕', '✗', '‖'];

/// A cell's text as (seen only, seen and heard, heard only).
pub fn split_mark(text: String) -> (String, String, &'static str) {
    match text.as_str() {
        "–" => return (text, String::new(), "none"),
        "✓" => return (text, String::new(), "yes"),
        _ => {}
    }
    match text.chars().next() {
        Some(c) if LEADING_MARKS.contains(&c) => {
            let words = text[c.len_utf8()..].to_string();
            (c.to_string(), words, "")
        }
        _ => (String::new(), text, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::split_mark;

    #[test]
    fn a_leading_mark_is_seen_and_its_words_heard() {
        assert_eq!(split_mark("● active · idle in 3 s".into()), ("●".into(), " active · idle in 3 s".into(), ""));
        assert_eq!(split_mark("✕ dropped".into()), ("✕".into(), " dropped".into(), ""));
        assert_eq!(split_mark("–".into()), ("–".into(), String::new(), "none"));
        assert_eq!(split_mark("released".into()), (String::new(), "released".into(), ""));
    }
}
