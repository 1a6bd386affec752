//! The chess network: a small efficiently-updatable network (768 → 2×[`HIDDEN`] → 1) whose
//! output is added to the hand-made table's evaluation of a chess position, trained on the
//! engine's own self-play positions to correct what the table misses (`cellmate datagen`,
//! `cellmate nnue-train`; docs/strength.md, "The chess network").
//!
//! Inputs: one per (piece colour relative to the perspective, piece type, square), the square
//! flipped for Black's perspective, so both sides see the board from their own first rank.
//! Each perspective sums the rows of its active inputs into an accumulator of [`HIDDEN`]
//! values; the output layer reads the side to move's accumulator, then the other's, through
//! the squared clipped ReLU. Weights are integers: the first layer scaled by [`QA`], the
//! output by [`QB`]; the output times [`SCALE`] is centipawns on the evaluation's own scale
//! (the logistic `σ(cp/SCALE)` is the expected result, the scale the Texel fit found).
//!
//! The file format (little-endian): the magic `CMNN`, `u32` hidden size, then the first
//! layer's weights (`i16`, [`INPUTS`] rows of [`HIDDEN`]), its biases (`i16` × [`HIDDEN`]),
//! the output weights (`i16` × 2·[`HIDDEN`]) and the output bias (`i32`).

use crate::core::{Color, Variant};
use crate::variants::chess::{Chess, KING, PAWN};

/// One accumulator's share of the output: Σ clamp(a, 0, QA)² · w, in eight lanes.
#[inline(always)]
fn half_output(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let mut lanes = [0i32; 8];
    for (a8, w8) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
        for k in 0..8 {
            let c = a8[k].clamp(0, QA as i16);
            lanes[k] = lanes[k].wrapping_add(c.wrapping_mul(w8[k]) as i32 * c as i32);
        }
    }
    lanes.iter().fold(0i32, |s, x| s.wrapping_add(*x))
}

/// [`half_output`] in AVX2 registers: sixteen values a step, `c·w` by `mullo` (it fits an
/// `i16`), then `(c·w)·c` summed in pairs by `madd` into eight `i32` lanes. The same products
/// and the same wrapping sum in another order, so the same integer (tested). The plain form
/// left to the compiler inserted the values one by one (a profile of `bench` put the
/// network's evaluation at 17.6 % of the time, most of it in this layer).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn half_output_avx2(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    assert!(w.len() >= HIDDEN);
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for i in (0..HIDDEN).step_by(16) {
        // SAFETY: i + 16 ≤ HIDDEN ≤ the lengths of `acc` and `w` (asserted); unaligned loads.
        let (a, wv) = unsafe {
            (
                _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i),
                _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i),
            )
        };
        let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
        let t = _mm256_mullo_epi16(c, wv);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(t, c));
    }
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256(sum, 1),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s)
}

/// A thread's last evaluated position: its piece sets (White's six types, then Black's) and
/// the accumulators (White's perspective, Black's) of the network `net`.
struct Cache {
    /// The network's identity (0: none yet).
    net: u64,
    bb: [u64; 12],
    acc: [[i16; HIDDEN]; 2],
}

impl Cache {
    /// No position yet (the first evaluation counts afresh).
    const EMPTY: Cache = Cache {
        net: 0,
        bb: [0; 12],
        acc: [[0; HIDDEN]; 2],
    };
}

thread_local! {
    static CACHE: std::cell::RefCell<Cache> = const { std::cell::RefCell::new(Cache::EMPTY) };
}

/// The piece sets of `pos` in the cache's order: White's six types, then Black's.
fn piece_sets(pos: &Chess) -> [u64; 12] {
    let mut bb = [0u64; 12];
    for (i, color) in Color::BOTH.into_iter().enumerate() {
        for pt in PAWN..=KING {
            bb[i * 6 + pt as usize] = pos.pieces(color, pt);
        }
    }
    bb
}

/// Inputs: 2 colours × 6 types × 64 squares.
pub const INPUTS: usize = 768;
/// The accumulator's width.
pub const HIDDEN: usize = 128;
/// The first layer's quantisation: 1.0 is `QA`, and the clipped ReLU clips at `QA`.
pub const QA: i32 = 255;
/// The output layer's quantisation.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 144;

/// The input of a piece (`color`, `pt`, `sq`, a1 = 0) seen from `persp`.
#[inline(always)]
pub fn feature(persp: Color, color: Color, pt: u8, sq: usize) -> usize {
    let rel = (color != persp) as usize;
    let s = match persp {
        Color::White => sq,
        Color::Black => sq ^ 56,
    };
    (rel * 6 + pt as usize) * 64 + s
}

/// A network's weights, and an identity of its own (each thread's cache of accumulators
/// belongs to one network: see [`Network::evaluate`]).
pub struct Network {
    pub ft_w: Box<[[i16; HIDDEN]; INPUTS]>,
    pub ft_b: [i16; HIDDEN],
    pub out_w: [i16; 2 * HIDDEN],
    pub out_b: i32,
    id: u64,
}

impl PartialEq for Network {
    /// The same weights (whatever the identities).
    fn eq(&self, o: &Network) -> bool {
        self.ft_w == o.ft_w && self.ft_b == o.ft_b && self.out_w == o.out_w && self.out_b == o.out_b
    }
}

impl Eq for Network {}

impl Clone for Network {
    fn clone(&self) -> Network {
        Network::new(self.ft_w.clone(), self.ft_b, self.out_w, self.out_b)
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}→2×{HIDDEN}→1)")
    }
}

/// Why a network file was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum NetError {
    BadMagic,
    Hidden(u32),
    Size { expected: usize, found: usize },
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a cellmate network (no CMNN magic)"),
            NetError::Hidden(h) => write!(f, "hidden size {h}, this build reads {HIDDEN}"),
            NetError::Size { expected, found } => {
                write!(f, "{found} bytes, a network of this size has {expected}")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// Bytes of a network file.
pub const FILE_SIZE: usize = 8 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// The network built into the binary: `chess.nnue` beside this file, trained by `cellmate
/// nnue-train` on `cellmate datagen` positions (docs/strength.md, "The chess network" says
/// which data and commands made it, and what it gains in games).
pub fn builtin() -> &'static Network {
    static NET: std::sync::LazyLock<Network> = std::sync::LazyLock::new(|| {
        Network::from_bytes(include_bytes!("chess.nnue")).expect("the built-in chess network")
    });
    &NET
}

impl Network {
    /// Reads a network file.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        if !b.starts_with(b"CMNN") {
            return Err(NetError::BadMagic);
        }
        if b.len() < 8 {
            return Err(NetError::Size {
                expected: FILE_SIZE,
                found: b.len(),
            });
        }
        let hidden = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
        if hidden as usize != HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        if b.len() != FILE_SIZE {
            return Err(NetError::Size {
                expected: FILE_SIZE,
                found: b.len(),
            });
        }
        let mut at = 8;
        let mut i16s = |n: usize| {
            let v: Vec<i16> = b[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let w = i16s(INPUTS * HIDDEN);
        let fb = i16s(HIDDEN);
        let ow = i16s(2 * HIDDEN);
        let mut ft_w = Box::new([[0i16; HIDDEN]; INPUTS]);
        for (row, chunk) in ft_w.iter_mut().zip(w.chunks_exact(HIDDEN)) {
            row.copy_from_slice(chunk);
        }
        let mut ft_b = [0i16; HIDDEN];
        ft_b.copy_from_slice(&fb);
        let mut out_w = [0i16; 2 * HIDDEN];
        out_w.copy_from_slice(&ow);
        let out_b = i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        Ok(Network::new(ft_w, ft_b, out_w, out_b))
    }

    /// A network of these weights, with an identity no other network has.
    pub fn new(
        ft_w: Box<[[i16; HIDDEN]; INPUTS]>,
        ft_b: [i16; HIDDEN],
        out_w: [i16; 2 * HIDDEN],
        out_b: i32,
    ) -> Network {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Network {
            ft_w,
            ft_b,
            out_w,
            out_b,
            id: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// The file's bytes ([`Network::from_bytes`] reads them back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(FILE_SIZE);
        b.extend_from_slice(b"CMNN");
        b.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for row in self.ft_w.iter() {
            for v in row {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        for v in self.ft_b.iter().chain(self.out_w.iter()) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.out_b.to_le_bytes());
        b
    }

    /// The network's output for `pos` from the side to move's view, centipawns (added to
    /// the table's evaluation).
    ///
    /// Each thread keeps the accumulators of the last position it evaluated: the search's
    /// next position differs from it by a few pieces, whose rows are subtracted and added
    /// (wrapping arithmetic, so the sums are exactly the ones a fresh count gives).
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        let bb = piece_sets(pos);
        let us = pos.side_to_move().index();
        CACHE.with(|cell| {
            let c = &mut *cell.borrow_mut();
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: this CPU has AVX2 (asked just above).
                return unsafe { self.refresh_avx2(c, &bb, us) };
            }
            self.refresh(c, &bb, us)
        })
    }

    /// [`Network::refresh`] compiled for AVX2 (the same integer sums, in wider lanes).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn refresh_avx2(&self, c: &mut Cache, bb: &[u64; 12], us: usize) -> i32 {
        self.sync(c, bb);
        // SAFETY: this function runs only where AVX2 is (its callers ask).
        self.output_by(&c.acc[us], &c.acc[1 - us], |a, w| unsafe {
            half_output_avx2(a, w)
        })
    }

    /// Brings the cache `c` to the piece sets `bb` and returns the output with `us`'s
    /// accumulator first.
    fn refresh(&self, c: &mut Cache, bb: &[u64; 12], us: usize) -> i32 {
        self.sync(c, bb);
        self.output(&c.acc[us], &c.acc[1 - us])
    }

    /// Brings the cache `c` to the piece sets `bb` (or counts afresh when more than 12
    /// pieces differ or the cache belongs to another network).
    #[inline(always)]
    fn sync(&self, c: &mut Cache, bb: &[u64; 12]) {
        let changed: u32 =
            c.bb.iter()
                .zip(bb.iter())
                .map(|(a, b)| (a ^ b).count_ones())
                .sum();
        if c.net != self.id || changed > 12 {
            c.acc = [self.ft_b; 2];
            c.bb = [0; 12];
            c.net = self.id;
        }
        let Cache { bb: old, acc, .. } = c;
        for (k, (o, n)) in old.iter().zip(bb.iter()).enumerate() {
            let (color, pt) = (Color::BOTH[k / 6], (k % 6) as u8);
            self.update(acc, color, pt, o & !n, i16::wrapping_sub);
            self.update(acc, color, pt, n & !o, i16::wrapping_add);
        }
        c.bb = *bb;
    }

    /// Applies `op` (adding or subtracting) to both accumulators with the rows of the pieces
    /// `color`, `pt` on the squares of `squares`.
    #[inline(always)]
    fn update(
        &self,
        acc: &mut [[i16; HIDDEN]; 2],
        color: Color,
        pt: u8,
        mut squares: u64,
        op: fn(i16, i16) -> i16,
    ) {
        while squares != 0 {
            let sq = squares.trailing_zeros() as usize;
            squares &= squares - 1;
            for (p, persp) in Color::BOTH.into_iter().enumerate() {
                let row = &self.ft_w[feature(persp, color, pt, sq)];
                for (a, w) in acc[p].iter_mut().zip(row.iter()) {
                    *a = op(*a, *w);
                }
            }
        }
    }

    /// The output layer over the two accumulators (side to move's first), centipawns: the
    /// plain form, for CPUs without AVX2 and as the reference the AVX2 form is tested against.
    /// c·w fits an i16 (c ≤ QA = 255, |w| ≤ 127: the trainer clips the output weights), and
    /// c·(c·w) an i32.
    #[inline(always)]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        self.output_by(us, them, half_output)
    }

    /// The output layer with `half` computing one accumulator's share of the sum.
    #[inline(always)]
    fn output_by(
        &self,
        us: &[i16; HIDDEN],
        them: &[i16; HIDDEN],
        half: impl Fn(&[i16; HIDDEN], &[i16]) -> i32,
    ) -> i32 {
        let sum = half(us, &self.out_w[..HIDDEN]).wrapping_add(half(them, &self.out_w[HIDDEN..]));
        ((sum / QA + self.out_b) as i64 * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fen::mirror_placement;
    use crate::core::rng::XorShift;
    use crate::core::MoveList;

    /// A network of pseudo-random weights in the ranges the trainer keeps them in.
    fn test_net(seed: u64) -> Network {
        let mut rng = XorShift(seed);
        let mut v = |range: i64| (rng.next() % (2 * range as u64 + 1)) as i64 - range;
        let mut net = Network::new(
            Box::new([[0; HIDDEN]; INPUTS]),
            [0; HIDDEN],
            [0; 2 * HIDDEN],
            v(5000) as i32,
        );
        for row in net.ft_w.iter_mut() {
            for w in row.iter_mut() {
                *w = v(40) as i16;
            }
        }
        for b in net.ft_b.iter_mut() {
            *b = v(200) as i16;
        }
        for w in net.out_w.iter_mut() {
            *w = v(127) as i16;
        }
        net
    }

    /// The evaluation counted afresh, without the thread's cache.
    fn fresh(net: &Network, pos: &Chess) -> i32 {
        let mut acc = [net.ft_b; 2];
        for color in Color::BOTH {
            for pt in PAWN..=KING {
                let mut bb = pos.pieces(color, pt);
                while bb != 0 {
                    let sq = bb.trailing_zeros() as usize;
                    bb &= bb - 1;
                    for (p, persp) in Color::BOTH.into_iter().enumerate() {
                        for (a, w) in acc[p]
                            .iter_mut()
                            .zip(net.ft_w[feature(persp, color, pt, sq)])
                        {
                            *a = a.wrapping_add(w);
                        }
                    }
                }
            }
        }
        let us = pos.side_to_move().index();
        net.output(&acc[us], &acc[1 - us])
    }

    /// The output layer in AVX2 gives the plain form's integer for accumulators over the whole
    /// `i16` range (below zero, inside the clip, beyond `QA`) and every output weight the
    /// trainer keeps (±127).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_output_layer_is_the_plain_one() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut rng = XorShift(7);
        for round in 0..2000 {
            let mut acc = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for (a, x) in acc.iter_mut().zip(w.iter_mut()) {
                *a = match round % 3 {
                    0 => rng.next() as i16,
                    1 => (rng.next() % 300) as i16 - 20,
                    _ => QA as i16,
                };
                *x = (rng.next() % 255) as i16 - 127;
            }
            // SAFETY: AVX2 is present (asked above).
            let fast = unsafe { half_output_avx2(&acc, &w) };
            assert_eq!(fast, half_output(&acc, &w), "round {round}");
        }
    }

    #[test]
    fn the_cached_accumulators_give_the_fresh_count() {
        // Two networks in turn on one thread: each keeps to its own accumulators. A cache
        // of its own follows the same positions through the plain (not AVX2) code, which
        // `evaluate` does not take on a CPU with AVX2.
        let (net, other) = (&test_net(5), &test_net(8));
        let mut plain = Cache::EMPTY;
        let mut rng = XorShift(99);
        let mut list = MoveList::new();
        for game in 0..20 {
            let mut pos = Chess::startpos();
            for ply in 0..(40 + game * 3) {
                let expected = fresh(net, &pos);
                assert_eq!(net.evaluate(&pos), expected, "{}", pos.fen());
                let us = pos.side_to_move().index();
                assert_eq!(net.refresh(&mut plain, &piece_sets(&pos), us), expected);
                if ply % 7 == 0 {
                    assert_eq!(other.evaluate(&pos), fresh(other, &pos), "{}", pos.fen());
                }
                list.clear();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                pos.make_move(list[rng.below(list.len())]);
            }
        }
    }

    #[test]
    fn colours_swapped_and_board_mirrored_is_the_same_position() {
        let net = &test_net(6);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8",
        ] {
            let fields: Vec<&str> = fen.split(' ').collect();
            let stm = if fields[1] == "w" { "b" } else { "w" };
            let mirrored = format!("{} {stm} - - 0 1", mirror_placement(fields[0]));
            let a = net.evaluate(&Chess::from_fen(fen).unwrap());
            let b = net.evaluate(&Chess::from_fen(&mirrored).unwrap());
            assert_eq!(a, b, "{fen} / {mirrored}");
        }
    }

    #[test]
    fn a_file_that_is_not_a_network_is_refused() {
        let net = test_net(7);
        let good = net.to_bytes();
        assert_eq!(good.len(), FILE_SIZE);
        assert!(Network::from_bytes(&good).unwrap() == net);
        // The built-in network is a file of this format (read at its first use).
        assert_eq!(builtin().to_bytes(), include_bytes!("chess.nnue"));
        assert_eq!(Network::from_bytes(b"XXXX"), Err(NetError::BadMagic));
        assert_eq!(Network::from_bytes(b""), Err(NetError::BadMagic));
        assert_eq!(
            Network::from_bytes(b"CMNN"),
            Err(NetError::Size {
                expected: FILE_SIZE,
                found: 4
            })
        );
        let mut other = good.clone();
        other[4] = 64;
        assert_eq!(Network::from_bytes(&other), Err(NetError::Hidden(64)));
        assert_eq!(
            Network::from_bytes(&good[..100]),
            Err(NetError::Size {
                expected: FILE_SIZE,
                found: 100
            })
        );
    }
}
