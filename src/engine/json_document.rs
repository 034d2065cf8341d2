//! One JSON text into a `serde_json::Value`, refusing an object that names a key twice.
//!
//! Every input reaches its typed form from a `Value` (`error::from_value`), never straight from
//! text: each type's deserialization code then exists once in the wasm, not once per reader
//! (README "Size and load"). A plain `Value` keeps the last of two equal keys without a word; a
//! scenario that says `"idle_timeout_ms"` twice is a mistake to name, so this reader refuses it.

use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// Parses one JSON document (nothing but whitespace after it). The error is serde_json's, with
/// its line and column; a repeated key is a custom error naming the key.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Strict.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// What a JSON value is, in words for a message about a whole document.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "a list ([ … ])",
        Value::String(_) => "a quoted text",
        Value::Number(_) => "a number",
        Value::Bool(_) => "true or false",
        Value::Object(_) => "an object",
        Value::Null => "null",
    }
}

/// A seed that builds a `Value`, checking each object's keys as it goes.
#[derive(Clone, Copy)]
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_bool<E: Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E: Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E: Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E: Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(self)? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut obj = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if obj.contains_key(&key) {
                return Err(A::Error::custom(format!("duplicate key `{key}`")));
            }
            let v = map.next_value_seed(self)?;
            obj.insert(key, v);
        }
        Ok(Value::Object(obj))
    }
}

#[cfg(test)]
mod tests {
    use super::parse;
    use serde_json::json;

    #[test]
    fn reads_what_serde_json_reads() {
        let text = r#"{"a": [1, -2, 2.5, 18446744073709551615, "x", null, true], "b": {"c": {}}}"#;
        assert_eq!(parse(text).unwrap(), serde_json::from_str::<serde_json::Value>(text).unwrap());
        assert_eq!(parse(" 7 ").unwrap(), json!(7));
    }

    #[test]
    fn refuses_a_repeated_key_at_any_depth() {
        let e = parse("{\"a\": 1,\n \"b\": {\"c\": 1, \"c\": 2}}").unwrap_err().to_string();
        assert!(e.starts_with("duplicate key `c` at line 2"), "{e}");
        assert!(parse(r#"[{"a": 1}, {"a": 2}]"#).is_ok(), "the same key in two objects is fine");
    }

    #[test]
    fn refuses_data_after_the_document() {
        assert!(parse("{} []").unwrap_err().to_string().starts_with("trailing characters"));
    }
}
