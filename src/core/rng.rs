//! A tiny deterministic generator (xorshift64) for seeded searches, tests and openings: the
//! same seed gives the same sequence on every run and machine.

/// Xorshift64 (shifts 13, 7, 17). The seed must not be 0.
#[derive(Clone, Debug)]
pub struct XorShift(pub u64);

impl XorShift {
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
