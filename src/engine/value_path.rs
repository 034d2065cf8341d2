//! A serde `Deserializer` over a borrowed `serde_json::Value` that remembers where the first
//! error happened: `window.size_ms`, `commands[3].partition`.
//!
//! It does what `serde_path_to_error` over serde_json's `&Value` did, with the same paths, at
//! a fraction of the size: that crate wraps every visitor of every type in a tracking visitor
//! (150 KB of the engine-only wasm); here the one deserializer tracks the path as it descends,
//! so each type's visitor runs unwrapped (README "Size and load"). Only what our inputs need:
//! objects with string keys, arrays, scalars, options, newtypes and externally tagged enums.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Error, Map, Value};
use std::cell::RefCell;

/// Deserializes `T` from `v`; an error comes with the path of the value that caused it, in
/// serde_path_to_error's spelling (`a.b[2].c`, `.` for the document itself).
pub fn deserialize<'a, T: de::Deserialize<'a>>(v: &'a Value) -> Result<T, (String, Error)> {
    let track = Track::default();
    T::deserialize(Node { v, at: &Chain::Root, track: &track }).map_err(|e| (track.path.take().unwrap_or_else(|| ".".into()), e))
}

/// Where a value sits in the document, as a chain of parents on the stack.
enum Chain<'a> {
    Root,
    Index(&'a Chain<'a>, usize),
    Key(&'a Chain<'a>, &'a str),
}

impl Chain<'_> {
    fn path(&self) -> String {
        match self {
            Chain::Root => String::new(),
            Chain::Index(parent, i) => format!("{}[{i}]", parent.path()),
            Chain::Key(Chain::Root, k) => k.to_string(),
            Chain::Key(parent, k) => format!("{}.{k}", parent.path()),
        }
    }
}

/// The path of the first (deepest) error: each level that passes an error up offers its own
/// path, and the first offer is kept.
#[derive(Default)]
struct Track {
    path: RefCell<Option<String>>,
}

impl Track {
    fn at(&self, chain: &Chain, e: Error) -> Error {
        let mut path = self.path.borrow_mut();
        if path.is_none() {
            let p = chain.path();
            *path = Some(if p.is_empty() { ".".into() } else { p });
        }
        e
    }
}

#[derive(Clone, Copy)]
struct Node<'a, 'de> {
    v: &'de Value,
    at: &'a Chain<'a>,
    track: &'a Track,
}

impl<'de> Deserializer<'de> for Node<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let out = match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (None, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => self.seq(items, visitor),
            Value::Object(map) => self.map(map, visitor),
        };
        out.map_err(|e| self.track.at(self.at, e))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
        .map_err(|e| self.track.at(self.at, e))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self).map_err(|e| self.track.at(self.at, e))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let out = match self.v {
            Value::String(s) => visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(s)),
            Value::Object(map) if map.len() == 1 => {
                let (tag, v) = map.iter().next().expect("one entry");
                visitor.visit_enum(Variant { tag, node: self, v })
            }
            Value::Object(_) => Err(de::Error::invalid_value(de::Unexpected::Map, &"map with a single key")),
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        };
        out.map_err(|e| self.track.at(self.at, e))
    }

    /// Only a string names a field or variant: serde's identifiers also take a number (the
    /// variant's index), which serde_json's `Value` refuses and so do we.
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::String(s) => visitor.visit_borrowed_str(s),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
        .map_err(|e| self.track.at(self.at, e))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct
    }
}

impl<'a, 'de: 'a> Node<'a, 'de> {
    fn seq<V: Visitor<'de>>(self, items: &'de [Value], visitor: V) -> Result<V::Value, Error> {
        let mut access = Items { items, next: 0, node: self };
        let out = visitor.visit_seq(&mut access)?;
        if access.next < items.len() {
            return Err(de::Error::invalid_length(items.len(), &"fewer elements in array"));
        }
        Ok(out)
    }

    fn map<V: Visitor<'de>>(self, map: &'de Map<String, Value>, visitor: V) -> Result<V::Value, Error> {
        let mut access = Entries { entries: map.iter(), value: None, node: self };
        let out = visitor.visit_map(&mut access)?;
        if access.entries.next().is_some() {
            return Err(de::Error::invalid_length(map.len(), &"fewer elements in map"));
        }
        Ok(out)
    }

    /// Deserializes a child at `at`, offering `at` for an error that did not say where it was.
    fn child<T: DeserializeSeed<'de>>(self, seed: T, v: &'de Value, at: &Chain<'_>) -> Result<T::Value, Error> {
        seed.deserialize(Node { v, at, track: self.track }).map_err(|e| self.track.at(at, e))
    }
}

/// How serde describes a value it did not expect (as serde_json's `Value` does).
fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => de::Unexpected::Unsigned(u),
            (None, Some(i)) => de::Unexpected::Signed(i),
            _ => de::Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

struct Items<'a, 'de> {
    items: &'de [Value],
    next: usize,
    node: Node<'a, 'de>,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some(v) = self.items.get(self.next) else { return Ok(None) };
        let at = Chain::Index(self.node.at, self.next);
        self.next += 1;
        self.node.child(seed, v, &at).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len() - self.next)
    }
}

struct Entries<'a, 'de> {
    entries: serde_json::map::Iter<'de>,
    value: Option<(&'de str, &'de Value)>,
    node: Node<'a, 'de>,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((k, v)) = self.entries.next() else { return Ok(None) };
        self.value = Some((k, v));
        let key = seed.deserialize(BorrowedStrDeserializer::<Error>::new(k));
        key.map(Some).map_err(|e| self.node.track.at(&Chain::Key(self.node.at, k), e))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        let (k, v) = self.value.take().expect("next_value_seed after next_key_seed");
        self.node.child(seed, v, &Chain::Key(self.node.at, k))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An externally tagged variant, `{"tumbling": {...}}`: its content's path goes through the tag.
struct Variant<'a, 'de> {
    tag: &'de str,
    node: Node<'a, 'de>,
    v: &'de Value,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self), Error> {
        let tag = seed.deserialize(BorrowedStrDeserializer::<Error>::new(self.tag))?;
        Ok((tag, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.v {
            Value::Null => Ok(()),
            other => Err(de::Error::invalid_type(unexpected(other), &"unit variant")),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        self.node.child(seed, self.v, &Chain::Key(self.node.at, self.tag))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        let at = Chain::Key(self.node.at, self.tag);
        Node { v: self.v, at: &at, track: self.node.track }.deserialize_any(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        let at = Chain::Key(self.node.at, self.tag);
        Node { v: self.v, at: &at, track: self.node.track }.deserialize_any(visitor)
    }
}

#[cfg(test)]
#[path = "value_path_tests.rs"]
mod tests;
