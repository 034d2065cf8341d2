//! Where a UTF-16 offset falls on screen in a monospace, unwrapped text box, in columns: the
//! SQL panel scrolls an error's token into view sideways with it. A tab advances to the next
//! tab stop and a wide (CJK, emoji) character takes two columns, as the browser draws them.

/// The browser's default `tab-size`; the page sets none.
pub const TAB_SIZE: usize = 8;

/// The column of UTF-16 offset `at` on its line, and the widest line's width, both in columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns {
    pub column: usize,
    pub widest: usize,
}

/// Measures `text` in one pass over its characters, copying nothing.
pub fn columns(text: &str, at: u32) -> Columns {
    let (mut units, mut width) = (0usize, 0usize);
    let mut out = Columns { column: 0, widest: 0 };
    let mut found = false;
    for c in text.chars() {
        if !found && units >= at as usize {
            (out.column, found) = (width, true);
        }
        units += c.len_utf16();
        width = match c {
            '\n' => 0,
            '\t' => (width / TAB_SIZE + 1) * TAB_SIZE,
            c if is_wide(c) => width + 2,
            _ => width + 1,
        };
        out.widest = out.widest.max(width);
    }
    if !found {
        out.column = width;
    }
    out
}

/// East Asian wide and fullwidth characters, and the emoji planes: the ranges a monospace
/// font's fallback draws two cells wide (a sketch of Unicode's East Asian Width, enough to land
/// a scroll near the token).
fn is_wide(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 | 0x1F300..=0x1F64F | 0x1F900..=0x1F9FF | 0x20000..=0x3FFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_counts_characters() {
        assert_eq!(columns("SELECT a\nFROM bogus_table", 15), Columns { column: 6, widest: 16 });
    }

    #[test]
    fn a_tab_advances_to_the_next_stop() {
        // "\tx" draws x at column 8, "ab\tx" too.
        assert_eq!(columns("\tx", 1).column, 8);
        assert_eq!(columns("ab\tx", 3).column, 8);
        assert_eq!(columns("ab\tx", 4).widest, 9);
    }

    #[test]
    fn wide_characters_take_two_columns_and_offsets_are_utf16() {
        // '表' is one UTF-16 unit drawn two cells wide; '😀' is two units, two cells.
        assert_eq!(columns("表x", 1).column, 2);
        assert_eq!(columns("😀x", 2).column, 2);
        assert_eq!(columns("-- 注释\nSELECT", 6).widest, 7);
    }

    #[test]
    fn an_offset_past_the_end_is_the_last_column() {
        assert_eq!(columns("abc", 99), Columns { column: 3, widest: 3 });
        assert_eq!(columns("", 0), Columns { column: 0, widest: 0 });
    }
}
