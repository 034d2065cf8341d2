//! Stable hashing: FNV-1a for trace fingerprints (identical natively and in wasm) and a fast
//! Fx-style hasher for the engine's lookup-only hash maps (never iterated, so order never leaks).

use std::hash::{BuildHasherDefault, Hasher};

/// 64-bit FNV-1a over a sequence of integers, used for the trace hash.
#[derive(Clone, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    pub fn add_i64(&mut self, v: i64) {
        for b in v.to_le_bytes() {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub fn add_bytes(&mut self, bytes: &[u8]) {
        self.add_i64((bytes.len() as u64).cast_signed());
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub fn value(&self) -> u64 {
        self.0
    }
}

/// Fx hasher (rustc's): fast for small integer keys. Only for maps that are never iterated.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64)
    }
    fn write_i64(&mut self, i: i64) {
        self.write_u64(i.cast_unsigned())
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64)
    }
}

/// A lookup-only hash map. Iterating it is forbidden in the engine (order would be arbitrary);
/// `tests/purity.rs` checks that no engine file iterates one.
pub type LookupMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;
