//! The transposition table: shared by all search threads, lockless.
//!
//! Each entry is two `AtomicU64`s: `key ^ data` and `data`. A reader accepts an entry only
//! when the two words xor back to its key, so a torn write (two threads storing at once)
//! reads as a miss instead of a wrong move. Buckets of four entries fill one cache line;
//! replacement prefers deep entries of the current search (depth-preferred with aging).

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::core::Move;

use super::score::MATE_BOUND;

/// What a stored score says about the true score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// Nothing stored (empty entry).
    None = 0,
    /// The true score is at most the stored one (fail-low).
    Upper = 1,
    /// The true score is at least the stored one (fail-high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// One probe's answer. `score` is already adjusted to the probing ply.
#[derive(Copy, Clone, Debug)]
pub struct TtHit {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES: usize = 4;
const GEN_BITS: u64 = 6;
const GEN_MASK: u64 = (1 << GEN_BITS) - 1;

#[repr(align(64))]
#[derive(Default)]
struct Bucket([AtomicU64; 2 * ENTRIES]);

/// data layout: move (32) | score as i16 (16) | depth (8) | bound (2) | generation (6).
#[inline(always)]
fn pack(mv: Move, score: i32, depth: i32, bound: Bound, gen: u64) -> u64 {
    (mv.0 as u64)
        | ((score as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | ((gen & GEN_MASK) << 58)
}

#[inline(always)]
fn d_move(d: u64) -> Move {
    Move(d as u32)
}
#[inline(always)]
fn d_score(d: u64) -> i32 {
    (d >> 32) as u16 as i16 as i32
}
#[inline(always)]
fn d_depth(d: u64) -> i32 {
    ((d >> 48) & 0xFF) as i32
}
#[inline(always)]
fn d_bound(d: u64) -> Bound {
    Bound::from_bits(d >> 56)
}
#[inline(always)]
fn d_gen(d: u64) -> u64 {
    (d >> 58) & GEN_MASK
}

/// A mate score as stored: distance from this node, not from the root.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score seen from a node `ply` plies below the root.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Asks Linux to back the reserved (not yet touched) memory of `v` with 2 MB pages where it
/// can (`madvise(MADV_HUGEPAGE)` over the 2 MB-aligned part). Every probe of a big table
/// lands on another 4 KB page, so a miss in the address cache (TLB) came on top of the miss in
/// the data cache; a profile of `bench` put a quarter of the search function's own time on
/// the probe's first load. Only advice: where the kernel has no huge pages (or transparent
/// huge pages are off) the table is what it was.
fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let end = start + v.capacity() * std::mem::size_of::<T>();
        let (a, b) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if a < b {
            // SAFETY: advice on whole pages of memory this vector owns; it changes how the
            // kernel backs the pages, never their contents or mapping.
            unsafe {
                libc::madvise(a as *mut libc::c_void, b - a, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// Hints the CPU to load the cache line of `x` (the table's buckets, the search's
/// evaluation cache).
#[inline(always)]
pub(crate) fn prefetch_line<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(x as *const T as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// The shared table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU64,
    mb: usize,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let mut t = TranspositionTable::empty();
        TranspositionTable::replace(&mut t, mb)
            .unwrap_or_else(|e| panic!("a {mb} MB hash table: {e}"));
        t
    }

    /// Replaces `old` by a table of about `mb` megabytes, or leaves it untouched (entries and
    /// all) when the system refuses the memory. The new table's memory is reserved first
    /// (address space only: nothing is touched yet), then the old table is freed, then the new
    /// one is filled, so the process never holds two tables and never aborts on a size it
    /// cannot have (`Hash 65536` on a 24 GB machine).
    pub fn replace(old: &mut TranspositionTable, mb: usize) -> Result<(), TryReserveError> {
        let n = ((mb.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets.try_reserve_exact(n)?;
        advise_huge_pages(&buckets);
        *old = TranspositionTable::empty();
        buckets.resize_with(n, Bucket::default);
        *old = TranspositionTable {
            buckets,
            generation: AtomicU64::new(0),
            mb,
        };
        Ok(())
    }

    /// A table without a single bucket, only to free the old table before a new one is
    /// allocated (so the process never holds both): replace it before any probe.
    pub fn empty() -> TranspositionTable {
        TranspositionTable {
            buckets: Vec::new(),
            generation: AtomicU64::new(0),
            mb: 0,
        }
    }

    /// The size asked for, in MB.
    pub fn size_mb(&self) -> usize {
        self.mb
    }

    /// Empties every entry.
    pub fn clear(&self) {
        for b in &self.buckets {
            for w in &b.0 {
                w.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries age.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn gen(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & GEN_MASK
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Hints the CPU to load the bucket of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch_line(self.bucket(key));
    }

    /// The entry of `key`, if stored; its score adjusted to `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let b = self.bucket(key);
        for i in 0..ENTRIES {
            let k = b.0[2 * i].load(Ordering::Relaxed);
            let d = b.0[2 * i + 1].load(Ordering::Relaxed);
            if k ^ d == key && d_bound(d) != Bound::None {
                return Some(TtHit {
                    mv: d_move(d),
                    score: score_from_tt(d_score(d), ply),
                    depth: d_depth(d),
                    bound: d_bound(d),
                });
            }
        }
        None
    }

    /// Stores a result. `score` is from the node's view at `ply` (mate scores are rebased).
    /// A `Move::NONE` keeps the move already stored for the same position.
    pub fn store(&self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound, ply: usize) {
        let gen = self.gen();
        let b = self.bucket(key);
        let mut target = 0;
        let mut worst = i32::MAX;
        let mut old = 0u64;
        for i in 0..ENTRIES {
            let k = b.0[2 * i].load(Ordering::Relaxed);
            let d = b.0[2 * i + 1].load(Ordering::Relaxed);
            if k ^ d == key || d_bound(d) == Bound::None {
                target = i;
                old = if k ^ d == key { d } else { 0 };
                break;
            }
            let age = ((gen + 1 + GEN_MASK - d_gen(d)) & GEN_MASK) as i32;
            let value = d_depth(d) - 8 * age;
            if value < worst {
                worst = value;
                target = i;
            }
        }
        let mut mv = mv;
        if old != 0 {
            // Same position: keep a deeper result of this search unless the new one is exact.
            if bound != Bound::Exact && d_gen(old) == gen && depth + 3 < d_depth(old) {
                return;
            }
            if mv.is_none() {
                mv = d_move(old);
            }
        }
        let data = pack(mv, score_to_tt(score, ply), depth, bound, gen);
        b.0[2 * target].store(key ^ data, Ordering::Relaxed);
        b.0[2 * target + 1].store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries used by the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.gen();
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for i in 0..ENTRIES {
                let d = b.0[2 * i + 1].load(Ordering::Relaxed);
                if d_bound(d) != Bound::None && d_gen(d) == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{MoveKind, Square};

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square(12), Square(28), MoveKind::PawnPush);
        tt.store(0xDEAD_BEEF_1234_5678, m, -57, 9, Bound::Lower, 3);
        let hit = tt.probe(0xDEAD_BEEF_1234_5678, 3).expect("stored");
        assert_eq!(hit.mv, m);
        assert_eq!(hit.score, -57);
        assert_eq!(hit.depth, 9);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(tt.probe(0xDEAD_BEEF_1234_5679, 3).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234_5678, 3).is_none());
    }

    #[test]
    fn mate_scores_are_rebased_by_ply() {
        let tt = TranspositionTable::new(1);
        let mate_in_3_plies_from_ply_5 = super::super::score::MATE - 8;
        tt.store(
            42,
            Move::NONE,
            mate_in_3_plies_from_ply_5,
            4,
            Bound::Exact,
            5,
        );
        // Seen from ply 1 the same node is 3 plies from mate: MATE - 4.
        let hit = tt.probe(42, 1).unwrap();
        assert_eq!(hit.score, super::super::score::MATE - 4);
    }

    #[test]
    fn hashfull_counts_this_search() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.store(key, Move::NONE, 0, 1, Bound::Exact, 0);
        }
        assert!(tt.hashfull() > 500, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
