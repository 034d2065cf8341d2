//! Flink's 32-hex ids for a simulated job, derived from the scenario so the same scenario always
//! gets the same ids (a script or a Prometheus series keeps its identity across runs).
//!
//! Flink's `JobID` is random and its `JobVertexID` a 128-bit murmur3 hash of the stream node and
//! its position (`StreamGraphHasherV2`); here both are 128-bit FNV-1a hashes: the job's of its
//! name, a vertex's of the job name, the vertex's position and its name, an operator's of its
//! vertex id and name. Same shape (32 lowercase hex digits), same stability, not Flink's values.

use crate::engine::fingerprint::Fnv1a;

/// 32 lowercase hex digits hashing `parts` (two 64-bit FNV-1a lanes, seeded apart).
pub fn hex_id(parts: &[&[u8]]) -> String {
    let lane = |seed: &[u8]| {
        let mut h = Fnv1a::default();
        h.add_bytes(seed);
        for p in parts {
            h.add_bytes(p);
        }
        h.value()
    };
    format!("{:016x}{:016x}", lane(b"wmp-id-hi"), lane(b"wmp-id-lo"))
}

pub fn job_id(job_name: &str) -> String {
    hex_id(&[b"job", job_name.as_bytes()])
}

pub fn vertex_id(job_name: &str, position: usize, vertex_name: &str) -> String {
    hex_id(&[b"vertex", job_name.as_bytes(), &(position as u64).to_le_bytes(), vertex_name.as_bytes()])
}

pub fn operator_id(vertex_id: &str, operator_name: &str) -> String {
    hex_id(&[b"operator", vertex_id.as_bytes(), operator_name.as_bytes()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_32_hex_stable_and_distinct() {
        let a = vertex_id("job", 0, "Source: clickstream");
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_eq!(a, vertex_id("job", 0, "Source: clickstream"));
        assert_ne!(a, vertex_id("job", 1, "Source: clickstream"));
        assert_ne!(a, vertex_id("job2", 0, "Source: clickstream"));
        assert_ne!(job_id("job"), job_id("job2"));
    }
}
