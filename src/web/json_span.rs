//! Where a field's value sits in the JSON text a user pasted: the engine's errors name a path
//! (`producers[0].rate_per_s`), and the Import box selects that value, so that the reader does not
//! hunt for it through two thousand characters on a phone (the SQL panel selects its bad token
//! the same way). A small scanner over the text, not a parser: the text was parsed already, and
//! serde keeps no positions. No DOM: tested natively.

use std::ops::Range;

/// Deeper than any scenario: the scan gives up rather than recurse on hostile text.
const MAX_DEPTH: usize = 64;

/// The byte range of the value at `path` in `text` (JSON), if it is there. A path to a missing
/// field (`topic.partitions` when `topic` has none) gives an empty range at its object's start
/// (a caret, not a selection: the next key typed would replace the whole object); the document
/// itself is no place.
pub fn value_span(text: &str, path: &str) -> Option<Range<usize>> {
    let mut scan = Scan { b: text.as_bytes(), i: 0, depth: 0 };
    let mut best = None;
    scan.value("", path, &mut best).ok()?;
    best
}

/// The byte offset of a 1-based line and column (serde's syntax error place).
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// A byte offset of `text` in UTF-16 code units, as a textarea's selection counts.
pub fn utf16_offset(text: &str, byte: usize) -> u32 {
    let byte = byte.min(text.len());
    let cut = (0..=byte).rev().find(|&b| text.is_char_boundary(b)).unwrap_or(0);
    text[..cut].encode_utf16().count() as u32
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
    depth: usize,
}

/// The scan stopped: malformed text, or too deep.
struct Stop;

impl Scan<'_> {
    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), Stop> {
        self.ws();
        if self.b.get(self.i) != Some(&c) {
            return Err(Stop);
        }
        self.i += 1;
        Ok(())
    }

    /// One value at `path`; `best` gets the range of the value at `want`, or of the nearest
    /// object on its way.
    fn value(&mut self, path: &str, want: &str, best: &mut Option<Range<usize>>) -> Result<(), Stop> {
        self.ws();
        let start = self.i;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Stop);
        }
        match self.b.get(self.i).ok_or(Stop)? {
            b'{' => self.object(path, want, best)?,
            b'[' => self.array(path, want, best)?,
            b'"' => drop(self.string()?),
            _ => self.scalar(),
        }
        self.depth -= 1;
        let on_the_way = self.b[start] == b'{' && !path.is_empty() && is_within(want, path);
        if path == want {
            *best = Some(start..self.i);
        } else if on_the_way && best.is_none() {
            *best = Some(start..start);
        }
        Ok(())
    }

    fn object(&mut self, path: &str, want: &str, best: &mut Option<Range<usize>>) -> Result<(), Stop> {
        self.items(b'{', b'}', |scan, _| {
            scan.ws();
            let key = scan.string()?;
            scan.eat(b':')?;
            let child = if path.is_empty() { key } else { format!("{path}.{key}") };
            scan.value(&child, want, best)
        })
    }

    fn array(&mut self, path: &str, want: &str, best: &mut Option<Range<usize>>) -> Result<(), Stop> {
        self.items(b'[', b']', |scan, n| scan.value(&format!("{path}[{n}]"), want, best))
    }

    /// The items of an object or array between `open` and `close`, separated by commas; `item`
    /// reads the `n`th.
    fn items(&mut self, open: u8, close: u8, mut item: impl FnMut(&mut Self, usize) -> Result<(), Stop>) -> Result<(), Stop> {
        self.eat(open)?;
        self.ws();
        if self.b.get(self.i) == Some(&close) {
            self.i += 1;
            return Ok(());
        }
        for n in 0.. {
            item(self, n)?;
            self.ws();
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(&c) if c == close => break,
                _ => return Err(Stop),
            }
        }
        self.i += 1;
        Ok(())
    }

    /// A string, as written between its quotes (escapes kept: keys have none).
    fn string(&mut self) -> Result<String, Stop> {
        self.eat(b'"')?;
        let start = self.i;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'\\' => self.i += 2,
                b'"' => {
                    let s = String::from_utf8_lossy(&self.b[start..self.i]).into_owned();
                    self.i += 1;
                    return Ok(s);
                }
                _ => self.i += 1,
            }
        }
        Err(Stop)
    }

    fn scalar(&mut self) {
        while self.b.get(self.i).is_some_and(|c| !matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }
}

/// Whether `want` lies inside `path` (`topic.partitions` inside `topic`, `a[0].b` inside `a`).
fn is_within(want: &str, path: &str) -> bool {
    path.is_empty() || want.strip_prefix(path).is_some_and(|rest| rest.starts_with(['.', '[']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(text: &'a str, path: &str) -> Option<&'a str> {
        value_span(text, path).map(|r| &text[r])
    }

    const DOC: &str = r#"{
  "name": "a \"quoted\" name",
  "duration_ms": "10s",
  "topic": { "partitions": 4 },
  "producers": [ { "partitions": "all", "rate_per_s": 20 }, { "partitions": [1, 2], "kind": "burst" } ]
}"#;

    #[test]
    fn values_are_found_by_their_path() {
        assert_eq!(at(DOC, "duration_ms"), Some(r#""10s""#));
        assert_eq!(at(DOC, "topic.partitions"), Some("4"));
        assert_eq!(at(DOC, "producers[0].rate_per_s"), Some("20"));
        assert_eq!(at(DOC, "producers[1].partitions"), Some("[1, 2]"));
        assert_eq!(at(DOC, "producers[1].partitions[1]"), Some("2"));
        assert_eq!(at(DOC, "producers[1]"), Some(r#"{ "partitions": [1, 2], "kind": "burst" }"#));
    }

    #[test]
    fn a_missing_field_gives_a_caret_at_its_object() {
        let caret = |path: &str| value_span(DOC, path).map(|r| (r.len(), &DOC[r.start..r.start + 1]));
        assert_eq!(caret("topic.name"), Some((0, "{")));
        assert_eq!(value_span(DOC, "topic.name").map(|r| r.start), DOC.find("{ \"partitions\": 4"));
        assert_eq!(caret("producers[0].keys.count"), Some((0, "{")));
        assert_eq!(value_span(DOC, "window"), None, "not the document itself");
    }

    #[test]
    fn malformed_or_hostile_text_gives_nothing() {
        assert_eq!(value_span(r#"{"a": "#, "a"), None);
        assert_eq!(value_span(r#"{"a" 1}"#, "a"), None);
        let deep = "[".repeat(10_000);
        assert_eq!(value_span(&deep, "x"), None);
    }

    #[test]
    fn places_convert_to_offsets() {
        assert_eq!(offset_of("ab\ncd", 2, 2), 4);
        assert_eq!(offset_of("ab", 9, 9), 2, "within the text");
        let text = "{\"é\": \"😀x\"}";
        let x = text.find('x').unwrap();
        assert_eq!(utf16_offset(text, x), 9, "é is one unit, 😀 two");
    }
}
