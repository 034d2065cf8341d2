//! A serde `Deserializer` over a borrowed `serde_json::Value` that remembers where the first
//! error happened: `window.size_ms`, `commands[3].partition`.
//!
//! It replaced `serde_path_to_error` over serde_json's `&Value`, with the same path spelling, at
//! a fraction of the size: that crate wraps every visitor of every type in a tracking visitor
//! (150 KB of the engine-only wasm); here the one deserializer tracks the path as it descends,
//! so each type's visitor runs unwrapped (README "Size and load"). Only what our inputs need:
//! objects with string keys, arrays, scalars, options, newtypes, structs (from objects only)
//! and enums.
//!
//! It also reads the layouts that serde's derive reads only through its `Content` buffer
//! (internally and adjacently tagged, untagged, flattened), which cost 32 KB gzipped of the
//! engine-only wasm. A type asks for one by its serde name, and its derive is an externally
//! tagged one (`input_twin!` writes that twin for a type that also serializes):
//!
//! - `$tag:command` — internally tagged: the variant is the object's `command` field and its
//!   fields are the object's other fields (a unit variant takes none: serde's derive let them
//!   through, even with `deny_unknown_fields`);
//! - `$tag:name:value` — adjacently tagged: `{"name": variant, "value": content}`, and no other
//!   field;
//! - `$shape` — untagged, told apart by the JSON type: the variants are named `null`, `bool`,
//!   `number`, `string`, `array`, `object`;
//! - a struct field named `$rest` is flattened: it reads the object's fields that the struct does
//!   not name.
//!
//! Errors then point at the field itself (`commands[3].partition`, not `commands[3]`), and an
//! untagged enum says what it takes instead of "data did not match any variant".

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Error, Map, Value};
use std::cell::RefCell;

/// Deserializes `T` from `v`; an error comes with the path of the value that caused it, in
/// serde_path_to_error's spelling (`a.b[2].c`, `.` for the document itself).
pub fn deserialize<'a, T: de::Deserialize<'a>>(v: &'a Value) -> Result<T, (String, Error)> {
    let track = Track::default();
    T::deserialize(Node { v, at: &Chain::Root, track: &track, hide: &Hidden::NONE })
        .map_err(|e| (track.path.take().unwrap_or_else(|| ".".into()), e))
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

/// Fields of an object that a view of it leaves out: a tag already read, or the fields of the
/// struct around a `$rest`.
struct Hidden<'a> {
    keys: &'a [&'a str],
    outer: Option<&'a Hidden<'a>>,
}

impl<'a> Hidden<'a> {
    const NONE: Hidden<'static> = Hidden { keys: &[], outer: None };

    /// `$rest` itself is never hidden: an input key of that name is an unknown field.
    fn hides(&self, k: &str) -> bool {
        k != REST && (self.keys.contains(&k) || self.outer.is_some_and(|o| o.hides(k)))
    }
}

#[derive(Clone, Copy)]
struct Node<'a, 'de> {
    v: &'de Value,
    at: &'a Chain<'a>,
    track: &'a Track,
    /// For an object: the fields this view does not show.
    hide: &'a Hidden<'a>,
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
            Value::Object(map) => self.map(map, visitor, None),
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

    /// One `EnumAccess` type for every layout, so that each enum's visitor is compiled once.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.access(name, variants).and_then(|a| visitor.visit_enum(a)).map_err(|e| self.track.at(self.at, e))
    }

    /// Only an object is a struct (serde's derive would also take an array, by position).
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.v {
            Value::Object(map) => self.map(map, visitor, fields.contains(&REST).then_some(fields)),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
        .map_err(|e| self.track.at(self.at, e))
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
        unit_struct seq tuple tuple_struct map
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

    fn map<V: Visitor<'de>>(
        self,
        map: &'de Map<String, Value>,
        visitor: V,
        rest: Option<&'static [&'static str]>,
    ) -> Result<V::Value, Error> {
        let mut access = Entries { entries: map.iter(), value: None, node: self, rest };
        let out = visitor.visit_map(&mut access)?;
        if access.next_entry().is_some() {
            return Err(de::Error::invalid_length(map.len(), &"fewer elements in map"));
        }
        Ok(out)
    }

    /// Deserializes a child at `at`, offering `at` for an error that did not say where it was.
    fn child<T: DeserializeSeed<'de>>(self, seed: T, v: &'de Value, at: &Chain<'_>) -> Result<T::Value, Error> {
        seed.deserialize(Node { v, at, track: self.track, hide: &Hidden::NONE }).map_err(|e| self.track.at(at, e))
    }

    /// This view with `hide` (which includes what it hid already).
    fn hiding<'b>(self, hide: &'b Hidden<'b>) -> Node<'b, 'de>
    where
        'a: 'b,
    {
        Node { v: self.v, at: self.at, track: self.track, hide }
    }

    /// The variant and where its content is, for an enum of layout `name` (see the module).
    fn access(self, name: &'static str, variants: &'static [&'static str]) -> Result<Access<'a, 'de>, Error> {
        match (name.strip_prefix("$tag:"), self.v) {
            (Some(keys), Value::Object(map)) => self.tagged(keys, map),
            (Some(keys), other) => Err(de::Error::invalid_type(unexpected(other), &TagExpected(keys))),
            (None, v) if name == "$shape" => match shape(v) {
                s if variants.contains(&s) => Ok(Access { name: s, name_at: None, layout: Layout::Shaped, node: self }),
                _ => Err(de::Error::invalid_type(unexpected(v), &Shapes(variants))),
            },
            (None, Value::String(s)) => Ok(Access { name: s, name_at: None, layout: Layout::Name, node: self }),
            (None, Value::Object(map)) if map.len() == 1 => {
                let (tag, v) = map.iter().next().expect("one entry");
                Ok(Access { name: tag, name_at: None, layout: Layout::External(v), node: self })
            }
            (None, Value::Object(_)) => Err(de::Error::invalid_value(de::Unexpected::Map, &"map with a single key")),
            (None, other) => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }

    /// An internally (`tag`) or adjacently (`tag:content`) tagged enum.
    fn tagged(self, keys: &'static str, map: &'de Map<String, Value>) -> Result<Access<'a, 'de>, Error> {
        let (tag, content) = keys.split_once(':').map_or((keys, None), |(t, c)| (t, Some(c)));
        let (k, v) = map.get_key_value(tag).filter(|(k, _)| !self.hide.hides(k)).ok_or_else(|| de::Error::missing_field(tag))?;
        let Value::String(name) = v else {
            let e = de::Error::invalid_type(unexpected(v), &"variant identifier");
            return Err(self.track.at(&Chain::Key(self.at, k), e));
        };
        let layout = match content {
            None => Layout::Internal(k),
            Some(c) => {
                let known = [tag, c];
                if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str()) && !self.hide.hides(k)) {
                    let e = de::Error::custom(format_args!("unknown field `{k}`, expected `{tag}` or `{c}`"));
                    return Err(self.track.at(&Chain::Key(self.at, k), e));
                }
                Layout::Adjacent(c, map.get_key_value(c))
            }
        };
        Ok(Access { name, name_at: Some(k), layout, node: self })
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

/// The name of a struct field that reads the fields the struct does not name (serde's
/// `flatten`, without its buffer).
const REST: &str = "$rest";

struct Entries<'a, 'de> {
    entries: serde_json::map::Iter<'de>,
    value: Option<(&'de str, &'de Value)>,
    node: Node<'a, 'de>,
    /// For a struct with a `$rest` field: its fields. The others go to `$rest`, last.
    rest: Option<&'static [&'static str]>,
}

impl<'de> Entries<'_, 'de> {
    fn next_entry(&mut self) -> Option<(&'de String, &'de Value)> {
        let (hide, rest) = (self.node.hide, self.rest);
        self.entries.find(|(k, _)| !hide.hides(k) && rest.is_none_or(|fields| *k != REST && fields.contains(&k.as_str())))
    }
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let k = match self.next_entry() {
            Some((k, v)) => {
                self.value = Some((k, v));
                k.as_str()
            }
            None if self.rest.is_some() => REST,
            None => return Ok(None),
        };
        let key = seed.deserialize(BorrowedStrDeserializer::<Error>::new(k));
        key.map(Some).map_err(|e| self.node.track.at(&Chain::Key(self.node.at, k), e))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        if let Some((k, v)) = self.value.take() {
            return self.node.child(seed, v, &Chain::Key(self.node.at, k));
        }
        let fields = self.rest.take().expect("next_value_seed after next_key_seed");
        seed.deserialize(self.node.hiding(&Hidden { keys: fields, outer: Some(self.node.hide) }))
    }

    fn size_hint(&self) -> Option<usize> {
        None
    }
}

/// Where an enum's variant content is.
#[derive(Clone, Copy)]
enum Layout<'de> {
    /// `"variant"`: no content.
    Name,
    /// `{"variant": content}`: its content's path goes through the variant.
    External(&'de Value),
    /// `{"tag": "variant", ...}`: the object's fields other than the tag (its key).
    Internal(&'de str),
    /// `{"tag": "variant", "content": ...}`: the content's key and entry, if present.
    Adjacent(&'static str, Option<(&'de String, &'de Value)>),
    /// Untagged: the whole value.
    Shaped,
}

/// An enum's variant, whatever its layout.
struct Access<'a, 'de> {
    name: &'de str,
    /// The key of the tag that named the variant, for an error in the name.
    name_at: Option<&'de str>,
    layout: Layout<'de>,
    node: Node<'a, 'de>,
}

impl<'de> de::EnumAccess<'de> for Access<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self), Error> {
        let variant = seed.deserialize(BorrowedStrDeserializer::<Error>::new(self.name));
        let node = self.node;
        let variant = variant.map_err(|e| match self.name_at {
            Some(k) => node.track.at(&Chain::Key(node.at, k), e),
            None => e,
        })?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for Access<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        let n = self.node;
        match self.layout {
            Layout::Name | Layout::Shaped | Layout::Adjacent(_, None | Some((_, Value::Null))) => Ok(()),
            Layout::External(Value::Null) => Ok(()),
            Layout::External(v) => Err(de::Error::invalid_type(unexpected(v), &"unit variant")),
            Layout::Adjacent(_, Some((k, v))) => Err(n.track.at(&Chain::Key(n.at, k), de::Error::invalid_type(unexpected(v), &"null"))),
            Layout::Internal(tag) => {
                let hide = Hidden { keys: &[tag], outer: Some(n.hide) };
                match n.v.as_object().and_then(|m| m.keys().find(|k| !hide.hides(k))) {
                    Some(k) => {
                        let e = de::Error::custom(format_args!("unknown field `{k}`: `{}` has no fields", self.name));
                        Err(n.track.at(&Chain::Key(n.at, k), e))
                    }
                    None => Ok(()),
                }
            }
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        let place = self.place("newtype variant")?;
        place.with(self.node, |n| seed.deserialize(n))
    }

    /// Only externally tagged enums have tuple variants among our inputs.
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        let place = self.place("tuple variant")?;
        place.with(self.node, |n| n.deserialize_any(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        let place = self.place("struct variant")?;
        place.with(self.node, |n| n.deserialize_struct("", fields, visitor))
    }
}

impl<'de> Access<'_, 'de> {
    /// Where the variant's content is; worked out once for every kind of variant, so that
    /// what each variant's visitor compiles is one call.
    fn place(&self, expected: &'static str) -> Result<Place<'de>, Error> {
        let n = self.node;
        let (v, key, tag, missing) = match self.layout {
            Layout::Name => return Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &expected)),
            Layout::External(v) => (v, Some(self.name), None, None),
            Layout::Internal(tag) => (n.v, None, Some(tag), None),
            Layout::Adjacent(_, Some((k, v))) => (v, Some(k.as_str()), None, None),
            Layout::Adjacent(c, None) => (&NULL, None, None, Some(c)),
            Layout::Shaped => (n.v, None, None, None),
        };
        Ok(Place { v, key, tag, missing })
    }
}

/// A variant's content: `v`, under `key` (none: the enum's own object), without the field
/// `tag`; `missing`: the adjacent content's key when it was left out.
struct Place<'de> {
    v: &'de Value,
    key: Option<&'de str>,
    tag: Option<&'de str>,
    missing: Option<&'static str>,
}

impl<'de> Place<'de> {
    fn with<R>(self, n: Node<'_, 'de>, f: impl FnOnce(Node<'_, 'de>) -> Result<R, Error>) -> Result<R, Error> {
        let mut slots = Slots::default();
        let node = self.node(n, &mut slots);
        f(node).map_err(|e| self.fail(node, e))
    }

    /// The content's node; what it points into lives in `slots`, on the caller's stack.
    fn node<'s>(&'s self, n: Node<'s, 'de>, slots: &'s mut Slots<'s>) -> Node<'s, 'de> {
        let at: &'s Chain<'s> = match self.key {
            Some(k) => slots.child.insert(Chain::Key(n.at, k)),
            None => n.at,
        };
        let hide: &'s Hidden<'s> = match &self.tag {
            Some(t) => slots.hide.insert(Hidden { keys: std::slice::from_ref(t), outer: Some(n.hide) }),
            None if self.key.is_some() => &Hidden::NONE,
            None => n.hide,
        };
        Node { v: self.v, at, track: n.track, hide }
    }

    fn fail(&self, node: Node<'_, 'de>, e: Error) -> Error {
        match self.missing {
            Some(c) => de::Error::missing_field(c),
            None => node.track.at(node.at, e),
        }
    }
}

#[derive(Default)]
struct Slots<'s> {
    child: Option<Chain<'s>>,
    hide: Option<Hidden<'s>>,
}

/// An adjacent content left out, read as `null` (as serde does: an `Option` is then `None`).
static NULL: Value = Value::Null;

/// The JSON type of a value, as `$shape` variants are named.
fn shape(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// What a `$shape` enum takes, for its error: `a number, an array or an object`.
struct Shapes(&'static [&'static str]);

impl de::Expected for Shapes {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            let sep = if i == 0 {
                ""
            } else if i + 1 == self.0.len() {
                " or "
            } else {
                ", "
            };
            let article = if matches!(s.as_bytes()[0], b'a' | b'o') { "an" } else { "a" };
            write!(f, "{sep}{article} {s}")?;
        }
        Ok(())
    }
}

/// What a tagged enum takes, for its error: ``a map with a `command` field``.
struct TagExpected(&'static str);

impl de::Expected for TagExpected {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a map with a `{}` field", self.0.split(':').next().unwrap_or(self.0))
    }
}

#[cfg(test)]
#[path = "value_path_tests.rs"]
mod tests;
