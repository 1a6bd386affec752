//! Deterministic Zobrist keys: a pure function of what they key, so every run, thread and
//! build hashes a position the same way.

/// SplitMix64: a well-mixed 64-bit function of its input.
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of (domain, a, b, c): domains keep different kinds of state apart.
#[inline]
pub const fn key(domain: u64, a: u64, b: u64, c: u64) -> u64 {
    mix(mix(mix(mix(domain) ^ a) ^ b) ^ c)
}

pub const DOMAIN_PIECE: u64 = 1;
pub const DOMAIN_SIDE: u64 = 2;
pub const DOMAIN_CASTLE: u64 = 3;
pub const DOMAIN_EP: u64 = 4;
pub const DOMAIN_STATE: u64 = 5;
