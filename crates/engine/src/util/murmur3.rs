//! MurmurHash3 x86 32-bit, as OpenSearch hashes a routing value: over the UTF-16 code units of
//! the string, little-endian, seed 0. Same hash ⇒ same shard as OpenSearch for the same id.

pub fn hash_routing(routing: &str) -> i32 {
    let mut bytes = Vec::with_capacity(routing.len() * 2);
    for unit in routing.encode_utf16() {
        bytes.push(unit as u8);
        bytes.push((unit >> 8) as u8);
    }
    murmur3_x86_32(&bytes, 0) as i32
}

pub fn murmur3_x86_32(data: &[u8], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h = seed;
    let mut chunks = data.chunks_exact(4);
    for chunk in &mut chunks {
        let mut k = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let tail = chunks.remainder();
    let mut k = 0u32;
    if tail.len() >= 3 {
        k ^= (tail[2] as u32) << 16;
    }
    if tail.len() >= 2 {
        k ^= (tail[1] as u32) << 8;
    }
    if !tail.is_empty() {
        k ^= tail[0] as u32;
        k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
    }
    h ^= data.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// OpenSearch's default number of routing shards: the largest `shards * 2^k` not above 1024,
/// with at least one split.
pub fn routing_num_shards(num_shards: u32) -> u32 {
    let log2_num = 32 - (num_shards - 1).leading_zeros();
    let splits = (10i64 - log2_num as i64).max(1) as u32;
    num_shards << splits
}

/// The shard a routing value lands on, by OpenSearch's `floorMod(hash, routingShards) / factor`.
pub fn shard_for(routing: &str, num_shards: u32) -> u32 {
    let rns = routing_num_shards(num_shards) as i64;
    let factor = rns / num_shards as i64;
    (((hash_routing(routing) as i64).rem_euclid(rns)) / factor) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_vectors() {
        assert_eq!(murmur3_x86_32(b"", 0), 0);
        assert_eq!(murmur3_x86_32(b"hello", 0), 0x248b_fa47);
        assert_eq!(
            murmur3_x86_32(b"The quick brown fox jumps over the lazy dog", 0),
            0x2e4f_f723
        );
    }

    #[test]
    fn routing_shards_default() {
        assert_eq!(routing_num_shards(1), 1024);
        assert_eq!(routing_num_shards(5), 640);
        assert_eq!(routing_num_shards(1024), 2048);
    }

    #[test]
    fn one_shard_always_zero() {
        for id in ["a", "b", "1", "xyz"] {
            assert_eq!(shard_for(id, 1), 0);
        }
    }

    #[test]
    fn spreads_over_shards() {
        let mut seen = [0u32; 4];
        for i in 0..400 {
            seen[shard_for(&i.to_string(), 4) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
    }
}
