//! 8×8 attack tables for chess, built from the piece definitions' atoms, plus magic
//! bitboards for the unlimited orthogonal and diagonal slides.

use std::sync::OnceLock;

#[cfg(test)]
use crate::core::rng::XorShift as Rng;
use crate::core::{piece::slide_targets, Color, Geometry, PieceDef, PieceTables, Square};

use super::pieces::{KING, KNIGHT, PAWN, PIECES};

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

/// A magic candidate: few bits set (the AND of three draws).
#[cfg(test)]
fn sparse(rng: &mut Rng) -> u64 {
    rng.next() & rng.next() & rng.next()
}

#[cfg(test)]
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
            let magic = sparse(rng);
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

/// Magic multipliers, found once by [`find_magics`] with its fixed seed (a test checks that
/// the search still finds exactly these); embedded so start-up does no search.
const ROOK_MAGICS: [u64; 64] = [
    0x0980008011400020,
    0x8340004410002000,
    0x0880200090008268,
    0x0080080080100004,
    0x8100110004020800,
    0x0300010004000822,
    0x08801A0029000080,
    0x8100050001204882,
    0x0844800081400320,
    0x0804402010004000,
    0x0108802003100480,
    0x0004808008001000,
    0x0003001801001014,
    0x0002000200041008,
    0x0004008108042210,
    0x0105000100009042,
    0x0400808000400021,
    0xC100404010002000,
    0x0060008010002088,
    0x0400808008001000,
    0x4440808008000400,
    0x1002008004000280,
    0x40024400300D1248,
    0x0010020000408104,
    0x0101008200204200,
    0x8020002040005000,
    0x4100100080802000,
    0x4008006A80100280,
    0x1020080080040080,
    0x0004010040020040,
    0x0018A12400080290,
    0x6140004200008104,
    0x4000400020800090,
    0x2020002080804000,
    0x0000408202002010,
    0x0080100501000820,
    0x0000800400800800,
    0x000A200408014010,
    0x0100800200800100,
    0xA00800570200008C,
    0x008000406000C010,
    0x1040100028002000,
    0x0048200100110040,
    0x0068490210030020,
    0x1009080005010010,
    0x2142000804010100,
    0x1001080110840002,
    0x1801004400820001,
    0x010440208D020200,
    0x0000400020008080,
    0x0200200080100280,
    0x0000100020090100,
    0x0204008008020480,
    0x8104010040020040,
    0x78000201B0080400,
    0x0040800051002880,
    0x0050108001002041,
    0x208A801100614003,
    0x0006002042089082,
    0x0011090004201001,
    0x1002001004200802,
    0x0005000208040001,
    0x0002002701AC0822,
    0x000010250184004A,
];

const BISHOP_MAGICS: [u64; 64] = [
    0xC0A0012206040EA0,
    0x8010228200420001,
    0x0110008220400400,
    0x02445C0080106000,
    0x0044042004008100,
    0x0880900420408C05,
    0x0201080110080002,
    0x0000108094202000,
    0x0000042002040108,
    0x0000623024110042,
    0x0086100094811002,
    0x0000044502002080,
    0x0100460211400040,
    0x0008109004200004,
    0x0202320084844000,
    0x8040042421041009,
    0x201010C05102008C,
    0x1020888208024080,
    0x0108000C80290200,
    0x8048000420425203,
    0x0005000090402000,
    0x2080400201104100,
    0x8820420111101000,
    0x4AC0302208821802,
    0x000440001002A840,
    0x2002200010041080,
    0x1012080201004400,
    0x8440040002410120,
    0x1090820084010400,
    0x2084852012021000,
    0x12040062C1011003,
    0x02008205E1090080,
    0x088C102808042080,
    0x0802102200904280,
    0x8020209002080020,
    0x2200080800060A00,
    0x20C0004010010100,
    0x0802004100821003,
    0x0008024400008080,
    0x0000840102008090,
    0x0030A40420244007,
    0x0A19084210011282,
    0x0004082090019806,
    0x6108004208020080,
    0x0081200410110100,
    0x1040810701010208,
    0x0282047832012080,
    0x0010020099000020,
    0x000E010422400840,
    0x10204208B0089090,
    0x081004440C048000,
    0x88C0180084040001,
    0x3100020803040080,
    0x890070A041210C00,
    0x0020200101010A09,
    0x0004100240410400,
    0x0006004402080200,
    0x0801062484042000,
    0x00010002D7441004,
    0x0810080000208800,
    0x0000020808030411,
    0x1450001020014440,
    0x004060081081A288,
    0x0044011404108A00,
];

/// Fills the attack table for known magics.
fn use_magics(dirs: &[(i32, i32)], magics: &[u64; 64], attacks: &mut Vec<u64>) -> Vec<Magic> {
    let mut out = Vec::with_capacity(64);
    for (sq, &magic) in magics.iter().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let offset = attacks.len();
        attacks.resize(offset + (1usize << bits), 0);
        let mut sub = 0u64;
        loop {
            let idx = (sub.wrapping_mul(magic) >> shift) as usize;
            let a = slow_slides(sq, sub, dirs);
            debug_assert!(attacks[offset + idx] == 0 || attacks[offset + idx] == a);
            attacks[offset + idx] = a;
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        out.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    out
}

impl Tables {
    fn build() -> Tables {
        let knight = leap_table(&PIECES[KNIGHT as usize], Color::White);
        let king = leap_table(&PIECES[KING as usize], Color::White);
        let pawn_attacks = [
            leap_table(&PIECES[PAWN as usize], Color::White),
            leap_table(&PIECES[PAWN as usize], Color::Black),
        ];
        let mut attacks = Vec::new();
        let rook = use_magics(&ROOK_DIRS, &ROOK_MAGICS, &mut attacks);
        let bishop = use_magics(&BISHOP_DIRS, &BISHOP_MAGICS, &mut attacks);
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
    fn embedded_magics_come_from_the_seeded_search() {
        let mut attacks = Vec::new();
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let rook = find_magics(&ROOK_DIRS, &mut attacks, &mut rng);
        let bishop = find_magics(&BISHOP_DIRS, &mut attacks, &mut rng);
        let r: Vec<u64> = rook.iter().map(|m| m.magic).collect();
        let b: Vec<u64> = bishop.iter().map(|m| m.magic).collect();
        assert_eq!(r, ROOK_MAGICS.to_vec());
        assert_eq!(b, BISHOP_MAGICS.to_vec());
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
