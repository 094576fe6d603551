//! Identifiers in OpenSearch's shapes: random 22-character base64url UUIDs for indices, nodes and
//! clusters, and 20-character time-based ids for documents indexed without an id.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use rand::RngCore;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

pub fn random_uuid() -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    // Version 4 / variant bits, as Java's UUID-based generator sets them.
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    URL_SAFE_NO_PAD.encode(bytes)
}

static SEQUENCE: AtomicU32 = AtomicU32::new(0);

/// Time first, so ids indexed together share prefixes (better term-dictionary compression).
pub fn time_based_id() -> String {
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let seq = SEQUENCE.fetch_add(1, Ordering::Relaxed) & 0x00ff_ffff;
    let mut bytes = [0u8; 15];
    bytes[0..6].copy_from_slice(&millis.to_be_bytes()[2..8]);
    bytes[6..9].copy_from_slice(&seq.to_be_bytes()[1..4]);
    rand::thread_rng().fill_bytes(&mut bytes[9..15]);
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert_eq!(random_uuid().len(), 22);
        let a = time_based_id();
        let b = time_based_id();
        assert_eq!(a.len(), 20);
        assert_ne!(a, b);
    }
}
