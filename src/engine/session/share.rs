//! Share strings: `wmp1.` followed by the scenario's compact JSON in unpadded base64url
//! (RFC 4648 §5). Deterministic: the same scenario always gives the same string, and it is
//! safe in a URL fragment or query without escaping. The page's link state (`#s=2.…`,
//! [`super::link_state`]) uses the same base64url.

use crate::engine::error::InputError;

pub const PREFIX: &str = "wmp1.";
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Encodes scenario JSON text as a share string.
pub fn encode(json: &str) -> String {
    format!("{PREFIX}{}", base64url(json.as_bytes()))
}

/// Bytes as unpadded base64url (also the body of the link state, `link_state`).
pub fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn value(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'-' => Some(62),
        b'_' => Some(63),
        _ => None,
    }
}

/// Whether `s` looks like a share string (has the prefix).
pub fn is_share_string(s: &str) -> bool {
    s.trim().starts_with(PREFIX)
}

/// Decodes a share string back to the scenario JSON text.
pub fn decode(s: &str, arg: &str) -> Result<String, InputError> {
    let s = s.trim();
    let body = s.strip_prefix(PREFIX).ok_or_else(|| InputError::new(arg, format!("a share string starts with {PREFIX:?}")))?;
    let out = unbase64url(body, arg)?;
    String::from_utf8(out).map_err(|_| InputError::new(arg, "the share string does not decode to UTF-8 text"))
}

/// The bytes of unpadded (or padded) base64url text; `arg` names it in errors.
pub fn unbase64url(body: &str, arg: &str) -> Result<Vec<u8>, InputError> {
    let body = body.trim_end_matches('=').as_bytes();
    if body.len() % 4 == 1 {
        return Err(InputError::new(arg, "truncated share string (bad length)"));
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    for chunk in body.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = value(c).ok_or_else(|| InputError::new(arg, format!("invalid character {:?} in the share string", c as char)))?;
            n |= v << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    Ok(out)
}
