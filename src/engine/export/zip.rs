//! A `.zip` of stored (uncompressed) files: the exported project as one download in the UI.
//! Enough of PKWARE's APPNOTE for every unzip: local headers, the central directory and its
//! end record; no compression, no ZIP64 (the project is far below 4 GiB), a fixed timestamp
//! (1980-01-01 00:00) so the same project gives the same bytes.

/// CRC-32 (IEEE 802.3, reflected, as zip uses it).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// The zip of `files` (path, contents), in that order.
pub fn stored_zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    const DOS_DATE_1980_01_01: u16 = 0x21;
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (path, data) in files {
        let (crc, size, name_len) = (crc32(data), len32(data.len()), len16(path.len()));
        let offset = len32(out.len());
        // Local file header: version 2.0, flag bit 11 (UTF-8 names), method 0 (stored).
        put32(&mut out, 0x0403_4b50);
        for v in [20, 0x0800, 0, 0, DOS_DATE_1980_01_01] {
            put16(&mut out, v);
        }
        for v in [crc, size, size] {
            put32(&mut out, v);
        }
        put16(&mut out, name_len);
        put16(&mut out, 0);
        out.extend_from_slice(path.as_bytes());
        out.extend_from_slice(data);
        // Its central directory entry.
        put32(&mut central, 0x0201_4b50);
        for v in [20, 20, 0x0800, 0, 0, DOS_DATE_1980_01_01] {
            put16(&mut central, v);
        }
        for v in [crc, size, size] {
            put32(&mut central, v);
        }
        for v in [name_len, 0, 0, 0, 0] {
            put16(&mut central, v);
        }
        put32(&mut central, 0);
        put32(&mut central, offset);
        central.extend_from_slice(path.as_bytes());
    }
    let (dir_offset, dir_size, n) = (len32(out.len()), len32(central.len()), len16(files.len()));
    out.extend_from_slice(&central);
    put32(&mut out, 0x0605_4b50);
    for v in [0, 0, n, n] {
        put16(&mut out, v);
    }
    put32(&mut out, dir_size);
    put32(&mut out, dir_offset);
    put16(&mut out, 0);
    out
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn len32(n: usize) -> u32 {
    u32::try_from(n).expect("a zip without ZIP64 holds less than 4 GiB")
}

fn len16(n: usize) -> u16 {
    u16::try_from(n).expect("a zip without ZIP64 holds fewer than 65,536 files and short names")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_is_the_ieee_one() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }
}
