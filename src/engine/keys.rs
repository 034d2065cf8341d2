//! Record keys, interned to dense ids so that hot paths compare integers, not strings.

use super::fingerprint::LookupMap;

/// A dense key id; the string lives in the [`KeyTable`].
pub type KeyId = u32;

/// Interns key strings; ids are assigned in first-seen order, which is deterministic.
#[derive(Clone, Debug, Default)]
pub struct KeyTable {
    names: Vec<String>,
    ids: LookupMap<String, KeyId>,
}

impl KeyTable {
    pub fn intern(&mut self, name: &str) -> KeyId {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as KeyId;
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }
    pub fn name(&self, id: KeyId) -> &str {
        &self.names[id as usize]
    }
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// Java's `String.hashCode()` (over UTF-16 code units), needed for Flink's key-group routing
/// and the Kafka enumerator's start index.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_hash_matches_known_values() {
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("hello"), 99_162_322);
        assert_eq!(
            java_string_hash("clickstream"),
            "clickstream".encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
        );
    }
}
