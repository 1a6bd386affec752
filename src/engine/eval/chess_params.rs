//! The chess evaluation's parameters: one flat table of (middlegame, endgame) pairs, a value
//! the engine holds ([`super::EvalParams`]'s `chess`), laid out by the index constants below.
//! Every term of `chess.rs` but the mop-up and the pawnless scaling is a count times one of
//! these pairs (king danger too: one entry per attack weight), so the evaluation is linear in
//! them and `cellmate tune --eval` ([`crate::texel`]) fits them all to game results (the Texel
//! method).
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
/// Entries of each king-danger table: attack weights 0 to `DANGER_LEN - 1`, higher weights
/// counted as the last.
pub const DANGER_LEN: usize = 50;
/// King danger: at least two pieces attack the zone around the enemy king, by the weight of
/// their attacks (`chess.rs`, `ATTACK_WEIGHT` per square hit), clamped to `DANGER_LEN - 1`.
pub const KING_DANGER: usize = SAFE_CHECK + TYPES;
/// The same when the attacking side has no queen.
pub const KING_DANGER_NO_QUEEN: usize = KING_DANGER + DANGER_LEN;
/// A connected pawn (defended by an own pawn or with an own pawn beside it on its rank), by
/// its rank from its own side.
pub const CONNECTED: usize = KING_DANGER_NO_QUEEN + DANGER_LEN;
/// A backward pawn: no own pawn on the neighbouring files level with it or behind, and its
/// stop square attacked by an enemy pawn (subtracted).
pub const BACKWARD: usize = CONNECTED + 8;
/// The number of pairs.
pub const COUNT: usize = BACKWARD + 1;

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
    /// A fingerprint of the values of the terms that depend on the pawns alone
    /// ([`PAWN_ONLY`]): the evaluation's cache of
    /// pawn structures keys its entries by it, so parameters with other values never read
    /// another's entries.
    pub pawn_id: u64,
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
        ChessParams {
            v,
            piece,
            mobility,
            pawn_id: pawn_fingerprint(&v),
        }
    }
}

/// The parameters decided by the pawns alone, as `(first, count)` in index order: passed
/// pawns by rank, doubled, isolated, connected by rank, backward. The chess evaluation's pawn
/// terms add these and no others; [`ChessParams::pawn_id`] fingerprints their values.
pub const PAWN_ONLY: [(usize, usize); 5] = [
    (PASSED, 8),
    (DOUBLED, 1),
    (ISOLATED, 1),
    (CONNECTED, 8),
    (BACKWARD, 1),
];

/// The fingerprint of [`ChessParams::pawn_id`]: FNV-1a over the values of [`PAWN_ONLY`],
/// never 0.
const fn pawn_fingerprint(v: &[(i32, i32); COUNT]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut r = 0;
    while r < PAWN_ONLY.len() {
        let (first, count) = PAWN_ONLY[r];
        let mut i = first;
        while i < first + count {
            let (mg, eg) = v[i];
            h = (h ^ (mg as u32 as u64)).wrapping_mul(0x0100_0000_01b3);
            h = (h ^ (eg as u32 as u64)).wrapping_mul(0x0100_0000_01b3);
            i += 1;
        }
        r += 1;
    }
    h | 1
}

/// The values the engine plays with, one row per parameter (written by
/// `cellmate tune --eval --rust`).
#[rustfmt::skip]
const DEFAULT: [(i32, i32); COUNT] = [
    (47, 82), // material pawn
    (319, 306), // material knight
    (349, 320), // material bishop
    (469, 554), // material rook
    (1015, 979), // material queen
    (0, 0), // material king
    (0, 0), // pst pawn a1
    (0, 0), // pst pawn b1
    (0, 0), // pst pawn c1
    (0, 0), // pst pawn d1
    (5, 14), // pst pawn a2
    (14, 10), // pst pawn b2
    (18, 18), // pst pawn c2
    (9, 14), // pst pawn d2
    (5, 16), // pst pawn a3
    (-2, 19), // pst pawn b3
    (13, 20), // pst pawn c3
    (7, 11), // pst pawn d3
    (8, 21), // pst pawn a4
    (10, 10), // pst pawn b4
    (25, 9), // pst pawn c4
    (13, 5), // pst pawn d4
    (3, 30), // pst pawn a5
    (2, 6), // pst pawn b5
    (11, 4), // pst pawn c5
    (17, 3), // pst pawn d5
    (5, 39), // pst pawn a6
    (8, 25), // pst pawn b6
    (22, 9), // pst pawn c6
    (18, 20), // pst pawn d6
    (26, 45), // pst pawn a7
    (22, 43), // pst pawn b7
    (27, 23), // pst pawn c7
    (36, 43), // pst pawn d7
    (0, 0), // pst pawn a8
    (0, 0), // pst pawn b8
    (0, 0), // pst pawn c8
    (0, 0), // pst pawn d8
    (-22, -21), // pst knight a1
    (-23, -21), // pst knight b1
    (-21, -14), // pst knight c1
    (12, 0), // pst knight d1
    (-26, -11), // pst knight a2
    (-5, 4), // pst knight b2
    (-9, 12), // pst knight c2
    (6, -6), // pst knight d2
    (-9, -7), // pst knight a3
    (16, 1), // pst knight b3
    (4, -5), // pst knight c3
    (16, 2), // pst knight d3
    (-4, 2), // pst knight a4
    (6, -1), // pst knight b4
    (20, 15), // pst knight c4
    (16, 13), // pst knight d4
    (-2, -3), // pst knight a5
    (20, 8), // pst knight b5
    (12, 20), // pst knight c5
    (15, 28), // pst knight d5
    (-4, -5), // pst knight a6
    (11, 3), // pst knight b6
    (22, 4), // pst knight c6
    (19, 19), // pst knight d6
    (-10, -8), // pst knight a7
    (-7, -1), // pst knight b7
    (3, 4), // pst knight c7
    (7, 8), // pst knight d7
    (-26, -20), // pst knight a8
    (-15, -13), // pst knight b8
    (-6, -2), // pst knight c8
    (-1, 1), // pst knight d8
    (-1, -17), // pst bishop a1
    (-3, -12), // pst bishop b1
    (-9, -5), // pst bishop c1
    (-3, 6), // pst bishop d1
    (-12, -5), // pst bishop a2
    (17, -21), // pst bishop b2
    (6, -4), // pst bishop c2
    (5, 2), // pst bishop d2
    (0, 10), // pst bishop a3
    (13, 5), // pst bishop b3
    (19, 13), // pst bishop c3
    (5, 12), // pst bishop d3
    (4, -6), // pst bishop a4
    (1, 7), // pst bishop b4
    (9, 18), // pst bishop c4
    (21, 8), // pst bishop d4
    (-18, 0), // pst bishop a5
    (19, 0), // pst bishop b5
    (9, -4), // pst bishop c5
    (12, 18), // pst bishop d5
    (7, -2), // pst bishop a6
    (7, 3), // pst bishop b6
    (21, 4), // pst bishop c6
    (14, -2), // pst bishop d6
    (-7, -10), // pst bishop a7
    (3, -8), // pst bishop b7
    (0, 13), // pst bishop c7
    (-2, -3), // pst bishop d7
    (-4, -9), // pst bishop a8
    (-5, -2), // pst bishop b8
    (-3, -9), // pst bishop c8
    (1, 2), // pst bishop d8
    (-4, -2), // pst rook a1
    (0, -11), // pst rook b1
    (12, -6), // pst rook c1
    (13, -6), // pst rook d1
    (-22, -10), // pst rook a2
    (-10, -3), // pst rook b2
    (-7, -13), // pst rook c2
    (-9, -15), // pst rook d2
    (-10, -7), // pst rook a3
    (-3, -4), // pst rook b3
    (0, -3), // pst rook c3
    (-12, -13), // pst rook d3
    (-20, -5), // pst rook a4
    (2, 13), // pst rook b4
    (-3, 2), // pst rook c4
    (3, -3), // pst rook d4
    (-2, 13), // pst rook a5
    (12, 6), // pst rook b5
    (15, 2), // pst rook c5
    (20, 4), // pst rook d5
    (10, 15), // pst rook a6
    (15, 19), // pst rook b6
    (5, 1), // pst rook c6
    (20, 8), // pst rook d6
    (12, 20), // pst rook a7
    (18, 12), // pst rook b7
    (22, 17), // pst rook c7
    (27, 14), // pst rook d7
    (8, 9), // pst rook a8
    (5, 13), // pst rook b8
    (10, 9), // pst rook c8
    (6, 2), // pst rook d8
    (-8, -17), // pst queen a1
    (4, -10), // pst queen b1
    (1, -10), // pst queen c1
    (-7, -9), // pst queen d1
    (-14, -12), // pst queen a2
    (-17, -7), // pst queen b2
    (-1, -16), // pst queen c2
    (4, -3), // pst queen d2
    (-2, -4), // pst queen a3
    (2, 10), // pst queen b3
    (14, 3), // pst queen c3
    (-9, 15), // pst queen d3
    (-6, -3), // pst queen a4
    (4, 12), // pst queen b4
    (12, 14), // pst queen c4
    (10, 16), // pst queen d4
    (5, -4), // pst queen a5
    (-4, 4), // pst queen b5
    (4, 11), // pst queen c5
    (19, 22), // pst queen d5
    (-4, -4), // pst queen a6
    (2, 4), // pst queen b6
    (6, 8), // pst queen c6
    (7, 17), // pst queen d6
    (1, -8), // pst queen a7
    (-5, -3), // pst queen b7
    (1, 2), // pst queen c7
    (2, 9), // pst queen d7
    (-8, -16), // pst queen a8
    (-4, -7), // pst queen b8
    (0, -2), // pst queen c8
    (3, 1), // pst queen d8
    (-2, -44), // pst king a1
    (26, -35), // pst king b1
    (-13, -11), // pst king c1
    (3, -15), // pst king d1
    (-13, -40), // pst king a2
    (-4, -12), // pst king b2
    (8, -5), // pst king c2
    (-9, -6), // pst king d2
    (-11, -5), // pst king a3
    (-24, 1), // pst king b3
    (-30, -5), // pst king c3
    (-28, 4), // pst king d3
    (-39, 0), // pst king a4
    (-43, 4), // pst king b4
    (-37, 10), // pst king c4
    (-41, 20), // pst king d4
    (-54, 8), // pst king a5
    (-51, 16), // pst king b5
    (-54, 25), // pst king c5
    (-53, 24), // pst king d5
    (-68, -2), // pst king a6
    (-68, 15), // pst king b6
    (-68, 18), // pst king c6
    (-70, 13), // pst king d6
    (-85, -19), // pst king a7
    (-82, 0), // pst king b7
    (-83, 3), // pst king c7
    (-85, 7), // pst king d7
    (-100, -30), // pst king a8
    (-100, -18), // pst king b8
    (-100, -12), // pst king c8
    (-100, -4), // pst king d8
    (-34, -18), // mobility knight 0
    (-16, -29), // mobility knight 1
    (-8, -13), // mobility knight 2
    (-2, -1), // mobility knight 3
    (3, 4), // mobility knight 4
    (7, 19), // mobility knight 5
    (13, 22), // mobility knight 6
    (17, 13), // mobility knight 7
    (16, 7), // mobility knight 8
    (-44, -30), // mobility bishop 0
    (-27, -33), // mobility bishop 1
    (-15, -33), // mobility bishop 2
    (-9, -17), // mobility bishop 3
    (1, -10), // mobility bishop 4
    (1, -3), // mobility bishop 5
    (4, 2), // mobility bishop 6
    (1, 9), // mobility bishop 7
    (13, 15), // mobility bishop 8
    (8, 22), // mobility bishop 9
    (17, 19), // mobility bishop 10
    (29, 29), // mobility bishop 11
    (32, 33), // mobility bishop 12
    (37, 38), // mobility bishop 13
    (-27, -38), // mobility rook 0
    (-17, -27), // mobility rook 1
    (-11, -29), // mobility rook 2
    (-12, -20), // mobility rook 3
    (-6, -17), // mobility rook 4
    (-10, -3), // mobility rook 5
    (-11, 6), // mobility rook 6
    (-3, 10), // mobility rook 7
    (-3, 7), // mobility rook 8
    (14, 15), // mobility rook 9
    (13, 20), // mobility rook 10
    (14, 24), // mobility rook 11
    (21, 29), // mobility rook 12
    (20, 30), // mobility rook 13
    (16, 25), // mobility rook 14
    (-15, -26), // mobility queen 0
    (-12, -24), // mobility queen 1
    (-12, -21), // mobility queen 2
    (-18, -24), // mobility queen 3
    (-17, -22), // mobility queen 4
    (-14, -19), // mobility queen 5
    (-10, -16), // mobility queen 6
    (-7, -16), // mobility queen 7
    (-4, -7), // mobility queen 8
    (-4, -7), // mobility queen 9
    (4, -4), // mobility queen 10
    (7, -4), // mobility queen 11
    (2, 4), // mobility queen 12
    (3, 2), // mobility queen 13
    (8, 8), // mobility queen 14
    (9, 13), // mobility queen 15
    (7, 9), // mobility queen 16
    (8, 12), // mobility queen 17
    (6, 11), // mobility queen 18
    (7, 12), // mobility queen 19
    (7, 13), // mobility queen 20
    (8, 18), // mobility queen 21
    (10, 18), // mobility queen 22
    (10, 19), // mobility queen 23
    (11, 20), // mobility queen 24
    (12, 24), // mobility queen 25
    (13, 26), // mobility queen 26
    (14, 28), // mobility queen 27
    (0, 0), // passed rank 1
    (7, 10), // passed rank 2
    (6, 19), // passed rank 3
    (0, 24), // passed rank 4
    (26, 38), // passed rank 5
    (51, 61), // passed rank 6
    (81, 118), // passed rank 7
    (0, 0), // passed rank 8
    (0, 0), // passed king theirs rank 1
    (-5, 0), // passed king theirs rank 2
    (0, 2), // passed king theirs rank 3
    (-5, 16), // passed king theirs rank 4
    (-5, 24), // passed king theirs rank 5
    (-9, 34), // passed king theirs rank 6
    (8, 34), // passed king theirs rank 7
    (0, 0), // passed king theirs rank 8
    (0, 0), // passed king ours rank 1
    (-4, -6), // passed king ours rank 2
    (-5, 2), // passed king ours rank 3
    (-4, 7), // passed king ours rank 4
    (-4, 14), // passed king ours rank 5
    (-2, 14), // passed king ours rank 6
    (-3, 22), // passed king ours rank 7
    (0, 0), // passed king ours rank 8
    (0, 0), // passed free rank 1
    (0, -5), // passed free rank 2
    (-1, -4), // passed free rank 3
    (-5, -2), // passed free rank 4
    (-3, 18), // passed free rank 5
    (7, 25), // passed free rank 6
    (5, 46), // passed free rank 7
    (0, 0), // passed free rank 8
    (-9, 11), // doubled
    (9, 7), // isolated
    (23, 55), // bishop pair
    (29, 7), // rook open
    (26, 2), // rook semi-open
    (6, -1), // shield missing
    (17, -1), // shield open
    (43, 29), // threat by pawn
    (34, 23), // threat by minor
    (43, 21), // threat by rook
    (6, 31), // hanging
    (0, 0), // outpost pawn
    (34, 25), // outpost knight
    (18, 19), // outpost bishop
    (0, 0), // outpost rook
    (0, 0), // outpost queen
    (0, 0), // outpost king
    (0, 0), // safe check pawn
    (46, -3), // safe check knight
    (16, 16), // safe check bishop
    (47, 1), // safe check rook
    (31, 24), // safe check queen
    (0, 0), // safe check king
    (0, 0), // king danger 0
    (0, 0), // king danger 1
    (1, 0), // king danger 2
    (2, 0), // king danger 3
    (5, 0), // king danger 4
    (10, 1), // king danger 5
    (10, 1), // king danger 6
    (14, 0), // king danger 7
    (16, 1), // king danger 8
    (22, 1), // king danger 9
    (26, 0), // king danger 10
    (30, -1), // king danger 11
    (40, 2), // king danger 12
    (43, 0), // king danger 13
    (50, 1), // king danger 14
    (57, 0), // king danger 15
    (64, 0), // king danger 16
    (73, 1), // king danger 17
    (81, 0), // king danger 18
    (89, 0), // king danger 19
    (100, 0), // king danger 20
    (110, 0), // king danger 21
    (122, 0), // king danger 22
    (132, 0), // king danger 23
    (145, 1), // king danger 24
    (155, 0), // king danger 25
    (169, 0), // king danger 26
    (182, 0), // king danger 27
    (196, 0), // king danger 28
    (210, 0), // king danger 29
    (225, 0), // king danger 30
    (240, 0), // king danger 31
    (256, 0), // king danger 32
    (272, 0), // king danger 33
    (289, 0), // king danger 34
    (306, 0), // king danger 35
    (324, 0), // king danger 36
    (342, 0), // king danger 37
    (361, 0), // king danger 38
    (380, 0), // king danger 39
    (400, 0), // king danger 40
    (420, 0), // king danger 41
    (441, 0), // king danger 42
    (462, 0), // king danger 43
    (484, 0), // king danger 44
    (506, 0), // king danger 45
    (529, 0), // king danger 46
    (552, 0), // king danger 47
    (576, 0), // king danger 48
    (600, 0), // king danger 49
    (0, 0), // king danger no queen 0
    (0, 0), // king danger no queen 1
    (0, 0), // king danger no queen 2
    (0, 0), // king danger no queen 3
    (0, -1), // king danger no queen 4
    (2, 3), // king danger no queen 5
    (2, -3), // king danger no queen 6
    (5, 2), // king danger no queen 7
    (3, -2), // king danger no queen 8
    (7, 1), // king danger no queen 9
    (6, -3), // king danger no queen 10
    (11, 1), // king danger no queen 11
    (14, 3), // king danger no queen 12
    (14, -2), // king danger no queen 13
    (16, 0), // king danger no queen 14
    (18, 1), // king danger no queen 15
    (21, 0), // king danger no queen 16
    (24, -1), // king danger no queen 17
    (27, 1), // king danger no queen 18
    (30, 0), // king danger no queen 19
    (33, 0), // king danger no queen 20
    (36, 0), // king danger no queen 21
    (40, 0), // king danger no queen 22
    (44, 0), // king danger no queen 23
    (48, 0), // king danger no queen 24
    (52, 0), // king danger no queen 25
    (56, 0), // king danger no queen 26
    (60, 0), // king danger no queen 27
    (65, 0), // king danger no queen 28
    (70, 0), // king danger no queen 29
    (75, 0), // king danger no queen 30
    (80, 0), // king danger no queen 31
    (85, 0), // king danger no queen 32
    (90, 0), // king danger no queen 33
    (96, 0), // king danger no queen 34
    (102, 0), // king danger no queen 35
    (108, 0), // king danger no queen 36
    (114, 0), // king danger no queen 37
    (120, 0), // king danger no queen 38
    (126, 0), // king danger no queen 39
    (133, 0), // king danger no queen 40
    (140, 0), // king danger no queen 41
    (147, 0), // king danger no queen 42
    (154, 0), // king danger no queen 43
    (161, 0), // king danger no queen 44
    (168, 0), // king danger no queen 45
    (176, 0), // king danger no queen 46
    (184, 0), // king danger no queen 47
    (192, 0), // king danger no queen 48
    (200, 0), // king danger no queen 49
    (0, 0), // connected rank 1
    (2, 1), // connected rank 2
    (13, 2), // connected rank 3
    (10, 8), // connected rank 4
    (17, 14), // connected rank 5
    (28, 38), // connected rank 6
    (61, 78), // connected rank 7
    (0, 0), // connected rank 8
    (3, 14), // backward
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
    } else if in_range(KING_DANGER, DANGER_LEN) {
        format!("king danger {}", i - KING_DANGER)
    } else if in_range(KING_DANGER_NO_QUEEN, DANGER_LEN) {
        format!("king danger no queen {}", i - KING_DANGER_NO_QUEEN)
    } else if in_range(CONNECTED, 8) {
        format!("connected rank {}", i - CONNECTED + 1)
    } else if i == BACKWARD {
        "backward".to_string()
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
