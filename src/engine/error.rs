//! Typed errors for scenario, command and API input. Each names the field path that is wrong
//! and has a kind, which the JS edge turns into the matching JS error class.

use std::fmt;

/// What is wrong with an input, in the three classes JavaScript distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A malformed document, an unknown or missing field, or a state that forbids the call
    /// (JS `Error`).
    Invalid,
    /// A value outside what Flink or the engine accepts (JS `RangeError`).
    Range,
    /// A value of the wrong type (JS `TypeError`).
    Type,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub kind: ErrorKind,
    /// Where the bad value is, e.g. `window.size_ms` or `commands[3].partition`.
    pub path: String,
    pub message: String,
}

impl InputError {
    /// A value out of range: most checks are of this kind.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::of(ErrorKind::Range, path, message)
    }

    /// A malformed input or a call the current state forbids.
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::of(ErrorKind::Invalid, path, message)
    }

    /// A value of the wrong type.
    pub fn type_(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::of(ErrorKind::Type, path, message)
    }

    pub fn of(kind: ErrorKind, path: impl Into<String>, message: impl Into<String>) -> Self {
        InputError { kind, path: path.into(), message: message.into() }
    }

    /// A deserialization error. serde reports its cause only as text, so this is the one place
    /// that reads it: wrong types are `Type`, bad values, fractions and lengths `Range`, the rest (syntax,
    /// unknown or missing fields and variants) `Invalid`.
    pub fn from_serde(path: impl Into<String>, message: impl Into<String>) -> Self {
        let message = plain_types(&one_line(&message.into()));
        // A fraction where a whole number goes is a number out of range, as a JS argument's is.
        let fraction = message.starts_with("invalid type: floating point") && message.contains("expected a whole number");
        let kind = if message.starts_with("invalid type") && !fraction {
            ErrorKind::Type
        } else if fraction || message.starts_with("invalid value") || message.starts_with("invalid length") {
            ErrorKind::Range
        } else {
            ErrorKind::Invalid
        };
        Self::of(kind, path, message)
    }

    /// The same error, one level deeper in a document (`prefix.path`, `prefix[0].path`).
    pub fn within(mut self, prefix: &str) -> Self {
        self.path = join_path(prefix, &self.path);
        self
    }
}

/// serde's "expected i64" in words a scenario's author reads ("expected a whole number"): the
/// Rust type names were all an import error said of what to write.
fn plain_types(message: &str) -> String {
    let Some((head, rust)) = message.rsplit_once("expected ") else { return message.to_string() };
    let negative = head.contains("integer `-");
    // The type's range only where a number was out of it: beside a string it read as the limit
    // ("from 0 to 4,294,967,295" for partitions, whose limit is 100,000).
    let wrong_type = head.contains("invalid type");
    let words = match rust {
        "u8" | "u16" | "u32" | "u64" | "usize" if negative || wrong_type => "a whole number, 0 or more",
        "i32" if wrong_type => "a whole number",
        "i8" | "i16" | "i64" | "isize" => "a whole number",
        "i32" => "a whole number from -2,147,483,648 to 2,147,483,647",
        // serde says "expected u32" of a value too large as of a negative one.
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65,535",
        "u32" => "a whole number from 0 to 4,294,967,295",
        "u64" | "usize" => "a whole number, 0 or more",
        "f32" | "f64" => "a number",
        "a sequence" => "a list ([ … ])",
        "a map" => "an object ({ … })",
        s if s.starts_with("struct ") => "an object ({ … })",
        _ => return message.to_string(),
    };
    format!("{head}expected {words}")
}

/// Longest run of an echoed value kept in a message (serde quotes what it could not read).
const ECHO_MAX: usize = 80;

/// A message as one short line: control characters escaped, and every quoted value (`"…"` or
/// serde's `` `…` ``) cut to [`ECHO_MAX`] characters — an input can make an error echo a 100 MB
/// string or a newline.
pub fn one_line(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(400));
    let (mut quoted, mut run) = (false, 0usize);
    for c in message.chars() {
        if c == '"' || c == '`' {
            quoted = !quoted;
            run = 0;
        } else if quoted {
            run += 1;
            if run > ECHO_MAX {
                if run == ECHO_MAX + 1 {
                    out.push('…');
                }
                continue;
            }
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// Joins a prefix and a sub-path: `a` + `b.c` = `a.b.c`, `a` + `[0].b` = `a[0].b`, `a` + `` = `a`.
pub fn join_path(prefix: &str, path: &str) -> String {
    if prefix.is_empty() {
        path.to_string()
    } else if path.is_empty() || path == "." {
        prefix.to_string()
    } else if path.starts_with('[') {
        format!("{prefix}{path}")
    } else {
        format!("{prefix}.{path}")
    }
}

/// Deserializes a JSON value; errors name `path` + the field path inside it.
pub fn from_value<T: serde::de::DeserializeOwned>(json: serde_json::Value, path: &str) -> Result<T, InputError> {
    crate::engine::value_path::deserialize(&json).map_err(|(at, e)| {
        let inner = leaf_path(&json, &at, &e.to_string());
        InputError::from_serde(join_path(path, &inner), e.to_string())
    })
}

/// An input type from JSON text, in tests: input types read only through `value_path`.
#[cfg(test)]
pub fn read<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, InputError> {
    from_value(serde_json::from_str(text).expect("JSON text"), "")
}

/// The path of a serde error, down to a missing field: serde reports one on the object that
/// lacks it, and the path then names the field.
pub fn leaf_path(doc: &serde_json::Value, path: &str, message: &str) -> String {
    let path = if path == "." { "" } else { path };
    let missing = message.strip_prefix("missing field `").and_then(|rest| rest.split('`').next());
    match (missing, value_at(doc, path)) {
        (Some(field), Some(serde_json::Value::Object(_))) => join_path(path, field),
        _ => path.to_string(),
    }
}

/// The value at a serde path (`a.b[2].c`) in a document.
fn value_at<'a>(doc: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    let mut v = doc;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, indexes) = part.split_once('[').map_or((part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            v = v.get(key)?;
        }
        for i in indexes.split('[').filter(|i| !i.is_empty()) {
            v = v.get(i.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(v)
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", one_line(&self.message))
        } else {
            write!(f, "{}: {}", one_line(&self.path), one_line(&self.message))
        }
    }
}

impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_short_line() {
        let long = format!("invalid type: string \"{}\nx\", expected u32", "a".repeat(10_000));
        let m = one_line(&long);
        assert!(!m.contains('\n') && m.len() < 200, "{m}");
        assert!(m.ends_with("…\", expected u32"), "{m}");
        assert_eq!(one_line("unknown field `windw`"), "unknown field `windw`");
        assert_eq!(one_line("a\tb"), "a\\tb");
    }

    /// The type's range is said of a number out of it, not of a string in its place (where it
    /// read as the field's limit).
    #[test]
    fn a_wrong_type_is_not_given_the_types_range() {
        assert_eq!(
            plain_types("invalid type: string \"x\", expected u32"),
            "invalid type: string \"x\", expected a whole number, 0 or more"
        );
        assert_eq!(
            plain_types("invalid value: integer `5000000000`, expected u32"),
            "invalid value: integer `5000000000`, expected a whole number from 0 to 4,294,967,295"
        );
    }

    /// A fraction in a whole-number field is out of range, as `index_arg`'s is; a number where
    /// a string goes is still of the wrong type.
    #[test]
    fn a_fraction_is_a_range_error() {
        let kind = |m: &str| InputError::from_serde("", m).kind;
        assert_eq!(kind("invalid type: floating point `1.5`, expected u32"), ErrorKind::Range);
        assert_eq!(kind("invalid type: floating point `1.5`, expected i64"), ErrorKind::Range);
        assert_eq!(kind("invalid type: floating point `1.5`, expected a string"), ErrorKind::Type);
        assert_eq!(kind("invalid type: string \"x\", expected u32"), ErrorKind::Type);
    }

    #[test]
    fn the_path_reaches_the_leaf_field_inside_tagged_and_flattened_enums() {
        use crate::engine::scenario::build::parse;
        let sc = |cmd: &str| {
            format!(
                r#"{{"topic": {{"partitions": 1}}, "window": {{"assigner": {{"type": "tumbling", "size_ms": 5}}}}, "commands": [{{"at_ms": 0, {cmd}}}]}}"#
            )
        };
        let path = |cmd: &str| parse(&sc(cmd)).unwrap_err().path;
        assert_eq!(path(r#""command": "silence", "partition": "x""#), "commands[0].partition");
        assert_eq!(path(r#""command": "silence""#), "commands[0].partition");
        assert_eq!(path(r#""command": "silence", "partition": 0, "extra": 1"#), "commands[0].extra");
        assert_eq!(path(r#""command": "set_param", "param": {"name": "bound_ms", "value": "x"}"#), "commands[0].param.value");
        let two = r#"{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": 5}}, "producers": [{"partitions": 0, "kind": "steady", "rate_per_s": "x", "keys": "x"}]}"#;
        assert_eq!(parse(two).unwrap_err().path, "producers[0].keys");
        assert_eq!(
            path(r#""command": "attach_producer", "producer": {"partitions": 0, "kind": "steady"}"#),
            "commands[0].producer.rate_per_s"
        );
        assert_eq!(value_at(&serde_json::json!({"a": [[1, {"b": 2}]]}), "a[0][1].b"), Some(&serde_json::json!(2)));
    }
}
