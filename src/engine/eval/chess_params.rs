//! The chess evaluation's parameters: one flat table of (middlegame, endgame) pairs, a value
//! the engine holds ([`super::EvalParams`]'s `chess`), laid out by the index constants below.
//! Every term of `chess.rs` but king danger, the mop-up and the pawnless scaling is a count
//! times one of these pairs, so the evaluation is linear in them and `cellmate tune --eval`
//! ([`crate::texel`]) fits them all to game results (the Texel method).
//!
//! Piece-square tables cover half a board: files a–d, with e–h their mirror images
//! ([`half`]), squares counted from the piece's own side.

use crate::variants::chess::TYPES;

/// Squares of a half board (files a–d, mirrored onto e–h).
pub const HALF: usize = 32;

/// Material, by piece type (the king's slot unused).
pub const MATERIAL: usize = 0;
/// Piece-square tables: `PST + type · HALF + half(square)`.
pub const PST: usize = MATERIAL + TYPES;
/// Mobility by the number of squares reached (not own pieces, not attacked by enemy pawns):
/// `MOBILITY + MOB_START[type] + count`.
pub const MOBILITY: usize = PST + TYPES * HALF;
/// Entries of each type's mobility table (counts 0 to the most squares it can reach).
pub const MOB_LEN: [usize; TYPES] = [0, 9, 14, 15, 28, 0];
/// Where each type's mobility table starts, after [`MOBILITY`].
pub const MOB_START: [usize; TYPES] = {
    let mut s = [0; TYPES];
    let mut i = 1;
    while i < TYPES {
        s[i] = s[i - 1] + MOB_LEN[i - 1];
        i += 1;
    }
    s
};
const MOB_TOTAL: usize = MOB_START[TYPES - 1] + MOB_LEN[TYPES - 1];
/// A passed pawn, by its rank from its own side.
pub const PASSED: usize = MOBILITY + MOB_TOTAL;
/// Per square of distance from the enemy king to the passer's stop square, by rank.
pub const PASSED_KING_THEIRS: usize = PASSED + 8;
/// Per square of distance from the own king to the stop square (subtracted), by rank.
pub const PASSED_KING_OURS: usize = PASSED_KING_THEIRS + 8;
/// A passer whose stop square is empty, by rank.
pub const PASSED_FREE: usize = PASSED_KING_OURS + 8;
/// A pawn with an own pawn in front of it on its file (subtracted).
pub const DOUBLED: usize = PASSED_FREE + 8;
/// A pawn without own pawns on the neighbouring files (subtracted).
pub const ISOLATED: usize = DOUBLED + 1;
pub const BISHOP_PAIR: usize = ISOLATED + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// A rook on a file without own pawns but with enemy ones.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// A file beside or of a king on its first two ranks without a shield pawn within two ranks
/// (subtracted).
pub const SHIELD_MISSING: usize = ROOK_SEMI_OPEN + 1;
/// The same file without any own pawn (subtracted, on top).
pub const SHIELD_OPEN: usize = SHIELD_MISSING + 1;
/// A piece but a pawn (and the king) attacked by an enemy pawn.
pub const THREAT_BY_PAWN: usize = SHIELD_OPEN + 1;
/// A rook or queen attacked by a minor piece.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// A queen attacked by a rook.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1;
/// A piece but the king attacked and not defended.
pub const HANGING: usize = THREAT_BY_ROOK + 1;
/// A knight or bishop on an outpost, by type.
pub const OUTPOST: usize = HANGING + 1;
/// A safe check the side can give with a piece of the type, by type.
pub const SAFE_CHECK: usize = OUTPOST + TYPES;
/// The number of pairs.
pub const COUNT: usize = SAFE_CHECK + TYPES;

/// The half-board index of `rsq` (a square seen from its piece's side, a1 = 0).
#[inline(always)]
pub const fn half(rsq: usize) -> usize {
    let f = rsq % 8;
    (rsq / 8) * 4 + if f < 4 { f } else { 7 - f }
}

/// The chess evaluation's parameters (see the module's documentation for the layout), with
/// the tables the evaluation reads most, expanded from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessParams {
    pub v: [(i32, i32); COUNT],
    /// Material plus piece-square value, `[type][square]`, the square seen from the piece's
    /// side.
    pub piece: [[(i32, i32); 64]; TYPES],
    /// Mobility, `[type][count]` (no piece reaches 32 squares).
    pub mobility: [[(i32, i32); 32]; TYPES],
}

impl ChessParams {
    /// The values the engine plays with.
    pub const DEFAULT: ChessParams = ChessParams::new(DEFAULT);

    /// The parameters `v`, with their expanded tables.
    pub const fn new(v: [(i32, i32); COUNT]) -> ChessParams {
        let mut piece = [[(0, 0); 64]; TYPES];
        let mut mobility = [[(0, 0); 32]; TYPES];
        let mut t = 0;
        while t < TYPES {
            let m = v[MATERIAL + t];
            let mut sq = 0;
            while sq < 64 {
                let p = v[PST + t * HALF + half(sq)];
                piece[t][sq] = (m.0 + p.0, m.1 + p.1);
                sq += 1;
            }
            let mut n = 0;
            while n < MOB_LEN[t] {
                mobility[t][n] = v[MOBILITY + MOB_START[t] + n];
                n += 1;
            }
            t += 1;
        }
        ChessParams { v, piece, mobility }
    }
}

/// The values the engine plays with, one row per parameter (written by
/// `cellmate tune --eval --rust`).
#[rustfmt::skip]
const DEFAULT: [(i32, i32); COUNT] = [
    (85, 105), // material pawn
    (325, 300), // material knight
    (335, 315), // material bishop
    (470, 520), // material rook
    (1000, 960), // material queen
    (0, 0), // material king
    (0, 0), // pst pawn a1
    (0, 0), // pst pawn b1
    (0, 0), // pst pawn c1
    (0, 0), // pst pawn d1
    (5, 0), // pst pawn a2
    (5, 0), // pst pawn b2
    (0, 0), // pst pawn c2
    (-10, 0), // pst pawn d2
    (4, 8), // pst pawn a3
    (4, 8), // pst pawn b3
    (9, 8), // pst pawn c3
    (9, 8), // pst pawn d3
    (8, 16), // pst pawn a4
    (8, 16), // pst pawn b4
    (18, 16), // pst pawn c4
    (18, 16), // pst pawn d4
    (12, 24), // pst pawn a5
    (12, 24), // pst pawn b5
    (27, 24), // pst pawn c5
    (27, 24), // pst pawn d5
    (16, 32), // pst pawn a6
    (16, 32), // pst pawn b6
    (31, 32), // pst pawn c6
    (31, 32), // pst pawn d6
    (20, 40), // pst pawn a7
    (20, 40), // pst pawn b7
    (35, 40), // pst pawn c7
    (35, 40), // pst pawn d7
    (0, 0), // pst pawn a8
    (0, 0), // pst pawn b8
    (0, 0), // pst pawn c8
    (0, 0), // pst pawn d8
    (-22, -18), // pst knight a1
    (-15, -12), // pst knight b1
    (-8, -6), // pst knight c1
    (-1, 0), // pst knight d1
    (-15, -12), // pst knight a2
    (-8, -6), // pst knight b2
    (-1, 0), // pst knight c2
    (6, 6), // pst knight d2
    (-8, -6), // pst knight a3
    (-1, 0), // pst knight b3
    (6, 6), // pst knight c3
    (13, 12), // pst knight d3
    (-1, 0), // pst knight a4
    (12, 6), // pst knight b4
    (19, 12), // pst knight c4
    (26, 18), // pst knight d4
    (-1, 0), // pst knight a5
    (12, 6), // pst knight b5
    (19, 12), // pst knight c5
    (26, 18), // pst knight d5
    (-8, -6), // pst knight a6
    (5, 0), // pst knight b6
    (12, 6), // pst knight c6
    (19, 12), // pst knight d6
    (-15, -12), // pst knight a7
    (-8, -6), // pst knight b7
    (-1, 0), // pst knight c7
    (6, 6), // pst knight d7
    (-22, -18), // pst knight a8
    (-15, -12), // pst knight b8
    (-8, -6), // pst knight c8
    (-1, 0), // pst knight d8
    (-4, -12), // pst bishop a1
    (-6, -8), // pst bishop b1
    (-2, -4), // pst bishop c1
    (2, 0), // pst bishop d1
    (-6, -8), // pst bishop a2
    (4, -4), // pst bishop b2
    (2, 0), // pst bishop c2
    (6, 4), // pst bishop d2
    (-2, -4), // pst bishop a3
    (2, 0), // pst bishop b3
    (12, 4), // pst bishop c3
    (10, 8), // pst bishop d3
    (2, 0), // pst bishop a4
    (6, 4), // pst bishop b4
    (10, 8), // pst bishop c4
    (20, 12), // pst bishop d4
    (2, 0), // pst bishop a5
    (6, 4), // pst bishop b5
    (10, 8), // pst bishop c5
    (20, 12), // pst bishop d5
    (-2, -4), // pst bishop a6
    (2, 0), // pst bishop b6
    (12, 4), // pst bishop c6
    (10, 8), // pst bishop d6
    (-6, -8), // pst bishop a7
    (4, -4), // pst bishop b7
    (2, 0), // pst bishop c7
    (6, 4), // pst bishop d7
    (-4, -12), // pst bishop a8
    (-6, -8), // pst bishop b8
    (-2, -4), // pst bishop c8
    (2, 0), // pst bishop d8
    (0, 0), // pst rook a1
    (0, 0), // pst rook b1
    (3, 0), // pst rook c1
    (6, 0), // pst rook d1
    (0, 0), // pst rook a2
    (0, 0), // pst rook b2
    (3, 0), // pst rook c2
    (6, 0), // pst rook d2
    (0, 0), // pst rook a3
    (0, 0), // pst rook b3
    (3, 0), // pst rook c3
    (6, 0), // pst rook d3
    (0, 0), // pst rook a4
    (0, 0), // pst rook b4
    (3, 0), // pst rook c4
    (6, 0), // pst rook d4
    (0, 0), // pst rook a5
    (0, 0), // pst rook b5
    (3, 0), // pst rook c5
    (6, 0), // pst rook d5
    (0, 0), // pst rook a6
    (0, 0), // pst rook b6
    (3, 0), // pst rook c6
    (6, 0), // pst rook d6
    (15, 12), // pst rook a7
    (15, 12), // pst rook b7
    (18, 12), // pst rook c7
    (21, 12), // pst rook d7
    (0, 0), // pst rook a8
    (0, 0), // pst rook b8
    (3, 0), // pst rook c8
    (6, 0), // pst rook d8
    (-6, -15), // pst queen a1
    (-4, -10), // pst queen b1
    (-2, -5), // pst queen c1
    (0, 0), // pst queen d1
    (-4, -10), // pst queen a2
    (-2, -5), // pst queen b2
    (0, 0), // pst queen c2
    (2, 5), // pst queen d2
    (-2, -5), // pst queen a3
    (0, 0), // pst queen b3
    (2, 5), // pst queen c3
    (4, 10), // pst queen d3
    (0, 0), // pst queen a4
    (2, 5), // pst queen b4
    (4, 10), // pst queen c4
    (6, 15), // pst queen d4
    (0, 0), // pst queen a5
    (2, 5), // pst queen b5
    (4, 10), // pst queen c5
    (6, 15), // pst queen d5
    (-2, -5), // pst queen a6
    (0, 0), // pst queen b6
    (2, 5), // pst queen c6
    (4, 10), // pst queen d6
    (-4, -10), // pst queen a7
    (-2, -5), // pst queen b7
    (0, 0), // pst queen c7
    (2, 5), // pst queen d7
    (-6, -15), // pst queen a8
    (-4, -10), // pst queen b8
    (-2, -5), // pst queen c8
    (0, 0), // pst queen d8
    (15, -30), // pst king a1
    (25, -21), // pst king b1
    (10, -12), // pst king c1
    (-5, -3), // pst king d1
    (5, -21), // pst king a2
    (5, -12), // pst king b2
    (-10, -3), // pst king c2
    (-20, 6), // pst king d2
    (-25, -12), // pst king a3
    (-25, -3), // pst king b3
    (-25, 6), // pst king c3
    (-25, 15), // pst king d3
    (-40, -3), // pst king a4
    (-40, 6), // pst king b4
    (-40, 15), // pst king c4
    (-40, 24), // pst king d4
    (-55, -3), // pst king a5
    (-55, 6), // pst king b5
    (-55, 15), // pst king c5
    (-55, 24), // pst king d5
    (-70, -12), // pst king a6
    (-70, -3), // pst king b6
    (-70, 6), // pst king c6
    (-70, 15), // pst king d6
    (-85, -21), // pst king a7
    (-85, -12), // pst king b7
    (-85, -3), // pst king c7
    (-85, 6), // pst king d7
    (-100, -30), // pst king a8
    (-100, -21), // pst king b8
    (-100, -12), // pst king c8
    (-100, -3), // pst king d8
    (-16, -16), // mobility knight 0
    (-12, -12), // mobility knight 1
    (-8, -8), // mobility knight 2
    (-4, -4), // mobility knight 3
    (0, 0), // mobility knight 4
    (4, 4), // mobility knight 5
    (8, 8), // mobility knight 6
    (12, 12), // mobility knight 7
    (16, 16), // mobility knight 8
    (-30, -30), // mobility bishop 0
    (-25, -25), // mobility bishop 1
    (-20, -20), // mobility bishop 2
    (-15, -15), // mobility bishop 3
    (-10, -10), // mobility bishop 4
    (-5, -5), // mobility bishop 5
    (0, 0), // mobility bishop 6
    (5, 5), // mobility bishop 7
    (10, 10), // mobility bishop 8
    (15, 15), // mobility bishop 9
    (20, 20), // mobility bishop 10
    (25, 25), // mobility bishop 11
    (30, 30), // mobility bishop 12
    (35, 35), // mobility bishop 13
    (-14, -28), // mobility rook 0
    (-12, -24), // mobility rook 1
    (-10, -20), // mobility rook 2
    (-8, -16), // mobility rook 3
    (-6, -12), // mobility rook 4
    (-4, -8), // mobility rook 5
    (-2, -4), // mobility rook 6
    (0, 0), // mobility rook 7
    (2, 4), // mobility rook 8
    (4, 8), // mobility rook 9
    (6, 12), // mobility rook 10
    (8, 16), // mobility rook 11
    (10, 20), // mobility rook 12
    (12, 24), // mobility rook 13
    (14, 28), // mobility rook 14
    (-13, -26), // mobility queen 0
    (-12, -24), // mobility queen 1
    (-11, -22), // mobility queen 2
    (-10, -20), // mobility queen 3
    (-9, -18), // mobility queen 4
    (-8, -16), // mobility queen 5
    (-7, -14), // mobility queen 6
    (-6, -12), // mobility queen 7
    (-5, -10), // mobility queen 8
    (-4, -8), // mobility queen 9
    (-3, -6), // mobility queen 10
    (-2, -4), // mobility queen 11
    (-1, -2), // mobility queen 12
    (0, 0), // mobility queen 13
    (1, 2), // mobility queen 14
    (2, 4), // mobility queen 15
    (3, 6), // mobility queen 16
    (4, 8), // mobility queen 17
    (5, 10), // mobility queen 18
    (6, 12), // mobility queen 19
    (7, 14), // mobility queen 20
    (8, 16), // mobility queen 21
    (9, 18), // mobility queen 22
    (10, 20), // mobility queen 23
    (11, 22), // mobility queen 24
    (12, 24), // mobility queen 25
    (13, 26), // mobility queen 26
    (14, 28), // mobility queen 27
    (0, 0), // passed rank 1
    (5, 10), // passed rank 2
    (8, 15), // passed rank 3
    (14, 25), // passed rank 4
    (28, 45), // passed rank 5
    (50, 80), // passed rank 6
    (80, 125), // passed rank 7
    (0, 0), // passed rank 8
    (0, 0), // passed king theirs rank 1
    (0, 0), // passed king theirs rank 2
    (0, 0), // passed king theirs rank 3
    (0, 5), // passed king theirs rank 4
    (0, 10), // passed king theirs rank 5
    (0, 15), // passed king theirs rank 6
    (0, 20), // passed king theirs rank 7
    (0, 0), // passed king theirs rank 8
    (0, 0), // passed king ours rank 1
    (0, 0), // passed king ours rank 2
    (0, 0), // passed king ours rank 3
    (0, 2), // passed king ours rank 4
    (0, 5), // passed king ours rank 5
    (0, 7), // passed king ours rank 6
    (0, 10), // passed king ours rank 7
    (0, 0), // passed king ours rank 8
    (0, 0), // passed free rank 1
    (0, 0), // passed free rank 2
    (0, 0), // passed free rank 3
    (0, 6), // passed free rank 4
    (0, 11), // passed free rank 5
    (0, 20), // passed free rank 6
    (0, 31), // passed free rank 7
    (0, 0), // passed free rank 8
    (10, 20), // doubled
    (12, 14), // isolated
    (30, 50), // bishop pair
    (22, 8), // rook open
    (10, 5), // rook semi-open
    (12, 0), // shield missing
    (12, 0), // shield open
    (55, 35), // threat by pawn
    (40, 30), // threat by minor
    (40, 20), // threat by rook
    (25, 15), // hanging
    (0, 0), // outpost pawn
    (30, 15), // outpost knight
    (15, 5), // outpost bishop
    (0, 0), // outpost rook
    (0, 0), // outpost queen
    (0, 0), // outpost king
    (0, 0), // safe check pawn
    (45, 0), // safe check knight
    (30, 0), // safe check bishop
    (50, 0), // safe check rook
    (40, 0), // safe check queen
    (0, 0), // safe check king
];

/// The name of parameter `i`, as `cellmate tune --eval` writes it.
pub fn name(i: usize) -> String {
    const TYPE: [&str; TYPES] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    let in_range = |start: usize, len: usize| (start..start + len).contains(&i);
    if in_range(MATERIAL, TYPES) {
        format!("material {}", TYPE[i - MATERIAL])
    } else if in_range(PST, TYPES * HALF) {
        let (t, sq) = ((i - PST) / HALF, (i - PST) % HALF);
        let square = format!("{}{}", (b'a' + (sq % 4) as u8) as char, sq / 4 + 1);
        format!("pst {} {square}", TYPE[t])
    } else if in_range(MOBILITY, MOB_TOTAL) {
        let j = i - MOBILITY;
        let t = (1..TYPES).rev().find(|&t| MOB_START[t] <= j).unwrap_or(0);
        format!("mobility {} {}", TYPE[t], j - MOB_START[t])
    } else if in_range(PASSED, 32) {
        let what = [
            "passed",
            "passed king theirs",
            "passed king ours",
            "passed free",
        ];
        format!("{} rank {}", what[(i - PASSED) / 8], (i - PASSED) % 8 + 1)
    } else if in_range(OUTPOST, TYPES) {
        format!("outpost {}", TYPE[i - OUTPOST])
    } else if in_range(SAFE_CHECK, TYPES) {
        format!("safe check {}", TYPE[i - SAFE_CHECK])
    } else {
        const SINGLES: [&str; 11] = [
            "doubled",
            "isolated",
            "bishop pair",
            "rook open",
            "rook semi-open",
            "shield missing",
            "shield open",
            "threat by pawn",
            "threat by minor",
            "threat by rook",
            "hanging",
        ];
        SINGLES.get(i - DOUBLED).unwrap_or(&"?").to_string()
    }
}
