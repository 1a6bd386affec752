//! 8×8 attack tables for chess, built from the piece definitions' atoms, plus magic
//! bitboards for the unlimited orthogonal and diagonal slides.

use std::sync::OnceLock;

use crate::core::{piece::slide_targets, Color, Geometry, PieceDef, PieceTables, Square};

use super::pieces::{chess_pieces, KING, KNIGHT, PAWN};

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

pub struct Tables {
    pub knight: [u64; 64],
    pub king: [u64; 64],
    /// [color][square]: squares a pawn of that colour attacks.
    pub pawn_attacks: [[u64; 64]; 2],
    pub between: Vec<[u64; 64]>,
    pub line: Vec<[u64; 64]>,
    rook: Vec<Magic>,
    bishop: Vec<Magic>,
    attacks: Vec<u64>,
    pub rook_empty: [u64; 64],
    pub bishop_empty: [u64; 64],
}

static TABLES: OnceLock<Tables> = OnceLock::new();

#[inline(always)]
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::build)
}

fn leap_table(def: &PieceDef, color: Color) -> [u64; 64] {
    let t = PieceTables::<u64>::build(def, Geometry::CHESS);
    let mut out = [0u64; 64];
    for (i, o) in out.iter_mut().enumerate() {
        *o = t.leap_capture[color.index()][i];
    }
    out
}

fn slow_slides(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    dirs.iter().fold(0u64, |acc, &(dx, dy)| {
        acc | slide_targets::<u64>(Geometry::CHESS, Square(sq as u8), dx, dy, 0, occ)
    })
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The relevant-occupancy mask: the slide's squares without the last one in each direction.
fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let g = Geometry::CHESS;
    let mut m = 0u64;
    for &(dx, dy) in dirs {
        let mut cur = Square(sq as u8);
        while let Some(n) = g.offset(cur, dx, dy) {
            if g.offset(n, dx, dy).is_none() {
                break;
            }
            m |= 1u64 << n.0;
            cur = n;
        }
    }
    m
}

/// A small xorshift generator with a fixed seed: the magics found are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find_magics(dirs: &[(i32, i32)], attacks: &mut Vec<u64>, rng: &mut Rng) -> Vec<Magic> {
    let mut out = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        let mut occs = Vec::with_capacity(size);
        let mut refs = Vec::with_capacity(size);
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            refs.push(slow_slides(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let offset = attacks.len();
        attacks.resize(offset + size, 0);
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        'search: loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            for i in 0..size {
                let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
                if used[idx] != epoch {
                    used[idx] = epoch;
                    attacks[offset + idx] = refs[i];
                } else if attacks[offset + idx] != refs[i] {
                    continue 'search;
                }
            }
            out.push(Magic {
                mask,
                magic,
                shift,
                offset,
            });
            break;
        }
    }
    out
}

impl Tables {
    fn build() -> Tables {
        let defs = chess_pieces();
        let knight = leap_table(&defs[KNIGHT as usize], Color::White);
        let king = leap_table(&defs[KING as usize], Color::White);
        let pawn_attacks = [
            leap_table(&defs[PAWN as usize], Color::White),
            leap_table(&defs[PAWN as usize], Color::Black),
        ];
        let mut attacks = Vec::new();
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let rook = find_magics(&ROOK_DIRS, &mut attacks, &mut rng);
        let bishop = find_magics(&BISHOP_DIRS, &mut attacks, &mut rng);
        let mut rook_empty = [0u64; 64];
        let mut bishop_empty = [0u64; 64];
        for sq in 0..64 {
            rook_empty[sq] = slow_slides(sq, 0, &ROOK_DIRS);
            bishop_empty[sq] = slow_slides(sq, 0, &BISHOP_DIRS);
        }
        let mut between = vec![[0u64; 64]; 64];
        let mut line = vec![[0u64; 64]; 64];
        for a in 0..64 {
            for b in 0..64 {
                if a == b {
                    continue;
                }
                let bb = 1u64 << b;
                for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                    if slow_slides(a, 0, dirs) & bb != 0 {
                        between[a][b] = slow_slides(a, bb, dirs) & slow_slides(b, 1u64 << a, dirs);
                        line[a][b] =
                            (slow_slides(a, 0, dirs) & slow_slides(b, 0, dirs)) | (1 << a) | bb;
                    }
                }
            }
        }
        Tables {
            knight,
            king,
            pawn_attacks,
            between,
            line,
            rook,
            bishop,
            attacks,
            rook_empty,
            bishop_empty,
        }
    }

    #[inline(always)]
    pub fn rook_attacks(&self, sq: Square, occ: u64) -> u64 {
        let m = &self.rook[sq.index()];
        self.attacks[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }

    #[inline(always)]
    pub fn bishop_attacks(&self, sq: Square, occ: u64) -> u64 {
        let m = &self.bishop[sq.index()];
        self.attacks[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_agree_with_slow_slides() {
        let t = tables();
        let mut rng = Rng(99);
        for _ in 0..2000 {
            let occ = rng.next() & rng.next();
            for sq in 0..64 {
                assert_eq!(
                    t.rook_attacks(Square(sq as u8), occ),
                    slow_slides(sq, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    t.bishop_attacks(Square(sq as u8), occ),
                    slow_slides(sq, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn leapers_from_atoms() {
        let t = tables();
        assert_eq!(t.knight[0], (1 << 10) | (1 << 17));
        assert_eq!(t.king[0].count_ones(), 3);
        assert_eq!(t.pawn_attacks[0][12], (1 << 19) | (1 << 21));
        assert_eq!(t.pawn_attacks[1][12], (1 << 3) | (1 << 5));
        assert_eq!(t.between[0][7], 0b0111_1110);
        assert_eq!(t.between[0][9], 0);
    }
}
