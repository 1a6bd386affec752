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
/// The number of pairs.
pub const COUNT: usize = KING_DANGER_NO_QUEEN + DANGER_LEN;

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
    (54, 92), // material pawn
    (317, 306), // material knight
    (345, 316), // material bishop
    (474, 542), // material rook
    (1008, 971), // material queen
    (0, 0), // material king
    (0, 0), // pst pawn a1
    (0, 0), // pst pawn b1
    (0, 0), // pst pawn c1
    (0, 0), // pst pawn d1
    (3, 6), // pst pawn a2
    (6, 6), // pst pawn b2
    (11, 8), // pst pawn c2
    (-1, 8), // pst pawn d2
    (10, 13), // pst pawn a3
    (4, 10), // pst pawn b3
    (15, 22), // pst pawn c3
    (5, 7), // pst pawn d3
    (5, 21), // pst pawn a4
    (13, 15), // pst pawn b4
    (22, 15), // pst pawn c4
    (11, 11), // pst pawn d4
    (3, 33), // pst pawn a5
    (7, 15), // pst pawn b5
    (21, 6), // pst pawn c5
    (21, 10), // pst pawn d5
    (7, 34), // pst pawn a6
    (11, 32), // pst pawn b6
    (25, 14), // pst pawn c6
    (20, 24), // pst pawn d6
    (24, 44), // pst pawn a7
    (22, 44), // pst pawn b7
    (30, 28), // pst pawn c7
    (35, 42), // pst pawn d7
    (0, 0), // pst pawn a8
    (0, 0), // pst pawn b8
    (0, 0), // pst pawn c8
    (0, 0), // pst pawn d8
    (-22, -20), // pst knight a1
    (-25, -18), // pst knight b1
    (-17, -12), // pst knight c1
    (8, 0), // pst knight d1
    (-23, -12), // pst knight a2
    (-9, -1), // pst knight b2
    (-8, 8), // pst knight c2
    (2, 2), // pst knight d2
    (-3, -9), // pst knight a3
    (8, 1), // pst knight b3
    (3, 1), // pst knight c3
    (17, 8), // pst knight d3
    (-2, 1), // pst knight a4
    (9, 2), // pst knight b4
    (19, 13), // pst knight c4
    (13, 10), // pst knight d4
    (-2, -1), // pst knight a5
    (24, 9), // pst knight b5
    (15, 20), // pst knight c5
    (22, 25), // pst knight d5
    (-6, -6), // pst knight a6
    (12, 4), // pst knight b6
    (17, 4), // pst knight c6
    (18, 15), // pst knight d6
    (-12, -11), // pst knight a7
    (-6, -3), // pst knight b7
    (2, 3), // pst knight c7
    (7, 7), // pst knight d7
    (-25, -19), // pst knight a8
    (-15, -12), // pst knight b8
    (-7, -4), // pst knight c8
    (-1, 1), // pst knight d8
    (-4, -16), // pst bishop a1
    (-7, -11), // pst bishop b1
    (-5, -5), // pst bishop c1
    (2, 4), // pst bishop d1
    (-10, -6), // pst bishop a2
    (10, -19), // pst bishop b2
    (5, -2), // pst bishop c2
    (6, 2), // pst bishop d2
    (3, 8), // pst bishop a3
    (7, 3), // pst bishop b3
    (21, 12), // pst bishop c3
    (7, 11), // pst bishop d3
    (1, -5), // pst bishop a4
    (3, 8), // pst bishop b4
    (13, 19), // pst bishop c4
    (21, 10), // pst bishop d4
    (-11, 0), // pst bishop a5
    (18, 0), // pst bishop b5
    (7, 0), // pst bishop c5
    (13, 15), // pst bishop d5
    (6, -1), // pst bishop a6
    (4, 2), // pst bishop b6
    (16, 6), // pst bishop c6
    (12, -2), // pst bishop d6
    (-8, -10), // pst bishop a7
    (3, -8), // pst bishop b7
    (2, 8), // pst bishop c7
    (1, -1), // pst bishop d7
    (-4, -10), // pst bishop a8
    (-6, -5), // pst bishop b8
    (-3, -7), // pst bishop c8
    (1, 0), // pst bishop d8
    (-3, 1), // pst rook a1
    (1, -6), // pst rook b1
    (14, -3), // pst rook c1
    (12, 2), // pst rook d1
    (-16, -7), // pst rook a2
    (-4, 0), // pst rook b2
    (-3, -11), // pst rook c2
    (-4, -8), // pst rook d2
    (-5, -4), // pst rook a3
    (2, -2), // pst rook b3
    (0, -5), // pst rook c3
    (-8, -10), // pst rook d3
    (-15, -4), // pst rook a4
    (4, 7), // pst rook b4
    (-2, -1), // pst rook c4
    (6, -2), // pst rook d4
    (0, 9), // pst rook a5
    (6, 4), // pst rook b5
    (9, 0), // pst rook c5
    (17, 4), // pst rook d5
    (5, 8), // pst rook a6
    (9, 13), // pst rook b6
    (3, -2), // pst rook c6
    (14, 6), // pst rook d6
    (13, 19), // pst rook a7
    (17, 11), // pst rook b7
    (20, 14), // pst rook c7
    (25, 14), // pst rook d7
    (5, 5), // pst rook a8
    (3, 10), // pst rook b8
    (7, 5), // pst rook c8
    (6, 1), // pst rook d8
    (-7, -16), // pst queen a1
    (3, -9), // pst queen b1
    (1, -7), // pst queen c1
    (-9, -6), // pst queen d1
    (-13, -11), // pst queen a2
    (-14, -7), // pst queen b2
    (-2, -9), // pst queen c2
    (6, 2), // pst queen d2
    (1, -4), // pst queen a3
    (2, 7), // pst queen b3
    (16, 5), // pst queen c3
    (-3, 13), // pst queen d3
    (-5, -3), // pst queen a4
    (2, 9), // pst queen b4
    (11, 12), // pst queen c4
    (12, 16), // pst queen d4
    (3, -2), // pst queen a5
    (-4, 4), // pst queen b5
    (3, 10), // pst queen c5
    (15, 19), // pst queen d5
    (-7, -5), // pst queen a6
    (2, 3), // pst queen b6
    (4, 7), // pst queen c6
    (5, 14), // pst queen d6
    (-2, -9), // pst queen a7
    (-4, -4), // pst queen b7
    (0, 1), // pst queen c7
    (1, 7), // pst queen d7
    (-7, -16), // pst queen a8
    (-4, -8), // pst queen b8
    (-1, -4), // pst queen c8
    (2, 1), // pst queen d8
    (6, -39), // pst king a1
    (25, -32), // pst king b1
    (-5, -9), // pst king c1
    (3, -5), // pst king d1
    (-10, -37), // pst king a2
    (0, -14), // pst king b2
    (3, -1), // pst king c2
    (-13, -3), // pst king d2
    (-16, -2), // pst king a3
    (-24, 3), // pst king b3
    (-28, -4), // pst king c3
    (-26, 9), // pst king d3
    (-40, -1), // pst king a4
    (-42, 5), // pst king b4
    (-38, 11), // pst king c4
    (-41, 21), // pst king d4
    (-54, 4), // pst king a5
    (-53, 11), // pst king b5
    (-54, 22), // pst king c5
    (-54, 23), // pst king d5
    (-69, -7), // pst king a6
    (-69, 7), // pst king b6
    (-69, 13), // pst king c6
    (-70, 13), // pst king d6
    (-85, -21), // pst king a7
    (-83, -5), // pst king b7
    (-84, -1), // pst king c7
    (-85, 6), // pst king d7
    (-100, -29), // pst king a8
    (-100, -20), // pst king b8
    (-100, -12), // pst king c8
    (-100, -3), // pst king d8
    (-30, -17), // mobility knight 0
    (-17, -25), // mobility knight 1
    (-8, -13), // mobility knight 2
    (-5, -3), // mobility knight 3
    (-1, 3), // mobility knight 4
    (6, 17), // mobility knight 5
    (15, 20), // mobility knight 6
    (18, 15), // mobility knight 7
    (15, 8), // mobility knight 8
    (-40, -29), // mobility bishop 0
    (-24, -32), // mobility bishop 1
    (-17, -29), // mobility bishop 2
    (-10, -18), // mobility bishop 3
    (-2, -9), // mobility bishop 4
    (-1, -2), // mobility bishop 5
    (2, 2), // mobility bishop 6
    (1, 6), // mobility bishop 7
    (14, 11), // mobility bishop 8
    (9, 20), // mobility bishop 9
    (19, 20), // mobility bishop 10
    (28, 28), // mobility bishop 11
    (31, 32), // mobility bishop 12
    (36, 37), // mobility bishop 13
    (-26, -35), // mobility rook 0
    (-19, -26), // mobility rook 1
    (-9, -27), // mobility rook 2
    (-10, -18), // mobility rook 3
    (-3, -17), // mobility rook 4
    (-9, -4), // mobility rook 5
    (-9, 2), // mobility rook 6
    (-1, 9), // mobility rook 7
    (-2, 4), // mobility rook 8
    (14, 15), // mobility rook 9
    (13, 18), // mobility rook 10
    (15, 21), // mobility rook 11
    (17, 25), // mobility rook 12
    (16, 28), // mobility rook 13
    (15, 26), // mobility rook 14
    (-14, -26), // mobility queen 0
    (-13, -24), // mobility queen 1
    (-10, -21), // mobility queen 2
    (-15, -22), // mobility queen 3
    (-13, -21), // mobility queen 4
    (-13, -19), // mobility queen 5
    (-10, -16), // mobility queen 6
    (-6, -14), // mobility queen 7
    (-7, -9), // mobility queen 8
    (-7, -8), // mobility queen 9
    (2, -5), // mobility queen 10
    (4, -4), // mobility queen 11
    (3, 2), // mobility queen 12
    (2, 1), // mobility queen 13
    (5, 6), // mobility queen 14
    (6, 9), // mobility queen 15
    (5, 7), // mobility queen 16
    (7, 11), // mobility queen 17
    (5, 10), // mobility queen 18
    (7, 13), // mobility queen 19
    (7, 14), // mobility queen 20
    (8, 17), // mobility queen 21
    (10, 18), // mobility queen 22
    (10, 19), // mobility queen 23
    (11, 21), // mobility queen 24
    (12, 24), // mobility queen 25
    (13, 26), // mobility queen 26
    (14, 28), // mobility queen 27
    (0, 0), // passed rank 1
    (7, 12), // passed rank 2
    (8, 17), // passed rank 3
    (5, 22), // passed rank 4
    (25, 40), // passed rank 5
    (50, 67), // passed rank 6
    (81, 122), // passed rank 7
    (0, 0), // passed rank 8
    (0, 0), // passed king theirs rank 1
    (-1, -2), // passed king theirs rank 2
    (-1, 3), // passed king theirs rank 3
    (-3, 16), // passed king theirs rank 4
    (-2, 22), // passed king theirs rank 5
    (-7, 33), // passed king theirs rank 6
    (6, 32), // passed king theirs rank 7
    (0, 0), // passed king theirs rank 8
    (0, 0), // passed king ours rank 1
    (-2, -10), // passed king ours rank 2
    (-4, 1), // passed king ours rank 3
    (-4, 6), // passed king ours rank 4
    (-1, 13), // passed king ours rank 5
    (-1, 14), // passed king ours rank 6
    (-3, 20), // passed king ours rank 7
    (0, 0), // passed king ours rank 8
    (0, 0), // passed free rank 1
    (0, -2), // passed free rank 2
    (1, -1), // passed free rank 3
    (-2, -2), // passed free rank 4
    (-2, 13), // passed free rank 5
    (3, 21), // passed free rank 6
    (2, 38), // passed free rank 7
    (0, 0), // passed free rank 8
    (-4, 20), // doubled
    (13, 7), // isolated
    (29, 52), // bishop pair
    (32, 12), // rook open
    (28, 5), // rook semi-open
    (7, -1), // shield missing
    (11, -2), // shield open
    (45, 31), // threat by pawn
    (36, 27), // threat by minor
    (42, 21), // threat by rook
    (10, 28), // hanging
    (0, 0), // outpost pawn
    (36, 24), // outpost knight
    (17, 16), // outpost bishop
    (0, 0), // outpost rook
    (0, 0), // outpost queen
    (0, 0), // outpost king
    (0, 0), // safe check pawn
    (46, -3), // safe check knight
    (22, 8), // safe check bishop
    (49, 3), // safe check rook
    (34, 13), // safe check queen
    (0, 0), // safe check king
    (0, 0), // king danger 0
    (0, 0), // king danger 1
    (1, 0), // king danger 2
    (2, 0), // king danger 3
    (4, 0), // king danger 4
    (6, 0), // king danger 5
    (9, 0), // king danger 6
    (12, 0), // king danger 7
    (16, 0), // king danger 8
    (20, 0), // king danger 9
    (25, 0), // king danger 10
    (30, 0), // king danger 11
    (36, 0), // king danger 12
    (42, 0), // king danger 13
    (49, 0), // king danger 14
    (56, 0), // king danger 15
    (64, 0), // king danger 16
    (72, 0), // king danger 17
    (81, 0), // king danger 18
    (90, 0), // king danger 19
    (100, 0), // king danger 20
    (110, 0), // king danger 21
    (121, 0), // king danger 22
    (132, 0), // king danger 23
    (144, 0), // king danger 24
    (156, 0), // king danger 25
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
    (1, 0), // king danger no queen 4
    (2, 0), // king danger no queen 5
    (3, 0), // king danger no queen 6
    (4, 0), // king danger no queen 7
    (5, 0), // king danger no queen 8
    (6, 0), // king danger no queen 9
    (8, 0), // king danger no queen 10
    (10, 0), // king danger no queen 11
    (12, 0), // king danger no queen 12
    (14, 0), // king danger no queen 13
    (16, 0), // king danger no queen 14
    (18, 0), // king danger no queen 15
    (21, 0), // king danger no queen 16
    (24, 0), // king danger no queen 17
    (27, 0), // king danger no queen 18
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
